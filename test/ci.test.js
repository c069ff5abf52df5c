import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { wanted } from '../bench/ci/select-cell.js';
import { failureDocument, failureReason } from '../bench/ci/failure.js';
import { verify } from '../bench/ci/verify-drivers.js';
import { validate } from '../bench/result/document.js';
import { RESULT_FILE } from '../bench/result/header.js';
import { readResult } from '../aggregate/read.js';
import { cases } from '../bench/data/suite.js';
import { binaryOrigin, driversDir } from '../bench/engine/load-drivers.js';
import { ROOT, childEnv, drivers, scratch } from './helpers.js';

test('workflow_dispatch inputs narrow the matrix; empty inputs run every cell', () => {
  assert.equal(wanted({ node: '22', runner: 'macos-15' }), true);
  assert.equal(wanted({ node: '22', runner: 'macos-15', wantNodes: '18, 25' }), false);
  assert.equal(wanted({ node: '25', runner: 'macos-15', wantNodes: 'v18,v25' }), true);
  assert.equal(wanted({ node: '25', runner: 'macos-15', wantNodes: '25', wantRunners: 'ubuntu-24.04' }), false);
  assert.equal(
    wanted({ node: '25', runner: 'ubuntu-24.04', wantNodes: '25', wantRunners: 'ubuntu-24.04 ubuntu-24.04-arm' }),
    true,
  );
});

test('a failed cell still produces a valid document in which every driver and case says what failed', () => {
  const doc = failureDocument('the driver build failed on macos-15-intel with Node 18', { mode: 'quick' });
  assert.deepEqual(validate(doc), []);
  assert.equal(doc.cases.length, cases().length);
  for (const x of [...doc.cases, ...doc.sides[0].drivers]) {
    assert.equal(x.status, 'error');
    assert.equal(x.reason, 'not measured: the driver build failed on macos-15-intel with Node 18');
  }
});

test('the failure document names the first step that failed, with its step timeout; a bad variable is one line naming it', () => {
  const cell = { CELL_NODE: '24', CELL_RUNNER: 'macos-15' };
  const ok = { SETUP_NODE_OUTCOME: 'success', INSTALL_OUTCOME: 'success', VERIFY_OUTCOME: 'success' };
  assert.equal(
    failureReason({ ...cell, SETUP_NODE_OUTCOME: 'failure', INSTALL_OUTCOME: 'skipped', BENCH_OUTCOME: 'skipped' }),
    `setup-node could not install Node 24 on macos-15 (the image's Node ${process.version} wrote this document); see the job log`,
  );
  assert.match(
    failureReason({ ...cell, SETUP_NODE_OUTCOME: 'success', INSTALL_OUTCOME: 'failure', INSTALL_TIMEOUT: '20' }),
    /^the install \(npm run ci:install-from-source: .*\) failed or hit its step timeout of 20 minutes on macos-15 with Node v/,
  );
  assert.match(
    failureReason({ ...cell, ...ok, VERIFY_OUTCOME: 'failure' }),
    /^the driver check \(npm run ci:verify-drivers\) failed on/,
  );
  assert.match(
    failureReason({ ...cell, ...ok, COUNTING_OUTCOME: 'failure', COUNTING_TIMEOUT: '10', BENCH_OUTCOME: 'skipped' }),
    /^installing valgrind and strace \(npm run ci:install-counting\) failed or hit its step timeout of 10 minutes/,
  );
  assert.match(
    failureReason({ ...cell, ...ok, COUNTING_OUTCOME: 'skipped', BENCH_OUTCOME: 'failure', BENCH_TIMEOUT: '35' }),
    /^the bench \(npm run ci:bench\) failed or hit its step timeout of 35 minutes and wrote no document, on macos-15 with Node v/,
  );
  assert.match(failureReason({ ...cell, ...ok }), /no step before it reports a failure, on macos-15/);
  for (const [bad, line] of /** @type {const} */ ([
    [{ CELL_NODE: 'v24' }, "CELL_NODE 'v24' is not a Node major (e.g. 22)"],
    [
      { BENCH_OUTCOME: 'failed' },
      "BENCH_OUTCOME 'failed' is not a step outcome (success, failure, cancelled, skipped)",
    ],
    [{ BENCH_TIMEOUT: '35m' }, "BENCH_TIMEOUT '35m' is not a whole number of minutes"],
  ]))
    assert.throws(() => failureReason({ ...cell, ...bad }), { message: line });
});

