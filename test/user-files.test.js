// A user's own files are never lost, and a mistake costs seconds, not a run (issue 36, fault 8):
// --out and --keep-db checked before anything is measured, a document never replaces another,
// meta:screenshots never removes a folder it did not make, no driver stops the run before it
// measures, and an interrupted run's last line says how much of it ran. Real runs, real files.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { RESULT_FILE } from '../bench/result/header.js';
import { ROOT, childEnv, scratch } from './helpers.js';

const BENCH = path.join(ROOT, 'bench', 'cli.js');
/** A small real run: one operation, the quick budgets, no workloads, no counting pass. */
const SMALL = ['--quick', '--op', 'insert', '--no-counts', '--workload', 'none'];
/** A guard against a hang (the old --out /proc/x spun for ever), not a timing assertion. */
const HANG_GUARD = 120_000;

const bench = (/** @type {string[]} */ args, /** @type {NodeJS.ProcessEnv} */ env = {}) =>
  spawnSync(process.execPath, [BENCH, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: childEnv(env),
    timeout: HANG_GUARD,
    killSignal: 'SIGKILL',
  });

/** The result documents in a folder. */
const documents = (/** @type {string} */ dir) =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];

for (const [name, out, why] of /** @type {[string, (dir: string) => string, RegExp][]} */ ([
  [
    'a file',
    (dir) => {
      const f = path.join(dir, 'notes.txt');
      fs.writeFileSync(f, 'mine\n');
      return f;
    },
    /a file, not a folder/,
  ],
  ['README.md', () => 'README.md', /a file, not a folder/],
  ['/proc/x', () => '/proc/x', /cannot be created there \(ENOENT\)/],
])) {
  test(`--out at ${name} is refused before anything is measured, in one line naming the flag`, () => {
    const dir = scratch('user-files-');
    const target = out(dir);
    const before = fs.existsSync(path.resolve(ROOT, target)) ? fs.readFileSync(path.resolve(ROOT, target)) : null;
    const r = bench([...SMALL, '--out', target]);
    assert.equal(r.signal, null, `still running after ${HANG_GUARD / 1000} s: killed`);
    assert.equal(r.status, 2, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line, and no progress of a measured case: ${r.stderr}`);
    assert.match(lines[0], /^bench: bad --out '[^']+': /);
    assert.match(lines[0], why);
    assert.equal(r.stdout, '');
    if (before) assert.deepEqual(fs.readFileSync(path.resolve(ROOT, target)), before, 'the file is untouched');
  });
}

test('--keep-db at a file is refused before anything is measured', () => {
  const dir = scratch('user-files-');
  const file = path.join(dir, 'db.txt');
  fs.writeFileSync(file, 'mine\n');
  const r = bench([...SMALL, '--out', path.join(dir, 'out'), '--keep-db', file]);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr.trim(), /^bench: bad --keep-db '[^']+': a file, not a folder; /);
  assert.equal(fs.readFileSync(file, 'utf8'), 'mine\n');
  assert.deepEqual(documents(path.join(dir, 'out')), []);
});

test('two runs into the same --out leave two documents, each named by its start and run id', () => {
  const out = path.join(scratch('user-files-'), 'out');
  for (const i of [1, 2]) {
    const r = bench([...SMALL, '--config', 'production', '--out', out]);
    assert.equal(r.status, 0, `run ${i}: ${r.stderr.split('\n').slice(-3).join('\n')}`);
  }
  const docs = documents(out);
  assert.equal(docs.length, 2, docs.join(', '));
  for (const f of docs) assert.match(f, RESULT_FILE);
  const ids = docs.map((f) => JSON.parse(fs.readFileSync(path.join(out, f), 'utf8')).run.id);
  assert.notEqual(ids[0], ids[1]);
  for (const [i, f] of docs.entries()) assert.ok(f.includes(ids[i].slice(0, 8)), `${f} names its run ${ids[i]}`);
});

test('meta:screenshots refuses a non-empty --out it did not make, and leaves its files', () => {
  const dir = scratch('user-files-');
  fs.writeFileSync(path.join(dir, 'mine.txt'), 'mine\n');
  fs.mkdirSync(path.join(dir, 'sub'));
  fs.writeFileSync(path.join(dir, 'sub', 'also-mine.txt'), 'mine too\n');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bench/meta/screenshots.js'), '--out', dir], {
    encoding: 'utf8',
    env: childEnv({ CHROMIUM: path.join(dir, 'no-such-chromium') }),
    timeout: HANG_GUARD,
  });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr.trim(), /^meta:screenshots: bad --out '[^']+': not empty, and not made by meta:screenshots/);
  assert.equal(fs.readFileSync(path.join(dir, 'mine.txt'), 'utf8'), 'mine\n');
  assert.equal(fs.readFileSync(path.join(dir, 'sub', 'also-mine.txt'), 'utf8'), 'mine too\n');
  assert.deepEqual(fs.readdirSync(dir).sort(), ['mine.txt', 'sub']);
});

test('no driver installed for this Node: the run stops before measuring, with the fix, and writes nothing', () => {
  const dir = scratch('user-files-');
  const empty = path.join(dir, 'no-drivers');
  fs.mkdirSync(empty);
  const out = path.join(dir, 'out');
  const r = bench([...SMALL, '--out', out], { SQLITE_BENCH_DRIVERS_DIR: empty });
  assert.equal(r.status, 1, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line, and no progress of a measured case: ${r.stderr}`);
  assert.match(lines[0], new RegExp(`^bench: no driver for Node ${process.version.replace(/\./g, '\\.')} among `));
  assert.match(lines[0], /npm run drivers/);
  assert.equal(r.stdout, '');
  assert.deepEqual(documents(out), []);
  // limited to the built-in driver, which needs no install: it runs where this Node has it, and
  // where it has not, the stop names why
  const builtin = bench([...SMALL, '--driver', 'node:sqlite', '--out', out], { SQLITE_BENCH_DRIVERS_DIR: empty });
  if (fs.existsSync(path.join(ROOT, 'node_modules')) && builtinLoads()) {
    assert.equal(builtin.status, 0, builtin.stderr);
    assert.equal(documents(out).length, 1);
  } else {
    assert.equal(builtin.status, 1, builtin.stderr);
    assert.match(builtin.stderr.trim(), /^bench: no driver for Node .* among node:sqlite: node:sqlite needs Node /);
  }
});

/** Whether this Node has node:sqlite without a flag (bench/data/drivers.js's range). */
function builtinLoads() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return (major === 22 && minor >= 13) || (major === 23 && minor >= 4) || major >= 24;
}

