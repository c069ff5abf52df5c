#!/usr/bin/env node
// npm run bench -- [--quick] [--config NAME]… [--driver NAME]… [--cipher NAME]… [--op NAME]…
//                  [--time MS] [--seed N] [--out DIR] [--keep-db DIR] [--list]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BUDGET_KEYS, configNotes, runSuite } from './run.js';
import { environment } from './environment.js';
import { listText } from './catalogue.js';
import { loadDrivers, ROOT } from './load.js';
import { createProgress } from './progress.js';
import { METHOD, SCHEMA_VERSION, TINYBENCH_VERSION, currentCommit, newRunId, writeResult } from './result.js';
import { summarize } from './summary.js';
import { isMain } from './fsutil.js';
import { TABLES } from './suite.js';

/** The engine's filters, one per table; `tableFilters` checks them. The compare takes them too. */
export const FILTER_OPTIONS = /** @type {const} */ ({
  config: { type: 'string', multiple: true },
  driver: { type: 'string', multiple: true },
  cipher: { type: 'string', multiple: true },
  op: { type: 'string', multiple: true },
});

export const OPTIONS = /** @type {const} */ ({
  quick: { type: 'boolean', default: false },
  ...FILTER_OPTIONS,
  list: { type: 'boolean', default: false },
  time: { type: 'string' },
  out: { type: 'string', default: 'out' },
  'keep-db': { type: 'string' },
  seed: { type: 'string', default: '1' },
  slowdown: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
});

export class UsageError extends Error {}

/**
 * Parse argv with `parse`; a UsageError becomes one line on stderr, prefixed with the tool's name,
 * and exit code 2.
 * @template T
 * @param {string} name
 * @param {(argv: string[]) => T} parse
 * @returns {T}
 */
