#!/usr/bin/env node
// npm run bench:node -- <version> [bench flags…]: the benchmark under another Node on this machine,
// fetched from the npm registry (node-<platform>-<arch>@<version> carries bin/node and include/node),
// with the driver generation for it compiled against its own headers into its own cache (a second
// run reuses both); a major is its newest release.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { CommandError, UsageError, command } from '../../lib/command.js';
import { OPTIONS, parseFlags } from '../engine/flags.js';
import { SUPPORTED_NODE_TEXT, supportedNode } from '../data/node-ranges.js';
import { npmCommand } from './install-drivers.js';
import { ROOT } from '../../lib/root.js';
import { MATRIX_NODES } from '../data/drivers.js';

export const NODE_CACHE = path.join(ROOT, '.cache', 'node');
const NPM_CACHE = path.join(ROOT, '.cache', 'npm');

/**
 * The highest published version of an npm package that matches a version or major.
 * @param {string} pkg
 * @param {string} spec e.g. 18, 18.20.8, v25.9.0
 */
function resolveVersion(pkg, spec) {
  const { cmd, pre } = npmCommand();
  const want = spec.replace(/^v/, '');
  let out;
  try {
    out = execFileSync(cmd, [...pre, 'view', `${pkg}@${/^\d+$/.test(want) ? `^${want}` : want}`, 'version', '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    // npm view exits 1 with E404 on a version that was never published: one line, not npm's log
    const e = /** @type {{ stdout?: string, status?: number }} */ (err);
    const code = /"code":\s*"(\w+)"/.exec(e.stdout ?? '')?.[1] ?? `exit ${e.status}`;
    throw new CommandError(`no ${pkg} release matches '${spec}' on the npm registry (npm view: ${code})`);
  }
  const parsed = JSON.parse(out || 'null');
  const versions = Array.isArray(parsed) ? parsed : parsed ? [parsed] : [];
  // npm lists the matching versions unsorted: take the highest, not the last
  const best = semver.maxSatisfying(versions, '*');
  if (!best) throw new Error(`no ${pkg} release matches '${spec}'`);
  return best;
}

/**
 * The --node flag of npm run matrix and npm run test:nodes: Node majors or versions, comma-separated.
 * @param {unknown} value
 * @returns {string[]} the versions or majors, in the order given
 */
export function nodeSpecs(value) {
  const specs = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = specs.filter((s) => !/^v?\d+(\.\d+\.\d+)?$/.test(s) || !supportedNode(s));
  if (!specs.length || bad.length)
    throw new UsageError(
      `bad --node '${value}'; valid: Node majors or versions from ${SUPPORTED_NODE_TEXT}, comma-separated, e.g. ${MATRIX_NODES.join(',')}`,
    );
  return specs;
}

/**
 * Resolve a version or major to an exact version published as node-<platform>-<arch>.
 * @param {string} spec e.g. 18, 18.20.8, v25.9.0
 */
export const resolveNodeVersion = (spec) => resolveVersion(`node-${process.platform}-${process.arch}`, spec);

/**
 * Unpack a package from the npm registry into `dir` (once), checking it has the files it must.
 * @param {string} spec name@version
 * @param {string} dir
 * @param {string[]} must paths inside the package
 */
function fetchPackage(spec, dir, must) {
  if (must.every((f) => fs.existsSync(path.join(dir, f)))) return dir;
  const cache = path.dirname(dir);
  fs.mkdirSync(cache, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(cache, '.fetch-'));
  try {
    console.error(`node: fetching ${spec} from the npm registry`);
    const { cmd, pre } = npmCommand();
    const tgz = execFileSync(cmd, [...pre, 'pack', spec, '--silent'], {
      cwd: tmp,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .at(-1);
    execFileSync('tar', ['xzf', String(tgz)], { cwd: tmp });
    const missing = must.filter((f) => !fs.existsSync(path.join(tmp, 'package', f)));
    if (missing.length) throw new Error(`${spec} has no ${missing.join(' or ')}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(path.join(tmp, 'package'), dir);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

/**
 * Fetch a Node build into the cache (once) and return its directory (with bin/ and include/).
 * @param {string} version exact, e.g. 18.20.8
 */
export function fetchNode(version) {
  return fetchPackage(
    `node-${process.platform}-${process.arch}@${version}`,
    path.join(NODE_CACHE, `${process.platform}-${process.arch}-v${version}`),
    ['bin/node', 'include/node'],
  );
}

/**
 * The npm major each Node release line ships (node-<platform>-<arch> carries no npm): 10 up to
 * Node 22, 11 from Node 24.
 */
const BUNDLED_NPM = [
  { node: '>=24.0.0', npm: '11' },
  { node: '*', npm: '10' },
];

/** The npm major a Node version ships with. */
export const npmMajorFor = (/** @type {string} */ nodeVersion) =>
  /** @type {{ npm: string }} */ (BUNDLED_NPM.find((b) => semver.satisfies(nodeVersion, b.node))).npm;

/**
 * Fetch the newest npm of the major that Node version ships with into the cache (once).
 * @param {string} nodeVersion exact, e.g. 18.20.8
 * @returns {{ version: string, cli: string }} cli: its bin/npm-cli.js, to run with that Node
 */
export function fetchNpm(nodeVersion) {
  const version = resolveVersion('npm', npmMajorFor(nodeVersion));
  const dir = fetchPackage(`npm@${version}`, path.join(NPM_CACHE, `npm-v${version}`), [
    'bin/npm-cli.js',
    'node_modules',
  ]);
  return { version, cli: path.join(dir, 'bin', 'npm-cli.js') };
}

/**
 * The environment that makes builds and scripts use that Node: first on PATH, its headers for
 * node-gyp, and this process's npm for nested installs.
 * @param {string} nodeDir
 */
export function nodeEnv(nodeDir) {
  return {
    ...process.env,
    PATH: `${path.join(nodeDir, 'bin')}${path.delimiter}${process.env.PATH}`,
    npm_config_nodedir: nodeDir,
    npm_node_execpath: process.execPath,
    npm_execpath: process.env.npm_execpath && /\.c?js$/.test(process.env.npm_execpath) ? process.env.npm_execpath : '',
  };
}

/**
 * Install the drivers for that Node and run a script under it.
 * @param {string} nodeDir
 * @param {string} script relative to the repo
 * @param {string[]} args
 * @param {boolean} [fromSource] compile the drivers from source
 */
export function runUnder(nodeDir, script, args, fromSource = false) {
  const node = path.join(nodeDir, 'bin', 'node');
  const env = nodeEnv(nodeDir);
  const install = spawnSync(
    node,
    [path.join(ROOT, 'bench', 'tools', 'install-drivers.js'), ...(fromSource ? ['--from-source'] : [])],
    { stdio: 'inherit', env, cwd: ROOT },
  );
  if (install.status !== 0) return { status: install.status ?? 1, stage: 'install' };
  const r = spawnSync(node, [path.join(ROOT, script), ...args], { stdio: 'inherit', env, cwd: ROOT });
  return { status: r.status ?? 1, stage: 'run' };
}

const HELP = {
  usage: 'npm run bench:node -- VERSION [bench flags]',
  summary: `Runs npm run bench under another Node (VERSION: a major or an exact version, from ${SUPPORTED_NODE_TEXT}), fetched from the npm registry with the drivers compiled for it; the flags are the bench's.`,
  options: OPTIONS,
};

function main(/** @type {string[]} */ argv) {
  const [spec, ...rest] = argv;
  if (!spec || !/^v?\d+(\.\d+\.\d+)?$/.test(spec) || !supportedNode(spec))
    throw new UsageError(
      `bad Node version '${spec ?? ''}'; valid: a major or an exact version from ${SUPPORTED_NODE_TEXT}, first, e.g. 'npm run bench:node -- 18.20.8 --quick'`,
    );
  parseFlags(rest); // the bench's flags, checked here before a Node is fetched and built for
  const version = resolveNodeVersion(spec);
  const dir = fetchNode(version);
  console.error(`node: running the benchmark under v${version}`);
  const r = runUnder(dir, 'bench/cli.js', rest);
  if (r.status !== 0) console.error(`bench:node: ${r.stage} under v${version} exited ${r.status}`);
  return r.status;
}

command('bench:node', import.meta.url, main, HELP);