test("after SIGINT the run's last line says how many cases ran of how many", async () => {
  const out = path.join(scratch('user-files-'), 'out');
  // three operations: three blocks of cases; the signal comes once the first block is done, to the
  // process group as a terminal's Ctrl-C does (the engine process measuring the second gets it too)
  const child = spawn(process.execPath, [BENCH, ...SMALL, '--op', 'select,update', '--out', out], {
    cwd: ROOT,
    env: childEnv(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let signalled = false;
  const guard = setTimeout(() => process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL'), HANG_GUARD);
  child.stdout.resume();
  child.stderr.on('data', (b) => {
    stderr += b;
    // the latest progress line (on a busy machine the first block's line repeats every 10 s)
    const latest = [...stderr.matchAll(/\[\s*(\d+)\/(\d+)\]/g)].at(-1);
    if (!signalled && latest && Number(latest[1]) > 1) {
      signalled = true;
      process.kill(-(/** @type {number} */ (child.pid)), 'SIGINT');
    }
  });
  const code = await new Promise((resolve) => child.on('close', (c, s) => resolve(c ?? s)));
  clearTimeout(guard);
  assert.ok(signalled, `no second block began: ${stderr}`);
  assert.equal(code, 130, stderr);
  const last = stderr.trim().split('\n').at(-1) ?? '';
  const m = /^bench: SIGINT: stopped after (\d+) of (\d+) cases; .+ is marked interrupted$/.exec(last);
  assert.ok(m, `last line: ${last}`);
  assert.ok(Number(m[1]) > 0 && Number(m[1]) < Number(m[2]), last);
  const [doc] = documents(out);
  const parsed = JSON.parse(fs.readFileSync(path.join(out, doc), 'utf8'));
  assert.equal(parsed.run.status, 'interrupted');
  assert.equal(parsed.cases.length, Number(m[1]));
  assert.equal(parsed.run.order.length, Number(m[2]));
});
