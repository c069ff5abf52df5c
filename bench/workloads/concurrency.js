// One round of a concurrency workload, in the round's own process (round.js): a writer (optional)
// and K readers, each a worker thread with its own connection to the same database file
// (concurrency-worker.js), started together on a barrier (barrier.js) and stopped by a deadline. A worker that
// fails, or does not stop in time, fails the round with the reason (the others are stopped). At the
// end every write is counted back from the database.
import { Worker } from 'node:worker_threads';
import { applyKey } from '../engine/database.js';
import { scalar } from '../../lib/sqlite.js';
import { createBarrier, mainSide } from './barrier.js';
/** @import { Conn } from '../engine/database.js' */

/** How long the workers may take to load the driver and open their connections, in all. */
const SETUP_LIMIT_MS = 60_000;
/** How long past the deadline a worker may take to stop (a write waiting on a lock finishes when the readers stop). */
const STOP_GRACE_MS = 10_000;

/**
 * @typedef {object} ConcurrencyRoundOptions
 * @property {string} file the round's database (a copy of the template)
 * @property {string} driver
 * @property {{ name: string, sqlite3mc: string | null }} cipher
 * @property {string} key
 * @property {[string, number | string][]} pragmas
 * @property {string} tempdir
 * @property {number} readers
 * @property {boolean} writer
 * @property {number} durationMs
 * @property {number} seed
 * @property {number} seeded messages in the database before the round
 * @property {(file: string) => Conn} open the driver, to count the writes back
 * @property {{ role: 'reader' | 'writer', index: number, kind: 'crash' | 'hang', after: number }} [fault] tests only
 * @property {number} [stopGraceMs]
 * @property {AbortSignal} [signal] a SIGINT/SIGTERM (round.js): every worker stops at its next step, then this throws
 * @property {() => void} [beforeStart] called when every worker is ready, just before they start (tests: to take a lock)
 */

/**
 * @typedef {object} WorkerResult
 * @property {'reader' | 'writer'} role
 * @property {number} index
 * @property {number} arrivedAtStart
 * @property {number} ops
 * @property {number} busy
 * @property {number} elapsedMs
 * @property {number | null} p50Ms
 * @property {number | null} p99Ms
 * @property {Record<string, unknown>} pragmas
 */

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** Run one round. Rejects, naming the worker, when one fails or hangs, or a verification fails. */
export async function runConcurrency(/** @type {ConcurrencyRoundOptions} */ o) {
  const barrier = createBarrier();
  const main = mainSide(barrier);
  // what every worker is given of the options (concurrency-worker.js WorkerData): no function, no signal
  const { file, driver, cipher, key, pragmas, tempdir, durationMs, seed } = o;
  const shared = { file, driver, cipher, key, pragmas, tempdir, durationMs, seed };
  const roles = [
    ...(o.writer ? [/** @type {const} */ ('writer')] : []),
    ...Array.from({ length: o.readers }, () => /** @type {const} */ ('reader')),
  ];
  /** @type {{ name: string, worker: Worker, result?: WorkerResult, aborted?: boolean, error?: string, exited: boolean }[]} */
  const slots = roles.map((role, index) => {
    const name = role === 'writer' ? 'writer' : `reader ${index - (o.writer ? 1 : 0) + 1}`;
    const f = o.fault;
    const fault =
      f && f.role === role && f.index === index - (role === 'reader' && o.writer ? 1 : 0)
        ? { kind: f.kind, after: f.after }
        : undefined;
    const worker = new Worker(new URL('./concurrency-worker.js', import.meta.url), {
      workerData: { role, index, ...shared, barrier, fault },
    });
    const slot = {
      name,
      worker,
      exited: false,
      /** @type {WorkerResult | undefined} */ result: undefined,
      aborted: false,
      /** @type {string | undefined} */ error: undefined,
    };
    worker.on('message', (m) => {
      if (m.error) slot.error = m.error;
      else if (m.aborted) slot.aborted = true;
      else slot.result = m;
    });
    worker.on('error', (err) => {
      slot.error ??= String(err?.message ?? err).split('\n')[0];
    });
    worker.on('exit', (code) => {
      slot.exited = true;
      if (!slot.result && !slot.aborted && !slot.error) slot.error = `exited with code ${code} without a result`;
    });
    return slot;
  });
  const failed = () => slots.find((s) => s.error);
  // After a failure: workers at the barrier are released to stop, the others stop at their deadline.
  // None is terminated: terminating a worker inside a driver call (a write waiting on a lock) can
  // abort the whole process when the call returns; a hung one goes when the process exits (round.js
  // exits as soon as it has written its result).
  const stopAll = () => {
    main.abort();
    for (const s of slots) if (!s.exited) s.worker.unref();
  };
  const onSignal = () => main.abort();
  if (o.signal?.aborted)
    onSignal(); // a signal while the round was being copied
  else o.signal?.addEventListener('abort', onSignal, { once: true });
  try {
    // the start line: every worker ready, or one failed, or the setup limit
    const setupUntil = Date.now() + SETUP_LIMIT_MS;
    while (main.arrived() < slots.length && !o.signal?.aborted) {
      const f = failed();
      if (f) throw new Error(`${f.name} failed before the start: ${f.error}`);
      if (Date.now() > setupUntil)
        throw new Error(
          `${slots.length - main.arrived()} worker(s) not ready ${SETUP_LIMIT_MS / 1000} s after they were started`,
        );
      await sleep(2);
    }
    if (!o.signal?.aborted) {
      o.beforeStart?.();
      main.go();
    }
    const stopUntil = Date.now() + o.durationMs + (o.stopGraceMs ?? STOP_GRACE_MS);
    while (slots.some((s) => !s.exited)) {
      const f = failed();
      if (f) throw new Error(`${f.name} failed: ${f.error}`);
      if (Date.now() > stopUntil) {
        const hung = slots.filter((s) => !s.exited).map((s) => s.name);
        throw new Error(
          `${hung.join(', ')} did not stop within ${(o.stopGraceMs ?? STOP_GRACE_MS) / 1000} s of the deadline (hung)`,
        );
      }
      await sleep(5);
    }
    const f = failed();
    if (f) throw new Error(`${f.name} failed: ${f.error}`);
    if (o.signal?.aborted) throw new Error('stopped by a signal');
  } catch (err) {
    stopAll();
    throw err;
  } finally {
    o.signal?.removeEventListener('abort', onSignal);
  }
  const results = slots.map((s) => /** @type {WorkerResult} */ (s.result));
  return { ...summarise(results, o.readers), verified: verify(o, results) };
}

