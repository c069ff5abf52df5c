// The workloads (bench/workloads/): the barrier, SQLITE_BUSY counting, a crashed and a hung worker,
// the verifications (50 rows per read, every write counted back), a killed round process, SIGINT,
// the table and filters, and growth. A quick bench run with the workloads, end to end (its
// document, valid and read by the aggregate, its section), is test/e2e/workloads.test.js.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { applyKey } from '../bench/engine/database.js';
import { CIPHERS } from '../bench/data/ciphers.js';
import { WORKLOADS, WORKLOAD_NAMES, selectWorkloads, workloadPragmas } from '../bench/data/workloads.js';
import { runConcurrency } from '../bench/workloads/concurrency.js';
import { isBusy } from '../bench/workloads/busy.js';
import { scaleRows } from '../aggregate/render/workload-rows.js';
import { runRoundProcess } from '../bench/workloads/spawn.js';
import { buildTemplate } from '../bench/workloads/template.js';
import { workloadFilter } from '../bench/engine/flags.js';
import { UsageError } from '../lib/command.js';
import { ROOT, childEnv, driver, drivers, scratch } from './helpers.js';

const KEY = 'test-key-17';
const CHACHA = /** @type {import('../bench/data/ciphers.js').Cipher} */ (CIPHERS.find((c) => c.name === 'chacha20'));
// a cast, not only a type: template()'s cipher defaults to CHACHA, so undefined would pass silently
const NONE = /** @type {import('../bench/data/ciphers.js').Cipher} */ (CIPHERS.find((c) => c.name === 'none'));
const row = (/** @type {string} */ name) =>
  /** @type {import('../bench/data/workloads.js').ConcurrencyWorkload} */ (WORKLOADS.find((w) => w.name === name));

/** A template of `messages` messages with a workload's PRAGMAs, in a scratch directory. */
async function template(/** @type {string} */ name, messages = 400, cipher = CHACHA) {
  const dir = scratch('workloads-test-');
  const d = await driver('better-sqlite3-multiple-ciphers');
  const file = path.join(dir, 'template.db');
  fs.mkdirSync(path.join(dir, 'tmp'));
  buildTemplate(d, file, {
    pragmas: workloadPragmas({ ...row(name), busy: 'configured' }),
    cipher,
    key: KEY,
    tempdir: path.join(dir, 'tmp'),
    messages,
    seed: 1,
  });
  return { dir, file, open: d.open, tempdir: path.join(dir, 'tmp') };
}

let copies = 0;
/** Options of a concurrency round on a fresh copy of a template (overridable), as a run makes them. */
function round(/** @type {Awaited<ReturnType<typeof template>>} */ t, /** @type {string} */ name, extra = {}) {
  const w = row(name);
  const file = path.join(t.dir, `round-${copies++}.db`);
  fs.copyFileSync(t.file, file);
  return {
    file,
    driver: 'better-sqlite3-multiple-ciphers',
    cipher: CHACHA,
    key: KEY,
    pragmas: workloadPragmas(w),
    tempdir: t.tempdir,
    readers: w.readers,
    writer: w.writer,
    durationMs: 150,
    seed: 1,
    seeded: 400,
    open: t.open,
    ...extra,
  };
}

test('the table: WAL and DELETE of every shape and setup pair up; the default and quick selections are small; filters choose', () => {
  const conc = WORKLOADS.filter((w) => w.kind === 'concurrency');
  for (const w of conc) {
    const other = conc.filter((x) => x.kind === 'concurrency' && x.pair === w.pair);
    assert.deepEqual(other.map((x) => x.kind === 'concurrency' && x.journal).sort(), ['DELETE', 'WAL'], w.name);
  }
  assert.equal(new Set(WORKLOADS.map((w) => w.name)).size, WORKLOADS.length, 'names are unique');
  const def = selectWorkloads({ quick: false });
  assert.ok(def.length < WORKLOADS.length, 'the default is a subset');
  for (const readers of [1, 2, 4])
    assert.ok(
      def.some((w) => w.kind === 'concurrency' && w.readers === readers && w.writer),
      `default has ${readers} reader(s) with a writer`,
    );
  assert.ok(
    def.some((w) => w.kind === 'concurrency' && !w.writer),
    'default has the readers-only control',
  );
  assert.deepEqual(
    def.filter((w) => w.kind === 'scale').map((w) => w.kind === 'scale' && w.messages),
    [2000, 20000, 200000],
  );
  assert.deepEqual(
    selectWorkloads({ quick: true }).map((w) => w.name),
    ['wal-w1r2', 'delete-w1r2', 'scale-2k', 'scale-20k'],
  );
  assert.deepEqual(selectWorkloads({ quick: true, names: ['none'] }), []);
  assert.equal(selectWorkloads({ quick: false, names: ['all'] }).length, WORKLOADS.length);
  assert.ok(
    selectWorkloads({ quick: false, names: ['default'], driver: ['better-sqlite3'] }).every(
      (w) => w.driver === 'better-sqlite3',
    ),
  );
  assert.deepEqual(workloadFilter(['wal-w1r1,delete-w1r1', 'wal-w1r1']), ['wal-w1r1', 'delete-w1r1']);
  assert.throws(
    () => workloadFilter(['wal-w9r9']),
    (e) => e instanceof UsageError && /unknown --workload 'wal-w9r9'; valid: default, all, none/.test(e.message),
  );
  assert.ok(WORKLOAD_NAMES.includes('scale-200k'));
  // every PRAGMA but journal_mode and busy_timeout is production's
  const wal = workloadPragmas(row('wal-w1r2'));
  const del = workloadPragmas(row('delete-w1r2-busy0'));
  assert.deepEqual(
    wal.filter(([n]) => n !== 'journal_mode' && n !== 'busy_timeout'),
    del.filter(([n]) => n !== 'journal_mode' && n !== 'busy_timeout'),
  );
  assert.deepEqual(
    [
      wal.find(([n]) => n === 'journal_mode'),
      del.find(([n]) => n === 'journal_mode'),
      del.find(([n]) => n === 'busy_timeout'),
    ],
    [
      ['journal_mode', 'WAL'],
      ['journal_mode', 'DELETE'],
      ['busy_timeout', 0],
    ],
  );
});

