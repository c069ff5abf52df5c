// The workflows' contract, read from the YAML itself.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { MATRIX_NODES } from '../bench/data/drivers.js';
import { ROOT } from './helpers.js';

const dir = path.join(ROOT, '.github', 'workflows');
const files = fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
/** @type {Record<string, any>} */
const wf = Object.fromEntries(files.map((f) => [f, parse(fs.readFileSync(path.join(dir, f), 'utf8'))]));
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
// the verified pins, beside the workflows: a row per action, tag and commit (how one is added: its header)
const pinsFile = path.join(ROOT, '.github', 'action-pins.md');
const bench = wf['benchmark.yml'];
const steps = (/** @type {any} */ job) => job.steps ?? [];
/** A job's `run:` lines, in order. */
const runsOf = (/** @type {any} */ job) =>
  steps(job)
    .map((/** @type {any} */ s) => s.run)
    .filter(Boolean);
/** Whether a step uses actions/<name>. */
const uses = (/** @type {string} */ name) => (/** @type {any} */ s) => String(s.uses).startsWith(`actions/${name}@`);
/** @returns {string[]} */
const triggers = (/** @type {any} */ w) =>
  typeof w.on === 'string' ? [w.on] : Array.isArray(w.on) ? w.on : Object.keys(w.on);

test('the benchmark matrix is Node 18, 20, 22, 24, 25 × Linux x64, Linux arm64, macOS arm64, macOS Intel', () => {
  const m = bench.jobs.bench.strategy.matrix;
  assert.deepEqual(m.node, MATRIX_NODES);
  assert.deepEqual([...m.runner].sort(), ['macos-15', 'macos-15-intel', 'ubuntu-24.04', 'ubuntu-24.04-arm']);
  assert.equal(bench.jobs.bench.strategy['fail-fast'], false);
  assert.ok(bench.jobs.bench['timeout-minutes'] > 0 && bench.jobs.bench['timeout-minutes'] <= 90);
  assert.ok(!m.include && !m.exclude, 'include/exclude would change the cells');
});

test('triggers: nightly off the top of the hour, dispatch with Node/platform/quick inputs, pushes that change the benchmark', () => {
  const [cron] = bench.on.schedule.map((/** @type {any} */ s) => s.cron.split(' '));
  assert.notEqual(cron[0], '0');
  assert.deepEqual(Object.keys(bench.on.workflow_dispatch.inputs).sort(), ['node-versions', 'platforms', 'quick']);
  assert.ok(bench.on.push.paths.includes('bench/**') && bench.on.push.paths.includes('package-lock.json'));
  assert.ok(!triggers(bench).includes('pull_request') && !triggers(bench).includes('pull_request_target'));
});

test('artifact names are unique per cell and the documents are kept for a while', () => {
  const upload = steps(bench.jobs.bench).find(uses('upload-artifact'));
  const { name } = upload.with;
  assert.ok(name.includes('${{ matrix.node }}') && name.includes('${{ matrix.runner }}'), name);
  const m = bench.jobs.bench.strategy.matrix;
  const names = m.node.flatMap((/** @type {any} */ n) =>
    m.runner.map((/** @type {any} */ r) => name.replace('${{ matrix.node }}', n).replace('${{ matrix.runner }}', r)),
  );
  assert.equal(new Set(names).size, names.length);
  assert.ok(upload.with['retention-days'] > 0);
  assert.match(upload.if, /always\(\)/, 'a failed cell must still upload its document');
  const download = steps(bench.jobs.aggregate).find(uses('download-artifact'));
  assert.equal(download.with.pattern, name.split('$')[0] + '*');
});

