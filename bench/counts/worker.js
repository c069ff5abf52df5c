#!/usr/bin/env node
// The counted process of the counting pass (pass.js), under valgrind or strace: each case of its
// plan opened as a timed round opens it, warmed up, then K operations in two halves, every timed
// call between two marks (docs/counting.md#how-a-case-is-counted).
//
//   node [nodeFlags(), see tools.js] bench/counts/worker.js --plan FILE --out FILE
//
// The plan (Plan) names templates and a message pool made natively (prepare.js: under valgrind the
// seed data alone would cost a billion instructions per process); the key comes from
// SQLITE_BENCH_KEY. It writes { marks, markCost, cases: WorkerCase[] } to --out.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import { command, parseStrict, UsageError } from '../../lib/command.js';
import { writeFileAtomic } from '../../lib/files.js';
import { loadDrivers } from '../engine/load-drivers.js';
import { caseKey } from '../data/suite.js';
import { mark, marksMade } from './marks.js';
import { countingSession } from './prepare.js';

/**
 * @typedef {object} PlanCase
 * @property {string} key config/driver/cipher/op
 * @property {number} k operations counted, in two halves (one window when k is 1)
 * @property {number} warmup operations before them, not counted
 * @property {string} [id] what the output calls it (default: the key); a plan may count a case twice
 * @property {string} [extra] calibration (tests, meta:counting): one more statement, run once per
 *   operation inside the timed call on an in-memory database of the case's driver, so the count
 *   should grow by exactly what the statement costs
 * @property {boolean} [alone] with `extra` or `inject`: count it alone, around a task that does nothing
 * @property {Inject} [inject] calibration (`npm run compare -- --calibrate --counts`): known work added to
 *   every counted operation, so a compare of the counts must find it
 */
/**
 * @typedef {object} Inject
 * @property {number} [loop] iterations of a JavaScript loop run once per operation inside the timed call (with
 *   V8's compilers off, a fixed number of instructions per iteration: the compare's calibration sizes it to 1%
 *   of the case)
 * @property {number} [fsyncEvery] an fsync(2) of a scratch file on the first counted operation and every
 *   `fsyncEvery`-th after it, inside the timed call: ceil(K / fsyncEvery) more in a window of K operations
 * @property {number} [sql] rows of INJECTED_SQL's recursive query, run once per operation inside the timed call on an
 *   in-memory database of the case's driver: work in SQLite's component (the calibration sizes it to 1% of it)
 */

/** The injected SQLite work: a recursive query of `?` rows, nearly all of it in SQLite's virtual machine. */
const INJECTED_SQL = 'SELECT length(hex(zeroblob(?))) AS n';
/**
 * @typedef {object} Plan
 * @property {'quick'|'full'} mode
 * @property {number} seed
 * @property {number} seedMessages
 * @property {string} templates the directory of templates prepare.js built
 * @property {string} pool the file of messages the writing operations insert (v8.serialize; prepare.js)
 * @property {PlanCase[]} cases
 * @property {number} [pad] objects to allocate and keep before anything else (pass.js jobsOf padRepeat)
 * @property {boolean} [settle] false: no wait after a full GC (collect), where only system calls are counted
 * @property {string} [instrument] the addon that switches callgrind's instrumentation on (instrument.js), which the
 *   process does before its first mark (callgrind runs with --instr-atstart=no); absent: the whole process is
 *   instrumented
 */
/**
 * @typedef {object} CountedWindow
 * @property {number} ops
 * @property {number[]} ends the marks that end its timed calls (mark n's count covers mark n-1 to n)
 */
/**
 * @typedef {object} WorkerCase
 * @property {string} key the plan case's id
 * @property {string} status 'ok', or why it was not counted ('skipped', 'error')
 * @property {string} [reason]
 * @property {CountedWindow[]} [windows]
 * @property {Record<string, number>} [verified] what the task's check found
 */

/**
 * The session's directory, relative to the process's own directory (pass.js starts each in one):
 * the paths a counted process handles are then the same strings in every process, and hashing a
 * string costs what its content makes it cost.
 */
const WORKDIR = 'work';

const gc = /** @type {() => void} */ (globalThis.gc);

/**
 * The wait after a full GC: V8 11 hands part of it to Node's platform worker thread whatever
 * `--single-threaded` says, and the thread frees the main thread's memory when it wakes. On one CPU
 * (tools.js pinned) it runs while the main thread waits here, not at moments that differ between
 * processes, with malloc's free lists, then malloc, SQLite and V8 following them (docs/counting.md).
 */
