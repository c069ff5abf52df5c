// The shootout's Nodes: resolve each --node to an exact version, fetch it (the project's own
// fetcher, bench/tools/other-node.js, cached in .cache/node), and install each side's driver
// generation for it, compiled against that Node's own headers where no prebuild fits (cached in
// .drivers/). The running Node stands for its own major without a fetch.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { GENERATION_ENV } from '../data/drivers.js';
import { NODE_CACHE, fetchNode, nodeEnv, resolveNodeVersion } from '../tools/other-node.js';
import { ROOT } from '../../lib/root.js';

/**
 * @typedef {object} NodeBuild
 * @property {string} version exact, without the v
 * @property {string} exec its node executable
 * @property {string | null} dir its directory (bin/, include/), null for the running Node
 */

/** The newest cached Node of a major, or null. */
function cachedOf(/** @type {number} */ major) {
  const prefix = `${process.platform}-${process.arch}-v`;
  const versions = fs.existsSync(NODE_CACHE)
    ? fs
        .readdirSync(NODE_CACHE)
        .filter((d) => d.startsWith(prefix) && fs.existsSync(path.join(NODE_CACHE, d, 'bin', 'node')))
        .map((d) => d.slice(prefix.length))
    : [];
  return semver.maxSatisfying(
    versions.filter((v) => semver.valid(v)),
    `${major}.x`,
  );
}

/**
 * The exact version one --node value stands for: a major's newest release (offline, the newest
 * cached), or the version given. The running Node answers for its own major and version.
 * @param {string} spec e.g. 24, 22.14.0
 * @param {(line: string) => void} log
 * @returns {string} without the v
 */
export function versionOf(spec, log) {
  const want = spec.replace(/^v/, '');
  const running = process.version.slice(1);
  if (want === running || want === String(semver.major(running))) return running;
  if (!/^\d+$/.test(want)) return want;
  try {
    return resolveNodeVersion(want);
  } catch (err) {
    const cached = cachedOf(Number(want));
    if (!cached)
      throw new Error(
        `Node ${want}: cannot find its newest release (${String(/** @type {Error} */ (err).message).split('\n')[0]}) and none is cached in ${path.relative(ROOT, NODE_CACHE)}`,
      );
    log(`Node ${want}: the registry did not answer; using the newest cached, v${cached}`);
    return cached;
  }
}

/**
 * Resolve and fetch one --node value (versionOf). The running Node is not fetched.
 * @param {string} spec e.g. 24, 22.14.0
 * @param {(line: string) => void} log
 * @returns {NodeBuild}
 */
export function resolveNode(spec, log) {
  const version = versionOf(spec, log);
  if (version === process.version.slice(1)) return { version, exec: process.execPath, dir: null };
  const dir = fetchNode(version);
  return { version, exec: path.join(dir, 'bin', 'node'), dir };
}

/**
 * The environment a side's processes run with: that Node first on PATH with its headers for
 * node-gyp, and the generation chosen explicitly when it is not the Node's default.
 * @param {NodeBuild} node
 * @param {{ generation: string, override: boolean }} side
 */
function sideEnv(node, side) {
  /** @type {NodeJS.ProcessEnv} */
  const env = node.dir ? nodeEnv(node.dir) : { ...process.env };
  delete env[GENERATION_ENV];
  if (side.override) env[GENERATION_ENV] = side.generation;
  return env;
}

/**
 * A side of this checkout under that Node with that driver generation (bench/paired/interleave.js Side).
 * @param {string} label
 * @param {string} given what the side is, for the report
 * @param {NodeBuild} node
 * @param {{ generation: string, override: boolean }} side
 */
export const nodeSide = (label, given, node, side) => ({
  label,
  dir: ROOT,
  given,
  commit: null,
  worktree: false,
  node: node.exec,
  env: sideEnv(node, side),
});

/**
 * Install a side's drivers (a no-op when cached). The install's output goes to stderr.
 * @param {NodeBuild} node
 * @param {{ generation: string, override: boolean }} side
 * @param {{ fromSource: boolean }} o
 * @returns {{ ok: true } | { ok: false, reason: string }}
 */
export function installSide(node, side, o) {
  const r = spawnSync(
    node.exec,
    [path.join(ROOT, 'bench', 'tools', 'install-drivers.js'), ...(o.fromSource ? ['--from-source'] : [])],
    {
      cwd: ROOT,
      env: sideEnv(node, side),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (out.trim()) process.stderr.write(out.endsWith('\n') ? out : `${out}\n`);
  if (r.status === 0) return { ok: true };
  const last = out
    .trim()
    .split('\n')
    .filter((l) => !/^npm (notice|warn)/i.test(l))
    .slice(-2)
    .join(' | ');
  return {
    ok: false,
    reason: `driver install for Node v${node.version} (${side.generation}) failed (${r.status === null ? `signal ${r.signal}` : `exit ${r.status}`}): ${last || 'no message'}`,
  };
}
