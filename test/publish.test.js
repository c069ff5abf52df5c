// The nightly job's archive, commit and push, against a real bare repository standing in for
// GitHub's git and a model of its releases (test/fixtures/fake-gh.js), under each fault the model
// has: immutable releases, the asset cap, an upload cut off (a draft, a 'starter' asset), a listing
// that lags an upload, the rate limit, a fork that has none of upstream's releases.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { END, START } from '../lib/markers.js';
import { syntheticDoc } from '../bench/meta/synthetic.js';
import { commitMessage, publish, pushRejection } from '../publish/publish.js';
import { restore, startOver } from '../publish/restore.js';
import { archive } from '../publish/archive.js';
import { GhError, gh, retrying } from '../publish/gh.js';
import { bundleName, unpackBundle } from '../aggregate/assets.js';
import { childEnv, scratch } from './helpers.js';
import { ROOT } from '../lib/root.js';

const git = (/** @type {string[]} */ args, /** @type {string} */ cwd) =>
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args],
    { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() },
  ).trim();

/** The releases the documents are archived in: the model of GitHub's, in a folder, through gh's place. */
function archiveStandIn(/** @type {string} */ dir) {
  process.env.SQLITE_BENCH_GH = path.join(ROOT, 'test', 'fixtures', 'fake-gh.js');
  process.env.SQLITE_BENCH_GH_BACKOFF_MS = '1';
  process.env.FAKE_GH_STORE = path.join(dir, 'releases');
  process.env.FAKE_GH_LOG = path.join(dir, 'gh.log');
  process.env.GH_REPO = 'owner/repo';
  return process.env.FAKE_GH_STORE;
}
/** Set the model's faults (faults.json). */
const faults = (/** @type {string} */ dir, /** @type {object} */ f) => {
  fs.mkdirSync(path.join(dir, 'releases'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'releases', 'faults.json'), JSON.stringify(f));
};
/** A release of the model: its state, and its asset's documents when it has one. */
function releaseOf(/** @type {string} */ dir, /** @type {string} */ tag, repo = 'owner/repo') {
  const at = path.join(dir, 'releases', 'repos', ...repo.split('/'), tag);
  if (!fs.existsSync(at)) return null;
  const meta = JSON.parse(fs.readFileSync(path.join(at, 'release.json'), 'utf8'));
  const bundle = path.join(at, 'assets', bundleName(tag));
  return { ...meta, docs: fs.existsSync(bundle) ? [...unpackBundle(fs.readFileSync(bundle)).keys()] : [] };
}
/** The index a clone of the remote holds: its repository and entries. */
function remoteIndex(/** @type {string} */ dir) {
  const check = path.join(dir, `check-${Date.now()}`);
  git(['clone', '-q', '-b', 'main', path.join(dir, 'origin.git'), check], dir);
  const file = path.join(check, 'results', 'index.json');
  const index = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { entries: [] };
  const page = path.join(check, 'results', 'README.md');
  return {
    ...index,
    readme: fs.readFileSync(path.join(check, 'README.md'), 'utf8'),
    page: fs.existsSync(page) ? fs.readFileSync(page, 'utf8') : '',
    check,
  };
}
/** Every listed document's release holds it, published; the pages link only such releases. */
function allArchived(/** @type {string} */ dir, repo = 'owner/repo') {
  const { entries, readme, page, repository } = remoteIndex(dir);
  assert.equal(repository, repo);
  for (const e of entries) {
    const r = releaseOf(dir, e.release, repo);
    assert.ok(r && !r.draft && r.docs.includes(e.file), `${e.file}: not in release ${e.release}`);
  }
  const linked = [...`${readme}${page}`.matchAll(/releases\/download\/([^/)]+)\//g)].map((m) => m[1]);
  for (const tag of linked)
    assert.ok(releaseOf(dir, tag, repo)?.docs.length, `the README links ${tag}, which ${repo} lacks`);
  return { entries, readme, linked };
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
 * A clone with its own artifacts, aggregated, ready to publish: the nightly job's aggregate job
 * (restore, then aggregate, in the repository GH_REPO names).
 * @param {string} dir
 * @param {string} name
 * @param {object} doc
 * @param {{ run?: string }} [o] run: the GitHub run id (the release's name depends on it)
 */
async function cell(dir, name, doc, o = {}) {
  git(['clone', '-q', '-b', 'main', path.join(dir, 'origin.git'), name], dir);
  const cwd = path.join(dir, name);
  const artifacts = path.join(dir, `${name}-artifacts`);
  // the cell's artifact, named as benchmark.yml names it for the cell the document names (aggregate/trust.js)
  const major = /** @type {any} */ (doc).environment.node.slice(1).split('.')[0];
  const ci = { .../** @type {any} */ (doc).environment.ci, cellRunner: 'ubuntu-24.04', cellNode: major };
  const celled = { ...doc, environment: { .../** @type {any} */ (doc).environment, ci } };
  fs.mkdirSync(path.join(artifacts, `result-ubuntu-24.04-node${major}`), { recursive: true });
  fs.writeFileSync(path.join(artifacts, `result-ubuntu-24.04-node${major}`, 'r.json'), JSON.stringify(celled));
  /** @type {string[]} */
  const log = [];
  await restore({ results: path.join(cwd, 'results'), log: (l) => log.push(l) });
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
      {
        cwd,
        stdio: 'ignore',
        env: childEnv({
          GITHUB_REPOSITORY: /** @type {string} */ (process.env.GH_REPO),
          ...(o.run ? { GITHUB_RUN_ID: o.run, GITHUB_RUN_ATTEMPT: '1' } : {}),
        }),
      },
    );
  };
  run();
  return {
    cwd,
    artifacts,
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

test('two aggregate jobs racing both land: the rejected one retakes the remote, aggregates again and pushes; nothing is lost', async () => {
  const dir = setup();
  const a = await cell(dir, 'a', syntheticDoc({ node: 'v22.23.3', finishedAt: '2026-11-20T03:17:00.000Z' }));
  const b = await cell(dir, 'b', syntheticDoc({ node: 'v24.11.0', finishedAt: '2026-11-21T03:17:00.000Z' }));
  assert.equal(await a.go(), 'pushed');
  assert.equal(await b.go(), 'pushed');
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
  // the documents are not in git: the index lists both, a release each holds them
  assert.ok(!fs.existsSync(path.join(check, 'results', '2026')), 'a document was committed');
  const { entries } = allArchived(dir);
  assert.equal(entries.length, 2);
  assert.equal(new Set(entries.map((/** @type {{ release: string }} */ e) => e.release)).size, 2);
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

test('no change, no commit', async () => {
  const dir = setup();
  const a = await cell(dir, 'a', syntheticDoc());
  assert.equal(await a.go(), 'pushed');
  const head = git(['rev-parse', 'HEAD'], a.cwd);
  assert.equal(await a.go(), 'nothing');
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

test('a push the remote keeps refusing: 5 in all, the remote taken and aggregated between them, then the last refusal', async () => {
  const dir = setup();
  const a = await cell(dir, 'a', syntheticDoc());
  const pages = path.join(dir, 'pages');
  fs.cpSync(path.join(a.cwd, 'results'), path.join(pages, 'results'), { recursive: true });
  fs.copyFileSync(path.join(a.cwd, 'README.md'), path.join(pages, 'README.md'));
  const hook = path.join(dir, 'origin.git', 'hooks', 'pre-receive');
  fs.writeFileSync(hook, '#!/bin/sh\necho "error: frozen" >&2\nexit 1\n', { mode: 0o755 });
  let aggregated = 0;
  await assert.rejects(
    publish({
      ...{ artifacts: a.artifacts, results: 'results', readme: 'README.md', remote: 'origin', branch: 'main' },
      cwd: a.cwd,
      log: (s) => a.log.push(s),
      runAggregate: () => {
        aggregated++;
        fs.cpSync(pages, a.cwd, { recursive: true });
      },
    }),
    /^Error: push 5 of 5 rejected \(! \[remote rejected\] HEAD -> main \(pre-receive hook declined\); remote: error: frozen\)$/,
  );
  assert.equal(aggregated, 4);
  assert.deepEqual(
    a.log.filter((l) => /rejected .*; taking origin\/main and aggregating again$/.test(l)).map((l) => l.split(' ')[2]),
    ['1', '2', '3', '4'],
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

test('immutable releases: every night makes its own release in one call, never adds to one', async () => {
  const dir = setup();
  faults(dir, { immutable: true });
  const a = await cell(dir, 'a', syntheticDoc({ node: 'v22.23.3', finishedAt: '2026-11-20T03:17:00.000Z' }));
  const b = await cell(dir, 'b', syntheticDoc({ node: 'v24.11.0', finishedAt: '2026-11-21T03:17:00.000Z' }));
  assert.equal(await a.go(), 'pushed');
  assert.equal(await b.go(), 'pushed'); // rejected once: takes a's night, aggregates again, finds its release made
  const { entries } = allArchived(dir);
  for (const e of entries) assert.equal(releaseOf(dir, e.release)?.immutable, true);
  const calls = fs.readFileSync(/** @type {string} */ (process.env.FAKE_GH_LOG), 'utf8');
  assert.doesNotMatch(calls, /^upload /m, 'an asset was added to a published release');
  assert.equal(calls.match(/^create /gm)?.length, 2);
});

test("the asset cap: one asset a release, so GitHub's cap per release is never reached", async () => {
  const dir = setup();
  faults(dir, { assetCap: 1 });
  for (const [i, day] of ['20', '21', '22'].entries())
    assert.equal(
      await (
        await cell(
          dir,
          `n${i}`,
          syntheticDoc({ node: 'v22.23.3', finishedAt: `2026-11-${day}T03:17:00.000Z`, seed: i }),
        )
      ).go(),
      'pushed',
    );
  assert.equal(allArchived(dir).entries.length, 3);
});

/** One night under a fault: it lands, archived, and its log has a line saying how. */
async function landsUnder(/** @type {object} */ fault, /** @type {RegExp} */ said) {
  const dir = setup();
  faults(dir, fault);
  const a = await cell(dir, 'a', syntheticDoc());
  assert.equal(await a.go(), 'pushed');
  assert.ok(
    a.log.some((l) => said.test(l)),
    a.log.join('\n'),
  );
  allArchived(dir);
}

test('an upload cut off leaves a draft: it is deleted and the release made again', async () => {
  await landsUnder({ interrupt: 1 }, /is a draft, left by an upload that was cut off: deleted, to be made again/);
});

test("a published release with its asset cut off ('starter'): the asset is uploaded again; an immutable one stops before anything is committed", async () => {
  for (const immutable of [false, true]) {
    const dir = setup();
    const a = await cell(dir, 'a', syntheticDoc(), { run: '77' });
    const [entry] = JSON.parse(fs.readFileSync(path.join(a.cwd, 'results', 'index.json'), 'utf8')).entries;
    // what an earlier attempt left: the release published, its asset never finished
    const at = path.join(dir, 'releases', 'repos', 'owner', 'repo', entry.release);
    fs.mkdirSync(at, { recursive: true });
    fs.writeFileSync(
      path.join(at, 'release.json'),
      JSON.stringify({ draft: false, immutable, assets: { [bundleName(entry.release)]: { state: 'starter', at: 0 } } }),
    );
    if (!immutable) {
      assert.equal(await a.go(), 'pushed');
      allArchived(dir);
      continue;
    }
    const head = git(['ls-remote', path.join(dir, 'origin.git'), 'main'], dir);
    await assert.rejects(
      a.go(),
      new RegExp(
        `release ${entry.release} is immutable and cannot hold its asset ${entry.release}\\.jsonl\\.gz \\(HTTP 422: Cannot .*\\): nothing was committed; re-run the workflow, whose new attempt names a new release for these documents`,
      ),
    );
    assert.equal(git(['ls-remote', path.join(dir, 'origin.git'), 'main'], dir), head, 'something was pushed');
  }
});

test('a listing that lags an upload: the release is looked at again, not uploaded to', async () => {
  const dir = setup();
  const a = await cell(dir, 'a', syntheticDoc({ node: 'v22.23.3', finishedAt: '2026-11-20T03:17:00.000Z' }));
  const b = await cell(dir, 'b', syntheticDoc({ node: 'v24.11.0', finishedAt: '2026-11-21T03:17:00.000Z' }));
  assert.equal(await a.go(), 'pushed');
  faults(dir, { viewLag: 3 }); // b makes its release, is rejected, aggregates again: its release is not listed yet
  assert.equal(await b.go(), 'pushed');
  const calls = fs.readFileSync(/** @type {string} */ (process.env.FAKE_GH_LOG), 'utf8');
  assert.doesNotMatch(calls, /^(upload|delete)/m);
  assert.ok((calls.match(/^view /gm)?.length ?? 0) >= 4, calls);
  allArchived(dir);
});

test('the rate limit: a call turned away is tried again after a wait, and the night lands', async () => {
  await landsUnder({ rateLimit: 3 }, /secondary rate limit.*; try 2 of 6 in/);
});

test('a gh call GitHub keeps turning away: 6 tries, each wait twice the last, then its last refusal in one line', async () => {
  const dir = scratch('gh-');
  archiveStandIn(dir);
  faults(dir, { rateLimit: 7 });
  /** @type {string[]} */
  const log = [];
  const view = (/** @type {object} */ o = {}) =>
    gh(['release', 'view', 'results-x', '--json', 'assets'], { log: (s) => log.push(s), ...o });
  await assert.rejects(view(), (err) => {
    assert.ok(err instanceof GhError);
    assert.match(
      err.message,
      /fake-gh\.js release view results-x failed: HTTP 403: You have exceeded a secondary rate limit\./,
    );
    assert.doesNotMatch(err.message, /\n/);
    return true;
  });
  assert.deepEqual(
    log.map((l) => /^gh release view results-x: HTTP 403: .*; try (\d) of 6 in ([\d.]+) s$/.exec(l)?.slice(1)),
    [
      ['2', '0.001'],
      ['3', '0.002'],
      ['4', '0.004'],
      ['5', '0.008'],
      ['6', '0.016'],
    ],
  );
  const calls = () =>
    fs.readFileSync(/** @type {string} */ (process.env.FAKE_GH_LOG), 'utf8').match(/^view /gm)?.length;
  assert.equal(calls(), 6);
  // tries: 1, the caller looks at what is there itself: the seventh refusal is not tried again
  log.length = 0;
  await assert.rejects(view({ tries: 1 }), /secondary rate limit/);
  assert.deepEqual(log, []);
  // a refusal that does not pass is not tried again
  await assert.rejects(view(), /release view results-x failed: release not found$/);
  assert.equal(calls(), 8);
  assert.equal(await view({ missing: /release not found/ }), null);
});

test("a retry's last failure is thrown as it is, not the most frequent one; a lasting one at once", async () => {
  process.env.SQLITE_BENCH_GH_BACKOFF_MS = '1';
  for (const lasting of [false, true]) {
    /** @type {unknown[]} */
    const seen = [];
    const step = (/** @type {number} */ n) => {
      throw new Error(n < 3 ? 'busy' : 'gone');
    };
    await assert.rejects(
      retrying(
        step,
        { tries: lasting ? 6 : 3, backoff: true },
        {
          retryable: (err) => !lasting || err.message === 'busy',
          onRetry: (err, n, wait) => {
            seen.push([err.message, n, wait]);
          },
        },
      ),
      /^Error: gone$/,
    );
    assert.deepEqual(seen, [
      ['busy', 1, 1],
      ['busy', 2, 2],
    ]);
  }
});

test("a fork's first night: upstream's index names releases the fork lacks; the fork's own history starts and publishes", async () => {
  const dir = setup();
  // upstream: two nights, archived in upstream's releases, its index committed
  process.env.GH_REPO = 'upstream/repo';
  for (const [i, day] of ['19', '20'].entries())
    assert.equal(
      await (
        await cell(
          dir,
          `u${i}`,
          syntheticDoc({ node: 'v22.23.3', finishedAt: `2026-11-${day}T03:17:00.000Z`, seed: i }),
        )
      ).go(),
      'pushed',
    );
  assert.equal(remoteIndex(dir).repository, 'upstream/repo');
  // the fork: the same git history, none of the releases
  process.env.GH_REPO = 'fork/repo';
  const f = await cell(dir, 'f', syntheticDoc({ node: 'v24.11.0', finishedAt: '2026-11-21T03:17:00.000Z', seed: 9 }));
  assert.ok(
    f.log.some((l) =>
      /index\.json lists 2 document\(s\) archived in upstream\/repo's releases, and this is fork\/repo, which has none of them \(a fork: GitHub does not copy releases\): results\/ emptied, fork\/repo's own history starts with tonight's documents/.test(
        l,
      ),
    ),
    f.log.join('\n'),
  );
  // the publish job: another checkout of the same commit, which takes the aggregate job's pages whole
  git(['clone', '-q', '-b', 'main', path.join(dir, 'origin.git'), 'fp'], dir);
  assert.ok(fs.existsSync(path.join(dir, 'fp', 'results', 'index.json')), "upstream's index is in the checkout");
  /** @type {string[]} */
  const log = [];
  const published = await publish({
    artifacts: f.artifacts,
    pages: f.cwd,
    results: 'results',
    readme: 'README.md',
    remote: 'origin',
    branch: 'main',
    cwd: path.join(dir, 'fp'),
    log: (l) => log.push(l),
    runAggregate: () => assert.fail('no push was rejected'),
  });
  assert.equal(published, 'pushed', log.join('\n'));
  const { entries, readme, linked } = allArchived(dir, 'fork/repo');
  assert.deepEqual(
    entries.map((/** @type {{ node: string }} */ e) => e.node),
    ['v24.11.0'],
  );
  assert.ok(readme.includes('v24.11.0') && !readme.includes('v22.23.3'), 'upstream figures in the fork');
  assert.ok(linked.length >= 1);
});

test('a renamed repository keeps its releases, and its history: restore starts over only where the releases are missing', async () => {
  const dir = setup();
  const a = await cell(dir, 'a', syntheticDoc({ node: 'v22.23.3', finishedAt: '2026-11-20T03:17:00.000Z' }));
  assert.equal(await a.go(), 'pushed');
  // GitHub moves the releases with a renamed repository
  fs.cpSync(
    path.join(dir, 'releases', 'repos', 'owner', 'repo'),
    path.join(dir, 'releases', 'repos', 'owner', 'renamed'),
    {
      recursive: true,
    },
  );
  process.env.GH_REPO = 'owner/renamed';
  const b = await cell(dir, 'b', syntheticDoc({ node: 'v24.11.0', finishedAt: '2026-11-21T03:17:00.000Z' }));
  assert.ok(
    b.log.some((l) =>
      /names owner\/repo, and this is owner\/renamed, which holds its releases \(renamed or transferred\): kept/.test(
        l,
      ),
    ),
    b.log.join('\n'),
  );
  assert.equal(await b.go(), 'pushed');
  const { entries } = allArchived(dir, 'owner/renamed');
  assert.deepEqual(entries.map((/** @type {{ node: string }} */ e) => e.node).sort(), ['v22.23.3', 'v24.11.0']);
});

test('restore in the repository the index names, without a release it lists: exit 1 naming the fix, nothing written', async () => {
  const dir = setup();
  const a = await cell(dir, 'a', syntheticDoc());
  assert.equal(await a.go(), 'pushed');
  const [entry] = remoteIndex(dir).entries;
  fs.rmSync(path.join(dir, 'releases', 'repos', 'owner', 'repo', entry.release), { recursive: true });
  const { check } = remoteIndex(dir);
  await assert.rejects(
    restore({ results: path.join(check, 'results'), log: () => {} }),
    new RegExp(
      `release ${entry.release} of owner/repo or its asset ${entry.release}\\.jsonl\\.gz is not there, and .*index\\.json lists 1 document\\(s\\) the pages need in it \\(${entry.file.replace(/\./g, '\\.')}\\); nothing written\\. If this repository is a copy of another, remove results/ to start its own history`,
    ),
  );
  assert.ok(!fs.existsSync(path.join(check, 'results', '2026')));
  assert.equal(
    (await archive({ results: path.join(a.cwd, 'results'), log: () => {} })).releases[entry.release],
    'made',
    'archive makes it again from the documents here',
  );
});

test("a fork's start over removes only what the aggregate made in results/; a user's file stays", () => {
  const results = scratch('start-over-');
  for (const d of ['charts', '2026', '2027']) fs.mkdirSync(path.join(results, d));
  for (const f of ['index.json', 'README.md', 'charts/nights.jsonl', '2026/a.json', 'notes.txt'])
    fs.writeFileSync(path.join(results, f), 'x');
  fs.mkdirSync(path.join(results, 'mine'));
  fs.writeFileSync(path.join(results, 'mine', 'keep.md'), 'y');
  assert.deepEqual(startOver(results).sort(), ['mine', 'notes.txt']);
  assert.deepEqual(fs.readdirSync(results).sort(), ['mine', 'notes.txt']);
  assert.equal(fs.readFileSync(path.join(results, 'mine', 'keep.md'), 'utf8'), 'y');
});