const SETTLE_MS = 50;
const settle = new Int32Array(new SharedArrayBuffer(4));

/** @param {boolean} [wait] false: no wait (an strace process: its system calls do not depend on the thread) */
function collect(wait = true) {
  gc();
  if (wait) Atomics.wait(settle, 0, 0, SETTLE_MS);
}

/** The calls that measure what a mark costs: a task that does nothing, warmed up, then counted. */
const MARK_CALIBRATION = { warmup: 20, samples: 5 };

/**
 * A task with one more statement per operation, run inside the timed call after the operation.
 * @param {import('../data/ops.js').OpTask} task
 * @param {{ get: () => unknown }} stmt
 * @returns {import('../data/ops.js').OpTask}
 */
function withExtra(task, stmt) {
  return {
    ...task,
    run: (n) => {
      task.run(n);
      for (let i = 0; i < n; i++) stmt.get();
    },
  };
}

/** What the injected loop computes, so it cannot be left out. */
let sink = 0;

/**
 * A task with known work added to every operation (Inject); `counting.on` is set around the counted
 * windows, so the fsyncs fall on counted operations only, while the loop runs in the warm-up too
 * (its bytecode is compiled before the count starts).
 * @param {import('../data/ops.js').OpTask} task
 * @param {Inject} inject
 * @param {number} fd an open scratch file to fsync
 * @param {import('../../lib/sqlite.js').Stmt | null} stmt INJECTED_SQL prepared, where inject.sql
 */
function withInject(task, inject, fd, stmt) {
  const counting = { on: false, ops: 0 };
  const loop = inject.loop ?? 0;
  const every = inject.fsyncEvery ?? 0;
  const rows = inject.sql ?? 0;
  return {
    counting,
    task: {
      ...task,
      run: (/** @type {number} */ n) => {
        task.run(n);
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < loop; j++) sink = (sink + j) | 0;
          if (stmt) sink = (sink + Number(stmt.get(rows)?.n)) | 0;
          if (every && counting.on && counting.ops++ % every === 0) fs.fsyncSync(fd);
        }
      },
    },
  };
}

/**
 * Run n operations of a task as samples: a batchable task in one call, one that may not batch
 * (maxBatch 1) one call at a time; `counted` puts marks around every timed call.
 * @param {import('../data/ops.js').OpTask} task
 * @param {number} n
 * @param {boolean} counted
 * @returns {number[]} the marks that ended the timed calls
 */
function runOps(task, n, counted) {
  const batch = Math.min(n, task.maxBatch ?? n);
  /** @type {number[]} */
  const ends = [];
  for (let done = 0; done < n; done += batch) {
    const b = Math.min(batch, n - done);
    task.before?.(b);
    if (counted) mark();
    task.run(b);
    if (counted) ends.push(mark());
    task.after?.();
  }
  return ends;
}

/**
 * Bring the process to the same state whatever its plan's order: open a copy of every setup
 * (config, driver, cipher) of the plan, and run every (driver, operation) of the plan on its
 * cheapest case (no cipher where there is one). Code the cases share (the drivers' wrappers,
 * reading PRAGMAs back, the operations, this file) has then seen every shape of object and every
 * kind of value it will see, so V8's hidden classes and inline caches no longer change with what
 * ran before. Without it, a case counted after other drivers' and configs' cases costs up to 3%
 * more or less than counted first. Nothing here is counted.
 * @param {PlanCase[]} cases
 * @param {Map<string, import('../data/suite.js').Case>} byKey
 * @param {ReturnType<typeof countingSession>} session
 */
function warmProcess(cases, byKey, session) {
  /** @type {Map<string, { c: import('../data/suite.js').Case, p?: PlanCase }>} */
  const runs = new Map();
  /** @type {Map<string, import('../data/suite.js').Case>} */
  const opens = new Map();
  for (const p of [...cases].sort((x, y) => (x.key < y.key ? -1 : 1))) {
    const c = byKey.get(p.key);
    if (!c) continue;
    const had = runs.get(`${c.driver}/${c.op}`);
    if (!had || (had.c.cipher !== 'none' && c.cipher === 'none')) runs.set(`${c.driver}/${c.op}`, { c, p });
    const setup = `${c.config}/${c.driver}/${c.cipher}`;
    if (!opens.has(setup)) opens.set(setup, { ...c, op: 'select' }); // a copy of the template, its PRAGMAs read back
  }
  for (const { c, p } of [...[...opens.values()].map((c) => ({ c, p: undefined })), ...runs.values()]) {
    const opened = session.prepare(c);
    if (!('task' in opened)) continue;
    try {
      if (p) runOps(opened.task, p.warmup + Math.min(p.k, 20), false);
    } catch {
      // the case itself will say what went wrong
    } finally {
      opened.close();
    }
  }
}