test('the Linux cells install what counting needs, pinned, before the bench, which counts after its timed rounds', () => {
  const all = steps(bench.jobs.bench);
  const install = all.find((/** @type {any} */ s) => s.run === 'npm run ci:install-counting');
  assert.ok(install, 'a step runs npm run ci:install-counting');
  assert.match(String(install.if), /runner\.os == 'Linux'/, 'only on Linux: valgrind does not run on macOS');
  const runs = all.map((/** @type {any} */ s) => s.run).filter(Boolean);
  assert.ok(runs.indexOf('npm run ci:install-counting') < runs.indexOf('npm run ci:bench'));
  assert.equal(pkg.scripts['ci:install-counting'], 'node bench/ci/install-counting.js');
  const script = fs.readFileSync(path.join(ROOT, 'bench/ci/install-counting.js'), 'utf8');
  assert.match(script, /valgrind: '[^']+', strace: '[^']+'/, 'the versions are pinned');
  // the cell's bench counts unless told not to: nothing in the cell's wiring turns it off
  assert.ok(!fs.readFileSync(path.join(ROOT, 'bench/ci/bench-cell.js'), 'utf8').includes('--no-counts'));
  // and so does the shootout job, before the shootout, which counts every Node after its timed run
  const shootout = steps(bench.jobs.shootout);
  const its = shootout.find((/** @type {any} */ s) => s.run === 'npm run ci:install-counting');
  assert.ok(its, 'the shootout job runs npm run ci:install-counting');
  assert.match(String(its.if), /runner\.os == 'Linux'/);
  const order = shootout.map((/** @type {any} */ s) => s.run).filter(Boolean);
  assert.ok(order.indexOf('npm run ci:install-counting') < order.indexOf('npm run ci:shootout'));
  assert.ok(!fs.readFileSync(path.join(ROOT, 'bench/shootout/nightly.js'), 'utf8').includes('--no-counts'));
});

test('each cell compiles the drivers on its runner, verifies the binary, caches by OS, arch, Node and lockfiles', () => {
  const runs = runsOf(bench.jobs.bench);
  assert.ok(
    runs.includes('npm run ci:install-from-source') && pkg.scripts['ci:install-from-source'].includes('--from-source'),
  );
  assert.ok(runs.indexOf('npm run ci:verify-drivers') > runs.indexOf('npm run ci:install-from-source'));
  assert.ok(runs.indexOf('npm run ci:bench') > runs.indexOf('npm run ci:verify-drivers'));
  const cache = steps(bench.jobs.bench).find(uses('cache'));
  for (const part of [
    'runner.os',
    'runner.arch',
    'steps.node.outputs.node-version',
    "hashFiles('drivers/*/package-lock.json'",
  ])
    assert.ok(cache.with.key.includes(part), part);
  assert.equal(cache.with.path, '.drivers');
  const failure = steps(bench.jobs.bench).find((/** @type {any} */ s) => s.run === 'npm run ci:failure');
  assert.match(failure.if, /failure\(\)/);
});