test('ci:failure runs without node_modules, under another Node than the cell’s: a valid document filed under the cell’s Node, recording what ran', () => {
  // what a runner has when setup-node or npm ci failed: the checkout, and no node_modules
  const copy = scratch('failure-copy-');
  for (const f of ['bench', 'lib', 'package.json'])
    fs.cpSync(path.join(ROOT, f), path.join(copy, f), { recursive: true });
  const out = path.join(copy, 'out');
  const major = Number(process.versions.node.split('.')[0]);
  const cellNode = String(major === 25 ? 24 : 25); // the cell's Node is not the one running
  const env = childEnv({
    GITHUB_ACTIONS: 'true',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    CELL_NODE: cellNode,
    CELL_RUNNER: 'ubuntu-24.04-arm',
    SETUP_NODE_OUTCOME: 'failure',
    BENCH_OUT: out,
  });
  const failure = () =>
    spawnSync(process.execPath, [path.join(copy, 'bench/ci/failure.js')], { cwd: copy, env, encoding: 'utf8' });
  const r = failure();
  assert.equal(r.status, 0, r.stderr);
  assert.ok(!fs.existsSync(path.join(copy, 'node_modules')));
  const [name] = fs.readdirSync(out);
  assert.ok(
    name.startsWith(`${process.platform}-${process.arch}-node-v${cellNode}.0.0-not-installed-`) &&
      RESULT_FILE.test(name),
    name,
  );
  const doc = JSON.parse(fs.readFileSync(path.join(out, name), 'utf8'));
  assert.deepEqual(validate(doc), [], 'valid against the schema (ajv of this tree)');
  const read = readResult(path.join(out, name));
  assert.ok(read.ok, read.ok ? '' : read.reason); // and every check the aggregate makes
  assert.equal(doc.environment.node, `v${cellNode}.0.0-not-installed`);
  assert.equal(doc.environment.ci.cellNode, cellNode);
  assert.equal(doc.environment.ci.cellRunner, 'ubuntu-24.04-arm');
  assert.equal(doc.environment.ci.failureNode, process.version, 'the Node that truly ran');
  assert.equal(doc.environment.ci.runAttempt, '1');
  assert.match(doc.cases[0].reason, /^not measured: setup-node could not install Node \d+ on ubuntu-24\.04-arm/);
  // run again (or after the bench wrote its document): the document there is left as it is
  const bytes = fs.readFileSync(path.join(out, name), 'utf8');
  const again = failure();
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /exists; the bench wrote its own document/);
  assert.equal(fs.readFileSync(path.join(out, name), 'utf8'), bytes);
  assert.deepEqual(fs.readdirSync(out), [name], 'no temp file left beside it');
});

/**
 * A driver package laid out as one of the three installs leaves it, under `dir`: node-gyp's build
 * (config.gypi beside build/Release), prebuild-install's download (build/Release alone) or a
 * bundled prebuild (prebuilds/). The binary has this machine's executable header, or `machine`.
 * @param {string} dir
 * @param {'built' | 'downloaded' | 'bundled'} how
 * @param {number} [machine] ELF machine code to write instead
 */
