// The shootout document: assemble it, check it against its own schema (shootout.schema.json) and
// what a schema cannot say, write it atomically. The aggregate reads it with the same checks.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import semver from 'semver';
import { writeFileAtomic } from '../../lib/files.js';
import { ROOT } from '../../lib/root.js';
import { TABLES, caseKey } from '../tables/suite.js';
import { OPS } from '../tables/ops.js';

export const KIND = 'sqlite-node-bench/shootout';
export const SCHEMA_FILE = path.join(ROOT, 'bench', 'shootout', 'shootout.schema.json');
export const SCHEMA = JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8'));
export const SCHEMA_VERSION = SCHEMA.properties.schemaVersion.const;

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const validator = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(
  SCHEMA,
);

/**
 * @param {unknown} doc
 * @returns {string[]} problems, each naming the field; empty when valid
 */
export function validateShootout(doc) {
  if (validator(doc)) return [];
  return (validator.errors ?? []).map(
    (/** @type {any} */ e) =>
      `${e.instancePath || '/'} ${e.message}${e.params?.allowedValues ? ` (${e.params.allowedValues.join(', ')})` : ''}`,
  );
}

const realDate = (/** @type {string} */ s) => {
  const t = Date.parse(s);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 19) === s.slice(0, 19);
};
const finite = (/** @type {unknown} */ x) => x === null || Number.isFinite(x);

/**
 * What the schema cannot express: the labels refer to sides that exist, the reference is one of
 * them, names the tables know, each (comparison, case) once, an interval around its change, a
 * verdict its figures allow, real dates.
 * @param {any} doc a schema-valid document
 * @returns {string[]}
 */
export function shootoutProblems(doc) {
  /** @type {string[]} */
  const problems = [];
  const labels = new Set(doc.sides.map((/** @type {any} */ s) => s.label));
  if (labels.size !== doc.sides.length) problems.push('/sides has a label twice');
  if (!labels.has(doc.reference)) problems.push(`/reference '${doc.reference}' is not a side`);
  doc.sides.forEach((/** @type {any} */ s, /** @type {number} */ i) => {
    if (!semver.valid(s.node)) problems.push(`/sides/${i}/node '${s.node}' is not a semantic version`);
    if (s.status === 'failed' && !s.reason) problems.push(`/sides/${i} failed without a reason`);
  });
  doc.comparisons.forEach((/** @type {any} */ c, /** @type {number} */ i) => {
    for (const f of ['base', 'head'])
      if (!labels.has(c[f])) problems.push(`/comparisons/${i}/${f} '${c[f]}' is not a side`);
    if (c.base === c.head) problems.push(`/comparisons/${i} compares a side with itself`);
  });
  const pairs = new Set(doc.comparisons.map((/** @type {any} */ c) => `${c.group}|${c.base}|${c.head}`));
  const seen = new Set();
  doc.rows.forEach((/** @type {any} */ r, /** @type {number} */ i) => {
    if (!pairs.has(`${r.group}|${r.base}|${r.head}`))
      problems.push(`/rows/${i} belongs to no comparison (${r.group}: ${r.head} against ${r.base})`);
    for (const t of /** @type {const} */ (['config', 'driver', 'cipher', 'op']))
      if (!TABLES[t].includes(r[t])) problems.push(`/rows/${i}/${t} unknown ${t} '${String(r[t]).slice(0, 60)}'`);
    if (OPS.find((o) => o.name === r.op)?.kind !== 'timed' && TABLES.op.includes(r.op))
      problems.push(`/rows/${i}/op '${r.op}' is not timed`);
    if (r.key !== caseKey(r))
      problems.push(`/rows/${i}/key '${String(r.key).slice(0, 60)}' is not its config/driver/cipher/op`);
    const id = `${r.base}|${r.head}|${r.key}`;
    if (seen.has(id)) problems.push(`/rows/${i} repeats ${r.key} for ${r.head} against ${r.base}`);
    seen.add(id);
    for (const f of ['baseOps', 'headOps', 'change', 'low', 'high', 'sd'])
      if (!finite(r[f])) problems.push(`/rows/${i}/${f} is not a finite number`);
    const compared = r.verdict !== 'not compared';
    if (compared && [r.change, r.low, r.high, r.p, r.pAdjusted].some((x) => x === null))
      problems.push(`/rows/${i} has the verdict '${r.verdict}' but no change, interval or p`);
    if (
      compared &&
      r.change !== null &&
      r.low !== null &&
      r.high !== null &&
      !(r.low <= r.change && r.change <= r.high)
    )
      problems.push(`/rows/${i}/change is outside its interval`);
    if (r.verdict === 'faster' && !(r.low > 0))
      problems.push(`/rows/${i} is 'faster' but its interval reaches 0 or below`);
    if (r.verdict === 'slower' && !(r.high < 0))
      problems.push(`/rows/${i} is 'slower' but its interval reaches 0 or above`);
    if (!compared && !r.reason) problems.push(`/rows/${i} is 'not compared' without a reason`);
  });
  doc.figures.forEach((/** @type {any} */ f, /** @type {number} */ i) => {
    if (!labels.has(f.side)) problems.push(`/figures/${i}/side '${f.side}' is not a side`);
  });
  for (const f of /** @type {const} */ (['startedAt', 'finishedAt']))
    if (!realDate(doc.run[f])) problems.push(`/run/${f} '${String(doc.run[f]).slice(0, 40)}' is not a real date`);
  if (Date.parse(doc.run.finishedAt) < Date.parse(doc.run.startedAt))
    problems.push('/run/finishedAt is before /run/startedAt');
  if (!semver.valid(doc.environment.node))
    problems.push(`/environment/node '${String(doc.environment.node).slice(0, 40)}' is not a semantic version`);
  return problems;
}

/**
 * Every problem of a document, schema first (the semantic checks assume a schema-valid one).
 * @param {any} doc
 */
export function shootoutDocumentProblems(doc) {
  const schema = validateShootout(doc);
  return schema.length ? schema : shootoutProblems(doc);
}

/** The machine fields of an engine server's environment the document keeps. */
export function machine(/** @type {any} */ env) {
  const { node, platform, arch, cpuModel, cores, osRelease, memoryBytes, ci } = env;
  return { node, platform, arch, cpuModel, cores, osRelease, memoryBytes, ci };
}

/** A side's driver as the document keeps it. */
export function driverOf(/** @type {any} */ d) {
  /** @type {Record<string, string>} */
  const o = { name: d.name, status: d.status };
  for (const k of ['reason', 'version', 'sqlite', 'sqlite3mc', 'generation'])
    if (typeof d[k] === 'string') o[k] = d[k].slice(0, 1000);
  if (d.binary?.origin) o.origin = d.binary.origin;
  return o;
}

export const newRunId = () => crypto.randomUUID();

/**
 * Write the document atomically to dir, named by date, platform, arch and run id; return the file.
 * Refuses (throws) a document that does not pass its own checks: nothing half-right is written.
 * @param {any} doc
 * @param {string} dir
 */
export function writeShootout(doc, dir) {
  const problems = shootoutDocumentProblems(doc);
  if (problems.length) throw new Error(`the shootout document is not valid: ${problems.slice(0, 3).join('; ')}`);
  const file = path.join(
    dir,
    `shootout-${doc.run.finishedAt.slice(0, 10)}-${doc.environment.platform}-${doc.environment.arch}-${doc.run.id.slice(0, 8)}.json`,
  );
  writeFileAtomic(file, `${JSON.stringify(doc, null, 1)}\n`);
  return file;
}