test('every cell leaves a document: step timeouts within the job’s, the failure step told the cell and which step failed, a re-run’s upload replaces the artifact', () => {
  const job = bench.jobs.bench;
  const all = steps(job);
  const byRun = (/** @type {string} */ run) => all.find((/** @type {any} */ s) => s.run === run);
  const failureAt = all.indexOf(byRun('npm run ci:failure'));
  // a job that reaches its own timeout is cancelled before its failure and upload steps run: the
  // steps before them must time out first, together, with minutes to spare
  const bounded = all.slice(0, failureAt).filter((/** @type {any} */ s) => s['timeout-minutes']);
  for (const run of ['npm run ci:install-from-source', 'npm run ci:bench'])
    assert.ok(byRun(run)['timeout-minutes'] > 0, `${run} has a step timeout-minutes`);
  const sum = bounded.reduce((/** @type {number} */ t, /** @type {any} */ s) => t + s['timeout-minutes'], 0);
  assert.ok(
    sum + 5 <= job['timeout-minutes'],
    `the step timeouts add up to ${sum} minutes: the job's ${job['timeout-minutes']} leaves under 5 for the rest`,
  );
  // the cell, from the matrix (job env), and each earlier step's outcome, by its id
  const failure = byRun('npm run ci:failure');
  const env = { ...job.env, ...failure.env };
  assert.equal(env.CELL_NODE, '${{ matrix.node }}');
  assert.equal(env.CELL_RUNNER, '${{ matrix.runner }}');
  const ids = {
    SETUP_NODE: all.find(uses('setup-node')),
    INSTALL: byRun('npm run ci:install-from-source'),
    VERIFY: byRun('npm run ci:verify-drivers'),
    COUNTING: byRun('npm run ci:install-counting'),
    BENCH: byRun('npm run ci:bench'),
  };
  for (const [name, step] of Object.entries(ids)) {
    assert.ok(step.id, `the step ${step.run ?? step.uses} has an id`);
    assert.equal(env[`${name}_OUTCOME`], `\${{ steps.${step.id}.outcome }}`, `${name}_OUTCOME`);
    assert.equal(env[`${name}_TIMEOUT`], step['timeout-minutes'], `${name}_TIMEOUT is the step's timeout-minutes`);
  }
  assert.ok(!env.FAILED_STEP, 'the reason comes from the outcomes, not a fixed text');
  const upload = all.find(uses('upload-artifact'));
  assert.equal(upload.with.overwrite, true, 'a re-run of a failed cell uploads the same artifact name again');
  assert.ok(all.indexOf(upload) > failureAt);
});

test('the aggregate job needs the matrix, runs after failures but not after cancellation, never for pull requests; it reads, the publish job after it writes', () => {
  const agg = bench.jobs.aggregate;
  assert.deepEqual(agg.needs, ['bench', 'shootout']);
  assert.match(agg.if, /!cancelled\(\)/);
  assert.doesNotMatch(agg.if, /success\(\)|always\(\)/);
  assert.match(agg.if, /github\.event_name != 'pull_request'/);
  assert.deepEqual(agg.permissions, { contents: 'read' }, 'restore and aggregate run with a read-only token');
  /** @type {string[]} */
  const runs = runsOf(agg);
  assert.deepEqual(runs, [
    'npm run ci:install-js',
    'npm run ci:restore',
    'npm run aggregate -- --artifacts "$RUNNER_TEMP/artifacts"',
  ]);
  const pages = steps(agg).find(uses('upload-artifact'));
  assert.equal(pages.with.name, 'pages');
  assert.deepEqual(pages.with.path.trim().split('\n'), ['README.md', 'results/']);
  assert.equal(pages.with.overwrite, true, 'a re-run replaces its pages');

  const pub = bench.jobs.publish;
  assert.deepEqual(pub.needs, ['aggregate']);
  assert.match(pub.if, /!cancelled\(\)/);
  assert.match(pub.if, /needs\.aggregate\.result == 'success'/);
  assert.equal(pub.concurrency['cancel-in-progress'], false);
  assert.ok(pub.concurrency.group);
  const pubRuns = runsOf(pub);
  assert.deepEqual(pubRuns, [
    'npm run ci:install-js',
    'npm run ci:publish -- --pages "$RUNNER_TEMP/pages" --artifacts "$RUNNER_TEMP/artifacts"',
  ]);
  const downloads = steps(pub).filter(uses('download-artifact'));
  assert.ok(
    downloads.some((/** @type {any} */ d) => d.with.name === 'pages' && d.with.path === '${{ runner.temp }}/pages'),
  );
  for (const pattern of ['result-*', 'shootout-*'])
    assert.ok(
      downloads.some(
        (/** @type {any} */ d) => d.with.pattern === pattern && d.with.path === '${{ runner.temp }}/artifacts',
      ),
      `publish aggregates again over ${pattern} after a rejected push`,
    );
  for (const s of [...steps(agg), ...steps(pub)].filter((/** @type {any} */ x) =>
    /ci:(restore|publish)/.test(x.run ?? ''),
  ))
    assert.deepEqual(s.env, { GH_TOKEN: '${{ github.token }}', GH_REPO: '${{ github.repository }}' }, s.run);
});

