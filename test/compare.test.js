// npm run compare: its flags, a directory that is not a checkout, the engine server's protocol,
// and the calibration slowdown's guard rails. End to end on a real git ref and real SQLite files it
// is test/e2e/compare.test.js. No timing is asserted: verdicts depend on the machine.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { test } from 'node:test';
import { readResult } from '../aggregate/read.js';
import { ROOT, childEnv, scratch } from './helpers.js';

const node = (/** @type {string} */ script, /** @type {string[]} */ args) =>
  spawnSync(process.execPath, [path.join(ROOT, script), ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    env: childEnv(),
  });
const SMALL = ['--config', 'production', '--driver', 'better-sqlite3', '--cipher', 'none'];

for (const [args, pattern] of /** @type {[string[], RegExp][]} */ ([
  [[], /^compare: missing --base; valid: a checkout directory or a git ref/],
  [
    ['--base', 'no-such-ref-or-dir'],
    /^compare: --base 'no-such-ref-or-dir' is neither a directory nor a git ref of .*; valid: /,
  ],
  [['--base', '.', '--threshold', 'ten'], /^compare: bad --threshold 'ten'; valid: a number from 0 to 100$/],
  [['--base', '.', '--rounds', '1'], /^compare: bad --rounds '1'; valid: a whole number from 2 to 1000$/],
  [['--base', '.', '--op', 'drop'], /^compare: unknown --op 'drop'; valid: setup, .*size$/],
  [['--calibrate', '--head', '.'], /^compare: --head does not go with --calibrate/],
  [['--base', '.', '--bogus'], /^compare: Unknown option '--bogus'.*; valid flags: --base, --head/],
])) {
  test(`compare ${args.join(' ')} exits 2 with one line`, () => {
    const r = node('compare/cli.js', args);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr.trim(), pattern);
  });
}

test('a directory that is not a checkout of this project is refused', () => {
  const dir = scratch('not-a-checkout-');
  const r = node('compare/cli.js', ['--base', dir]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /no bench\/cli\.js there; valid: a checkout of this project, or a git ref/);
});

test('a checkout whose engine server speaks another protocol is refused, naming the one spoken here', async () => {
  const dir = scratch('other-protocol-');
  fs.mkdirSync(path.join(dir, 'bench', 'engine'), { recursive: true });
  const ready = JSON.stringify({ ready: true, protocol: 1, cases: [] });
  fs.writeFileSync(path.join(dir, 'bench', 'engine', 'server.js'), `console.log(${JSON.stringify(ready)});\n`);
  const { startEngine } = await import('../bench/engine/client.js');
  await assert.rejects(startEngine([], { dir }), /^Error: engine server did not say ready with protocol 2: /);
});

test('the engine server measures the case asked for, reports what it cannot, and cleans up on quit', async () => {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'bench/engine/server.js'), '--quick', '--time', '5', ...SMALL, '--op', 'update,size,checkpoint'],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'], env: childEnv() },
  );
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse(/** @type {string} */ ((await lines.next()).value));
  const ready = await next();
  assert.equal(ready.protocol, 2);
  assert.deepEqual([...ready.cases].sort(), [
    'production/better-sqlite3/none/checkpoint',
    'production/better-sqlite3/none/size',
    'production/better-sqlite3/none/update',
  ]);
  assert.equal(ready.environment.node, process.version);
  const ask = async (/** @type {string} */ key) => {
    child.stdin.write(`${JSON.stringify({ measure: key })}\n`);
    return next();
  };
  const upd = await ask('production/better-sqlite3/none/update');
  assert.equal(upd.status, 'ok');
  assert.ok(upd.opsPerSec > 0);
  const size = await ask('production/better-sqlite3/none/size');
  assert.ok(Number.isInteger(size.bytes) && size.bytes > 100_000, `${size.bytes}`);
  const again = await ask('production/better-sqlite3/none/size');
  assert.equal(again.bytes, size.bytes, 'the seeded template is built once and does not change');
  // a block of cases measured together in slices, every slice's rate kept per cycle
  child.stdin.write(
    `${JSON.stringify({ block: ['production/better-sqlite3/none/update', 'production/better-sqlite3/none/checkpoint'], seed: 3 })}\n`,
  );
  const block = await next();
  assert.equal(block.block.length, 2);
  for (const r of block.block) {
    assert.equal(r.status, 'ok', JSON.stringify(r));
    assert.ok(r.round.slices.length >= 3, 'at least MIN_CYCLES cycles');
    assert.ok(r.round.fast >= r.round.opsPerSec, 'the fastest typical slice is not below the median one');
    assert.ok(
      Object.values(r.verified).every((n) => typeof n === 'number' && n > 0),
      JSON.stringify(r.verified),
    );
  }
  assert.equal(
    block.block[0].round.slices.length,
    block.block[1].round.slices.length,
    'one slice of each case per cycle',
  );
  // and one case opened, run a slice at a time, closed: what the compare alternates between processes
  const send = async (/** @type {object} */ req) => {
    child.stdin.write(`${JSON.stringify(req)}\n`);
    return next();
  };
  const opened = await send({ open: 'production/better-sqlite3/none/update' });
  assert.equal(opened.status, 'ok');
  assert.ok(opened.batch >= 1);
  const slice = await send({ slice: 'production/better-sqlite3/none/update', ms: 2 });
  assert.ok(slice.ms >= 2 && slice.ops >= opened.batch && slice.opsPerSec > 0, JSON.stringify(slice));
  const closed = await send({ close: 'production/better-sqlite3/none/update' });
  assert.equal(closed.status, 'ok');
  assert.ok(closed.verified.updated >= slice.ops, `closed with what it verified: ${JSON.stringify(closed)}`);
  const gone = await send({ slice: 'production/better-sqlite3/none/update', ms: 2 });
  assert.equal(gone.status, 'error');
  assert.match(gone.reason, /is not open/);
  const bad = await ask('production/better-sqlite3/none/vacuum');
  assert.equal(bad.status, 'error');
  assert.match(bad.reason, /no such case in this run/);
  assert.ok(fs.existsSync(ready.workdir), 'the databases live while the server does');
  child.stdin.end(`${JSON.stringify({ quit: true })}\n`);
  const code = await new Promise((r) => child.once('exit', r));
  assert.equal(code, 0);
  assert.equal(fs.existsSync(ready.workdir), false, 'quit removes the databases');
});

test('--slowdown: recorded in the document, announced in the summary, refused by the aggregate', () => {
  const out = scratch('slowdown-');
  const r = node('bench/cli.js', [
    '--quick',
    '--time',
    '5',
    ...SMALL,
    '--op',
    'select',
    '--slowdown',
    '10',
    '--no-counts',
    '--out',
    out,
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^CALIBRATION RUN: every timed task was slowed by 10% on purpose/);
  const [file] = fs.readdirSync(out).map((f) => path.join(out, f));
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(doc.run.budget.slowdown, 0.1);
  const read = readResult(file);
  assert.equal(read.ok, false);
  assert.match(
    read.reason,
    /\/run\/budget\/slowdown is 0\.1: a calibration run with a synthetic slowdown, not a result/,
  );
  const bad = node('bench/cli.js', ['--slowdown', '0']);
  assert.equal(bad.status, 2);
  assert.match(
    bad.stderr,
    /^bench: bad --slowdown '0'; valid: a percentage above 0 and at most 90 \(calibration only\)/,
  );
});
