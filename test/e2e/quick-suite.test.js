// End to end (npm run test:e2e): `npm run bench` as a user runs it, a new process each, on real
// SQLite files, the counting pass included where valgrind and strace are installed: the quick
// suite's whole document, an interrupted run, --keep-db, and the case order the seed gives. The
// engine's own tests (rounds, templates, a killed engine) are in test/suite.test.js.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import semver from 'semver';
import { countingTools } from '../../bench/counts/tools.js';
import { shuffledCases } from '../../bench/engine/session.js';
import { validate } from '../../bench/result/document.js';
import { RESULT_FILE } from '../../bench/result/header.js';
import { OPS } from '../../bench/data/ops.js';
import { QUICK_COUNTS, quickCounted } from '../../bench/data/quick-counts.js';
import { caseKey, cases, setups, CASE_NAMES } from '../../bench/data/suite.js';
import { ROOT, childEnv, entries, scratch } from '../helpers.js';

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
    assert.deepEqual(new Set(r.doc.cases.map((/** @type {any} */ c) => c[table])), new Set(CASE_NAMES[table]), table);
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
  for (const d of r.doc.sides[0].drivers.filter((/** @type {any} */ x) => x.name !== 'node:sqlite')) {
    assert.equal(d.status, 'ok', d.reason);
    assert.match(d.binary.sha256, /^[0-9a-f]{64}$/);
    assert.ok(fs.existsSync(path.join(ROOT, d.binary.file)), d.binary.file);
  }
  const sqlite = r.doc.sides[0].drivers.find((/** @type {any} */ x) => x.name === 'node:sqlite');
  assert.equal(sqlite.status === 'ok', semver.satisfies(process.version, '^22.13.0 || >=23.4.0'), sqlite.reason);
  for (const text of [r.raw, r.stdout, r.stderr]) assert.ok(!text.includes(KEY), 'the key appears in the output');
  assert.deepEqual(r.before, []);
  assert.deepEqual(entries(r.tmp), [], 'temporary files or directories were left behind');
  assert.match(r.stdout, /\| Config +\| Driver +\| Cipher +\|/);
  assert.match(r.stderr, /\[\s*1\/\d+\] \d\d:\d\d elapsed, ETA/);
  // counted after the timed run: every timed case that ran, or the document says why not
  const tools = countingTools();
  let timed = r.doc.cases.filter((/** @type {any} */ c) => c.status === 'ok' && c.stats);
  if (tools.status !== 'ok') {
    assert.deepEqual(r.doc.counting, tools);
    assert.ok(timed.every((/** @type {any} */ c) => !c.counts));
    return;
  }
  assert.equal(r.doc.counting.status, 'ok', r.doc.counting.reason);
  const key = (/** @type {any} */ c) => `${c.config}/${c.driver}/${c.cipher}/${c.op}`;
  // a quick run counts its representative cases only (bench/data/quick-counts.js), and says so
  assert.deepEqual(
    timed.filter((/** @type {any} */ c) => (c.counts?.status === 'ok') !== quickCounted(c)).map(key),
    [],
    'counted: exactly the timed cases of the quick set',
  );
  assert.match(r.doc.counting.reason, /^quick run: counted \d+ of \d+ timed cases/);
  timed = timed.filter(quickCounted);
  assert.deepEqual(timed.map(key).sort(), QUICK_COUNTS.map(caseKey).sort(), 'the whole quick set ran and was counted');
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
    /Counts \(instructions under valgrind [\d.]+'s callgrind, system calls under strace [\d.]+; \d+ processes, \d+ s\): quick run: counted \d+ of \d+ timed cases .*\. Each counted twice/,
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

test("a run measures in its seed's order and records it: the order shuffledCases gives that seed and those filters", () => {
  // that the order moves with the seed is test/suite.test.js's (shuffledCases over 8 seeds)
  const r = bench(['--quick', '--seed', '5', '--op', 'size', '--no-counts']);
  assert.ok(r.doc, r.stderr);
  assert.equal(r.doc.run.seed, 5);
  const { list } = shuffledCases({ seed: 5, filters: { op: ['size'] } });
  assert.deepEqual(r.doc.run.order, list.map(caseKey));
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
        s.config === 'production' &&
        r.doc.sides[0].drivers.find((/** @type {any} */ d) => d.name === s.driver).status === 'ok',
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
