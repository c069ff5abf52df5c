#!/usr/bin/env node
// npm run test:nodes (docs/README.md#npm-scripts): `npm install` and `npm test` under every
// supported Node, each in a fresh copy of this checkout: what a clone would hold if the working tree
// were committed (the compare's tests check out HEAD), without node_modules/, .drivers/ or .cache/.
//
// Each Node comes from the npm registry (as bench:node) with the npm major its release ships, both
// first on PATH, so install scripts, node-gyp and the tests run under it; npm_config_nodedir points
// node-gyp at its headers, which a machine with internet would download. Per Node: <out>/<version>.log
// (its tail on stderr when it fails); the report: <out>/report.json. Exit 1 if any Node failed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { table as markdownTable } from '../../lib/markdown.js';
import { MATRIX_NODES } from '../data/drivers.js';
import { UsageError, command, firstLine, parseStrict, switchFlag, valueFlag } from '../../lib/command.js';
import { writeFileAtomic } from '../../lib/files.js';
import { ROOT } from '../../lib/root.js';
import { fetchNode, fetchNpm, nodeSpecs, resolveNodeVersion } from './other-node.js';
import { SUPPORTED_NODE_TEXT } from '../data/node-ranges.js';
import { SETS } from '../../test/sets.js';

const HELP = {
  usage: 'npm run test:nodes -- [flags]',
  summary:
    'npm install and npm test (or one set of its test files) in a fresh copy of the working tree under each Node (fetched from the npm registry, with the npm it ships): test counts, durations, and the binary each driver loaded.',
  options: /** @type {const} */ ({
    node: valueFlag('LIST', `the Node majors or versions, comma-separated, from ${SUPPORTED_NODE_TEXT}`, {
      default: MATRIX_NODES.join(','),
    }),
    set: valueFlag(
      'NAME',
      `the test files npm test runs in each copy (npm test -- --set NAME): ${Object.entries(SETS)
        .map(([k, v]) => `${k} (${v})`)
        .join('; ')}`,
      { default: 'unit' },
    ),
    out: valueFlag('DIR', 'where the report goes', { default: 'out/test-nodes' }),
    keep: switchFlag('keep the fresh copies, and say where'),
  }),
};

/**
 * The counts the Node test runner prints last: TAP (`# pass 3`, Node 18 and 20 without a TTY)
 * or its spec reporter (`ℹ pass 3`, the default from Node 23).
 * @param {string} output
 */
export function testCounts(output) {
  const counts = /** @type {Record<string, number>} */ ({});
  for (const [, name, n] of output.matchAll(/^(?:#|ℹ) (tests|pass|fail|cancelled|skipped|todo) (\d+)\s*$/gm))
    counts[name] = Number(n);
  return counts;
}

/**
 * The files of a fresh clone of this working tree: tracked and untracked-not-ignored files that
 * exist (a deleted tracked file is not there).
 * @param {string} root
 */
export async function workingTreeFiles(root) {
  const r = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root });
  if (r.status !== 0) throw new Error(`git ls-files failed in ${root}: ${r.output.trim()}`);
  return [...new Set(r.output.split('\0').filter(Boolean))].filter((f) => {
    const stat = fs.lstatSync(path.join(root, f), { throwIfNoEntry: false });
    return stat && !stat.isDirectory(); // a submodule or nested repository is a directory: not copied
  });
}

/** @type {import('node:child_process').ChildProcess | null} the command running now, to pass a signal on */
let current = null;

/**
 * Run a command in a process group of its own, collecting its stdout and stderr together (and
 * appending them to `log`). A signal is passed on to the whole group: npm does not pass one on
 * to the test runner it started, which would run on, orphaned.
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, log?: string }} o
 * @returns {Promise<{ status: number, output: string, stdout: string, seconds: number }>}
 */
function run(cmd, args, o) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: o.cwd,
      env: o.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    current = child;
    let output = '';
    let stdout = '';
    const take = (/** @type {Buffer} */ b) => {
      output += b;
      if (o.log) fs.appendFileSync(o.log, b);
    };
    child.stdout.on('data', (b) => {
      stdout += b;
      take(b);
    });
    child.stderr.on('data', take);
    child.on('error', (err) => take(Buffer.from(`${err.message}\n`)));
    child.on('close', (code, signal) => {
      current = null;
      resolve({
        status: code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1),
        output,
        stdout,
        seconds: (Date.now() - t0) / 1000,
      });
    });
  });
}

/**
 * The environment of a user's shell with that Node and npm first on PATH: this process's, without
 * what the npm that started it set (npm_*), which would steer the npm inside.
 * @param {string} nodeDir
 * @param {string} binDir holds the `npm` that runs that npm with that Node
 */
