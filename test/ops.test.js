import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { Bench } from 'tinybench';
import { CIPHERS } from '../bench/data/ciphers.js';
import { CONFIGS } from '../bench/data/configs.js';
import { openConfigured } from '../bench/engine/database.js';
import { scalar } from '../lib/sqlite.js';
import {
  INSERT_MAILBOX,
  INSERT_MESSAGE,
  MAILBOXES,
  MAIL_SCHEMA,
  generateMessages,
  messageParams,
} from '../bench/data/mail.js';
import { combine, measure, tinybenchStats } from '../bench/engine/measure.js';
import { medianRse } from '../lib/stats/spread.js';
import { BATCH_ROWS, OPS } from '../bench/data/ops.js';
import { createRandom } from '../lib/prng.js';
import { driver, scratch } from './helpers.js';

const BUDGET = { time: 20, warmupTime: 5, minSamples: 3, minSampleMs: 0.02, rounds: 1 };
const SEEDED = 600;

async function seeded(driverName = 'better-sqlite3-multiple-ciphers', config = CONFIGS[0]) {
  const d = await driver(driverName);
  const dir = scratch();
  const file = path.join(dir, 'ops.db');
  const cipher = CIPHERS.find((c) => c.name === (d.name === 'better-sqlite3-multiple-ciphers' ? 'chacha20' : 'none'));
  const { conn } = openConfigured(d, file, {
    pragmas: config.pragmas,
    cipher: /** @type {any} */ (cipher),
    key: 'k',
    tempdir: dir,
    schema: MAIL_SCHEMA,
  });
  MAILBOXES.forEach((p, i) => conn.prepare(INSERT_MAILBOX).run(i + 1, p, 1, 1));
  const insert = conn.prepare(INSERT_MESSAGE);
  conn.exec('BEGIN');
  generateMessages(7, SEEDED).forEach((m, i) => insert.run(...messageParams(m, i + 1)));
  conn.exec('COMMIT');
  const ctx = {
    conn,
    file,
    pool: generateMessages(8, 16),
    random: createRandom(3),
    seeded: SEEDED,
    journalMode: 'wal',
    fresh: () => {
      throw new Error('not here');
    },
  };
  return { conn, ctx, dir };
}

const op = (/** @type {string} */ name) => /** @type {any} */ (OPS.find((o) => o.name === name));
const count = (/** @type {import('../lib/sqlite.js').Conn} */ conn) =>
  Number(scalar(conn, 'SELECT count(*) FROM messages'));

test('delete deletes existing rows: the count after equals seeded + replacements - deletions', async () => {
  const { conn, ctx } = await seeded();
  const task = op('delete').task(ctx);
  measure(task, BUDGET);
  const v = task.verify();
  assert.ok(v.deleted > 0);
  assert.equal(count(conn), SEEDED + v.replaced - v.deleted);
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
  const round = measure(task, BUDGET);
  assert.equal(task.verify().rowsRead % 50, 0);
  assert.ok(task.verify().rowsRead >= round.latencies.length * round.opsPerSample * 50);
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
  assert.ok(task.verify().vacuums >= 1);
  assert.equal(count(conn), SEEDED);
  conn.exec('DELETE FROM messages WHERE id = 1');
  assert.throws(() => task.verify(), /expected 600 messages, found 599/);
  conn.close();
});

test('measure: fast operations are batched, slow or unbatchable ones are not, before() runs untimed once per sample', () => {
  let befores = 0;
  let ran = 0;
  const fast = measure(
    {
      run: (n) => {
        ran += n;
      },
      before: (n) => {
        befores++;
        assert.ok(n >= 1);
      },
    },
    BUDGET,
  );
  assert.ok(fast.opsPerSample > 1);
  assert.ok(fast.latencies.length >= BUDGET.minSamples);
  assert.ok(ran >= fast.latencies.length * fast.opsPerSample);
  assert.ok(befores >= fast.latencies.length);
  const one = measure({ maxBatch: 1, run: () => {} }, BUDGET);
  assert.equal(one.opsPerSample, 1);
  for (const s of [combine([fast]), combine([one])]) {
    assert.ok(
      s.opsPerSec.median > 0 &&
        s.opsPerSec.mean > 0 &&
        s.latencyMs.p99 >= s.latencyMs.median &&
        s.latencyMs.sd >= 0 &&
        s.rme >= 0,
    );
  }
});

