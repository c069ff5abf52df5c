// The shootout document: assemble it, check it against its own schema (shootout.schema.json) and
// what a schema cannot say, write it atomically. The aggregate reads it with the same checks.
import crypto from 'node:crypto';
import path from 'node:path';
import semver from 'semver';
import { writeFileAtomic } from '../../lib/files.js';
import { ROOT } from '../../lib/root.js';
import { loadSchema, runProblems } from '../../lib/schema.js';
import { TABLES, caseKey, parseCaseKey } from '../tables/suite.js';
import { OPS } from '../tables/ops.js';

export const KIND = 'sqlite-node-bench/shootout';
export const SCHEMA_FILE = path.join(ROOT, 'bench', 'shootout', 'shootout.schema.json');
const schema = loadSchema(SCHEMA_FILE);
export const SCHEMA = schema.schema;
/** The schema's one version: the version written and the only one read. */
export const SCHEMA_VERSION = /** @type {number} */ (SCHEMA.properties.schemaVersion.enum[0]);

/** A document's problems against the schema, each naming the field; empty when valid. */
export const validateShootout = schema.validate;

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
  problems.push(...countingProblems(doc, labels, pairs));
  problems.push(...runProblems(doc, (v) => String(v).slice(0, 40)));
  return problems;
}

/**
 * The counts' labels refer to sides, their keys to cases the tables know, each once; a difference
 * to a comparison, and to two counted cases.
 * @param {any} doc a schema-valid document
 * @param {Set<string>} labels
 * @param {Set<string>} pairs group|base|head of every comparison
 * @returns {string[]}
 */
function countingProblems(doc, labels, pairs) {
  const c = doc.counting;
  if (!c) return [];
  /** @type {string[]} */
  const problems = [];
  if (c.status !== 'ok' && !c.reason) problems.push(`/counting is '${c.status}' without a reason`);
  (c.sides ?? []).forEach((/** @type {any} */ s, /** @type {number} */ i) => {
    if (!labels.has(s.side)) problems.push(`/counting/sides/${i}/side '${s.side}' is not a side`);
    if (s.status !== 'ok' && !s.reason) problems.push(`/counting/sides/${i} failed without a reason`);
  });
  const known = (/** @type {string} */ key) => {
    const k = parseCaseKey(key);
    return key === caseKey(k) && TABLES.op.includes(k.op) && TABLES.driver.includes(k.driver);
  };
  const counted = new Set();
  (c.cases ?? []).forEach((/** @type {any} */ x, /** @type {number} */ i) => {
    if (!labels.has(x.side)) problems.push(`/counting/cases/${i}/side '${x.side}' is not a side`);
    if (!known(x.key)) problems.push(`/counting/cases/${i}/key '${String(x.key).slice(0, 60)}' is not a case`);
    if (counted.has(`${x.side}|${x.key}`)) problems.push(`/counting/cases/${i} repeats ${x.key} on ${x.side}`);
    if (x.status === 'ok' && [x.instructions, x.difference, x.fsync, x.write].some((n) => !Number.isFinite(n)))
      problems.push(`/counting/cases/${i} is 'ok' without its counts`);
    if (x.status !== 'ok' && !x.reason) problems.push(`/counting/cases/${i} failed without a reason`);
    if (x.status === 'ok') counted.add(`${x.side}|${x.key}`);
  });
  (c.differences ?? []).forEach((/** @type {any} */ d, /** @type {number} */ i) => {
    if (!pairs.has(`${d.group}|${d.base}|${d.head}`))
      problems.push(`/counting/differences/${i} belongs to no comparison (${d.group}: ${d.head} against ${d.base})`);
    if (!counted.has(`${d.base}|${d.key}`) || !counted.has(`${d.head}|${d.key}`))
      problems.push(`/counting/differences/${i} is not of two counted cases (${String(d.key).slice(0, 60)})`);
  });
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
