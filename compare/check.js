// compare.json as the PR comment reads it: written by a pull request's code, so every field is
// untrusted. Every field report.js reads is checked before anything is rendered: its type, and its
// bounds (a string's length and, where it names something, its pattern; a number's range; a list's
// size; the fields one needs beside another). A file that is not this shape is refused in one line
// naming the first field that is wrong, as a JSON pointer: "/environment/cpuModel must be a string
// of at most 200 characters". Keys this code does not read are ignored (a newer compare may add
// some): nothing renders a key it does not know, report.js reads its fields by name only.
// The strings are then made inert by the report (lib/markdown.js).
// Built-ins only (the comment job installs nothing).
import { COUNT_VERDICTS, RANKED } from '../lib/verdicts.js';
import { IO } from '../lib/costs.js';
import { COMPONENTS } from '../bench/data/components.js';

const COUNTED = Object.values(COUNT_VERDICTS);

/** At most this many rows: a whole suite is a few hundred. */
const MAX_ROWS = 10_000;
/** The bounds of compare.json's fields (docs/compare.md). */
const LIMITS = /** @type {const} */ ({
  /** --base/--head as given: a path (Linux's PATH_MAX) or a git ref */
  given: 4096,
  /** the method's sentence */
  sentence: 1000,
  /** why a case was not compared or counted: one problem per round, joined */
  reason: 10_000,
  /** the engine's flags, and each flag's characters */
  flags: 1000,
  flag: 200,
  /** the CPU's name (as the shootout's schema) */
  cpuModel: 200,
  /** a name or version of a driver, SQLite, an image */
  name: 100,
  /** drivers per side */
  drivers: 100,
  /** a case's key, config/driver/cipher/op */
  key: 200,
  cores: 65_536,
  /** ops/s, bytes, instructions and system calls per operation */
  count: 1e15,
  /**
   * a change, head over base less 1: from −100% up to this (an interval's end from two or three
   * pairs can run past a million-fold; it is shown as measured, not refused)
   */
  change: 1e15,
});

/** process.version (pre-releases too), as the result schema names a Node: v24.11.0, v25.0.0-rc.1. */
const NODE = /^v\d{1,4}(\.\d{1,4}){0,2}(-[0-9A-Za-z]+([.-][0-9A-Za-z]+)*)?$/;
/** A process.platform or process.arch. */
const WORD = /^[A-Za-z0-9_-]{1,32}$/;
/** A git commit: SHA-1 or SHA-256. */
const COMMIT = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

/** @typedef {(v: any, at: string) => string | null} Check the problem with `v` at pointer `at`, or null */

const isObject = (/** @type {unknown} */ v) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A key of o's own (a JSON object's), never one it inherits. */
const own = (/** @type {any} */ o, /** @type {string} */ k) =>
  Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;

/** @returns {Check} */
const is = (/** @type {(v: any) => boolean} */ ok, /** @type {string} */ what) => (v, at) =>
  ok(v) ? null : `${at} must be ${what}`;
/** @returns {Check} */
const text = (/** @type {number} */ max, /** @type {RegExp} */ pattern = /^/, what = '') =>
  is(
    (v) => typeof v === 'string' && v.length <= max && pattern.test(v),
    `a string of at most ${max} characters${what}`,
  );
const figure = (/** @type {number} */ n) => (Math.abs(n) >= 1e4 ? n.toLocaleString('en-US') : String(n));
/** @returns {Check} */
const number = (/** @type {number} */ lo, /** @type {number} */ hi, whole = false) =>
  is(
    (v) => typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi && (!whole || Number.isInteger(v)),
    `${whole ? 'a whole number' : 'a number'} from ${figure(lo)} to ${figure(hi)}`,
  );
/** @returns {Check} */
const oneOf = (/** @type {readonly unknown[]} */ values, what = values.join(', ')) =>
  is((v) => values.includes(v), `one of ${what}`);
const bool = is((v) => typeof v === 'boolean', 'true or false');
/** A check that also lets `allowed` through, and says so when v itself is wrong (not a field inside it). */
const or = (/** @type {unknown} */ allowed, /** @type {string} */ words) => (/** @type {Check} */ check) =>
  /** @type {Check} */ (
    (v, at) => {
      const p = v === allowed ? null : check(v, at);
      return p?.startsWith(`${at || '/'} must be `) ? `${p}${words}` : p;
    }
  );
const orNull = or(null, ' or null');
const optional = or(undefined, ', or left out');
/**
 * An object with these fields; `also` checks what one field needs of another.
 * @param {Record<string, Check>} fields
 * @param {(o: any, at: string) => string | null} [also]
 * @returns {Check}
 */
const shape = (fields, also) => (v, at) => {
  if (!isObject(v)) return `${at || '/'} must be an object`;
  for (const [k, check] of Object.entries(fields)) {
    const p = check(own(v, k), `${at}/${k}`);
    if (p) return p;
  }
  return also ? also(v, at) : null;
};
/** @returns {Check} */
const list = (/** @type {Check} */ each, /** @type {number} */ max, /** @type {string} */ what) => (v, at) => {
  if (!Array.isArray(v) || v.length > max) return `${at} must be a list of at most ${max} ${what}`;
  for (const [i, x] of v.entries()) {
    const p = each(x, `${at}/${i}`);
    if (p) return p;
  }
  return null;
};

