// The one document module: the committed schema (document.schema.json: a run with its sides,
// one for npm run bench, several for a shootout; all its judged pairs in comparisons) and one Ajv
// set-up with the kinds of name of lib/names.schema.json beside it; the checks a schema cannot
// say; the checked write (header.js writes, without ajv, for npm run ci:failure). The aggregate
// reads every document through documentProblems.
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import semver from 'semver';
import { ROOT } from '../../lib/root.js';
import { NAMES_SCHEMA } from '../../lib/names.js';
import { OPS } from '../data/ops.js';
import { CASE_NAMES, caseKey, parseCaseKey } from '../data/suite.js';
import { judgedPair } from '../data/production-claims.js';
import { JOURNAL } from '../data/workloads.js';
import { SCHEMA_FILE, isShootout, pairsOf, writeDocument } from './header.js';

const Ajv2020 = /** @type {any} */ (Ajv2020Module).default ?? Ajv2020Module;
export const SCHEMA = JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8'));
const validator = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true })
  .addSchema(NAMES_SCHEMA)
  .compile(SCHEMA);

/**
 * A document's problems against the schema, each naming the field; empty when valid.
 * @param {unknown} doc
 * @returns {string[]}
 */
export function validate(doc) {
  if (validator(doc)) return [];
  return (validator.errors ?? [])
    .filter((/** @type {any} */ e) => e.keyword !== 'if' || e.instancePath)
    .map(
      (/** @type {any} */ e) =>
        `${e.instancePath || '/'} ${e.message}${e.params?.allowedValues ? ` (${e.params.allowedValues.join(', ')})` : ''}`,
    );
}

/** A value of the document quoted in a message: cut, so a huge one cannot flood the log. */
const shown = (/** @type {unknown} */ v) => {
  const s = String(v);
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
};

/** Whether an ISO UTC timestamp names a real instant (a schema checks only its shape: 2026-02-30 passes it). */
const realDate = (/** @type {string} */ s) => {
  const t = Date.parse(s);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 19) === s.slice(0, 19);
};

/**
 * What a schema cannot say of any document's run, environment and sides: real dates, in order, a
 * Node semver reads, each side once, a reason where it failed; one side's run has its configs and
 * setups, several sides' their judged pairs and one reference side.
 */
function runProblems(/** @type {any} */ doc) {
  const problems = /** @type {string[]} */ ([]);
  if (!isShootout(doc) && !(doc.configs && doc.setups))
    problems.push('/configs or /setups is missing: a run of one side has them');
  if (isShootout(doc) && !doc.comparisons)
    problems.push('/comparisons is missing: a run of several sides has its pairs judged');
  const references = doc.sides.filter((/** @type {any} */ s) => s.reference).length;
  if (references !== (isShootout(doc) ? 1 : 0))
    problems.push(
      `/sides has ${references} reference side(s): a run of several sides has one (reference: true), a run of one none`,
    );
  if (new Set(doc.sides.map((/** @type {any} */ s) => s.label)).size !== doc.sides.length)
    problems.push('/sides has a label twice');
  doc.sides.forEach((/** @type {any} */ s, /** @type {number} */ i) => {
    if (!semver.valid(s.node)) problems.push(`/sides/${i}/node '${shown(s.node)}' is not a semantic version`);
    if (s.status === 'failed' && !s.reason) problems.push(`/sides/${i} failed without a reason`);
  });
  for (const f of /** @type {const} */ (['startedAt', 'finishedAt']))
    if (!realDate(doc.run[f])) problems.push(`/run/${f} '${shown(doc.run[f])}' is not a real date`);
  if (Date.parse(doc.run.finishedAt) < Date.parse(doc.run.startedAt))
    problems.push('/run/finishedAt is before /run/startedAt');
  if (!semver.valid(doc.environment.node))
    problems.push(`/environment/node '${shown(doc.environment.node)}' is not a semantic version`);
  return problems;
}

/** Names the data (bench/data/) knows, at a pointer. */
const tableProblems = (/** @type {any} */ c, /** @type {string} */ at) =>
  /** @type {const} */ (['config', 'driver', 'cipher', 'op']).flatMap((t) =>
    CASE_NAMES[t].includes(c[t])
      ? []
      : [`${at}/${t} unknown ${t} '${shown(c[t])}' (valid: ${CASE_NAMES[t].join(', ')})`],
  );

/**
 * A run's cases: names the data knows, each case once per side, a side that exists where the run
 * has several, a case of one side that ran carries the figure its operation is shown by (a size,
 * or timing statistics).
 * @param {any} doc a schema-valid document
 * @param {Set<string>} labels
 * @param {boolean} names whether its names must be this checkout's data's
 */
