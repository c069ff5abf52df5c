// One round of a scale workload, in a fresh process (round.js), on a copy of the template of that
// size: `ops` (the suite's operations one after another) or `vacuum` (VACUUM, the checkpoint after
// it, the peak RSS, the file sizes), each its own process (docs/workloads.md#scale).
import { measure } from '../engine/measure.js';
import { sizeOf } from '../engine/templates.js';
import { scalar } from '../../lib/sqlite.js';
import { generateMessages } from '../data/mail.js';
import { OPS } from '../data/ops.js';
import { createRandom } from '../../lib/prng.js';

/** The operations, in the order a round runs them on its copy (see the header). */
const SCALE_OPS = ['select', 'update', 'checkpoint', 'insert', 'delete'];

/**
 * The process's peak resident memory so far, in bytes. maxRSS is in kilobytes, except where an
 * older libuv passes macOS's ru_maxrss (bytes) through: a "peak" a thousand times the current
 * resident size is that.
 */
function peakRssBytes() {
  const kb = process.resourceUsage().maxRSS;
  return kb * 1024 > 256 * process.memoryUsage().rss ? kb : kb * 1024;
}

/**
 * @param {{ conn: import('../engine/database.js').Conn, file: string, seeded: number, seed: number, journalMode: string, budget: import('../engine/measure.js').Budget }} o
 * @returns {{ rates: Record<string, number>, verified: Record<string, number> }}
 */
export function runScaleOps(o) {
  const pool = generateMessages(o.seed + 1, 256);
  const random = createRandom(o.seed ^ 0x5eed);
  const rates = /** @type {Record<string, number>} */ ({});
  const verified = /** @type {Record<string, number>} */ ({});
  for (const name of SCALE_OPS) {
    const op = /** @type {import('../data/ops.js').Op} */ (OPS.find((x) => x.name === name));
    if (name === 'delete') {
      // insert's rows go, so delete starts from the seeded database (and its uids are free again)
      const gone = Number(o.conn.prepare('DELETE FROM messages WHERE uid >= ?').run(1_000_000).changes);
      verified.insertedRemoved = gone;
      const count = Number(scalar(o.conn, 'SELECT count(*) FROM messages'));
      if (count !== o.seeded)
        throw new Error(`after removing the inserted rows ${count} messages remain, expected ${o.seeded}`);
    }
    const task = /** @type {NonNullable<typeof op.task>} */ (op.task)({
      conn: o.conn,
      file: o.file,
      pool,
      random,
      seeded: o.seeded,
      journalMode: o.journalMode,
      fresh: () => {
        throw new Error('not used at scale');
      },
    });
    const round = measure(task, o.budget);
    rates[name] = round.opsPerSec;
    for (const [k, v] of Object.entries(task.verify?.() ?? {})) verified[`${name}.${k}`] = v;
  }
  return { rates, verified };
}

/** VACUUM and the checkpoint after it, with the process's peak memory. */
export function runScaleVacuum(
  /** @type {{ conn: import('../engine/database.js').Conn, file: string, seeded: number }} */ o,
) {
  const before = { mainBytes: sizeOf(o.file), walBytes: sizeOf(`${o.file}-wal`) };
  const rssBeforeBytes = peakRssBytes();
  let t = performance.now();
  o.conn.exec('VACUUM');
  const vacuumMs = performance.now() - t;
  const walAfterVacuumBytes = sizeOf(`${o.file}-wal`);
  const rssPeakBytes = peakRssBytes();
  t = performance.now();
  const cp = o.conn.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
  const checkpointMs = performance.now() - t;
  if (Number(cp?.busy) !== 0) throw new Error(`the checkpoint after VACUUM did not complete: ${JSON.stringify(cp)}`);
  const free = Number(scalar(o.conn, 'PRAGMA freelist_count'));
  if (free !== 0) throw new Error(`after VACUUM the freelist has ${free} pages`);
  const count = Number(scalar(o.conn, 'SELECT count(*) FROM messages'));
  if (count !== o.seeded) throw new Error(`after VACUUM ${count} messages, expected ${o.seeded}`);
  return {
    vacuumMs,
    checkpointMs,
    rssBeforeBytes,
    rssPeakBytes,
    files: { before, walAfterVacuumBytes, after: { mainBytes: sizeOf(o.file), walBytes: sizeOf(`${o.file}-wal`) } },
    verified: { vacuums: 1, messagesVacuumed: count }, // counts add up over the rounds
  };
}
