// Operations, one row each: what one operation is, when it applies, and its timed and untimed
// parts. Every operation checks that it did what it claims (rows inserted, changed, deleted;
// frames checkpointed), so a figure can never come from work that did not happen.
import fs from 'node:fs';
import { INSERT_MESSAGE, MAILBOXES, messageParams } from './mail.js';
import { randomInt } from '../../lib/prng.js';
import { scalar } from '../../lib/sqlite.js';
/** @import { Conn } from '../../lib/sqlite.js' */

export const BATCH_ROWS = 100;
export const SELECT_LIMIT = 50;
export const SELECT_SQL = `SELECT id, uid, date, flags, size, subject, from_addr FROM messages WHERE mailbox = ? ORDER BY date DESC LIMIT ${SELECT_LIMIT}`;

/**
 * @typedef {object} OpContext
 * @property {Conn} conn an open, configured, seeded database
 * @property {string} file its path
 * @property {import('./mail.js').Message[]} pool messages to insert, reused with fresh uids
 * @property {() => number} random
 * @property {number} seeded how many messages the database was seeded with
 * @property {string} journalMode what journal_mode reads back as
 * @property {() => { conn: Conn, dispose: () => void }} fresh for setup: open, key, PRAGMAs and schema on a new file
 */
/**
 * @typedef {object} Op
 * @property {string} name
 * @property {string} label
 * @property {string} unit what one operation is
 * @property {number} rows rows one operation writes or reads
 * @property {'timed'|'size'} kind
 * @property {'ops'|'ms'|'bytes'} show how its figure is shown: ops/s median, ms median (slow operations), or the file size
 * @property {'cpu'|'io'} [bound] timed ops: what mostly limits it under the production PRAGMAs
 *   (WAL, synchronous NORMAL): 'cpu' reads and small in-place writes, 'io' work that creates,
 *   grows, rewrites or syncs files. Used to group the compare's calibration.
 * @property {boolean} [needsSeed] false: runs on fresh files, not the seeded copy
 * @property {(ctx: { journalMode: string }) => string | null} [skip] a reason not to run
 * @property {(ctx: OpContext) => OpTask} [task]
 * @property {{ warmup: number, full: number, quick: number }} [count] timed ops: how the counting pass
 *   counts it: `warmup` operations first, then K counted (`full` or `quick`, by the run's mode); why
 *   these K: docs/counting.md#how-a-case-is-counted
 */
/**
 * @typedef {object} OpTask what an operation gives the engine to measure (bench/engine/measure.js
 *   `Task`: tsc checks that it is one where the engine measures it), and its check
 * @property {(n: number) => void} run the timed work: n operations
 * @property {(n: number) => void} [before] untimed preparation for the next n operations
 * @property {() => void} [after] untimed clean-up after each sample
 * @property {number} [maxBatch] the most operations one sample may hold (1: never batch)
 * @property {() => Record<string, number>} [verify] throws when the database is not as the operations
 *   claim, and returns counts that add up across rounds
 */

/**
 * Inserts with fresh, increasing uids (uids are unique per mailbox).
 * @param {OpContext} ctx
 */
function inserter(ctx) {
  const stmt = ctx.conn.prepare(INSERT_MESSAGE);
  let uid = 1_000_000;
  let next = 0;
  return () => {
    const m = ctx.pool[next++ % ctx.pool.length];
    return stmt.run(...messageParams(m, uid++));
  };
}

/**
 * @param {Conn} conn
 * @param {number} expected
 */
function expectCount(conn, expected) {
  const count = Number(scalar(conn, 'SELECT count(*) FROM messages'));
  if (count !== expected) throw new Error(`expected ${expected} messages, found ${count}`);
  return count;
}

/**
 * A column heading for an operation's figure, by how it is shown.
 * @param {Op} op
 */
export const columnTitle = (op) =>
  op.show === 'bytes' ? 'DB + WAL (MB)' : op.show === 'ms' ? `${op.label} (ms)` : `${op.label}/s`;