function caseProblems(doc, labels, names) {
  const problems = /** @type {string[]} */ ([]);
  const seen = new Set();
  doc.cases.forEach((/** @type {any} */ c, /** @type {number} */ i) => {
    if (names) problems.push(...tableProblems(c, `/cases/${i}`));
    const op = OPS.find((o) => o.name === c.op);
    if (isShootout(doc) !== Boolean(c.side))
      problems.push(`/cases/${i} ${c.side ? 'has a side in a run of one' : 'has no side in a run of several'}`);
    else if (c.side && !labels.has(c.side)) problems.push(`/cases/${i}/side '${c.side}' is not a side`);
    if (c.status === 'ok' && !c.side && op?.kind === 'size' && !c.size)
      problems.push(`/cases/${i} is ok but has no size: '${c.op}' is measured in bytes`);
    if (c.status === 'ok' && !c.side && op && op.kind !== 'size' && !c.stats)
      problems.push(`/cases/${i} is ok but has no stats: '${c.op}' is timed`);
    const key = caseKey(c);
    if (seen.has(`${c.side}|${key}`)) problems.push(`/cases/${i} repeats case ${key}${c.side ? ` on ${c.side}` : ''}`);
    seen.add(`${c.side}|${key}`);
  });
  return problems;
}

/**
 * The judged pairs: what they compare exists (setups in a run of one side, or its workloads in a
 * pair of id JOURNAL; two sides and a case the data knows in a run of several), each once, an
 * interval around its change, a verdict its figures allow (null figures only when not compared).
 * A size (a compare's) is compared exactly: no p, change = low = high, bigger is slower.
 * @param {any} doc a schema-valid document with comparisons
 * @param {Set<string>} labels
 * @param {boolean} names whether its names must be this checkout's data's
 * @returns {string[]}
 */
function comparisonProblems(doc, labels, names) {
  const problems = /** @type {string[]} */ ([]);
  const several = isShootout(doc);
  const seen = new Set();
  const workloads = new Set((doc.workloads?.cases ?? []).map((/** @type {any} */ c) => c.name));
  doc.comparisons.forEach((/** @type {any} */ r, /** @type {number} */ i) => {
    const at = `/comparisons/${i}`;
    if (several)
      for (const f of ['reference', 'member'])
        if (!labels.has(r[f])) problems.push(`${at}/${f} '${shown(r[f])}' is not a side`);
    if (several && r.reference === r.member) problems.push(`${at} compares a side with itself`);
    if (several !== Boolean(r.setup))
      problems.push(`${at} ${several ? 'has no setup in a run of several sides' : 'has a setup in a run of one'}`);
    if (several) {
      if (names) problems.push(...tableProblems(parseCaseKey(`${r.setup}/${r.op}`), at));
    } else if (![r.reference, r.member].every((x) => (r.id === JOURNAL ? workloads.has(x) : x.includes('/'))))
      problems.push(
        `${at} compares what the run does not have: its reference and member are setups (workloads of the run in '${JOURNAL}')`,
      );
    const kind = OPS.find((o) => o.name === r.op)?.kind;
    const exact = several && kind === 'size';
    if (kind !== 'timed' && kind !== undefined && !exact) problems.push(`${at}/op '${r.op}' is not timed`);
    const id = `${r.id}|${r.reference}|${r.member}|${r.setup}|${r.op}`;
    if (seen.has(id)) problems.push(`${at} repeats ${r.op} of ${r.member} against ${r.reference}`);
    seen.add(id);
    const compared = r.verdict !== 'not compared';
    if (compared && [r.change, r.low, r.high, exact ? 0 : r.p].some((x) => x === null))
      problems.push(`${at} has the verdict '${r.verdict}' but no change, interval or p`);
    if (compared && r.change !== null && !(r.low <= r.change && r.change <= r.high))
      problems.push(`${at}/change is outside its interval`);
    if (exact && (r.p !== null || r.low !== r.change || r.high !== r.change))
      problems.push(`${at} is a size, compared exactly: no p, and low and high equal to its change`);
    // a size that grows is slower (a regression); a rate that falls is
    const [down, up] = exact ? ['slower', 'faster'] : ['faster', 'slower'];
    if (r.verdict === down && !(r.low > 0)) problems.push(`${at} is '${down}' but its interval reaches 0 or below`);
    if (r.verdict === up && !(r.high < 0)) problems.push(`${at} is '${up}' but its interval reaches 0 or above`);
    if (!compared && !r.reason) problems.push(`${at} is 'not compared' without a reason`);
  });
  return problems;
}

/** The claims' checks: one with a verdict of its own names a judged pair the document has, with an interval. */
const claimProblems = (/** @type {any} */ doc) =>
  (doc.claims ?? []).flatMap((/** @type {any} */ e, /** @type {number} */ i) =>
    e.checks.flatMap((/** @type {any} */ c, /** @type {number} */ j) =>
      c.verdict === 'not compared' || typeof judgedPair(doc, c)?.low === 'number'
        ? []
        : [`/claims/${i}/checks/${j} has the verdict '${c.verdict}' but names no judged pair with an interval`],
    ),
  );

