// compare.json as the PR comment reads it: written by a pull request's code, so untrusted. Every
// field report.js reads is checked for its type before anything is rendered (the strings are then
// escaped by the report); a file that is not this shape is refused, naming the field.
// Built-ins only (the comment job installs nothing).
import { COMPARE_VERDICTS } from '../bench/paired/verdicts.js';
import { COST_VERDICTS, IO } from '../lib/costs.js';

/** At most this many rows: a whole suite is a few hundred. */
export const MAX_ROWS = 10_000;

/** @typedef {(v: any) => boolean} Check */

const num = /** @type {Check} */ ((v) => typeof v === 'number' && Number.isFinite(v));
const numOrNull = /** @type {Check} */ ((v) => v === null || num(v));
const str = /** @type {Check} */ ((v) => typeof v === 'string');
const object = /** @type {Check} */ ((v) => Boolean(v) && typeof v === 'object' && !Array.isArray(v));
const arrayOf = (/** @type {Check} */ each, max = MAX_ROWS) =>
  /** @type {Check} */ ((v) => Array.isArray(v) && v.length <= max && v.every(each));
const between = (/** @type {number} */ lo, /** @type {number} */ hi) =>
  /** @type {Check} */ ((v) => num(v) && v >= lo && v <= hi);

/** Field by field: what each must be, as a check and the words naming it. */
const SIDE = { given: [str, 'a string'], commit: [(/** @type {any} */ v) => v === null || str(v), 'a string or null'] };
const ROW = {
  key: [str, 'a string'],
  unit: [(/** @type {any} */ v) => v === 'ops/s' || v === 'bytes', "'ops/s' or 'bytes'"],
  verdict: [(/** @type {any} */ v) => COMPARE_VERDICTS.includes(v), `one of ${COMPARE_VERDICTS.join(', ')}`],
  significant: [(/** @type {any} */ v) => typeof v === 'boolean', 'true or false'],
  reason: [(/** @type {any} */ v) => v === undefined || str(v), 'a string'],
  ...Object.fromEntries(
    ['base', 'head', 'change', 'low', 'high', 'pAdjusted'].map((k) => [k, [numOrNull, 'a number or null']]),
  ),
};
const TOP = {
  kind: [(/** @type {any} */ v) => v === 'sqlite-node-bench/compare', "'sqlite-node-bench/compare'"],
  version: [(/** @type {any} */ v) => v === 1, '1'],
  base: [object, 'an object'],
  head: [object, 'an object'],
  method: [str, 'a string'],
  rounds: [(/** @type {any} */ v) => Number.isInteger(v) && v >= 1 && v <= 1000, 'a whole number from 1 to 1000'],
  threshold: [between(0, 1), 'a number from 0 to 1'],
  alpha: [between(0, 1), 'a number from 0 to 1'],
  engine: [arrayOf(str, 100), 'a list of strings'],
  seconds: [between(0, 1e7), 'a number of seconds'],
  environment: [object, 'an object'],
  drivers: [
    (/** @type {any} */ v) => object(v) && arrayOf(object, 100)(v.base) && arrayOf(object, 100)(v.head),
    '{ base: [objects], head: [objects] }',
  ],
  rows: [arrayOf(object), `a list of at most ${MAX_ROWS} objects`],
};

const FIELDS = IO.map(([f]) => f);
const sideCost = /** @type {Check} */ (
  (v) =>
    v === null ||
    (object(v) &&
      num(v.instructions) &&
      num(v.spread) &&
      typeof v.exact === 'boolean' &&
      object(v.io) &&
      FIELDS.every((f) => num(v.io[f])))
);
const COST_ROW = {
  key: [str, 'a string'],
  op: [str, 'a string'],
  verdict: [(/** @type {any} */ v) => COST_VERDICTS.includes(v), `one of ${COST_VERDICTS.join(', ')}`],
  reason: [(/** @type {any} */ v) => v === undefined || str(v), 'a string'],
  base: [sideCost, 'null or { instructions, spread, exact, io }'],
  head: [sideCost, 'null or { instructions, spread, exact, io }'],
  change: [numOrNull, 'a number or null'],
  tolerance: [numOrNull, 'a number or null'],
  io: [
    arrayOf((x) => object(x) && FIELDS.includes(x.field) && num(x.base) && num(x.head), FIELDS.length),
    `a list of { field: one of ${FIELDS.join(', ')}, base, head }`,
  ],
  fails: [(/** @type {any} */ v) => typeof v === 'boolean', 'true or false'],
};
const COSTS = {
  status: [(/** @type {any} */ v) => ['ok', 'unavailable', 'error'].includes(v), "'ok', 'unavailable' or 'error'"],
  reason: [(/** @type {any} */ v) => v === undefined || str(v), 'a string'],
  tally: [
    (/** @type {any} */ v) => v === undefined || (object(v) && Object.values(v).every(num)),
    'an object of numbers',
  ],
  rows: [(/** @type {any} */ v) => v === undefined || arrayOf(object)(v), `a list of at most ${MAX_ROWS} objects`],
};

/**
 * The first field of obj that is not what spec says, as '/pointer must be …'.
 * @param {any} obj
 * @param {Record<string, any[]>} spec
 * @param {string} at
 */
function firstProblem(obj, spec, at) {
  for (const [k, [ok, what]] of Object.entries(spec)) if (!ok(obj[k])) return `${at}/${k} must be ${what}`;
  return null;
}

/**
 * Why this is not a compare result report.js can render, or null when it is.
 * @param {unknown} json
 * @returns {string | null}
 */
export function compareProblem(json) {
  if (!object(json)) return '/ must be an object';
  const c = /** @type {any} */ (json);
  const top = firstProblem(c, TOP, '') ?? firstProblem(c.base, SIDE, '/base') ?? firstProblem(c.head, SIDE, '/head');
  if (top) return top;
  for (const [i, row] of c.rows.entries()) {
    const p = firstProblem(row, ROW, `/rows/${i}`);
    if (p) return p;
  }
  if (c.costs === undefined) return null; // a compare from before the counts
  if (!object(c.costs)) return '/costs must be an object';
  const costs = firstProblem(c.costs, COSTS, '/costs');
  if (costs) return costs;
  for (const [i, row] of (c.costs.rows ?? []).entries()) {
    const p = firstProblem(row, COST_ROW, `/costs/rows/${i}`);
    if (p) return p;
  }
  return null;
}