test('the shootout: one job per runner label, nightly and on dispatch, every Node on one VM, its document uploaded for the aggregate', () => {
  const job = bench.jobs.shootout;
  assert.deepEqual(
    [...job.strategy.matrix.runner].sort(),
    [...bench.jobs.bench.strategy.matrix.runner].sort(),
    'a shootout for every runner label the matrix has',
  );
  assert.deepEqual(
    Object.keys(job.strategy.matrix),
    ['runner'],
    'one job per runner: every Node in one VM, never a Node per job',
  );
  assert.equal(job.strategy['fail-fast'], false);
  assert.match(job.if, /github\.event_name == 'schedule'/);
  assert.match(job.if, /github\.event_name == 'workflow_dispatch'/);
  assert.doesNotMatch(job.if, /pull_request|push/);
  assert.ok(job['timeout-minutes'] > 0 && job['timeout-minutes'] <= 60);
  assert.ok(!job.permissions, 'reads only (the workflow default)');
  const runs = runsOf(job);
  assert.deepEqual(runs, [
    'npm run ci:install-js',
    'npm run ci:shootout-nodes',
    'npm run ci:install-counting',
    'npm run ci:shootout',
  ]);
  const nodes = steps(job).find((/** @type {any} */ s) => s.run === 'npm run ci:shootout-nodes');
  assert.equal(nodes.id, 'nodes');
  assert.equal(nodes.env.WANT_NODES, '${{ inputs.node-versions }}', 'the same Nodes as the shootout');
  assert.equal(pkg.scripts['ci:shootout'], 'node bench/shootout/nightly.js');
  assert.equal(pkg.scripts.shootout, 'node bench/shootout/cli.js');
  const step = steps(job).find((/** @type {any} */ s) => s.run === 'npm run ci:shootout');
  assert.equal(step.env.BENCH_QUICK, '${{ inputs.quick || false }}', 'inputs reach the script as data');
  assert.equal(step.env.WANT_NODES, '${{ inputs.node-versions }}');
  const cache = steps(job).find(uses('cache'));
  for (const part of [
    'runner.os',
    'runner.arch',
    'steps.nodes.outputs.versions',
    "hashFiles('drivers/*/package-lock.json'",
  ])
    assert.ok(cache.with.key.includes(part), part);
  assert.ok(
    steps(job).indexOf(nodes) < steps(job).indexOf(cache),
    'the Node versions are resolved before the cache is keyed on them',
  );
  assert.deepEqual(
    cache.with.path
      .trim()
      .split('\n')
      .map((/** @type {string} */ x) => x.trim()),
    ['.cache/node', '.drivers'],
  );
  const upload = steps(job).find(uses('upload-artifact'));
  assert.ok(upload.with.name.includes('${{ matrix.runner }}'));
  assert.match(upload.with.path, /^out\/shootout\//);
  assert.equal(upload.with['if-no-files-found'], 'error');
  const downloads = steps(bench.jobs.aggregate).filter(uses('download-artifact'));
  assert.ok(
    downloads.some(
      (/** @type {any} */ d) =>
        d.with.pattern === `${upload.with.name.split('$')[0]}*` && d.with.path === '${{ runner.temp }}/artifacts',
    ),
    'the aggregate downloads the shootout documents beside the cells',
  );
  // the cells' artifact pattern must not pick up the shootout's, nor the other way round
  const cellName = steps(bench.jobs.bench).find(uses('upload-artifact')).with.name;
  assert.ok(
    !upload.with.name.startsWith(cellName.split('$')[0]) && !cellName.startsWith(upload.with.name.split('$')[0]),
  );
  // the CI wrapper: every matrix Node, compiled from source, written where the upload looks
  assert.match(
    fs.readFileSync(path.join(ROOT, 'bench', 'shootout', 'nightly.js'), 'utf8'),
    /'--from-source',\s*'--out',\s*'out\/shootout'/,
  );
});

test('write permission only on the publish job (contents) and the comment job (pull-requests); read everywhere else; never write on a pull_request trigger', () => {
  for (const [file, w] of Object.entries(wf)) {
    assert.deepEqual(
      w.permissions,
      file === 'compare-comment.yml' ? {} : { contents: 'read' },
      `${file}: top-level permissions`,
    );
    for (const [id, job] of Object.entries(/** @type {Record<string, any>} */ (w.jobs))) {
      const writes = Object.entries(job.permissions ?? {})
        .filter(([, v]) => v === 'write')
        .map(([k]) => k);
      if (file === 'benchmark.yml' && id === 'publish') assert.deepEqual(writes, ['contents']);
      else if (file === 'compare-comment.yml' && id === 'comment') assert.deepEqual(writes, ['pull-requests']);
      else assert.deepEqual(writes, [], `${file}/${id} may write`);
      if (writes.length)
        assert.ok(
          !triggers(w).some((t) => t.startsWith('pull_request')),
          `${file}/${id} writes and runs on pull requests`,
        );
    }
  }
});

test('checkouts do not keep credentials, except in the one job that pushes', () => {
  for (const [file, w] of Object.entries(wf)) {
    for (const [id, job] of Object.entries(/** @type {Record<string, any>} */ (w.jobs))) {
      for (const s of steps(job).filter(uses('checkout'))) {
        const pushes = file === 'benchmark.yml' && id === 'publish';
        assert.equal(s.with?.['persist-credentials'], pushes, `${file}/${id}`);
        // a job with its own permissions gets only those: one that checks out must be able to read
        if (job.permissions)
          assert.ok(
            ['read', 'write'].includes(job.permissions.contents),
            `${file}/${id}: checkout without contents: read`,
          );
      }
    }
  }
});

/**
 * The rows of a pins table: `| owner/action | tag | 40-hex commit | … |`, as `owner/action@commit # tag`.
 * @param {string} text
 */
const pinRows = (text) =>
  new Set(
    [...text.matchAll(/^\|\s*([\w.-]+\/[\w.-]+)\s*\|\s*(\S+)\s*\|\s*([0-9a-f]{40})\s*\|/gm)].map(
      ([, action, tag, sha]) => `${action}@${sha} # ${tag}`,
    ),
  );

test('actions are pinned to full commit SHAs, with the version in a comment, each a row of .github/action-pins.md', () => {
  assert.ok(fs.existsSync(pinsFile), '.github/action-pins.md is missing: the pins cannot be checked');
  const pins = pinRows(fs.readFileSync(pinsFile, 'utf8'));
  assert.ok(pins.size > 0, '.github/action-pins.md has no row | action | tag | commit |');
  let checked = 0;
  for (const file of files) {
    const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!/^\s*(-\s+)?uses:/.test(line)) return;
      const m = /^\s*(?:-\s+)?uses:\s*([\w.-]+\/[\w.-]+)@(\S+)(?:\s+#\s*(\S+))?\s*$/.exec(line);
      assert.ok(m, `${file}:${i + 1}: '${line.trim()}' is not owner/action@commit # tag`);
      const [, action, sha, tag] = m;
      assert.match(sha, /^[0-9a-f]{40}$/, `${file}:${i + 1}: ${action}@${sha} is not a full commit SHA`);
      assert.ok(tag, `${file}:${i + 1}: ${action} has no version comment`);
      assert.ok(
        pins.has(`${action}@${sha} # ${tag}`),
        `${file}:${i + 1}: ${action}@${sha} # ${tag} is not a row of .github/action-pins.md`,
      );
      checked++;
    });
  }
  assert.ok(checked > 0, 'no uses: found in the workflows');
});