/** The writes counted back: the database holds the seeded messages and every insert a writer made. */
function verify(/** @type {ConcurrencyRoundOptions} */ o, /** @type {WorkerResult[]} */ results) {
  const writes = results.filter((r) => r.role === 'writer').reduce((a, r) => a + r.ops, 0);
  const reads = results.filter((r) => r.role === 'reader').reduce((a, r) => a + r.ops, 0);
  const conn = o.open(o.file);
  try {
    applyKey(conn, o.cipher, o.key);
    const count = Number(scalar(conn, 'SELECT count(*) FROM messages'));
    if (count !== o.seeded + writes)
      throw new Error(`the database holds ${count} messages; expected ${o.seeded} seeded + ${writes} written`);
  } finally {
    conn.close();
  }
  for (const r of results)
    if (r.arrivedAtStart !== results.length)
      throw new Error(
        `${r.role} ${r.index} started with ${r.arrivedAtStart} of ${results.length} workers at the barrier`,
      );
  return { reads, rowsRead: reads * 50, writes, writesCounted: writes };
}

/** A round's figures: total and per-reader reads/s, writes/s, latency quantiles, SQLITE_BUSY counts. */
function summarise(/** @type {WorkerResult[]} */ results, /** @type {number} */ readers) {
  const rs = results.filter((r) => r.role === 'reader');
  const w = results.find((r) => r.role === 'writer');
  const rate = (/** @type {WorkerResult} */ r) => (r.ops / r.elapsedMs) * 1000;
  const perReader = rs.map(rate);
  // quantiles over readers: each reader's own, then their median (readers run the same loop)
  const mid = (/** @type {number[]} */ xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const readP50 = rs.map((r) => r.p50Ms).filter((x) => x !== null);
  const readP99 = rs.map((r) => r.p99Ms).filter((x) => x !== null);
  return {
    readers,
    readsPerSec: perReader.reduce((a, b) => a + b, 0),
    perReader,
    readP50Ms: readP50.length ? mid(readP50) : null,
    readP99Ms: readP99.length ? Math.max(...readP99) : null,
    ...(w ? { writesPerSec: rate(w), writeP50Ms: w.p50Ms, writeP99Ms: w.p99Ms } : {}),
    busy: { reads: rs.reduce((a, r) => a + r.busy, 0), writes: w?.busy ?? 0 },
    pragmas: results[0]?.pragmas ?? {},
  };
}