/** @type {Op[]} */
export const OPS = [
  {
    name: 'setup',
    label: 'Setup',
    kind: 'timed',
    count: { warmup: 0, full: 1, quick: 1 },
    show: 'ms',
    rows: 0,
    bound: 'io',
    needsSeed: false,
    unit: 'open + key + PRAGMAs + schema on a new file',
    task: (ctx) => {
      /** @type {{ conn: Conn, dispose: () => void } | null} */
      let opened = null;
      let n = 0;
      return {
        maxBatch: 1,
        run: () => {
          opened = ctx.fresh();
        },
        after: () => {
          opened?.dispose();
          opened = null;
          n++;
        },
        verify: () => ({ databases: n }),
      };
    },
  },
  {
    name: 'insert',
    label: 'Insert',
    kind: 'timed',
    count: { warmup: 20, full: 300, quick: 60 },
    show: 'ops',
    rows: 1,
    bound: 'io',
    unit: 'one message, in its own (autocommit) transaction',
    task: (ctx) => {
      const insert = inserter(ctx);
      let inserted = 0;
      return {
        run: (n) => {
          for (let i = 0; i < n; i++) insert();
          inserted += n;
        },
        verify: () => {
          expectCount(ctx.conn, ctx.seeded + inserted);
          return { inserted };
        },
      };
    },
  },
  {
    name: 'insert-batch',
    label: 'Insert batch',
    kind: 'timed',
    count: { warmup: 1, full: 8, quick: 2 },
    show: 'ops',
    rows: BATCH_ROWS,
    bound: 'io',
    unit: `${BATCH_ROWS} messages in one transaction`,
    task: (ctx) => {
      const insert = inserter(ctx);
      const begin = ctx.conn.prepare('BEGIN');
      const commit = ctx.conn.prepare('COMMIT');
      let inserted = 0;
      return {
        run: (n) => {
          for (let i = 0; i < n; i++) {
            begin.run();
            for (let r = 0; r < BATCH_ROWS; r++) insert();
            commit.run();
          }
          inserted += n * BATCH_ROWS;
        },
        verify: () => {
          expectCount(ctx.conn, ctx.seeded + inserted);
          return { inserted };
        },
      };
    },
  },
  {
    name: 'select',
    label: 'Select',
    kind: 'timed',
    count: { warmup: 20, full: 100, quick: 20 },
    show: 'ops',
    rows: SELECT_LIMIT,
    bound: 'cpu',
    unit: `a mailbox's newest ${SELECT_LIMIT} messages by date, via the index`,
    task: (ctx) => {
      const stmt = ctx.conn.prepare(SELECT_SQL);
      const plan = ctx.conn.prepare(`EXPLAIN QUERY PLAN ${SELECT_SQL}`).all(1);
      if (!plan.some((r) => /USING (COVERING )?INDEX messages_mailbox_date\b/.test(String(r.detail)))) {
        throw new Error(`select does not use messages_mailbox_date: ${plan.map((r) => r.detail).join('; ')}`);
      }
      let mailbox = 0;
      let rows = 0;
      return {
        run: (n) => {
          for (let i = 0; i < n; i++) {
            const got = stmt.all(1 + (mailbox++ % MAILBOXES.length));
            if (got.length !== SELECT_LIMIT)
              throw new Error(`select returned ${got.length} rows, expected ${SELECT_LIMIT}`);
            rows += got.length;
          }
        },
        verify: () => ({ rowsRead: rows }),
      };
    },
  },
  {
    name: 'update',
    label: 'Update',
    kind: 'timed',
    count: { warmup: 20, full: 1000, quick: 200 },
    show: 'ops',
    rows: 1,
    bound: 'cpu',
    unit: "one message's flags, by primary key",
    task: (ctx) => {
      const stmt = ctx.conn.prepare('UPDATE messages SET flags = ?, modseq = modseq + 1 WHERE id = ?');
      let updated = 0;
      return {
        run: (n) => {
          for (let i = 0; i < n; i++) {
            const id = 1 + randomInt(ctx.random, ctx.seeded);
            if (Number(stmt.run(updated % 2 ? '["\\\\Seen"]' : '["\\\\Seen","\\\\Flagged"]', id).changes) !== 1)
              throw new Error(`update of message ${id} changed no row`);
            updated++;
          }
        },
        verify: () => ({ updated }),
      };
    },
  },
  {
    name: 'delete',
    label: 'Delete',
    kind: 'timed',
    count: { warmup: 20, full: 300, quick: 60 },
    show: 'ops',
    rows: 1,
    bound: 'cpu',
    unit: 'one existing message, by primary key',
    task: (ctx) => {
      // Victims are existing messages at random; each sample's deletions are replaced (untimed)
      // by as many new messages, so the table keeps its size.
      const insert = inserter(ctx);
      const stmt = ctx.conn.prepare('DELETE FROM messages WHERE id = ?');
      const live = Array.from({ length: ctx.seeded }, (_, i) => i + 1);
      /** @type {number[]} */
      let victims = [];
      let deleted = 0;
      let added = 0;
      return {
        before: (n) => {
          victims = [];
          for (let i = 0; i < n; i++) {
            const at = randomInt(ctx.random, live.length);
            victims.push(live[at]);
            live[at] = Number(insert().lastInsertRowid);
          }
          added += n;
        },
        run: () => {
          for (const id of victims) {
            if (Number(stmt.run(id).changes) !== 1) throw new Error(`delete of message ${id} deleted no row`);
          }
          deleted += victims.length;
        },
        verify: () => {
          expectCount(ctx.conn, ctx.seeded + added - deleted);
          return { deleted, replaced: added };
        },
      };
    },
  },
  {
    name: 'vacuum',
    label: 'VACUUM',
    kind: 'timed',
    count: { warmup: 0, full: 1, quick: 1 },
    show: 'ms',
    rows: 0,
    bound: 'io',
    unit: 'VACUUM of the seeded database',
    task: (ctx) => {
      let runs = 0;
      return {
        maxBatch: 1,
        run: () => {
          ctx.conn.exec('VACUUM');
          runs++;
        },
        verify: () => {
          const free = Number(scalar(ctx.conn, 'PRAGMA freelist_count'));
          if (free !== 0) throw new Error(`after VACUUM the freelist has ${free} pages`);
          expectCount(ctx.conn, ctx.seeded);
          return { vacuums: runs };
        },
      };
    },
  },
  {
    name: 'checkpoint',
    label: 'WAL checkpoint',
    kind: 'timed',
    count: { warmup: 1, full: 4, quick: 2 },
    show: 'ops',
    rows: 0,
    bound: 'io',
    unit: 'wal_checkpoint(TRUNCATE) after 20 updates in one transaction',
    skip: ({ journalMode }) =>
      journalMode === 'wal' ? null : `journal_mode is ${journalMode}, not wal: there is no WAL to checkpoint`,
    task: (ctx) => {
      // With TRUNCATE, SQLite reports 0 frames once the WAL is gone, so the proof is on disk:
      // the WAL has frames before each checkpoint and is empty after it.
      const update = ctx.conn.prepare('UPDATE messages SET modseq = modseq + 1 WHERE id = ?');
      const begin = ctx.conn.prepare('BEGIN');
      const commit = ctx.conn.prepare('COMMIT');
      const checkpoint = ctx.conn.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
      const wal = `${ctx.file}-wal`;
      let walBytes = 0;
      let checkpoints = 0;
      /** @type {Record<string, unknown> | undefined} */
      let last;
      return {
        maxBatch: 1,
        before: () => {
          begin.run();
          for (let i = 0; i < 20; i++) update.run(1 + randomInt(ctx.random, ctx.seeded));
          commit.run();
          const size = fs.statSync(wal).size;
          if (size === 0) throw new Error('the WAL is empty before the checkpoint');
          walBytes += size;
        },
        run: () => {
          last = checkpoint.get();
        },
        after: () => {
          const size = fs.statSync(wal).size;
          if (Number(last?.busy) !== 0 || size !== 0)
            throw new Error(`checkpoint did not complete: ${JSON.stringify(last)}, WAL ${size} bytes after`);
          checkpoints++;
        },
        verify: () => ({ checkpoints, walBytesCheckpointed: walBytes }),
      };
    },
  },
  {
    name: 'size',
    label: 'DB size',
    kind: 'size',
    show: 'bytes',
    rows: 0,
    unit: 'bytes of the main file and the WAL after seeding',
  },
];

/** The operations the answers summarise over: those that write pages, the read, the open (the key derivation). */
export const OP_GROUPS = /** @type {const} */ ({
  writes: ['insert', 'insert-batch', 'update', 'delete', 'vacuum', 'checkpoint'],
  reads: ['select'],
  opening: ['setup'],
});