test('workflows are wiring: every run step is one npm script that package.json has', () => {
  for (const [file, w] of Object.entries(wf)) {
    for (const [id, job] of Object.entries(/** @type {Record<string, any>} */ (w.jobs))) {
      for (const s of steps(job).filter((/** @type {any} */ x) => x.run)) {
        const m = String(s.run)
          .trim()
          .match(/^npm (?:run ([\w:-]+)|(test))(?: -- .*)?$/);
        assert.ok(m && !String(s.run).includes('\n'), `${file}/${id}: '${s.run}' is not one npm script`);
        const script = m[1] ?? m[2];
        assert.ok(pkg.scripts[script], `${file}/${id}: package.json has no script '${script}'`);
      }
    }
  }
});

test('the test workflow runs npm test, the end-to-end tests and the lint on Linux and macOS, on push and pull_request', () => {
  const t = wf['test.yml'];
  assert.deepEqual(triggers(t).sort(), ['pull_request', 'push']);
  const all = Object.values(/** @type {Record<string, any>} */ (t.jobs));
  const runs = all.flatMap(runsOf);
  assert.ok(runs.includes('npm test') && runs.includes('npm run lint'));
  for (const j of all) {
    /** @type {string[]} */
    const runners = j.strategy.matrix.runner;
    assert.ok(runners.some((r) => r.startsWith('ubuntu-')) && runners.some((r) => r.startsWith('macos-')));
  }
  // the Test job installs as a user does and runs the README's test command, then the end-to-end
  // tests npm test leaves out: nothing in them may need drivers built from source (npm run
  // test:nodes runs the same commands per Node)
  assert.deepEqual(runsOf(t.jobs.test), ['npm run ci:install-as-user', 'npm test', 'npm run test:e2e']);
  assert.match(pkg.scripts['ci:install-as-user'], /^npm ci( --no-audit| --no-fund)*$/);
  assert.match(pkg.scripts.lint, /test\/lint\.js/);
  assert.match(fs.readFileSync(path.join(ROOT, 'test', 'lint.js'), 'utf8'), /actionlint@v1\.7\.12[\s\S]*zizmor/);
});