async function main(/** @type {string[]} */ argv) {
  const flags = parseStrict(argv, { plan: { type: 'string' }, out: { type: 'string' } });
  if (!flags.plan || !flags.out) throw new UsageError('--plan FILE and --out FILE are both required');
  if (typeof gc !== 'function') throw new UsageError('run with --expose-gc (bench/counts/tools.js nodeFlags)');
  /** @type {Plan} */
  const plan = JSON.parse(fs.readFileSync(flags.plan, 'utf8'));
  // loaded first, so what it allocates lies before everything the cases allocate, in every process
  /** @type {{ start: () => void }} */
  const instrument = plan.instrument ? createRequire(import.meta.url)(plan.instrument) : { start() {} };
  // kept for the life of the process: what V8 allocates after them (the drivers, the cases' objects and maps) lies elsewhere
  const padding = Array.from({ length: plan.pad ?? 0 }, (_, i) => ({ i, s: `pad${i}` }));
  const drivers = await loadDrivers();
  const session = countingSession(plan, drivers, {
    pool: v8.deserialize(fs.readFileSync(plan.pool)),
    workdir: WORKDIR,
  });
  const byKey = new Map(session.list.map((c) => [caseKey(c), c]));
  /** @type {WorkerCase[]} */
  const out = [];
  warmProcess(plan.cases, byKey, session);
  const nothing = { maxBatch: 1, run: () => {} };
  runOps(nothing, MARK_CALIBRATION.warmup, false);
  collect(plan.settle);
  // instrumented from the first mark to the exit: the process start, loading the drivers and warmProcess run at
  // valgrind's uninstrumented speed. Not switched off between cases: each switch discards valgrind's translations,
  // and switching per case was measured slower than not switching at all (docs/counting.md)
  instrument.start();
  const markCost = runOps(nothing, MARK_CALIBRATION.samples, true);
  try {
    for (const p of plan.cases) {
      const id = p.id ?? p.key;
      const c = byKey.get(p.key);
      if (!c) throw new UsageError(`${flags.plan}: no case ${p.key}`);
      /** @type {import('../data/ops.js').OpTask} */
      const nothingAtAll = { run: () => {} };
      const opened = p.alone ? { status: 'ready', task: nothingAtAll, close: () => {} } : session.prepare(c);
      if (!('task' in opened)) {
        out.push({ key: id, status: opened.status, ...(opened.reason ? { reason: opened.reason } : {}) });
        continue;
      }
      /** @type {import('../engine/database.js').Conn | null} */
      let extraDb = null;
      let scratch = -1;
      try {
        extraDb = p.extra || p.inject?.sql ? (drivers.get(c.driver)?.open?.(':memory:') ?? null) : null;
        let task = extraDb && p.extra ? withExtra(opened.task, extraDb.prepare(p.extra)) : opened.task;
        /** @type {{ on: boolean } | null} */
        let counting = null;
        if (p.inject) {
          scratch = fs.openSync(`injected-${out.length}`, 'w');
          fs.writeSync(scratch, 'x');
          const stmt = p.inject.sql && extraDb ? extraDb.prepare(INJECTED_SQL) : null;
          ({ task, counting } = withInject(task, p.inject, scratch, stmt));
        }
        runOps(task, p.warmup, false);
        collect(plan.settle); // the counted operations start from a clean heap, so its collections fall at the same points
        const half = Math.floor(p.k / 2);
        if (counting) counting.on = true;
        /** @type {CountedWindow[]} */
        const windows = (half ? [half, p.k - half] : [p.k]).map((ops) => ({ ops, ends: runOps(task, ops, true) }));
        out.push({ key: id, status: 'ok', windows, verified: task.verify?.() ?? {} });
      } catch (err) {
        out.push({ key: id, status: 'error', reason: session.errorReason(err) });
      } finally {
        opened.close();
        extraDb?.close();
        if (scratch >= 0) fs.closeSync(scratch);
      }
    }
  } finally {
    session.dispose();
  }
  writeFileAtomic(flags.out, JSON.stringify({ marks: marksMade(), markCost, cases: out, padded: padding.length }));
}

command('count worker', import.meta.url, main);