export function flagsOrExit(name, parse) {
  try {
    return parse(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${name}: ${err.message}`);
    process.exit(2);
  }
}

/**
 * node:util parseArgs, strict; an unknown or malformed flag becomes a UsageError listing the flags.
 * @template {import('node:util').ParseArgsConfig['options']} O
 * @param {string[]} argv
 * @param {O} options
 */
export function parseStrict(argv, options) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    const msg = String(/** @type {Error} */ (err).message).split('\n')[0];
    throw new UsageError(`${msg}; valid flags: ${Object.keys(options ?? {}).map((k) => `--${k}`).join(', ')}`);
  }
}

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
    const names = (/** @type {string[] | undefined} */ (v[table]) ?? []).flatMap((s) => s.split(',')).map((s) => s.trim());
    for (const n of names) {
      if (!TABLES[table].includes(n)) throw new UsageError(`unknown --${table} '${n}'; valid: ${TABLES[table].join(', ')}`);
    }
    if (names.length) filters[table] = [...new Set(names)];
  }
  return filters;
}

/**
 * A numeric flag in [min, max], or undefined when absent.
 * @param {string} flag
 * @param {string | undefined} s
 * @param {number} min
 * @param {number} max
 * @param {boolean} [integer]
 */
export function numberFlag(flag, s, min, max, integer = true) {
  if (s === undefined) return undefined;
  const ok = integer ? /^\d+$/.test(s) : /^\d+(\.\d+)?$/.test(s);
  if (!ok || Number(s) < min || Number(s) > max) throw new UsageError(`bad --${flag} '${s}'; valid: ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`);
  return Number(s);
}

/**
 * Parse and check the flags. Throws UsageError with one line naming the flag and the valid choices.
 * @param {string[]} argv
 */
export function parseFlags(argv, options = OPTIONS) {
  const v = /** @type {any} */ (parseStrict(argv, options));
  const filters = tableFilters(v);
  const int = (/** @type {string} */ flag, /** @type {string | undefined} */ s, /** @type {number} */ min, /** @type {number} */ max) => numberFlag(flag, s, min, max);
  return {
    quick: Boolean(v.quick),
    list: Boolean(v.list),
    help: Boolean(v.help),
    filters,
    time: int('time', v.time, 1, 600_000),
    seed: /** @type {number} */ (int('seed', v.seed, 0, 4294967295)),
    slowdown: slowdown(v.slowdown),
    out: path.resolve(String(v.out)),
    keepDb: v['keep-db'] ? path.resolve(v['keep-db']) : undefined,
    budget: budgetFlag(v.budget),
    templates: v.templates ? path.resolve(v.templates) : undefined,
  };
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
  const bad = !b || typeof b !== 'object' || Array.isArray(b) || Object.entries(b).some(([k, x]) => !BUDGET_KEYS.includes(/** @type {any} */ (k)) || typeof x !== 'number' || !(x > 0));
  if (bad) throw new UsageError(`bad --budget '${s}'; valid: a JSON object of positive numbers with keys from ${BUDGET_KEYS.join(', ')}`);
  return b;
}

/**
 * --slowdown PERCENT: calibration only. Every timed task's throughput falls by this many percent
 * (a busy wait inside the timed call); the result says so and the aggregate refuses it.
 * @param {string | undefined} s
 */
function slowdown(s) {
  if (s === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(s) || Number(s) <= 0 || Number(s) > 90) throw new UsageError(`bad --slowdown '${s}'; valid: a percentage above 0 and at most 90 (calibration only)`);
  return Number(s) / 100;
}

async function main() {
  const flags = flagsOrExit('bench', parseFlags);
  if (flags.help) {
    console.log('usage: npm run bench -- [--quick] [--config NAME]... [--driver NAME]... [--cipher NAME]... [--op NAME]... [--time MS] [--seed N] [--out DIR] [--keep-db DIR] [--list] [--slowdown PERCENT (calibration only)]');
    return;
  }
  if (flags.list) {
    console.log(listText());
    return;
  }
  const state = { interrupted: /** @type {string | null} */ (null) };
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.on(sig, () => {
      state.interrupted = sig;
      process.stderr.write(`\nbench: ${sig}: stopping after the current case\n`);
    });
  }
  const startedAt = new Date().toISOString();
  const drivers = await loadDrivers();
  const { cases, setups, budget, order, engines } = await runSuite({
    mode: flags.quick ? 'quick' : 'full',
    filters: flags.filters,
    seed: flags.seed,
    time: flags.time,
    slowdown: flags.slowdown,
    keepDb: flags.keepDb,
    drivers,
    state,
    onProgress: createProgress(),
  });
  const doc = {
    schemaVersion: SCHEMA_VERSION,
    kind: 'sqlite-node-bench/result',
    run: {
      id: newRunId(),
      startedAt,
      finishedAt: new Date().toISOString(),
      status: state.interrupted ? 'interrupted' : 'complete',
      ...(state.interrupted ? { interruptedBy: state.interrupted } : {}),
      mode: flags.quick ? 'quick' : 'full',
      commit: currentCommit(),
      seed: flags.seed,
      budget,
      filters: flags.filters,
      order,
      engines,
    },
    environment: environment(),
    harness: { tinybench: TINYBENCH_VERSION, method: METHOD },
    drivers: [...drivers.values()].map((d) => d.info),
    configs: configNotes(),
    setups,
    cases,
  };
  const file = writeResult(doc, flags.out);
  console.log(summarize(doc));
  console.log(`\nwrote ${path.relative(process.cwd(), file) || file}${flags.keepDb ? `; databases kept in ${flags.keepDb}` : ''}`);
  const errors = cases.filter((c) => c.status === 'error').length;
  if (state.interrupted) process.exit(state.interrupted === 'SIGINT' ? 130 : 143);
  if (errors) {
    console.error(`bench: ${errors} case(s) failed; see "Not measured" above and the reason fields in ${path.relative(ROOT, file)}`);
    process.exitCode = 1;
  }
}

if (isMain(import.meta.url)) {
  main().catch((err) => {
    console.error(`bench: ${err?.stack ?? err}`);
    process.exit(1);
  });
}