function fixture(dir, how, machine) {
  const pkgDir = path.join(dir, 'node_modules', 'better-sqlite3-multiple-ciphers');
  const file =
    how === 'bundled'
      ? path.join(pkgDir, 'prebuilds', `${process.platform}-${process.arch}.node`)
      : path.join(pkgDir, 'build', 'Release', 'better_sqlite3.node');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (how === 'built') fs.writeFileSync(path.join(pkgDir, 'build', 'config.gypi'), '{}\n');
  const head = Buffer.alloc(64);
  const fd = fs.openSync(process.execPath, 'r');
  try {
    fs.readSync(fd, head, 0, 64, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (machine !== undefined) {
    head.write('\x7fELF', 0, 'latin1');
    head.writeUInt16LE(machine, 18);
  }
  fs.writeFileSync(file, head);
  /** @type {import('../bench/engine/load-drivers.js').DriverInfo} */
  const info = {
    name: 'better-sqlite3-multiple-ciphers',
    status: 'ok',
    version: '0.0.0',
    binary: { file, origin: binaryOrigin(pkgDir, file) },
  };
  return info;
}

/** verify() on one crafted driver, with the drivers of this Node looked for under `root`. */
function verifyIn(/** @type {string} */ root, /** @type {any[]} */ infos) {
  const saved = process.env.SQLITE_BENCH_DRIVERS_DIR;
  process.env.SQLITE_BENCH_DRIVERS_DIR = root;
  try {
    return verify(new Map(infos.map((info) => [info.name, { info }])));
  } finally {
    if (saved === undefined) delete process.env.SQLITE_BENCH_DRIVERS_DIR;
    else process.env.SQLITE_BENCH_DRIVERS_DIR = saved;
  }
}

test("ci:verify-drivers accepts a binary built here and refuses a bundled or downloaded one, another Node's or another arch's, on known layouts", () => {
  const root = scratch('verify-drivers-');
  const here = path.join(root, `${process.platform}-${process.arch}-node-${process.version}`);
  const builtIn = {
    name: 'node:sqlite',
    status: 'ok',
    version: process.version,
    binary: { file: process.execPath, origin: 'built-into-node' },
  };
  const skipped = { name: 'node:sqlite', status: 'skipped', reason: 'needs Node 22.13' };

  const built = fixture(path.join(here, 'a'), 'built');
  assert.equal(built.binary?.origin, 'built-from-source');
  assert.deepEqual(verifyIn(root, [built]), []);
  assert.deepEqual(
    verifyIn(root, [built, { ...builtIn, name: 'x' }, { ...skipped, name: 'y' }]),
    [],
    'node:sqlite and skipped drivers are not checked',
  );

  const bundled = fixture(path.join(here, 'b'), 'bundled');
  assert.equal(bundled.binary?.origin, 'bundled-prebuild');
  const b = verifyIn(root, [bundled]);
  assert.ok(
    b.some((p) =>
      /^better-sqlite3-multiple-ciphers: loaded a bundled-prebuild \(.*prebuilds\/.*\.node\), not the binary built here$/.test(
        p,
      ),
    ),
    b.join('\n'),
  );
  assert.ok(
    b.some((p) => /not node-gyp's build\/Release$/.test(p)),
    b.join('\n'),
  );

  const downloaded = fixture(path.join(here, 'c'), 'downloaded');
  assert.equal(downloaded.binary?.origin, 'downloaded-prebuild');
  assert.deepEqual(verifyIn(root, [downloaded]), [
    `better-sqlite3-multiple-ciphers: loaded a downloaded-prebuild (${downloaded.binary?.file}), not the binary built here`,
  ]);

  const otherNode = fixture(path.join(root, `${process.platform}-${process.arch}-node-v0.0.1`), 'built');
  assert.match(verifyIn(root, [otherNode]).join('\n'), /outside .* \(the install for v/);

  const machine = process.arch === 'arm64' ? 0x3e : 0xb7; // the other arch's
  const foreign = fixture(path.join(here, 'd'), 'built', machine);
  assert.deepEqual(
    verifyIn(root, [foreign]),
    ['x64', 'arm64'].includes(process.arch)
      ? [`better-sqlite3-multiple-ciphers: ${foreign.binary?.file} is not an ${process.arch} ELF binary`]
      : [],
  );

  const gone = {
    ...built,
    binary: { ...built.binary, file: path.join(here, 'e', 'node_modules', 'x', 'build', 'Release', 'x.node') },
  };
  assert.deepEqual(verifyIn(root, [gone]), [`better-sqlite3-multiple-ciphers: ${gone.binary.file} does not exist`]);
  assert.deepEqual(verifyIn(root, [{ name: 'better-sqlite3', status: 'error', reason: 'not installed' }]), [
    'better-sqlite3: error: not installed',
  ]);
});

test('ci:verify-drivers on the drivers installed for this Node: it passes exactly when each was built here, whichever way they were installed', async () => {
  const loaded = await drivers();
  const problems = verify(loaded);
  for (const { info } of loaded.values()) {
    if (info.status === 'skipped' || info.binary?.origin === 'built-into-node') continue;
    assert.equal(info.status, 'ok', info.reason);
    const binary = info.binary;
    assert.ok(binary, `${info.name}: no binary recorded`);
    const pkgDir = path.join(driversDir(), 'node_modules', info.name);
    assert.equal(
      binary.origin,
      binaryOrigin(pkgDir, path.resolve(ROOT, binary.file)),
      `${info.name}: the origin recorded is the one on disk`,
    );
    const refused = problems.filter((p) => p.startsWith(`${info.name}: `));
    if (binary.origin === 'built-from-source') assert.deepEqual(refused, []);
    else
      assert.ok(
        refused.some((p) => p.includes(`loaded a ${binary.origin}`)),
        refused.join('\n'),
      );
  }
});

test("a test's child processes get no GITHUB_* variable, so nothing they run writes into the job", () => {
  const job = scratch('github-job-');
  const output = path.join(job, 'output');
  const saved = { ...process.env };
  Object.assign(process.env, {
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: path.join(job, 'summary'),
    GITHUB_ENV: path.join(job, 'env'),
    GITHUB_ACTIONS: 'true',
  });
  try {
    const env = childEnv({ CELL_NODE: '22', CELL_RUNNER: 'ubuntu-24.04' });
    assert.deepEqual(
      Object.keys(env).filter((k) => k.startsWith('GITHUB_')),
      [],
    );
    assert.equal(env.PATH, process.env.PATH);
    assert.equal(env.CELL_NODE, '22');
    const cell = (/** @type {NodeJS.ProcessEnv} */ e) =>
      spawnSync(process.execPath, [path.join(ROOT, 'bench/ci/select-cell.js')], { encoding: 'utf8', env: e });
    assert.equal(cell(env).status, 0);
    assert.equal(fs.existsSync(output), false, 'a child given childEnv() wrote to GITHUB_OUTPUT');
    // the same step with the job's environment does write there: the check can see a write
    assert.equal(cell({ ...process.env, CELL_NODE: '22', CELL_RUNNER: 'ubuntu-24.04' }).status, 0);
    assert.equal(fs.readFileSync(output, 'utf8'), 'run=true\n');
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
});
