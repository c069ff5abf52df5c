// The aggregate job's commit and push, against a real bare repository standing in for GitHub.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { END, START } from '../lib/markers.js';
import { syntheticDoc } from '../bench/meta/synthetic.js';
import { commitMessage, publish, pushRejection } from '../publish/publish.js';
import { childEnv, scratch } from './helpers.js';
import { ROOT } from '../lib/root.js';

const git = (/** @type {string[]} */ args, /** @type {string} */ cwd) =>
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args],
    { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() },
  ).trim();

/** The releases the documents are archived in: a folder, through the stand-in for gh. */
function archiveStandIn(/** @type {string} */ dir) {
  process.env.SQLITE_BENCH_GH = path.join(ROOT, 'test', 'fixtures', 'fake-gh.js');
  process.env.FAKE_GH_STORE = path.join(dir, 'releases');
  return process.env.FAKE_GH_STORE;
}

function setup() {
  const dir = scratch('publish-');
  archiveStandIn(dir);
  git(['init', '-q', '--bare', 'origin.git'], dir);
  git(['clone', '-q', path.join(dir, 'origin.git'), 'seed'], dir);
  fs.writeFileSync(path.join(dir, 'seed', 'README.md'), `# R\n\n${START}\n${END}\n`);
  fs.copyFileSync(path.join(ROOT, '.gitignore'), path.join(dir, 'seed', '.gitignore')); // results/<year>/ is not in git
  git(['add', 'README.md', '.gitignore'], path.join(dir, 'seed'));
  git(['commit', '-q', '-m', 'init'], path.join(dir, 'seed'));
  git(['push', '-q', 'origin', 'HEAD:main'], path.join(dir, 'seed'));
  return dir;
}

/**
 * A clone with its own artifacts, aggregated, ready to publish.
 * @param {string} dir
 * @param {string} name
 * @param {object} doc
 */
function cell(dir, name, doc) {
  git(['clone', '-q', '-b', 'main', path.join(dir, 'origin.git'), name], dir);
  const cwd = path.join(dir, name);
  const artifacts = path.join(dir, `${name}-artifacts`);
  fs.mkdirSync(path.join(artifacts, 'result-x'), { recursive: true });
  fs.writeFileSync(path.join(artifacts, 'result-x', 'r.json'), JSON.stringify(doc));
  // npm run aggregate, as the aggregate job runs it (publish runs it again after a rejected push)
  const run = () => {
    execFileSync(
      process.execPath,
      [
        path.join(ROOT, 'aggregate', 'cli.js'),
        '--artifacts',
        artifacts,
        '--results',
        'results',
        '--readme',
        'README.md',
      ],
      { cwd, stdio: 'ignore', env: childEnv() },
    );
  };
  run();
  /** @type {string[]} */
  const log = [];
  return {
    cwd,
    go: () =>
      publish({
        artifacts,
        results: 'results',
        readme: 'README.md',
        remote: 'origin',
        branch: 'main',
        cwd,
        log: (s) => log.push(s),
        runAggregate: run,
      }),
    log,
  };
}

