import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { CIPHERS } from '../bench/ciphers.js';
import { CONFIGS } from '../bench/configs.js';
import { openConfigured, scalar } from '../bench/database.js';
import { INSERT_MAILBOX, INSERT_MESSAGE, MAILBOXES, SCHEMA, generateMessages, messageParams } from '../bench/mail.js';
import { measure } from '../bench/measure.js';
import { BATCH_ROWS, OPS } from '../bench/ops.js';
import { createRandom } from '../bench/prng.js';
import { driver, scratch } from './helpers.js';

const BUDGET = { time: 20, warmupTime: 5, minSamples: 3, minSampleMs: 0.02 };
const SEEDED = 600;

async function seeded(driverName = 'better-sqlite3-multiple-ciphers', config = CONFIGS[0]) {
  const d = await driver(driverName);
  const dir = scratch();
  const file = path.join(dir, 'ops.db');
  const cipher = CIPHERS.find((c) => c.name === (d.name === 'better-sqlite3-multiple-ciphers' ? 'chacha20' : 'none'));
  const { conn } = openConfigured(d, file, { pragmas: config.pragmas, cipher: /** @type {any} */ (cipher), key: 'k', tempdir: dir, schema: SCHEMA });
  MAILBOXES.forEach((p, i) => conn.prepare(INSERT_MAILBOX).run(i + 1, p, 1, 1));
  const insert = conn.prepare(INSERT_MESSAGE);
  conn.exec('BEGIN');
  generateMessages(7, SEEDED).forEach((m, i) => insert.run(...messageParams(m, i + 1)));
  conn.exec('COMMIT');
  const ctx = { conn, file, pool: generateMessages(8, 16), random: createRandom(3), seeded: SEEDED, journalMode: 'wal', fresh: () => { throw new Error('not here'); } };
  return { conn, ctx, dir };
}

const op = (/** @type {string} */ name) => /** @type {any} */ (OPS.find((o) => o.name === name));
const count = (conn) => Number(scalar(conn, 'SELECT count(*) FROM messages'));

test('delete deletes existing rows: the count after equals seeded + replacements - deletions', async () => {
  const { conn, ctx } = await seeded();
  const task = op('delete').task(ctx);
  measure(task, BUDGET);
  const v = task.verify();
  assert.ok(v.deleted > 0);
  assert.equal(count(conn), v.messages);
  conn.close();
});

test('delete fails loudly when its victim does not exist', async () => {
  const { conn, ctx } = await seeded();
  conn.exec('DELETE FROM messages'); // nothing left to delete, though the op believes 600 rows exist
  const task = op('delete').task(ctx);
  assert.throws(() => measure(task, BUDGET), /deleted no row/);
  conn.close();
});

test('update changes one row per operation, and fails loudly when the row is gone', async () => {
  const { conn, ctx } = await seeded();
  const before = Number(scalar(conn, 'SELECT sum(modseq) FROM messages'));
  const task = op('update').task(ctx);
  measure(task, BUDGET);
  const { updated } = task.verify();
  assert.ok(updated > 0);
  assert.equal(Number(scalar(conn, 'SELECT sum(modseq) FROM messages')) - before, updated);
  conn.exec('DELETE FROM messages');
  assert.throws(() => measure(op('update').task(ctx), BUDGET), /changed no row/);
  conn.close();
});

test('insert and insert-batch add exactly the rows they count', async () => {
  for (const name of ['insert', 'insert-batch']) {
    const { conn, ctx } = await seeded();
    const task = op(name).task(ctx);
    measure(task, BUDGET);
    const v = task.verify();
    assert.equal(count(conn), SEEDED + v.inserted, name);
    if (name === 'insert-batch') assert.equal(v.inserted % BATCH_ROWS, 0);
    conn.close();
  }
});

test('select reads 50 rows through messages_mailbox_date', async () => {
  const { conn, ctx } = await seeded();
  const task = op('select').task(ctx);
  const stats = measure(task, BUDGET);
  assert.equal(task.verify().rowsRead % 50, 0);
  assert.ok(task.verify().rowsRead >= stats.samples * stats.opsPerSample * 50);
  conn.exec('DROP INDEX messages_mailbox_date');
  assert.throws(() => op('select').task(ctx), /does not use messages_mailbox_date/);
  conn.close();
});

test('checkpoint empties a WAL that had frames, every time; it is skipped when there is no WAL', async () => {
  const { conn, ctx } = await seeded();
  const task = op('checkpoint').task(ctx);
  measure(task, BUDGET);
  const v = task.verify();
  assert.ok(v.checkpoints >= 3 && v.walBytesCheckpointed > 0);
  assert.match(String(op('checkpoint').skip({ journalMode: 'delete' })), /not wal/);
  assert.equal(op('checkpoint').skip({ journalMode: 'wal' }), null);
  conn.close();
});

test('vacuum leaves no free pages and every message in place', async () => {
  const { conn, ctx } = await seeded();
  const task = op('vacuum').task(ctx);
  measure(task, BUDGET);
  assert.deepEqual(task.verify(), { vacuums: task.verify().vacuums, messages: SEEDED });
  conn.close();
});

test('measure: fast operations are batched, slow or unbatchable ones are not, before() runs untimed once per sample', () => {
  let befores = 0;
  let ran = 0;
  const fast = measure({ run: (n) => { ran += n; }, before: (n) => { befores++; assert.ok(n >= 1); } }, BUDGET);
  assert.ok(fast.opsPerSample > 1);
  assert.ok(fast.samples >= BUDGET.minSamples);
  assert.ok(ran >= fast.samples * fast.opsPerSample);
  assert.ok(befores >= fast.samples);
  const one = measure({ maxBatch: 1, run: () => {} }, BUDGET);
  assert.equal(one.opsPerSample, 1);
  for (const s of [fast, one]) {
    assert.ok(s.opsPerSec.median > 0 && s.opsPerSec.mean > 0 && s.latencyMs.p99 >= s.latencyMs.median && s.latencyMs.sd >= 0 && s.rme >= 0);
  }
});