const cmp = wf['compare.yml'];
const comment = wf['compare-comment.yml'];

test('the PR check: pull_request on the benchmark paths, read-only, no secrets, head against merge-base in one job', () => {
  assert.deepEqual(triggers(cmp), ['pull_request'], 'pull_request only: never pull_request_target');
  // every folder whose code the compare runs: lib/ holds its statistics
  for (const p of [
    'bench/**',
    'compare/**',
    'lib/**',
    'drivers/**',
    'package.json',
    'package-lock.json',
    '.github/workflows/**',
  ])
    assert.ok(cmp.on.pull_request.paths.includes(p), p);
  assert.deepEqual(cmp.permissions, { contents: 'read' });
  const text = fs.readFileSync(path.join(dir, 'compare.yml'), 'utf8');
  assert.doesNotMatch(text, /secrets\./, 'no secrets in the PR check');
  const jobs = Object.values(/** @type {Record<string, any>} */ (cmp.jobs));
  assert.equal(jobs.length, 1, 'base and head on the same runner, in the same job');
  const [job] = jobs;
  assert.ok(!job.permissions, 'no job widens the permissions');
  assert.ok(!job.strategy, 'one runner');
  const checkout = steps(job).find(uses('checkout'));
  assert.equal(checkout.with.ref, '${{ github.event.pull_request.head.sha }}');
  assert.equal(checkout.with['fetch-depth'], 0, 'the merge-base must be in the clone');
  const runs = runsOf(job);
  // valgrind and strace before the compare: it counts both sides (docs/compare.md)
  assert.deepEqual(runs, ['npm run ci:install-as-user', 'npm run ci:install-counting', 'npm run ci:compare']);
  const counting = steps(job).find((/** @type {any} */ s) => s.run === 'npm run ci:install-counting');
  assert.ok(counting['timeout-minutes'] > 0, 'installing the tools has its own timeout');
  const step = steps(job).find((/** @type {any} */ s) => s.run === 'npm run ci:compare');
  assert.equal(
    step.env.BASE_SHA,
    '${{ github.event.pull_request.base.sha }}',
    'the base is given as data, never pasted into a script',
  );
  assert.match(pkg.scripts['ci:compare'], /compare\/ci\.js/);
  assert.match(fs.readFileSync(path.join(ROOT, 'compare', 'ci.js'), 'utf8'), /'--merge-base'/);
  const upload = steps(job).find(uses('upload-artifact'));
  assert.match(upload.if, /always\(\)/, 'a regression fails the step; the table must still be uploaded');
  assert.equal(upload.with.name, 'compare');
  assert.ok(job['timeout-minutes'] <= 30);
});

