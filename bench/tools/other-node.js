#!/usr/bin/env node
// npm run bench:node -- <version> [bench flags…]
//
// Runs the benchmark under another Node version on this machine: fetches that Node from the npm
// registry (node-<platform>-<arch>@<version> carries bin/node and include/node), installs the
// driver generation for it — compiled against that Node's own headers — into its own cache, then
// runs `bench/cli.js` under it with the given flags. A second run reuses both caches.
//
//   npm run bench:node -- 18.20.8 --quick
//   npm run bench:node -- 25 --quick        (a major: its newest release)
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { UsageError, command } from '../../lib/command.js';
import { parseFlags } from '../engine/flags.js';
import { npmCommand } from './install-drivers.js';
import { ROOT } from '../../lib/root.js';

export const NODE_CACHE = path.join(ROOT, '.cache', 'node');


/**
 * Resolve a version or major to an exact version published as node-<platform>-<arch>.
 * @param {string} spec e.g. 18, 18.20.8, v25.9.0
 */
export function resolveNodeVersion(spec) {
  const pkg = `node-${process.platform}-${process.arch}`;
  const { cmd, pre } = npmCommand();
  const want = spec.replace(/^v/, '');
  const out = execFileSync(cmd, [...pre, 'view', `${pkg}@${/^\d+$/.test(want) ? `^${want}` : want}`, 'version', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const parsed = JSON.parse(out || 'null');
  const versions = Array.isArray(parsed) ? parsed : parsed ? [parsed] : [];
  // npm lists the matching versions unsorted: take the highest, not the last
  const best = semver.maxSatisfying(versions, '*');
  if (!best) throw new Error(`no ${pkg} release matches '${spec}'`);
  return best;
}

/**
 * Fetch a Node build into the cache (once) and return its directory (with bin/ and include/).
 * @param {string} version exact, e.g. 18.20.8
 */
export function fetchNode(version) {
  const dir = path.join(NODE_CACHE, `${process.platform}-${process.arch}-v${version}`);
  if (fs.existsSync(path.join(dir, 'bin', 'node'))) return dir;
  const pkg = `node-${process.platform}-${process.arch}@${version}`;
  fs.mkdirSync(NODE_CACHE, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(NODE_CACHE, '.fetch-'));
  try {
    console.error(`node: fetching ${pkg} from the npm registry`);
    const { cmd, pre } = npmCommand();
    const tgz = execFileSync(cmd, [...pre, 'pack', pkg, '--silent'], { cwd: tmp, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').at(-1);
    execFileSync('tar', ['xzf', String(tgz)], { cwd: tmp });
    if (!fs.existsSync(path.join(tmp, 'package', 'bin', 'node')) || !fs.existsSync(path.join(tmp, 'package', 'include', 'node'))) {
      throw new Error(`${pkg} has no bin/node or include/node`);
    }
    fs.renameSync(path.join(tmp, 'package'), dir);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
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
 * @param {{ fromSource?: boolean, extraEnv?: Record<string, string> }} [o]
 */
export function runUnder(nodeDir, script, args, { fromSource = false, extraEnv = {} } = {}) {
  const node = path.join(nodeDir, 'bin', 'node');
  const env = { ...nodeEnv(nodeDir), ...extraEnv };
  const install = spawnSync(node, [path.join(ROOT, 'bench', 'tools', 'install-drivers.js'), ...(fromSource ? ['--from-source'] : [])], { stdio: 'inherit', env, cwd: ROOT });
  if (install.status !== 0) return { status: install.status ?? 1, stage: 'install' };
  const r = spawnSync(node, [path.join(ROOT, script), ...args], { stdio: 'inherit', env, cwd: ROOT });
  return { status: r.status ?? 1, stage: 'run' };
}

function main(/** @type {string[]} */ argv) {
  const [spec, ...rest] = argv;
  if (!spec || !/^v?\d+(\.\d+\.\d+)?$/.test(spec)) throw new UsageError("give a Node version or major first, e.g. 'npm run bench:node -- 18.20.8 --quick'");
  parseFlags(rest); // the bench's flags, checked here before a Node is fetched and built for
  const version = resolveNodeVersion(spec);
  const dir = fetchNode(version);
  console.error(`node: running the benchmark under v${version}`);
  const r = runUnder(dir, 'bench/cli.js', rest);
  if (r.status !== 0) console.error(`bench:node: ${r.stage} under v${version} exited ${r.status}`);
  return r.status;
}

command('bench:node', import.meta.url, main);
