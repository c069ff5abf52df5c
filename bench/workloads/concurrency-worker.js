// One worker of a concurrency round (concurrency.js; docs/workloads.md#concurrency): its own
// connection, opened in its turn, then at the barrier; when released, reads or writes until the
// deadline, each checked, SQLITE_BUSY counted and tried again. It posts its counts and latencies.
import { parentPort, workerData } from 'node:worker_threads';
import { applyKey, applyPragmas } from '../engine/database.js';
import { loadDrivers } from '../engine/load-drivers.js';
import { INSERT_MESSAGE, MAILBOXES, generateMessages, messageParams } from '../data/mail.js';
import { SELECT_LIMIT, SELECT_SQL } from '../data/ops.js';
import { quantile } from '../../lib/stats/spread.js';
import { workerSide } from './barrier.js';
import { isBusy } from './busy.js';

/**
 * @typedef {Pick<import('./concurrency.js').ConcurrencyRoundOptions, 'file' | 'driver' | 'cipher' | 'key' | 'pragmas'
 *   | 'tempdir' | 'durationMs' | 'seed'> & { role: 'reader' | 'writer', index: number, barrier: SharedArrayBuffer,
 *   fault?: { kind: 'crash' | 'hang', after: number } }} WorkerData
 *   index: the worker's turn to open (0 first); fault: tests only: fail (throw) or hang (never stop) after this many operations
 */

/** First uid the writer inserts with: above every seeded uid. */
const UID_BASE = 10_000_000;

const d = /** @type {WorkerData} */ (workerData);
const side = workerSide(d.barrier);

// a cast, not an annotation: work() assigns it, which the checker does not see from here
let conn = /** @type {import('../engine/database.js').Conn | null} */ (null);
try {
  await work();
} catch (err) {
  // said as a message: an error thrown across the thread boundary can lose its message (SqliteError)
  const e = /** @type {any} */ (err);
  parentPort?.postMessage({
    error: `${typeof e?.code === 'string' ? `${e.code}: ` : ''}${String(e?.message ?? e).split('\n')[0]}`,
  });
} finally {
  conn?.close();
}

async function work() {
  const loaded = (await loadDrivers()).get(d.driver);
  if (!side.myTurn(d.index)) {
    parentPort?.postMessage({ aborted: true });
  } else {
    let readings;
    try {
      if (!loaded?.open) throw new Error(`driver ${d.driver} did not load: ${loaded?.info.reason}`);
      conn = loaded.open(d.file);
      applyKey(conn, d.cipher, d.key);
      readings = applyPragmas(conn, d.pragmas, { tempdir: d.tempdir });
    } finally {
      side.passTurn();
    }
    const c = conn;
    const op = d.role === 'reader' ? reader(c) : writer(c);
    if (side.arriveAndWait()) {
      const arrivedAtStart = side.arrived();
      const result = loop(op);
      parentPort?.postMessage({
        role: d.role,
        index: d.index,
        arrivedAtStart,
        pragmas: Object.fromEntries(readings.map((r) => [r.name, r.after ?? (r.applied ? true : null)])),
        ...result,
      });
    } else {
      parentPort?.postMessage({ aborted: true });
    }
  }
}

/** The reader's operation: the next mailbox's newest 50 messages, checked. */
function reader(/** @type {import('../engine/database.js').Conn} */ c) {
  const stmt = c.prepare(SELECT_SQL);
  let mailbox = 0;
  return () => {
    const got = stmt.all(1 + (mailbox % MAILBOXES.length));
    if (got.length !== SELECT_LIMIT) throw new Error(`select returned ${got.length} rows, expected ${SELECT_LIMIT}`);
    mailbox++;
  };
}

/** The writer's operation: one new message in its own transaction, checked. */
function writer(/** @type {import('../engine/database.js').Conn} */ c) {
  const stmt = c.prepare(INSERT_MESSAGE);
  const pool = generateMessages(d.seed + 1, 256);
  let n = 0;
  return () => {
    const changes = Number(stmt.run(...messageParams(pool[n % pool.length], UID_BASE + n)).changes);
    if (changes !== 1) throw new Error(`insert changed ${changes} rows, expected 1`);
    n++;
  };
}

function loop(/** @type {() => void} */ op) {
  const latencies = /** @type {number[]} */ ([]);
  let busy = 0;
  const t0 = performance.now();
  const deadline = t0 + d.durationMs;
  let now = t0;
  while (now < deadline && !side.aborted()) {
    const start = now;
    let done = false;
    while (!done) {
      try {
        op();
        done = true;
      } catch (err) {
        if (!isBusy(err)) throw err;
        busy++;
        if (performance.now() >= deadline) break; // given up at the deadline: not an operation
      }
    }
    now = performance.now();
    if (!done) break;
    latencies.push(now - start);
    if (d.fault && latencies.length === d.fault.after) {
      if (d.fault.kind === 'crash') throw new Error(`injected crash after ${d.fault.after} operations`);
      for (;;); // a hang: never reaches the deadline check again
    }
  }
  const elapsedMs = performance.now() - t0;
  return {
    ops: latencies.length,
    busy,
    elapsedMs,
    p50Ms: latencies.length ? quantile(latencies, 0.5) : null,
    p99Ms: latencies.length ? quantile(latencies, 0.99) : null,
  };
}
