import assert from 'node:assert/strict';
import { countingTools } from '../bench/counts/tools.js';
import { OPS } from '../bench/tables/ops.js';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import semver from 'semver';
import { cases, setups, TABLES } from '../bench/tables/suite.js';
import { validate } from '../bench/result/document.js';
import { RESULT_FILE } from '../bench/result/header.js';
import { ROOT, childEnv, entries, scratch } from './helpers.js';

const KEY = 'never-print-me-7f3a9c';

/**
 * Run the bench CLI; TMPDIR points into a scratch dir so leftovers can be seen.
 * @param {string[]} args
 * @param {{ tmp?: string }} [o]
 */
function bench(args, { tmp = scratch('bench-tmp-') } = {}) {
  const out = scratch('bench-out-');
  const before = entries(tmp);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bench/cli.js'), '--out', out, ...args], {
    encoding: 'utf8',
    env: childEnv({ SQLITE_BENCH_KEY: KEY, TMPDIR: tmp }),
  });
  const files = fs.readdirSync(out);
  /** @type {any} */
  const doc = files.length ? JSON.parse(fs.readFileSync(path.join(out, files[0]), 'utf8')) : null;
  return { ...r, doc, files, tmp, before, raw: files.length ? fs.readFileSync(path.join(out, files[0]), 'utf8') : '' };
}