test("combine: the statistics are tinybench's own for the pooled samples; the headline is the median of round medians", () => {
  const a = { opsPerSec: 1000, opsPerSample: 1, latencies: [1, 1.1, 0.9, 1.05, 0.95] };
  const b = { opsPerSec: 900, opsPerSample: 2, latencies: [1.2, 1.1, 1.15] };
  const c = { opsPerSec: 5000, opsPerSample: 1, latencies: [0.2, 0.21, 0.19] }; // a disturbed round
  const s = combine([a, b, c]);
  const t = tinybenchStats([...a.latencies, ...b.latencies, ...c.latencies]);
  assert.equal(s.latencyMs.mean, t.latency.mean);
  assert.equal(s.latencyMs.p99, t.latency.p99);
  assert.equal(s.latencyMs.sd, t.latency.sd);
  assert.equal(s.rme, t.latency.rme);
  assert.equal(s.opsPerSec.mean, t.throughput.mean);
  assert.equal(s.samples, 11);
  assert.deepEqual(s.rounds, [1000, 900, 5000]);
  assert.equal(s.opsPerSec.median, 1000, 'one wild round moves the median of medians no further than its neighbour');
  assert.equal(combine([a, b]).opsPerSec.median, 950);
  assert.ok(Math.abs(s.totalMs - (5 + 3.45 * 2 + 0.6)) < 1e-9);
  assert.throws(() => combine([]), /no rounds/);
});

test('medianRse: 1.2533 · 1.4826 · MAD of the logs / √n, in %; one wild round barely moves it; none below 3 rounds', () => {
  // logs 0, ±a, ±2a: MAD of the logs is a
  const a = 0.01;
  const xs = [1, Math.exp(a), Math.exp(-a), Math.exp(2 * a), Math.exp(-2 * a)].map((x) => 1000 * x);
  const want = 100 * Math.expm1((1.2533 * 1.4826 * a) / Math.sqrt(5));
  assert.ok(Math.abs(medianRse(xs) - want) < 1e-9, `${medianRse(xs)} vs ${want}`);
  assert.ok(Math.abs(medianRse(xs.map((x) => x * 7)) - want) < 1e-9, 'scale-free');
  const wild = [...xs.slice(0, 4), 1000 * Math.exp(-0.5)]; // one round 40% slow instead of 2%
  assert.ok(medianRse(wild) < 1.6 * want, `${medianRse(wild)}`);
  assert.ok(medianRse([...xs, ...xs, ...xs, ...xs]) < want / 1.9, 'four times the rounds, half the error');
  assert.equal(medianRse([5, 5, 5]), 0);
  assert.ok(Number.isNaN(medianRse([1, 2])));
  assert.equal(
    combine([1000, 1010, 990].map((o) => ({ opsPerSec: o, opsPerSample: 1, latencies: [1 / o] }))).opsPerSec.rse,
    medianRse([1000, 1010, 990]),
  );
  assert.equal(combine([{ opsPerSec: 1, opsPerSample: 1, latencies: [1] }]).opsPerSec.rse, undefined);
});

test('tinybenchStats gives exactly the statistics tinybench computed when it measured those samples', () => {
  const bench = new Bench({ time: 10, iterations: 20, warmup: false });
  bench.add('t', () => {
    for (let i = 0; i < 1000; i++);
  });
  bench.runSync();
  const measured = /** @type {any} */ (bench.tasks[0].result);
  const again = tinybenchStats([...measured.latency.samples]);
  for (const k of ['mean', 'p50', 'p99', 'sd', 'rme', 'min', 'max'])
    assert.equal(again.latency[k], measured.latency[k], k);
  for (const k of ['mean', 'p50', 'rme']) assert.equal(again.throughput[k], measured.throughput[k], k);
  assert.equal(again.latency.samples.length, measured.latency.samples.length);
});

test('measure never does work outside the samples it times: setup opens exactly one database per sample, and closes it', () => {
  const opened = [];
  let open = 0;
  const task = {
    maxBatch: 1,
    run: () => {
      opened.push(++open);
    },
    after: () => {
      open--;
    },
  };
  const round = measure(task, BUDGET);
  assert.equal(open, 0, 'a database opened outside a sample was never closed');
  // warm-up samples + measured samples: every run() was followed by its after()
  assert.ok(opened.length >= round.latencies.length);
});