function userEnv(nodeDir, binDir) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'NODE'),
  );
  return {
    ...env,
    PATH: [binDir, path.join(nodeDir, 'bin'), process.env.PATH].join(path.delimiter),
    npm_config_nodedir: nodeDir,
    npm_config_update_notifier: 'false',
  };
}

/** Prints each driver the copy loads, as JSON: name, status, version, binary origin and file. */
const DRIVER_REPORT = (/** @type {string} */ copy) => `
const { loadDrivers } = await import(${JSON.stringify(pathToFileURL(path.join(copy, 'bench', 'engine', 'load-drivers.js')).href)});
const drivers = await loadDrivers();
console.log(JSON.stringify([...drivers.values()].map(({ info }) => ({ name: info.name, status: info.status, version: info.version, origin: info.binary?.origin, file: info.binary?.file, reason: info.reason }))));
`;

/**
 * @typedef {object} NodeReport
 * @property {string} spec as given
 * @property {string} [node] exact version
 * @property {string} [npm]
 * @property {{ status: number, seconds: number }} [install]
 * @property {{ status: number, seconds: number, counts: Record<string, number> }} [test]
 * @property {{ name: string, status: string, version?: string, origin?: string, file?: string, reason?: string }[]} [drivers]
 * @property {string} [error] why it could not be run
 * @property {boolean} ok
 */

/**
 * Install and test one Node in a fresh clone of the snapshot.
 * @param {string} spec
 * @param {{ snapshot: string, work: string, out: string, label: string, set: string }} o
 * @returns {Promise<NodeReport>}
 */
async function testNode(spec, o) {
  /** @type {NodeReport} */
  const report = { spec, ok: false };
  const say = (/** @type {string} */ s) => console.error(`test:nodes: ${o.label} ${s}`);
  try {
    const version = resolveNodeVersion(spec);
    report.node = version;
    const nodeDir = fetchNode(version);
    const npm = fetchNpm(version);
    report.npm = npm.version;
    const node = path.join(nodeDir, 'bin', 'node');
    const copy = path.join(o.work, `node-v${version}`);
    const bin = path.join(o.work, `bin-v${version}`);
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(
      path.join(bin, 'npm'),
      `#!/bin/sh\nexec ${JSON.stringify(node)} ${JSON.stringify(npm.cli)} "$@"\n`,
      { mode: 0o755 },
    );
    const log = path.join(o.out, `node-v${version}.log`);
    fs.mkdirSync(o.out, { recursive: true });
    fs.writeFileSync(log, '');
    const clone = await run('git', ['clone', '-q', o.snapshot, copy], { cwd: o.work, log });
    if (clone.status !== 0) throw new Error(`git clone of the snapshot failed: ${clone.output.trim()}`);
    const env = userEnv(nodeDir, bin);
    say(`Node v${version}, npm ${npm.version}: npm install (log: ${path.relative(process.cwd(), log)})`);
    fs.appendFileSync(log, `$ npm install   # Node v${version}, npm ${npm.version}\n`);
    const install = await run('npm', ['install'], { cwd: copy, env, log });
    report.install = { status: install.status, seconds: install.seconds };
    if (install.status === 0) {
      const drivers = await run(node, ['--input-type=module', '-e', DRIVER_REPORT(copy)], { cwd: copy, env });
      const line = drivers.stdout.trim().split('\n').at(-1) ?? ''; // stderr has Node's warnings (node:sqlite is experimental on 22)
      try {
        report.drivers = JSON.parse(line);
      } catch {
        fs.appendFileSync(log, `driver report: ${drivers.output}\n`);
      }
      const args = testCommand(o.set);
      say(`Node v${version}: npm ${args.join(' ')}`);
      fs.appendFileSync(log, `\n$ npm ${args.join(' ')}\n`);
      const t = await run('npm', args, { cwd: copy, env, log });
      report.test = { status: t.status, seconds: t.seconds, counts: testCounts(t.output) };
    }
    report.ok =
      install.status === 0 &&
      report.test?.status === 0 &&
      (report.test.counts.fail ?? 1) === 0 &&
      (report.test.counts.pass ?? 0) > 0;
    if (!report.ok) {
      const tail = fs.readFileSync(log, 'utf8').split('\n').slice(-60).join('\n');
      console.error(
        `${tail}\ntest:nodes: ${o.label} Node v${version} FAILED (${report.install?.status !== 0 ? 'npm install' : 'npm test'}); the whole output is in ${log}`,
      );
    } else say(`Node v${version}: ${report.test?.counts.pass} passed`);
  } catch (err) {
    report.error = firstLine(err);
    console.error(`test:nodes: ${o.label} Node ${spec}: ${report.error}`);
  }
  return report;
}