test('the quick suite writes one schema-valid document covering every case, ok or with a reason, and never the key', () => {
  const r = bench(['--quick']);
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  assert.equal(r.files.length, 1, r.files.join(', '));
  assert.match(r.files[0], RESULT_FILE);
  assert.ok(r.files[0].startsWith(`${process.platform}-${process.arch}-node-${process.version}-`), r.files[0]);
  assert.ok(r.doc);
  assert.deepEqual(validate(r.doc), []);
  assert.equal(r.doc.run.status, 'complete');
  assert.equal(r.doc.run.mode, 'quick');
  const want = cases()
    .map((c) => `${c.config}/${c.driver}/${c.cipher}/${c.op}`)
    .sort();
  const got = r.doc.cases.map((/** @type {any} */ c) => `${c.config}/${c.driver}/${c.cipher}/${c.op}`).sort();
  assert.deepEqual(got, want);
  for (const table of /** @type {const} */ (['config', 'driver', 'cipher', 'op']))
    assert.deepEqual(new Set(r.doc.cases.map((/** @type {any} */ c) => c[table])), new Set(TABLES[table]), table);
  for (const c of r.doc.cases) {
    if (c.status !== 'ok') assert.ok(c.reason, `${c.config}/${c.driver}/${c.cipher}/${c.op}`);
    else assert.equal(typeof c.pragmas, 'object');
  }
  // every setup used is there once, with every PRAGMA applied and encryption proven either way
  const used = new Set(r.doc.cases.map((/** @type {any} */ c) => `${c.config}/${c.driver}/${c.cipher}`));
  assert.deepEqual(new Set(r.doc.setups.map((/** @type {any} */ s) => `${s.config}/${s.driver}/${s.cipher}`)), used);
  assert.equal(r.doc.setups.length, used.size);
  for (const s of r.doc.setups.filter((/** @type {any} */ x) => x.status === 'ok')) {
    assert.ok(
      s.pragmas.every((/** @type {any} */ p) => p.applied),
      `${s.config}/${s.driver}/${s.cipher}`,
    );
    assert.equal(s.encryption.encrypted, s.cipher !== 'none');
    assert.equal(s.encryption.plainHeader, s.cipher === 'none');
    assert.equal(s.encryption.keylessOpen, s.cipher === 'none' ? 'ok' : 'SQLITE_NOTADB');
  }
  // the two packages always load on a supported Node; errors would be bugs
  const errors = r.doc.cases.filter((/** @type {any} */ c) => c.status === 'error');
  assert.deepEqual(
    errors.map((/** @type {any} */ c) => `${c.config}/${c.cipher}/${c.op}: ${c.reason}`),
    [],
  );
  for (const d of r.doc.drivers.filter((/** @type {any} */ x) => x.name !== 'node:sqlite')) {
    assert.equal(d.status, 'ok', d.reason);
    assert.match(d.binary.sha256, /^[0-9a-f]{64}$/);
    assert.ok(fs.existsSync(path.join(ROOT, d.binary.file)), d.binary.file);
  }
  const sqlite = r.doc.drivers.find((/** @type {any} */ x) => x.name === 'node:sqlite');
  assert.equal(sqlite.status === 'ok', semver.satisfies(process.version, '^22.13.0 || >=23.4.0'), sqlite.reason);
  for (const text of [r.raw, r.stdout, r.stderr]) assert.ok(!text.includes(KEY), 'the key appears in the output');
  assert.deepEqual(r.before, []);
  assert.deepEqual(entries(r.tmp), [], 'temporary files or directories were left behind');
  assert.match(r.stdout, /\| Config +\| Driver +\| Cipher +\|/);
  assert.match(r.stderr, /\[\s*1\/\d+\] \d\d:\d\d elapsed, ETA/);
  // counted after the timed run: every timed case that ran, or the document says why not
  const tools = countingTools();
  const timed = r.doc.cases.filter((/** @type {any} */ c) => c.status === 'ok' && c.stats);
  if (tools.status !== 'ok') {
    assert.deepEqual(r.doc.counting, tools);
    assert.ok(timed.every((/** @type {any} */ c) => !c.counts));
    return;
  }
  assert.equal(r.doc.counting.status, 'ok', r.doc.counting.reason);
  const key = (/** @type {any} */ c) => `${c.config}/${c.driver}/${c.cipher}/${c.op}`;
  assert.deepEqual(
    timed.filter((/** @type {any} */ c) => c.counts?.status !== 'ok').map(key),
    [],
    'every timed case is counted',
  );
  for (const c of timed) {
    const op = OPS.find((o) => o.name === c.op);
    assert.equal(c.counts.ops, op?.count?.quick, `${key(c)}: the quick K`);
    assert.ok(c.counts.instructions > 0 && c.counts.repeat.instructions > 0, key(c));
  }
  assert.equal(r.doc.counting.repeat.cases, timed.length);
  // how far the two counts differ is measured and recorded for every case (the quick K is small,
  // and how close they come is meta:counting's to show, docs/counting.md)
  assert.ok(timed.every((/** @type {any} */ c) => Number.isFinite(c.counts.repeat.difference)));
  const diffs = timed.map((/** @type {any} */ c) => Math.abs(c.counts.repeat.difference));
  assert.equal(r.doc.counting.repeat.quantiles.max, Math.max(...diffs), 'the spread is the cases’ spread');
  assert.equal(
    r.doc.counting.repeat.within['0.1%'],
    diffs.filter((/** @type {number} */ d) => d <= 0.001).length,
    'the count within 0.1% is the cases’',
  );
  assert.match(r.stdout, /What one operation costs, counted: instructions · fsyncs per operation/);
  assert.match(
    r.stdout,
    /Counts \(instructions under valgrind [\d.]+'s callgrind, system calls under strace [\d.]+; \d+ processes, \d+ s\): every case counted twice/,
  );
});

test('an interrupted run writes a valid document with the finished cases, and removes its databases', async () => {
  const tmp = scratch('bench-tmp-');
  const out = scratch('bench-out-');
  const { spawn } = await import('node:child_process');
  assert.deepEqual(entries(tmp), []);
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/cli.js'), '--quick', '--out', out], {
    env: childEnv({ TMPDIR: tmp }),
  });
  let err = '';
  const code = await new Promise((resolve) => {
    child.stderr.on('data', (b) => {
      err += b;
      // the first block (one operation's cases, measured together) is done: stop during the next
      if (/\[\s*[1-9]\d*\/\d+\]/.test(err) && !child.killed) child.kill('SIGTERM');
    });
    child.on('exit', (c) => resolve(c));
  });
  assert.equal(code, 143, err);
  const [file] = fs.readdirSync(out);
  const doc = JSON.parse(fs.readFileSync(path.join(out, file), 'utf8'));
  assert.deepEqual(validate(doc), []);
  assert.equal(doc.run.status, 'interrupted');
  assert.equal(doc.run.interruptedBy, 'SIGTERM');
  assert.ok(doc.cases.length >= 3 && doc.cases.length < cases().length, String(doc.cases.length));
  assert.deepEqual(entries(tmp), [], 'the run, its templates and its engines left nothing in the temp dir');
});