test('a round: every worker passes the barrier only when all are there; reads return 50 rows; every write is counted back', async () => {
  const t = await template('wal-w1r2');
  const o = round(t, 'wal-w1r2');
  const r = await runConcurrency(o);
  assert.equal(r.perReader.length, 2);
  assert.ok(r.readsPerSec > 0 && /** @type {number} */ (r.writesPerSec) > 0);
  assert.equal(r.verified.rowsRead, r.verified.reads * 50);
  assert.equal(r.pragmas.journal_mode, 'wal');
  assert.equal(r.pragmas.busy_timeout, 30000);
  // counted again here, independently of the round
  const conn = t.open(o.file);
  applyKey(conn, CHACHA, KEY);
  assert.equal(
    Number(Object.values(/** @type {any} */ (conn.prepare('SELECT count(*) FROM messages').get()))[0]),
    400 + r.verified.writes,
  );
  conn.close();
});

test('the rollback journal with busy_timeout 0: a writer blocked by a lock counts SQLITE_BUSY and writes nothing; readers go on', async () => {
  const t = await template('delete-w1r2-busy0');
  // another connection holds the write lock (RESERVED) from the start of the round: readers may
  // read, the writer may not write (the workers' setup writes, so the lock is taken after it)
  const o = round(t, 'delete-w1r2-busy0');
  const holder = t.open(o.file);
  applyKey(holder, CHACHA, KEY);
  try {
    const r = await runConcurrency({ ...o, beforeStart: () => holder.exec('BEGIN IMMEDIATE') });
    assert.equal(r.pragmas.journal_mode, 'delete');
    assert.equal(r.pragmas.busy_timeout, 0);
    assert.ok(r.busy.writes > 0, `SQLITE_BUSY counted: ${r.busy.writes}`);
    assert.equal(r.verified.writes, 0);
    assert.equal(r.writeP50Ms, null, 'no write finished');
    assert.ok(r.verified.reads > 0);
  } finally {
    holder.exec('ROLLBACK');
    holder.close();
  }
});

test('a writer that waits on a lock past the deadline is a hung worker: the round fails naming it, and stops', async () => {
  const t = await template('delete-w1r1');
  const o = round(t, 'delete-w1r1', { stopGraceMs: 300 });
  const holder = t.open(o.file);
  applyKey(holder, CHACHA, KEY);
  try {
    // busy_timeout as configured (30 s): the writer's first insert waits far past the deadline
    await assert.rejects(
      runConcurrency({ ...o, beforeStart: () => holder.exec('BEGIN IMMEDIATE') }),
      /writer(, reader \d+)* did not stop within 0\.3 s of the deadline \(hung\)/, // a loaded reader may be named too
    );
  } finally {
    holder.exec('ROLLBACK');
    holder.close();
  }
});

test('a worker that crashes fails the round with the reason; one that fails before the start aborts the others at the barrier', async () => {
  const t = await template('wal-w1r2');
  await assert.rejects(
    runConcurrency(round(t, 'wal-w1r2', { fault: { role: 'reader', index: 1, kind: 'crash', after: 3 } })),
    /reader 2 failed: injected crash after 3 operations/,
  );
  await assert.rejects(
    runConcurrency(
      round(t, 'wal-w1r2', { fault: { role: 'writer', index: 0, kind: 'hang', after: 2 }, stopGraceMs: 200 }),
    ),
    /writer(, reader \d+)* did not stop within 0\.2 s/,
  );
  // the wrong key: the first worker cannot read the file, nobody starts
  await assert.rejects(
    runConcurrency(round(t, 'wal-w1r2', { key: 'not-the-key' })),
    /writer failed before the start: .*(not a database|NOTADB)/i,
  );
});

