// End to end (npm run test:e2e): npm run compare on a real git ref, checked out in a temporary
// worktree and installed, against this checkout, on real SQLite files: head's start.js drives
// base's engine. The flags, the engine's messages and the slowdown's guard rails are
// test/compare.test.js. No timing is asserted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, childEnv, scratch } from '../helpers.js';
import { compareJsonProblem } from '../../compare/comment.js';
import { readResult } from '../../aggregate/read.js';

const node = (/** @type {string} */ script, /** @type {string[]} */ args) =>
  spawnSync(process.execPath, [path.join(ROOT, script), ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    env: childEnv(),
  });
const git = (/** @type {string[]} */ args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', env: childEnv() });
const SMALL = ['--config', 'production', '--driver', 'better-sqlite3', '--cipher', 'none'];

test('compare: a git ref (temporary worktree, installed) against this checkout, interleaved, on real databases; nothing in the job summary', () => {
  const out = scratch('compare-out-');
  const head = git(['rev-parse', 'HEAD']).stdout.trim();
  // the worktrees' paths (their commits move when other worktrees of the repository commit)
  const worktrees = () => git(['worktree', 'list', '--porcelain']).stdout.match(/^worktree .*$/gm);
  const before = worktrees();
  // as in a GitHub Actions job: the compare appends its report to the step summary it is given,
  // and a test must give it none
  const job = scratch('compare-job-');
  const summary = path.join(job, 'summary.md');
  fs.writeFileSync(summary, '');
  const saved = process.env.GITHUB_STEP_SUMMARY;
  process.env.GITHUB_STEP_SUMMARY = summary;
  let r;
  try {
    r = node('compare/cli.js', [
      '--base',
      'HEAD',
      '--head',
      ROOT,
      '--quick',
      '--rounds',
      '3',
      ...SMALL,
      '--op',
      'select,update,size',
      '--out',
      out,
    ]);
  } finally {
    if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY;
    else process.env.GITHUB_STEP_SUMMARY = saved;
  }
  assert.equal(fs.readFileSync(summary, 'utf8'), '', 'the compare wrote into the job summary');
  assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${r.stderr.slice(-800)}`);
  const result = JSON.parse(fs.readFileSync(path.join(out, 'compare.json'), 'utf8'));
  assert.equal(result.kind, 'sqlite-node-bench/result', 'a run document, as the shootout writes');
  assert.equal(compareJsonProblem(result), null);
  assert.deepEqual(
    result.sides.map((/** @type {any} */ s) => [s.label, s.reference ?? false, s.checkout.given]),
    [
      ['base', true, 'HEAD'],
      ['head', false, ROOT],
    ],
  );
  assert.equal(result.sides[0].checkout.commit, head);
  assert.equal(result.run.budget.rounds, 3);
  const key = (/** @type {any} */ x) => `${x.setup}/${x.op}`;
  assert.deepEqual(result.comparisons.map(key).sort(), [
    'production/better-sqlite3/none/select',
    'production/better-sqlite3/none/size',
    'production/better-sqlite3/none/update',
  ]);
  const size = result.comparisons.find((/** @type {any} */ x) => x.op === 'size');
  assert.equal(size.change, 0, 'same seed, same code, same file size');
  assert.deepEqual([size.low, size.high, size.p], [0, 0, null], 'compared exactly');
  assert.equal(size.verdict, 'no change');
  for (const row of result.comparisons.filter((/** @type {any} */ x) => x.op !== 'size')) {
    assert.equal(row.pairs, 3);
    assert.ok(row.low <= row.change && row.change <= row.high);
    assert.ok(['slower', 'faster', 'no change', 'too noisy to tell'].includes(row.verdict));
    assert.ok(row.pAdjusted >= row.p);
  }
  assert.equal(
    r.status === 1,
    result.comparisons.some((/** @type {any} */ x) => x.verdict === 'slower'),
    'exit 1 exactly when there is a regression',
  );
  // results/ holds runs of the published checkout: the aggregate refuses a compare's
  const stored = scratch('compare-results-');
  fs.copyFileSync(path.join(out, 'compare.json'), path.join(stored, 'compare.json'));
  const read = readResult(path.join(stored, 'compare.json'));
  assert.equal(read.ok, false);
  assert.match(
    String(!read.ok && read.reason),
    /\/sides\/0\/checkout: a compare's run \(npm run compare\), not a result/,
  );
  const md = fs.readFileSync(path.join(out, 'compare.md'), 'utf8');
  assert.match(md, /^## Benchmark compare: head .* against base HEAD \(/);
  assert.match(md, /Holm-corrected over the 2 timed cases/);
  assert.deepEqual(worktrees(), before, 'the temporary worktree is removed');
  // the base reuses this checkout's driver build exactly when its driver lockfiles and install
  // script are those of this checkout (a fresh clone: always)
  const sameBuild =
    git([
      'diff',
      '--quiet',
      'HEAD',
      '--',
      'drivers',
      'bench/tools/install-drivers.js',
      'bench/data/drivers.js',
      'bench/data/node-ranges.js',
    ]).status === 0;
  assert.equal(/reusing its build/.test(r.stderr), sameBuild, r.stderr.slice(-600));
  assert.equal(
    /npm ci --ignore-scripts/.test(r.stderr),
    sameBuild,
    'a reused build installs without the scripts that would build the drivers',
  );
});