test('the case order is shuffled by the seed, so no config is always first', () => {
  const firsts = new Set();
  for (let seed = 1; seed <= 8; seed++) {
    const r = bench(['--quick', '--seed', String(seed), '--op', 'size']);
    assert.ok(r.doc, r.stderr);
    firsts.add(r.doc.run.order[0].split('/').slice(0, 3).join('/'));
    assert.equal(r.doc.run.seed, seed);
  }
  assert.ok(firsts.size >= 4, [...firsts].join(' '));
});

test('a full run measures each round in a new engine process, gives imprecise cases extra rounds up to maxRounds, and none after the deadline', async () => {
  const { loadDrivers } = await import('../bench/engine/load-drivers.js');
  const { runSuite } = await import('../bench/run/run-suite.js');
  const drivers = await loadDrivers();
  const filters = { config: ['production'], driver: ['better-sqlite3'], op: ['select', 'update', 'size'] };
  const run = async (/** @type {object} */ budget) => {
    const r = await runSuite({
      mode: 'full',
      filters,
      seed: 3,
      drivers,
      state: { interrupted: null },
      budget: { time: 10, warmupTime: 2, ...budget },
    });
    return { engines: r.engines, ...Object.fromEntries(/** @type {any[]} */ (r.cases).map((c) => [c.op, c])) };
  };
  const rounds = (/** @type {any} */ c) => c.stats.rounds.length;
  // no case can reach a precision of 0: each gets extra rounds up to maxRounds
  const forced = await run({ rounds: 3, maxRounds: 6, targetRse: 1e-9, deadlineSeconds: 600 });
  assert.equal(rounds(forced.select), 6);
  assert.equal(rounds(forced.update), 6);
  assert.equal(forced.size.status, 'ok', 'the size is read once, never in rounds');
  assert.equal(forced.select.stats.opsPerSec.rse >= 0, true);
  assert.ok(
    forced.engines >= 6,
    `${forced.engines}: a new engine process for each of the 3 rounds and each extra pass (3 at least)`,
  );
  // every case is precise enough at once
  const easy = await run({ rounds: 3, maxRounds: 6, targetRse: 1000, deadlineSeconds: 600 });
  assert.deepEqual([rounds(easy.select), rounds(easy.update)], [3, 3]);
  assert.equal(easy.engines, 3);
  // the deadline has passed before the extra rounds: none
  const late = await run({ rounds: 3, maxRounds: 6, targetRse: 1e-9, deadlineSeconds: 1e-6 });
  assert.deepEqual([rounds(late.select), rounds(late.update)], [3, 3]);
  // a quick run is one round, however imprecise, and no extra pass
  const quick = await runSuite({
    mode: 'quick',
    filters,
    seed: 3,
    drivers,
    state: { interrupted: null },
    budget: { time: 10, warmupTime: 2, targetRse: 1e-9 },
  });
  assert.deepEqual(
    /** @type {any[]} */ (quick.cases).filter((c) => c.stats).map((c) => c.stats.rounds.length),
    [1, 1],
  );
  assert.equal(quick.engines, 1);
});