test('the verifications fail a round: a read of fewer than 50 rows, a write not in the database', async () => {
  const small = await template('wal-w1r1', 100); // 12 or 13 messages per mailbox
  await assert.rejects(
    runConcurrency(round(small, 'wal-w1r1', { seeded: 100 })),
    /reader 1 failed: select returned \d+ rows, expected 50/,
  );
  const t = await template('wal-w1r1');
  await assert.rejects(
    runConcurrency(round(t, 'wal-w1r1', { seeded: 399 })),
    /the database holds \d+ messages; expected 399 seeded \+ \d+ written/,
  );
});

test('SQLITE_BUSY is recognised from every driver', async () => {
  const dir = scratch('workloads-busy-');
  for (const [name, d] of await drivers()) {
    if (!d.open) continue;
    const file = path.join(dir, `${name.replace(/\W/g, '_')}.db`);
    const a = d.open(file);
    const b = d.open(file);
    a.exec('PRAGMA busy_timeout = 0; CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)');
    b.exec('PRAGMA busy_timeout = 0');
    let err;
    try {
      b.prepare('SELECT count(*) FROM t').get();
    } catch (e) {
      err = e;
    }
    assert.ok(err && isBusy(err), `${name}: ${/** @type {any} */ (err)?.message}`);
    assert.equal(isBusy(new Error('no such table: t')), false);
    a.exec('ROLLBACK');
    a.close();
    b.close();
  }
});

test('a round process that outlives its limit is killed, and its directory removed; SIGINT removes it too', async () => {
  const t = await template('wal-w1r1', 400, NONE);
  const workdir = path.join(t.dir, 'p0');
  const env = childEnv({ SQLITE_BENCH_KEY: KEY });
  const spec = {
    kind: /** @type {const} */ ('concurrency'),
    driver: 'better-sqlite3-multiple-ciphers',
    cipher: 'none',
    pragmas: workloadPragmas(row('wal-w1r1')),
    seed: 1,
    workdir,
    template: t.file,
    seeded: 400,
    readers: 1,
    writer: true,
    durationMs: 20_000,
  };
  const r = await runRoundProcess(spec, { env, limitMs: 1500 });
  assert.equal(r.status, 'error');
  assert.match(r.reason, /did not finish within 2 s and was killed/);
  assert.equal(fs.existsSync(workdir), false);
  // SIGINT: the process removes its copy and exits 130
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/workloads/round.js'), JSON.stringify(spec)], {
    env,
    stdio: 'ignore',
  });
  const exited = new Promise((res) => child.on('exit', (code) => res(code)));
  while (!fs.existsSync(path.join(workdir, 'round.db'))) await new Promise((res) => setTimeout(res, 20));
  await new Promise((res) => setTimeout(res, 300));
  child.kill('SIGINT');
  assert.equal(await exited, 130);
  assert.equal(fs.existsSync(workdir), false, 'the round directory is gone');
});

test("scale rows: each figure's growth per 10× messages with its interval (the README's growthOf); the file's, exact", () => {
  const sc = (/** @type {number} */ n, /** @type {number} */ rate, /** @type {number} */ ms) => ({
    kind: 'scale',
    status: 'ok',
    setup: { messages: n },
    figures: {
      select: { median: rate, low: 0.9 * rate, high: 1.1 * rate },
      vacuum: { median: ms, low: ms, high: ms },
      vacuumPeakRss: { median: 1e8 },
    },
    files: { before: { mainBytes: n * 100, walBytes: 0 } },
  });
  const rows = scaleRows({ cases: [sc(20_000, 500, 40), sc(2_000, 1000, 4), sc(200_000, 250, 400)] }, String);
  const growth = (/** @type {string} */ label) => rows.find((r) => r[0] === label)?.at(-1) ?? '';
  assert.deepEqual(rows[0], [
    'Figure',
    '2,000 messages',
    '20,000 messages',
    '200,000 messages',
    'Cost per 10× messages',
  ]);
  // half the rate per 10×: twice the time per select; bounds 2 × (0.9/1.1)^½ and 2 × (1.1/0.9)^½
  assert.equal(growth('Select/s'), '×2 [×1.81, ×2.21]');
  assert.equal(growth('VACUUM (ms)'), '×10 [×10, ×10]');
  assert.equal(growth('Database file (MB)'), '×10', 'bytes are exact: no interval');
  assert.equal(growth('Peak RSS during VACUUM (MB)'), '–', 'one round, no interval: no growth');
  assert.deepEqual(
    scaleRows({ cases: [sc(2_000, 1000, 4)] }, String)
      .map((r) => r.at(-1))
      .slice(1),
    Array(9).fill('–'),
    'one size: no growth',
  );
});