/**
 * The npm arguments of the tests in a copy: `npm test` for the whole set, else that set.
 * @param {string} set a key of SETS
 */
export function testCommand(set) {
  if (!Object.hasOwn(SETS, set)) throw new UsageError(`bad --set '${set}'; valid: ${Object.keys(SETS).join(', ')}`);
  return set === 'unit' ? ['test'] : ['test', '--', '--set', set];
}

/** The report as a table: one row per Node. */
export function reportTable(/** @type {NodeReport[]} */ reports) {
  const secs = (/** @type {{ seconds: number } | undefined} */ x) => (x ? `${Math.round(x.seconds)} s` : '');
  return markdownTable([
    ['Node', 'npm', 'Result', 'Tests (pass / fail)', 'Install', 'Tests', 'Drivers (version, binary origin)'],
    ...reports.map((r) => [
      r.node ? `v${r.node}` : r.spec,
      r.npm ?? '',
      r.ok
        ? 'ok'
        : `FAILED${r.error ? `: ${r.error}` : r.install && r.install.status !== 0 ? ': npm install' : ': npm test'}`,
      r.test ? `${r.test.counts.pass ?? '?'} / ${r.test.counts.fail ?? '?'}` : '',
      secs(r.install),
      secs(r.test),
      (r.drivers ?? [])
        .map((d) => `${d.name} ${d.status === 'ok' ? `${d.version}, ${d.origin}` : d.status}`)
        .join('; '),
    ]),
  ]);
}

async function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, HELP.options);
  const specs = nodeSpecs(values.node);
  const set = String(values.set);
  testCommand(set); // a bad --set is refused before anything is fetched
  const out = path.resolve(String(values.out));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-nodes-'));
  const cleanup = () => {
    if (values.keep) console.error(`test:nodes: the copies are kept in ${work}`);
    else fs.rmSync(work, { recursive: true, force: true, maxRetries: 3 });
  };
  // SIGINT/SIGTERM: stop the command running now, remove the copies, exit as the shell would
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.once(sig, () => {
      console.error(`\ntest:nodes: ${sig}: stopping`);
      const child = current;
      const done = () => {
        cleanup();
        process.exit(sig === 'SIGINT' ? 130 : 143);
      };
      if (!child?.pid) return done();
      child.once('close', done);
      try {
        process.kill(-child.pid, sig);
      } catch {
        done(); // the group is gone
      }
    });
  }
  try {
    // one snapshot of the working tree, committed, cloned for each Node
    const snapshot = path.join(work, 'snapshot');
    fs.mkdirSync(snapshot);
    const files = await workingTreeFiles(ROOT);
    for (const f of files) {
      const [from, to] = [path.join(ROOT, f), path.join(snapshot, f)];
      fs.mkdirSync(path.dirname(to), { recursive: true });
      if (fs.lstatSync(from).isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), to);
      else fs.copyFileSync(from, to); // with its mode
    }
    const config = ['user.name=test-nodes', 'user.email=test-nodes@localhost', 'commit.gpgsign=false'];
    const git = (/** @type {string[]} */ args) =>
      run('git', [...[...config, 'init.defaultBranch=main'].flatMap((c) => ['-c', c]), ...args], { cwd: snapshot });
    for (const args of [
      ['init', '-q'],
      ['add', '-A'],
      ['commit', '-q', '-m', 'test:nodes: the working tree'],
    ]) {
      const r = await git(args);
      if (r.status !== 0) throw new Error(`git ${args[0]} in the snapshot failed: ${r.output.trim()}`);
    }
    console.error(`test:nodes: ${files.length} files of this working tree, for Node ${specs.join(', ')}`);
    const reports = /** @type {NodeReport[]} */ ([]);
    for (const [i, spec] of specs.entries())
      reports.push(await testNode(spec, { snapshot, work, out, set, label: `[${i + 1}/${specs.length}]` }));
    writeFileAtomic(
      path.join(out, 'report.json'),
      `${JSON.stringify({ kind: 'sqlite-node-bench/test-nodes', platform: process.platform, arch: process.arch, set, finishedAt: new Date().toISOString(), nodes: reports }, null, 2)}\n`,
    );
    console.log(reportTable(reports));
    console.log(`\nreport: ${path.relative(process.cwd(), path.join(out, 'report.json'))}`);
    return reports.every((r) => r.ok) ? 0 : 1;
  } finally {
    cleanup();
  }
}

command('test:nodes', import.meta.url, main, HELP);