test("an engine process that dies while it measures makes that case an error with the reason, the run goes on in a new one, and the dead engine's files are removed", async () => {
  const { loadDrivers } = await import('../bench/engine/load-drivers.js');
  const { runSuite } = await import('../bench/run/run-suite.js');
  const drivers = await loadDrivers();
  let killed = '';
  // the run and its engines make their temp files in a directory of their own, counted before and after
  const tmp = scratch('bench-tmp-');
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  /** @type {string[][]} */
  const seen = [];
  let r;
  try {
    assert.deepEqual(entries(tmp), []);
    r = await runSuite({
      mode: 'full',
      filters: { config: ['production'], driver: ['better-sqlite3'], op: ['select', 'update', 'insert'] },
      seed: 5,
      drivers,
      state: { interrupted: null },
      budget: { time: 10, warmupTime: 2, rounds: 2, maxRounds: 2 },
      onProgress: (p) => {
        if (p.done !== 1 || !p.current) return;
        // the engine that measured the first case is about to get the second: kill it
        killed = `${p.current.config}/${p.current.driver}/${p.current.cipher}/${p.current.op}`;
        seen.push(entries(tmp));
        spawnSync('pkill', ['-KILL', '-P', String(process.pid), '-f', 'bench/engine/server.js']);
      },
    });
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  assert.equal(seen.length, 1);
  assert.ok(
    seen[0].some((d) => d.startsWith('sqlite-bench-engine-')) && seen[0].some((d) => d.startsWith('sqlite-bench-run-')),
    `the engine and the run work in the temp dir: ${seen[0]}`,
  );
  assert.deepEqual(entries(tmp), [], "the killed engine's directory (and the run's) are removed");
  const cs = /** @type {any[]} */ (r.cases);
  const byKey = Object.fromEntries(cs.map((c) => [`${c.config}/${c.driver}/${c.cipher}/${c.op}`, c]));
  assert.equal(byKey[killed].status, 'error');
  assert.match(byKey[killed].reason, /engine process measuring it failed: engine server stopped \(signal SIGKILL\)/);
  const others = cs.filter((c) => c !== byKey[killed]);
  assert.equal(others.length, 2);
  for (const c of others) assert.equal(c.stats.rounds.length, 2, `${c.op} was measured in both rounds`);
  assert.equal(r.engines, 3, 'round 1 in two engines (one killed), round 2 in one');
});

test('--keep-db keeps every database, each on disk with the header its cipher implies', () => {
  const keep = scratch('bench-keep-');
  const r = bench(['--quick', '--op', 'size', '--config', 'production', '--keep-db', keep]);
  assert.equal(r.status, 0, r.stderr);
  const { doc } = r;
  assert.ok(doc);
  const dirs = fs.readdirSync(keep);
  assert.equal(
    dirs.length,
    setups().filter(
      (s) =>
        s.config === 'production' && r.doc.drivers.find((/** @type {any} */ d) => d.name === s.driver).status === 'ok',
    ).length,
  );
  for (const d of dirs) {
    const head = fs
      .readFileSync(path.join(keep, d, 'template.db'))
      .subarray(0, 16)
      .toString('latin1');
    assert.equal(head === 'SQLite format 3\0', d.endsWith('__none'), d);
  }
});

test("--keep-db in a directory an earlier run used builds new templates, not that run's", () => {
  const keep = scratch('bench-keep-');
  const digest = () =>
    Object.fromEntries(
      fs.readdirSync(keep).map((d) => [
        d,
        crypto
          .createHash('sha256')
          .update(fs.readFileSync(path.join(keep, d, 'template.db')))
          .digest('hex'),
      ]),
    );
  const args = [
    '--quick',
    '--op',
    'size',
    '--config',
    'production',
    '--driver',
    'better-sqlite3-multiple-ciphers',
    '--cipher',
    'none',
    '--keep-db',
    keep,
  ];
  assert.equal(bench([...args, '--seed', '1']).status, 0);
  const first = digest();
  assert.equal(bench([...args, '--seed', '2']).status, 0);
  const second = digest();
  assert.deepEqual(Object.keys(second), Object.keys(first));
  for (const d of Object.keys(first)) assert.notEqual(second[d], first[d], `${d}: seed 2 reused seed 1's template`);
});

test('the engines of a run build and prove each template once: a later engine copies it, with the proof, and still reads every PRAGMA back', async () => {
  const { loadDrivers } = await import('../bench/engine/load-drivers.js');
  const { createSession } = await import('../bench/engine/session.js');
  const drivers = await loadDrivers();
  const templates = scratch('bench-templates-');
  const saved = process.env.SQLITE_BENCH_KEY;
  process.env.SQLITE_BENCH_KEY = KEY; // a run gives all its engines one key
  try {
    const engine = () =>
      createSession({
        mode: 'full',
        filters: {
          config: ['production'],
          driver: ['better-sqlite3-multiple-ciphers'],
          cipher: ['chacha20'],
          op: ['update'],
        },
        seed: 3,
        drivers,
        templates,
        budget: { time: 10, warmupTime: 2, seedMessages: 300 },
      });
    const first = engine();
    const [c] = first.list;
    const a = /** @type {any} */ (first.runCase(c, first.budget));
    assert.ok(a.round, a.reason);
    const [dir] = fs.readdirSync(templates);
    const file = path.join(templates, dir, 'template.db');
    const built = fs.statSync(file);
    assert.ok(fs.existsSync(path.join(templates, dir, 'template.json')), 'the builder stamps its template');
    first.dispose();
    assert.ok(fs.existsSync(file), 'the template outlives the engine that built it');
    const second = engine();
    const b = /** @type {any} */ (second.runCase(c, second.budget));
    assert.ok(b.round, b.reason);
    const reused = fs.statSync(file);
    assert.deepEqual(
      [reused.ino, reused.mtimeMs],
      [built.ino, built.mtimeMs],
      'the second engine rebuilt the template',
    );
    assert.deepEqual(second.setups(), first.setups(), 'the proof and PRAGMA readings travel with the template');
    assert.equal(second.setups()[0].encryption.keylessOpen, 'SQLITE_NOTADB');
    const { temp_store_directory: tempdir, ...rest } = b.pragmas;
    assert.ok(tempdir.startsWith(second.workdir), `${tempdir}: each engine's temp files go to its own directory`);
    const { temp_store_directory: _, ...before } = a.pragmas;
    assert.deepEqual(rest, before, 'every round reads its PRAGMAs back on its own copy');
    assert.ok(b.verified.updated > 0);
    second.dispose();
  } finally {
    if (saved === undefined) delete process.env.SQLITE_BENCH_KEY;
    else process.env.SQLITE_BENCH_KEY = saved;
  }
});

test('setups() runs every config but the experiment-only ones on the production cipher, every cipher on production, every driver unencrypted', async () => {
  const { DEFAULT_CONFIGS } = await import('../bench/tables/configs.js');
  const s = setups().map((x) => `${x.config}/${x.driver}/${x.cipher}`);
  assert.equal(new Set(s).size, s.length);
  for (const c of DEFAULT_CONFIGS) assert.ok(s.includes(`${c}/better-sqlite3-multiple-ciphers/chacha20`));
  // the experiment-only configs run in their experiments' cases only (test/experiments.test.js)
  for (const c of TABLES.config.filter((x) => !DEFAULT_CONFIGS.includes(x)))
    assert.ok(cases().some((k) => k.config === c) && !s.some((x) => x.startsWith(`${c}/`)), c);
  for (const c of TABLES.cipher) assert.ok(s.includes(`production/better-sqlite3-multiple-ciphers/${c}`));
  for (const d of TABLES.driver) assert.ok(s.includes(`production/${d}/none`));
  assert.ok(
    !s.some((x) => /better-sqlite3\/(?!none)|node:sqlite\/(?!none)/.test(x)),
    'a driver without encryption got a cipher',
  );
});

test('an engine server removes only the temp directory its client made for it, never one a user points at', async () => {
  const { ownTempDir } = await import('../bench/engine/server.js');
  const { ENGINE_TMP_ENV } = await import('../bench/engine/protocol.js');
  const made = scratch('sqlite-bench-engine-');
  const other = scratch('not-an-engine-');
  const saved = process.env.TMPDIR;
  try {
    process.env.TMPDIR = made;
    assert.equal(ownTempDir({ [ENGINE_TMP_ENV]: made }), made);
    assert.equal(ownTempDir({}), null);
    assert.equal(ownTempDir({ [ENGINE_TMP_ENV]: ROOT }), null, 'not its temp dir');
    process.env.TMPDIR = other;
    assert.equal(ownTempDir({ [ENGINE_TMP_ENV]: other }), null, 'not named as a client names it');
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});