const count = number(0, LIMITS.count);
const change = orNull(number(-1, LIMITS.change));
const reason = optional(text(LIMITS.reason));

const SIDE = shape({ given: text(LIMITS.given), commit: orNull(text(64, COMMIT, ' naming a commit (40 or 64 hex)')) });

const ENVIRONMENT = shape({
  node: text(64, NODE, ' naming a Node version (v24.11.0)'),
  platform: text(32, WORD, ' of letters, digits, _ or -'),
  arch: text(32, WORD, ' of letters, digits, _ or -'),
  cpuModel: text(LIMITS.cpuModel),
  cores: number(0, LIMITS.cores, true), // os.cpus() is empty on some machines
  ci: optional(
    orNull(
      shape({
        imageOs: optional(orNull(text(LIMITS.name))),
        imageVersion: optional(orNull(text(LIMITS.name))),
      }),
    ),
  ),
});

/** A side's driver; the report names the ones that loaded, with their versions. */
const DRIVER = shape({ name: text(LIMITS.name), status: text(40) }, (d, at) =>
  d.status === 'ok'
    ? shape({
        version: text(LIMITS.name),
        sqlite: text(LIMITS.name),
        sqlite3mc: optional(orNull(text(LIMITS.name))),
      })(d, at)
    : null,
);
const DRIVERS = list(DRIVER, LIMITS.drivers, 'objects');

/** The 95% interval is both ends or neither. */
const bothEnds = (/** @type {any} */ r, /** @type {string} */ at) =>
  (r.low === null) === (r.high === null) ? null : `${at}/high must be null exactly when ${at}/low is`;
const ROW = shape(
  {
    key: text(LIMITS.key),
    unit: oneOf(['ops/s', 'bytes'], "'ops/s' or 'bytes'"),
    verdict: oneOf(RANKED),
    significant: bool,
    reason,
    base: orNull(count),
    head: orNull(count),
    change,
    low: change,
    high: change,
    pAdjusted: orNull(number(0, 1)),
  },
  bothEnds,
);

const FIELDS = IO.map(([f]) => f);
const SIDE_COST = orNull(
  shape({
    instructions: count,
    io: shape(Object.fromEntries(FIELDS.map((f) => [f, count]))),
  }),
);
const COST_ROW = shape({
  key: text(LIMITS.key),
  verdict: oneOf(COUNTED),
  reason,
  base: SIDE_COST,
  head: SIDE_COST,
  change,
  tolerance: orNull(number(0, LIMITS.change)),
  components: optional(
    list(
      shape({
        component: oneOf(COMPONENTS),
        delta: number(-LIMITS.count, LIMITS.count),
        change: number(-LIMITS.change, LIMITS.change),
        tolerance: number(0, LIMITS.change),
      }),
      COMPONENTS.length,
      'objects',
    ),
  ),
  io: is(
    (v) =>
      Array.isArray(v) &&
      v.length <= FIELDS.length &&
      v.every(
        (x) => isObject(x) && FIELDS.includes(x.field) && count(x.base, '') === null && count(x.head, '') === null,
      ),
    `a list of { field: one of ${FIELDS.join(', ')}, base, head } (counts from 0 to ${LIMITS.count})`,
  ),
  fails: bool,
});
const COSTS = shape({
  status: oneOf(['ok', 'unavailable', 'error'], "'ok', 'unavailable' or 'error'"),
  reason,
  tally: optional(shape(Object.fromEntries([...COUNTED, 'fails'].map((k) => [k, number(0, MAX_ROWS, true)])))),
  rows: optional(list(COST_ROW, MAX_ROWS, 'objects')),
});

/** The phases of a compare, in the order they run (compare/cli.js); `timed` twice where some cases get fewer rounds. */
export const PHASES = /** @type {const} */ (['prepare', 'count', 'timed', 'report']);
const SECONDS = number(0, 1e7);
const PHASE = shape({
  phase: oneOf(PHASES, "'prepare', 'count', 'timed' or 'report'"),
  seconds: SECONDS,
  base: optional(SECONDS),
  head: optional(SECONDS),
  together: optional(bool),
  rounds: optional(number(1, 1000, true)),
  cases: optional(number(0, MAX_ROWS, true)),
});

const COMPARE = shape({
  kind: oneOf(['sqlite-node-bench/compare'], "'sqlite-node-bench/compare'"),
  version: oneOf([1]),
  base: SIDE,
  head: SIDE,
  method: text(LIMITS.sentence),
  rounds: number(1, 1000, true),
  threshold: number(0, 1),
  alpha: number(0, 1),
  engine: list(text(LIMITS.flag), LIMITS.flags, 'strings'),
  seconds: number(0, 1e7),
  environment: ENVIRONMENT,
  drivers: shape({ base: DRIVERS, head: DRIVERS }),
  rows: list(ROW, MAX_ROWS, 'objects'),
  costs: COSTS,
  phases: list(PHASE, 20, 'objects'),
});

/**
 * Why this is not a compare result report.js can render, or null when it is.
 * @param {unknown} json
 * @returns {string | null}
 */
export function compareProblem(json) {
  return COMPARE(json, '');
}