test('two aggregate jobs racing both land: the rejected one retakes the remote, aggregates again and pushes; nothing is lost', () => {
  const dir = setup();
  const a = cell(dir, 'a', syntheticDoc({ node: 'v22.23.3', finishedAt: '2026-11-20T03:17:00.000Z' }));
  const b = cell(dir, 'b', syntheticDoc({ node: 'v24.11.0', finishedAt: '2026-11-21T03:17:00.000Z' }));
  assert.equal(a.go(), 'pushed');
  assert.equal(b.go(), 'pushed');
  assert.ok(
    b.log.some((l) =>
      /push 1 of 5 rejected \(! \[rejected\] HEAD -> main \((fetch first|non-fast-forward)\)\); taking origin\/main/.test(
        l,
      ),
    ),
    b.log.join('\n'),
  );
  const check = path.join(dir, 'check');
  git(['clone', '-q', '-b', 'main', path.join(dir, 'origin.git'), 'check'], dir);
  // the documents are not in git: the index lists both, the archive holds both, each once
  assert.ok(!fs.existsSync(path.join(check, 'results', '2026')), 'a document was committed');
  /** @type {string[]} */
  const listed = JSON.parse(fs.readFileSync(path.join(check, 'results', 'index.json'), 'utf8')).entries.map(
    (/** @type {{ file: string }} */ e) => e.file,
  );
  assert.equal(listed.length, 2, listed.join(' '));
  const assets = fs.readdirSync(path.join(dir, 'releases', 'results-2026-11')).sort();
  assert.deepEqual(assets, listed.map((f) => `${path.basename(f)}.gz`).sort());
  const readme = fs.readFileSync(path.join(check, 'README.md'), 'utf8');
  assert.ok(readme.includes('v22.23.3') && readme.includes('v24.11.0'));
  // the charts the README shows, and results/README.md, are in the commit
  const images = [...readme.matchAll(/\]\((results\/charts\/[^)]+\.svg)\)/g)].map((m) => m[1]);
  assert.ok(images.length >= 2, 'no chart in the README');
  for (const img of images) assert.ok(fs.existsSync(path.join(check, img)), `${img} not committed`);
  assert.ok(fs.existsSync(path.join(check, 'results', 'README.md')));
  const authors = git(['log', '--format=%an <%ae>|%s', 'main'], check).split('\n');
  assert.equal(
    authors.filter((l) =>
      l.startsWith(
        'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>|Benchmark results: 1 new document(s)',
      ),
    ).length,
    2,
    authors.join('\n'),
  );
});

test('no change, no commit', () => {
  const dir = setup();
  const a = cell(dir, 'a', syntheticDoc());
  assert.equal(a.go(), 'pushed');
  const head = git(['rev-parse', 'HEAD'], a.cwd);
  assert.equal(a.go(), 'nothing');
  assert.equal(git(['rev-parse', 'HEAD'], a.cwd), head);
});

test('the commit message names the run and the cells it adds', () => {
  const msg = commitMessage(
    [
      'results/2026/2026-11-21-linux-x64-node-v22.23.3-abcdef12.json',
      'results/index.json',
      'results/README.md',
      'results/charts/linux-x64/x-123456-config.svg',
      'results/charts/nights.jsonl',
    ],
    {
      GITHUB_RUN_ID: '42',
      GITHUB_WORKFLOW: 'Benchmark',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'o/r',
    },
  );
  assert.equal(
    msg,
    'Benchmark results: 1 new document(s) from run 42 of Benchmark\n\n- linux-x64-node-v22.23.3\n\nhttps://github.com/o/r/actions/runs/42\n',
  );
});

test('a rejected push is logged with the reason git gives, not the hint it ends with', () => {
  // captured from git 2.39 (another run pushed first) and from GitHub (a protected branch, a token without write access)
  const raced = `To /tmp/pr/o.git
 ! [rejected]        HEAD -> main (fetch first)
error: failed to push some refs to '/tmp/pr/o.git'
hint: Updates were rejected because the remote contains work that you do
hint: not have locally. This is usually caused by another repository pushing
hint: to the same ref. You may want to first integrate the remote changes
hint: (e.g., 'git pull ...') before pushing again.
hint: See the 'Note about fast-forwards' in 'git push --help' for details.
`;
  assert.equal(pushRejection(raced), '! [rejected] HEAD -> main (fetch first)');
  const protectedBranch = `remote: error: GH006: Protected branch update failed for refs/heads/main.
remote: error: Changes must be made through a pull request.
To https://github.com/o/r
 ! [remote rejected] HEAD -> main (protected branch hook declined)
error: failed to push some refs to 'https://github.com/o/r'
`;
  assert.equal(
    pushRejection(protectedBranch),
    '! [remote rejected] HEAD -> main (protected branch hook declined); remote: error: GH006: Protected branch update failed for refs/heads/main.',
  );
  const denied = `remote: Permission to o/r.git denied to github-actions[bot].
fatal: unable to access 'https://github.com/o/r/': The requested URL returned error: 403
`;
  assert.equal(
    pushRejection(denied),
    "fatal: unable to access 'https://github.com/o/r/': The requested URL returned error: 403",
  );
  assert.equal(pushRejection('hint: only advice\n'), 'no message');
});