test("the comment job: workflow_run of the PR check, pull-requests: write, never checks out or runs PR code; installs the default branch's lockfile without scripts", () => {
  assert.deepEqual(triggers(comment), ['workflow_run']);
  assert.deepEqual(comment.on.workflow_run.workflows, [cmp.name]);
  assert.deepEqual(comment.on.workflow_run.types, ['completed']);
  const [[, job]] = Object.entries(/** @type {Record<string, any>} */ (comment.jobs));
  // contents: read for the checkout, which a private repository refuses without it
  assert.deepEqual(job.permissions, { actions: 'read', contents: 'read', 'pull-requests': 'write' });
  assert.match(job.if, /github\.event\.workflow_run\.event == 'pull_request'/);
  const text = fs.readFileSync(path.join(dir, 'compare-comment.yml'), 'utf8');
  assert.doesNotMatch(
    text,
    /workflow_run\.head_(branch|repository)|pull_request\.head|refs\/pull/,
    'nothing of the PR is checked out',
  );
  for (const s of steps(job)) {
    if (String(s.uses).startsWith('actions/checkout@')) {
      assert.ok(!s.with?.ref && !s.with?.repository, 'checkout of the default branch only');
      assert.equal(s.with['persist-credentials'], false);
    }
    assert.doesNotMatch(JSON.stringify(s), /cache/, 'no cache a PR could have poisoned');
  }
  // the default branch's lockfile, installed without running a script, then our own script only
  assert.deepEqual(runsOf(job), ['npm run ci:install-js', 'npm run ci:comment']);
  assert.match(pkg.scripts['ci:install-js'], /^npm ci --ignore-scripts( --no-audit| --no-fund)*$/);
  const download = steps(job).find(uses('download-artifact'));
  assert.equal(download.with['run-id'], '${{ github.event.workflow_run.id }}');
  assert.match(download.with.path, /runner\.temp/, 'the artifact lands outside the checkout');
  const step = steps(job).find((/** @type {any} */ s) => s.run === 'npm run ci:comment');
  assert.equal(step.env.RUN_HEAD_SHA, '${{ github.event.workflow_run.head_sha }}');
  assert.equal(pkg.scripts['ci:comment'], 'node compare/comment.js');
  // comment.js and every project file it imports, transitively, import only what the install
  // installs: a package of the lockfile's dependencies (the document's schema check: ajv, semver)
  const seen = new Set();
  const visit = (/** @type {string} */ file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const imports = [...fs.readFileSync(file, 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    for (const m of imports) {
      if (m.startsWith('node:')) continue;
      if (!m.startsWith('.')) {
        const name = m.startsWith('@') ? m.split('/').slice(0, 2).join('/') : m.split('/')[0];
        assert.ok(
          name in pkg.dependencies,
          `${path.relative(ROOT, file)} imports '${m}', not one of package.json's dependencies`,
        );
        continue;
      }
      visit(path.resolve(path.dirname(file), m));
    }
  };
  visit(path.join(ROOT, 'compare', 'comment.js'));
  assert.ok(seen.size >= 2, 'comment.js uses the shared command skeleton');
});
