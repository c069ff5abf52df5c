// The engine's flags: what to measure (filters over the tables), how long, with which seed. Parsed
// the same by `npm run bench`, the engine server and the compare.
import path from 'node:path';
import { UsageError, numberFlag, parseStrict } from '../../lib/command.js';
import { TABLES } from '../tables/suite.js';
import { EXPERIMENTS, casesOf } from '../tables/experiments.js';
import '../claims/experiments.js'; // checks the experiments table: a bad row stops every run
import { BUDGET_KEYS } from './budgets.js';
import { WORKLOAD_NAMES } from '../tables/workloads.js';

/** The engine's filters, one per table; `tableFilters` checks them. The compare takes them too. */
export const FILTER_OPTIONS = /** @type {const} */ ({
  config: { type: 'string', multiple: true },
  driver: { type: 'string', multiple: true },
  cipher: { type: 'string', multiple: true },
  op: { type: 'string', multiple: true },
  experiment: { type: 'string', multiple: true },
});

export const OPTIONS = /** @type {const} */ ({
  quick: { type: 'boolean', default: false },
  ...FILTER_OPTIONS,
  list: { type: 'boolean', default: false },
  time: { type: 'string' },
  rounds: { type: 'string' },
  out: { type: 'string', default: 'out' },
  'keep-db': { type: 'string' },
  seed: { type: 'string', default: '1' },
  workload: { type: 'string', multiple: true },
  slowdown: { type: 'string' },
  'no-counts': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
});

/**
 * The engine's filters (--config, --driver, --cipher, --op; repeatable, comma lists), checked
 * against the tables.
 * @param {Record<string, unknown>} v parsed values
 * @returns {Record<string, string[]>}
 */
export function tableFilters(v) {
  /** @type {Record<string, string[]>} */
  const filters = {};
  for (const table of /** @type {const} */ (['config', 'driver', 'cipher', 'op'])) {
    const names = /** @type {string[]} */ (v[table] ?? []).flatMap((s) => s.split(',')).map((s) => s.trim());
    for (const n of names) {
      if (!TABLES[table].includes(n))
        throw new UsageError(`unknown --${table} '${n}'; valid: ${TABLES[table].join(', ')}`);
    }
    if (names.length) filters[table] = [...new Set(names)];
  }
  // --experiment NAME: only the cases of these experiments (bench/tables/experiments.js)
  const experiments = /** @type {string[]} */ (v.experiment ?? []).flatMap((s) => s.split(',')).map((s) => s.trim());
  const known = EXPERIMENTS.filter((e) => casesOf(e).length).map((e) => e.id);
  for (const n of experiments)
    if (!known.includes(n)) throw new UsageError(`unknown --experiment '${n}'; valid: ${known.join(', ')}`);
  if (experiments.length) filters.experiment = [...new Set(experiments)];
  return filters;
}

/**
 * Parse and check the flags. Throws UsageError with one line naming the flag and the valid choices.
 * @param {string[]} argv
 */
export function parseFlags(argv, options = OPTIONS) {
  const v = /** @type {any} */ (parseStrict(argv, options));
  const filters = tableFilters(v);
  const int = (
    /** @type {string} */ flag,
    /** @type {string | undefined} */ s,
    /** @type {number} */ min,
    /** @type {number} */ max,
  ) => numberFlag(flag, s, min, max);
  return {
    quick: Boolean(v.quick),
    list: Boolean(v.list),
    help: Boolean(v.help),
    filters,
    workloads: workloadFilter(v.workload),
    time: int('time', v.time, 1, 600_000),
    rounds: int('rounds', v.rounds, 1, 100),
    seed: /** @type {number} */ (int('seed', v.seed, 0, 4294967295)),
    slowdown: slowdown(v.slowdown),
    counts: !v['no-counts'],
    out: path.resolve(String(v.out)),
    keepDb: v['keep-db'] ? path.resolve(v['keep-db']) : undefined,
    budget: budgetFlag(v.budget),
    templates: v.templates ? path.resolve(v.templates) : undefined,
  };
}

/**
 * --workload NAME (repeatable, comma lists): the workloads to run after the suite, by row or group
 * name (bench/tables/workloads.js); undefined: the mode's default rows.
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
 * --budget JSON (the engine server only): parts of the measuring budget, e.g. {"warmupTime":5}.
 * @param {string | undefined} s
 * @returns {Partial<Record<typeof BUDGET_KEYS[number], number>> | undefined}
 */
function budgetFlag(s) {
  if (s === undefined) return undefined;
  let b;
  try {
    b = JSON.parse(s);
  } catch {
    b = null;
  }
  const bad =
    !b ||
    typeof b !== 'object' ||
    Array.isArray(b) ||
    Object.entries(b).some(
      ([k, x]) => !BUDGET_KEYS.includes(/** @type {any} */ (k)) || typeof x !== 'number' || !(x > 0),
    );
  if (bad)
    throw new UsageError(
      `bad --budget '${s}'; valid: a JSON object of positive numbers with keys from ${BUDGET_KEYS.join(', ')}`,
    );
  return b;
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
  time: { type: 'string' },
  seed: { type: 'string' },
  'keep-db': { type: 'string' },
  slowdown: { type: 'string' },
  workload: { type: 'string', multiple: true },
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
