// npm run compare: its flags, a directory that is not a checkout, the engine's messages,
// and the calibration slowdown's guard rails. End to end on a real git ref and real SQLite files it
// is test/e2e/compare.test.js. No timing is asserted: verdicts depend on the machine.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { readResult } from '../aggregate/read.js';
import { ROOT, childEnv, entries, scratch } from './helpers.js';
import { documentProblems } from '../bench/result/document.js';
import { compareDoc } from './compare-doc.js';

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

/**
 * A checkout whose bench/engine/engine.js is `body`, and what startEngine says of it; TMPDIR a
 * scratch directory, to see what the engine leaves there.
 * @param {string} body
 */
async function fakeEngine(body) {
  const dir = scratch('fake-checkout-');
  fs.mkdirSync(path.join(dir, 'bench', 'engine'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'bench', 'engine', 'engine.js'), body);
  const tmp = scratch('fake-engine-tmp-');
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    const { startEngine } = await import('../bench/engine/start.js');
    const e = await startEngine({ mode: 'quick', filters: {}, seed: 1 }, { dir });
    const err = await e.request({ block: ['a/b/c/d'], seed: 1 }).then(
      () => null,
      (/** @type {Error} */ x) => x,
    );
    return { err, left: entries(tmp) };
  } catch (err) {
    return { err: /** @type {Error} */ (err), left: entries(tmp) };
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

test('a checkout without the engine file is refused, saying so; an engine that answers something else than ready is refused and stopped', async () => {
  const { startEngine } = await import('../bench/engine/start.js');
  const dir = scratch('no-engine-');
  await assert.rejects(
    startEngine({ mode: 'quick', filters: {}, seed: 1 }, { dir }),
    new RegExp(
      `^Error: engine not found: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has no bench/engine/engine\\.js$`,
    ),
  );
  const other = await fakeEngine(
    `process.once('message', () => process.send({ hello: 1 })); setInterval(() => {}, 1000);\n`,
  );
  assert.match(String(other.err), /^Error: engine answered \{"hello":1\} instead of ready: no message$/);
  assert.deepEqual(other.left, [], 'its temp dir is removed once it is stopped');
});

test('an engine killed mid-round gives an error with the signal and the last lines of its stderr, and leaves no temp dir', async () => {
  const { err, left } = await fakeEngine(`import fs from 'node:fs';
import path from 'node:path';
process.once('message', () => {
  process.send({ ready: true, cases: ['a/b/c/d'] });
  process.once('message', () => {
    fs.writeFileSync(path.join(process.env.TMPDIR, 'half-written.db'), 'x'); // mid-round
    fs.writeSync(2, 'opening the copy\\nnative driver: out of memory\\n');
    process.kill(process.pid, 'SIGKILL');
  });
});
`);
  assert.match(
    String(err),
    /^Error: engine stopped \(signal SIGKILL\): opening the copy \| native driver: out of memory$/,
  );
  assert.deepEqual(left, [], "the dead engine's temp dir is removed by the process that started it");
});

test('an engine whose parent dies (its channel closes) removes its temp dir and exits', async () => {
  const tmp = scratch('orphan-tmp-');
  const start = pathToFileURL(path.join(ROOT, 'bench/engine/start.js')).href;
  const parent = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { startEngine } = await import(${JSON.stringify(start)});
      const e = await startEngine({ mode: 'quick', filters: { op: ['size'], driver: ['better-sqlite3'], cipher: ['none'], config: ['production'] }, seed: 1 });
      console.log(e.ready.workdir);
      process.kill(process.pid, 'SIGKILL');`,
    ],
    { encoding: 'utf8', env: childEnv({ TMPDIR: tmp }) },
  );
  assert.equal(parent.signal, 'SIGKILL', parent.stderr);
  assert.ok(parent.stdout.startsWith(tmp), parent.stdout);
  for (let i = 0; i < 300 && entries(tmp).length; i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(entries(tmp), [], 'the orphaned engine removed its temp dir');
});

test('the engine measures the case asked for, reports what it cannot, and cleans up on quit', async () => {
  const { startEngine } = await import('../bench/engine/start.js');
  const filters = {
    config: ['production'],
    driver: ['better-sqlite3'],
    cipher: ['none'],
    op: ['update', 'size', 'checkpoint'],
  };
  const e = await startEngine({ mode: 'quick', filters, seed: 1, time: 5 }, { env: childEnv() });
  const { ready } = e;
  assert.deepEqual([...ready.cases].sort(), [
    'production/better-sqlite3/none/checkpoint',
    'production/better-sqlite3/none/size',
    'production/better-sqlite3/none/update',
  ]);
  assert.equal(ready.environment.node, process.version);
  try {
    await engineAnswers(e, ready);
  } catch (err) {
    e.kill(); // a failed assertion must not leave the engine (and this test file) running
    throw err;
  }
  assert.equal(await e.stop(), 0);
  assert.equal(fs.existsSync(ready.workdir), false, 'quit removes the databases');
});

/**
 * @param {Awaited<ReturnType<typeof import('../bench/engine/start.js').startEngine>>} e
 * @param {any} ready
 */
async function engineAnswers(e, ready) {
  // a size is read when the case is opened: nothing to time
  const size = await e.request({ open: 'production/better-sqlite3/none/size' });
  assert.equal(size.status, 'ok');
  assert.ok(Number.isInteger(size.bytes) && size.bytes > 100_000, `${size.bytes}`);
  const again = await e.request({ open: 'production/better-sqlite3/none/size' });
  assert.equal(again.bytes, size.bytes, 'the seeded template is built once and does not change');
  // a block of cases measured together in slices, every slice's rate kept per cycle
  const block = await e.request({
    block: ['production/better-sqlite3/none/update', 'production/better-sqlite3/none/checkpoint'],
    seed: 3,
  });
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
  const opened = await e.request({ open: 'production/better-sqlite3/none/update' });
  assert.equal(opened.status, 'ok');
  assert.ok(opened.batch >= 1);
  const slice = await e.request({ slice: 'production/better-sqlite3/none/update', ms: 2 });
  assert.ok(slice.ms >= 2 && slice.ops >= opened.batch && slice.opsPerSec > 0, JSON.stringify(slice));
  const closed = await e.request({ close: 'production/better-sqlite3/none/update' });
  assert.equal(closed.status, 'ok');
  assert.ok(closed.verified.updated >= slice.ops, `closed with what it verified: ${JSON.stringify(closed)}`);
  const gone = await e.request({ slice: 'production/better-sqlite3/none/update', ms: 2 });
  assert.equal(gone.status, 'error');
  assert.match(gone.reason, /is not open/);
  const bad = await e.request({ open: 'production/better-sqlite3/none/vacuum' });
  assert.equal(bad.status, 'error');
  assert.match(bad.reason, /no such case in this run/);
  const unknown = await e.request({ measure: 'production/better-sqlite3/none/update' });
  assert.match(unknown.error, /unknown request; valid: setups, block, open, slice, close, quit/);
  assert.ok(fs.existsSync(ready.workdir), 'the databases live while the engine does');
}

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

test("a compare's document is a run document, and the aggregate refuses it: results/ holds runs of the published checkout", () => {
  const doc = compareDoc();
  assert.deepEqual(documentProblems(doc), [], 'the real compare is a valid run document, names and all');
  const dir = scratch('compare-in-results-');
  const file = path.join(dir, 'compare.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  const read = readResult(file);
  assert.equal(read.ok, false);
  assert.equal(
    !read.ok && read.reason,
    "/sides/0/checkout: a compare's run (npm run compare), not a result; results/ holds runs of the published checkout",
  );
  // the same run without its checkouts would be read: the checkout is what the aggregate refuses
  for (const s of doc.sides) delete s.checkout;
  fs.writeFileSync(file, JSON.stringify(doc));
  const plain = readResult(file);
  assert.ok(plain.ok || !/checkout/.test(plain.reason), plain.ok ? '' : plain.reason);
});