/**
 * Each side's counts (a shootout's): their labels refer to sides, their keys to cases the data
 * knows, each once; a difference to a judged pair, and to two counted cases.
 * @param {any} doc a schema-valid document
 * @param {Set<string>} labels
 * @param {Set<string>} pairs group|base|head of every judged pair
 * @param {boolean} names whether its names must be this checkout's data's
 * @returns {string[]}
 */
function countingProblems(doc, labels, pairs, names) {
  const c = doc.counting;
  if (!c) return [];
  const problems = /** @type {string[]} */ ([]);
  if (c.status !== 'ok' && !c.reason) problems.push(`/counting is '${c.status}' without a reason`);
  (c.sides ?? []).forEach((/** @type {any} */ s, /** @type {number} */ i) => {
    if (!labels.has(s.side)) problems.push(`/counting/sides/${i}/side '${s.side}' is not a side`);
    if (s.status !== 'ok' && !s.reason) problems.push(`/counting/sides/${i} failed without a reason`);
  });
  const known = (/** @type {string} */ key) => {
    const k = parseCaseKey(key);
    return key === caseKey(k) && (!names || (CASE_NAMES.op.includes(k.op) && CASE_NAMES.driver.includes(k.driver)));
  };
  const counted = new Set();
  (c.cases ?? []).forEach((/** @type {any} */ x, /** @type {number} */ i) => {
    if (!labels.has(x.side)) problems.push(`/counting/cases/${i}/side '${x.side}' is not a side`);
    if (!known(x.key)) problems.push(`/counting/cases/${i}/key '${shown(x.key)}' is not a case`);
    if (counted.has(`${x.side}|${x.key}`)) problems.push(`/counting/cases/${i} repeats ${x.key} on ${x.side}`);
    if (
      x.status === 'ok' &&
      ([x.instructions, x.difference, x.fsync, x.write].some((n) => !Number.isFinite(n)) ||
        !x.components ||
        !x.repeatComponents)
    )
      problems.push(`/counting/cases/${i} is 'ok' without its counts`);
    if (x.status !== 'ok' && !x.reason) problems.push(`/counting/cases/${i} failed without a reason`);
    if (x.status === 'ok') counted.add(`${x.side}|${x.key}`);
  });
  (c.differences ?? []).forEach((/** @type {any} */ d, /** @type {number} */ i) => {
    if (!pairs.has(`${d.id}|${d.reference}|${d.member}`))
      problems.push(`/counting/differences/${i} belongs to no pair (${d.id}: ${d.member} against ${d.reference})`);
    const key = `${d.setup}/${d.op}`;
    if (!counted.has(`${d.reference}|${key}`) || !counted.has(`${d.member}|${key}`))
      problems.push(`/counting/differences/${i} is not of two counted cases (${shown(key)})`);
  });
  return problems;
}

/**
 * What a schema cannot say of a schema-valid document, by the parts it has.
 * @param {any} doc a schema-valid document
 * @param {{ names?: boolean }} [o] names: false for a compare's, whose sides are checkouts with
 *   data of their own (a pull request may add a config this checkout's data does not know)
 * @returns {string[]}
 */
export function semanticProblems(doc, { names = true } = {}) {
  const labels = new Set(doc.sides.map((/** @type {any} */ s) => s.label));
  const pairs = new Set(pairsOf(doc).map((c) => `${c.comparison}|${c.reference}|${c.member}`));
  return [
    ...runProblems(doc),
    ...caseProblems(doc, labels, names),
    ...(doc.comparisons ? comparisonProblems(doc, labels, names) : []),
    ...countingProblems(doc, labels, pairs, names),
    ...claimProblems(doc),
  ];
}

/**
 * Every problem of a document, schema first (the semantic checks assume a schema-valid one).
 * @param {any} doc
 * @param {{ names?: boolean }} [o] semanticProblems's
 */
export function documentProblems(doc, o) {
  const schema = validate(doc);
  return schema.length ? schema : semanticProblems(doc, o);
}

/**
 * Check, then write into dir, whole or never over another file (header.js). Refuses (throws) a
 * document that does not pass: nothing half-right is written.
 * @param {any} doc
 * @param {string} dir
 * @returns {string} the file written
 */
export function writeChecked(doc, dir) {
  const problems = documentProblems(doc);
  if (problems.length)
    throw new Error(
      `the document does not match ${path.relative(ROOT, SCHEMA_FILE)}: ${problems.slice(0, 5).join('; ')}`,
    );
  return writeDocument(doc, dir);
}
