// The engine's flags: what to measure (filters over the data: bench/data/), how long, with which seed. Parsed
// the same by `npm run bench` and the compare; an engine gets them as session options
// (sessionOfFlags, bench/run/run-suite.js sessionOptions).
import path from 'node:path';
import { HELP_OPTION, UsageError, numberFlag, parseStrict, switchFlag, valueFlag } from '../../lib/command.js';
import { CASE_NAMES } from '../data/suite.js';
import { SUITE_CLAIMS } from '../data/run-plan.js';
import '../claims/validate.js'; // checks the claims table: a bad row stops every run
import { WORKLOAD_NAMES } from '../data/workloads.js';

/** A repeatable filter flag (comma lists too). */
const filter = (/** @type {string} */ shown, /** @type {string} */ description) =>
  valueFlag('NAME', description, { shown, multiple: /** @type {const} */ (true) });

/** The engine's filters, one per table; `tableFilters` checks them. The compare takes them too. */
export const FILTER_OPTIONS = /** @type {const} */ ({
  config: filter('every config', 'run only these PRAGMA configs (npm run catalogue lists them)'),
  driver: filter('every driver', 'run only these drivers'),
  cipher: filter('every cipher', 'run only these ciphers (none: no encryption)'),
  op: filter('every operation', 'run only these operations'),
  claim: filter('none', 'run only the cases of these claims (docs/claims.md)'),
});

export const OPTIONS = /** @type {const} */ ({
  quick: switchFlag(
    'the whole suite with small budgets, counting only a few representative cases (bench/data/quick-counts.js): a smoke test, not figures to compare',
  ),
  ...FILTER_OPTIONS,
  list: switchFlag('print every valid name, with what it is, and exit'),
  time: valueFlag('MS', 'measuring time per case and round, in milliseconds', { shown: '120 (quick: 40)' }),
  rounds: valueFlag('N', 'exactly N rounds per case, from 1 to 100', {
    shown: '8, up to 25 where the rounds disagree (quick: 1)',
  }),
  out: valueFlag(
    'DIR',
    'the folder the result document goes to (created; checked before measuring); each run writes a new file named by its platform, Node, start time and run id, never over another',
    { default: 'out' },
  ),
  'keep-db': valueFlag(
    'DIR',
    'keep every database file in DIR (created; checked before measuring); set SQLITE_BENCH_KEY to know the key',
  ),
  seed: valueFlag('N', 'seed of the generated data and of the case order', { default: '1' }),
  workload: valueFlag(
    'NAME',
    'the workloads after the suite: names, or default, all, none, concurrency, scale (docs/workloads.md)',
    { multiple: true, shown: 'default' },
  ),
  slowdown: valueFlag(
    'PERCENT',
    'calibration only: every timed call slowed by PERCENT (the aggregate refuses such a document)',
  ),
  'no-counts': switchFlag('skip the counting pass after the timed run (docs/counting.md)'),
  help: HELP_OPTION,
});

/**
 * The engine's filters (--config, --driver, --cipher, --op; repeatable, comma lists), checked
 * against the data.
 * @param {Record<string, unknown>} v parseStrict's values (a comma list already split)
 * @returns {Record<string, string[]>}
 */
export function tableFilters(v) {
  const filters = /** @type {Record<string, string[]>} */ ({});
  for (const table of /** @type {const} */ (['config', 'driver', 'cipher', 'op'])) {
    const names = /** @type {string[]} */ (v[table] ?? []);
    for (const n of names) {
      if (!CASE_NAMES[table].includes(n))
        throw new UsageError(`unknown --${table} '${n}'; valid: ${CASE_NAMES[table].join(', ')}`);
    }
    if (names.length) filters[table] = [...new Set(names)];
  }
  // --claim NAME: only the cases of these claims (bench/data/production-claims.js)
  const claims = /** @type {string[]} */ (v.claim ?? []);
  for (const n of claims)
    if (!SUITE_CLAIMS.includes(n)) throw new UsageError(`unknown --claim '${n}'; valid: ${SUITE_CLAIMS.join(', ')}`);
  if (claims.length) filters.claim = [...new Set(claims)];
  return filters;
}

/** Parse and check the flags. Throws UsageError with one line naming the flag and the valid choices. */
export function parseFlags(/** @type {string[]} */ argv) {
  const v = /** @type {any} */ (parseStrict(argv, OPTIONS));
  return {
    quick: Boolean(v.quick),
    list: Boolean(v.list),
    help: Boolean(v.help),
    filters: tableFilters(v),
    workloads: workloadFilter(v.workload),
    time: numberFlag('time', v.time, 1, 600_000),
    rounds: numberFlag('rounds', v.rounds, 1, 100),
    seed: /** @type {number} */ (numberFlag('seed', v.seed, 0, 4294967295)),
    slowdown: slowdown(v.slowdown),
    counts: !v['no-counts'],
    out: path.resolve(String(v.out)),
    keepDb: v['keep-db'] ? path.resolve(v['keep-db']) : undefined,
  };
}

/**
 * The session options an engine gets (its first message, start.js) from the engine flags the
 * compare and the shootout record in their documents, with a seed.
 * @param {string[]} args
 */
export function sessionOfFlags(args) {
  const f = parseFlags(args);
  const mode = /** @type {'quick' | 'full'} */ (f.quick ? 'quick' : 'full');
  return { mode, filters: f.filters, seed: f.seed, time: f.time, slowdown: f.slowdown };
}

/**
 * --workload NAME (repeatable, comma lists): the workloads to run after the suite, by row or group
 * name (bench/data/workloads.js); undefined: the mode's default rows.
 * @param {string[] | undefined} given
 * @returns {string[] | undefined}
 */
export function workloadFilter(given) {
  const names = (given ?? []).flatMap((s) => s.split(',')).map((s) => s.trim());
  for (const n of names)
    if (!WORKLOAD_NAMES.includes(n))
      throw new UsageError(`unknown --workload '${n}'; valid: ${WORKLOAD_NAMES.join(', ')}`);
  return names.length ? [...new Set(names)] : undefined;
}

/**
 * --slowdown PERCENT: calibration only. Every timed task's throughput falls by this many percent
 * (a busy wait inside the timed call); the result says so and the aggregate refuses it.
 * @param {string | undefined} s
 */
function slowdown(s) {
  if (s === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(s) || Number(s) <= 0 || Number(s) > 90)
    throw new UsageError(`bad --slowdown '${s}'; valid: a percentage above 0 and at most 90 (calibration only)`);
  return Number(s) / 100;
}

/** The engine's flags that a wrapper (matrix, meta:precision) passes on to each run it starts. */
export const BENCH_FLAGS = /** @type {const} */ ({
  ...FILTER_OPTIONS,
  time: OPTIONS.time,
  seed: { ...OPTIONS.seed, default: undefined, shown: '1' },
  'keep-db': OPTIONS['keep-db'],
  slowdown: OPTIONS.slowdown,
  workload: OPTIONS.workload,
});

/**
 * The bench's flags among parsed values, as arguments for bench/cli.js.
 * @param {Record<string, unknown>} values
 * @returns {string[]}
 */
export function benchArgs(values) {
  const args = values.quick ? ['--quick'] : [];
  for (const k of Object.keys(BENCH_FLAGS)) {
    for (const x of [values[k] ?? []].flat()) args.push(`--${k}`, String(x));
  }
  return args;
}
