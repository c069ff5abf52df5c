#!/usr/bin/env node
// Installs the driver generation for the running Node (GENERATIONS in drivers.js) into
// .drivers/<platform>-<arch>-node-<version>/, from drivers/<generation>/'s lockfile: the project's
// postinstall, so `npm install` is all a user does; a second run with the same lockfile and Node
// reuses the install. --generation ID (or SQLITE_BENCH_GENERATION): another generation where its
// range allows it (GENERATION_LOADS), into …-gen-<ID>/, which the engine loads under the same
// SQLITE_BENCH_GENERATION (the shootout's 12.x on Node 22-25); one whose range excludes this Node is
// refused, never installed or loaded. --from-source (or SQLITE_BENCH_FROM_SOURCE=1): compiled here,
// never a prebuild; without it each package installs as it does for a user. Either way it ends by
// loading each driver and saying which binary it got and where that came from.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { GENERATIONS, GENERATION_ENV } from '../data/drivers.js';
import { chosenGeneration } from '../data/node-ranges.js';
import { driversDir, loadDrivers } from '../engine/load-drivers.js';
import { ROOT } from '../../lib/root.js';
import { UsageError, command, parseStrict, switchFlag, valueFlag } from '../../lib/command.js';

const MARK = '.installed.json';

/** The npm to call: the one running this lifecycle script, else the one on PATH. */
export function npmCommand() {
  const cli = process.env.npm_execpath;
  if (cli && /\.(c?js)$/.test(cli)) return { cmd: process.env.npm_node_execpath || process.execPath, pre: [cli] };
  return { cmd: process.platform === 'win32' ? 'npm.cmd' : 'npm', pre: [] };
}

/**
 * @param {string[]} args
 * @param {string} cwd
 * @param {Record<string, string>} [env]
 */
function npm(args, cwd, env = {}) {
  const { cmd, pre } = npmCommand();
  const r = spawnSync(cmd, [...pre, ...args], { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed in ${cwd} (exit ${r.status ?? r.signal})`);
}

/**
 * @param {boolean} fromSource
 * @param {(typeof GENERATIONS)[number]} gen the Node's own, or another whose range allows this Node
 *   (chosenGeneration): it installs beside the default
 */
function install(fromSource, gen) {
  const src = path.join(ROOT, 'drivers', gen.id);
  const dest = driversDir(process.version, gen.id);
  const lock = fs.readFileSync(path.join(src, 'package-lock.json'));
  const want = {
    generation: gen.id,
    node: process.version,
    lock: crypto
      .createHash('sha256')
      .update(lock)
      .update(fs.readFileSync(path.join(src, 'package.json')))
      .digest('hex'),
    fromSource,
  };
  const markFile = path.join(dest, MARK);
  if (
    fs.existsSync(markFile) &&
    JSON.stringify(JSON.parse(fs.readFileSync(markFile, 'utf8'))) === JSON.stringify(want)
  ) {
    console.error(`drivers: ${gen.id} for Node ${process.version} already installed in ${path.relative(ROOT, dest)}`);
    return dest;
  }
  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(dest, { recursive: true });
  fs.copyFileSync(path.join(src, 'package.json'), path.join(dest, 'package.json'));
  fs.copyFileSync(path.join(src, 'package-lock.json'), path.join(dest, 'package-lock.json'));
  console.error(
    `drivers: installing ${gen.id} for Node ${process.version} into ${path.relative(ROOT, dest)} (${gen.why}); ${fromSource ? 'compiling each from source: about a minute per driver' : "each package's prebuilt binary where it bundles one or can download one for this Node, else compiled here (about a minute per driver)"}`,
  );
  /** @type {Record<string, string>} */
  const env = fromSource ? { npm_config_build_from_source: 'true' } : {};
  npm(['ci', '--no-audit', '--no-fund', '--loglevel=error'], dest, env);
  if (fromSource) {
    // packages that bundle prebuilds (13.x) have no install step: compile them explicitly
    for (const name of Object.keys(JSON.parse(fs.readFileSync(path.join(src, 'package.json'), 'utf8')).dependencies)) {
      const pkgDir = path.join(dest, 'node_modules', name);
      if (fs.existsSync(path.join(pkgDir, 'prebuilds'))) npm(['run', 'build-release'], pkgDir);
    }
  }
  fs.writeFileSync(markFile, JSON.stringify(want));
  return dest;
}

/** What a binary's origin means, for the install's last lines. */
const ORIGIN_TEXT = {
  'built-from-source': 'compiled here',
  'bundled-prebuild': 'the prebuilt binary the package bundles',
  'downloaded-prebuild': 'a prebuilt binary downloaded for this Node',
};

/** One line per installed driver: its version and the binary it loads, with where that came from. */
export function installedLines(
  /** @type {Map<string, { info: import('../engine/load-drivers.js').DriverInfo }>} */ drivers,
) {
  return [...drivers.values()].flatMap(({ info }) => {
    if (info.status === 'skipped' || info.binary?.origin === 'built-into-node') return [];
    if (info.status !== 'ok' || !info.binary)
      return [`drivers: ${info.name} does not load: ${info.reason ?? 'no binary recorded'}`];
    return [
      `drivers: ${info.name} ${info.version}: ${ORIGIN_TEXT[info.binary.origin] ?? info.binary.origin} (${info.binary.file})`,
    ];
  });
}

const HELP = {
  usage: 'npm run drivers -- [flags]',
  summary:
    "Installs the driver generation for the running Node into .drivers/ from drivers/<generation>/'s lockfile (the project's postinstall), then loads them and says which binary each loaded.",
  options: /** @type {const} */ ({
    'from-source': {
      ...switchFlag('compile every driver from source, never a prebuilt binary'),
      shown: 'off (on with SQLITE_BENCH_FROM_SOURCE=1)',
    },
    generation: valueFlag(
      'ID',
      `another driver generation, where its range allows this Node: ${GENERATIONS.map((g) => g.id).join(', ')}`,
      { shown: "the Node's own (or $SQLITE_BENCH_GENERATION)" },
    ),
  }),
};

async function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, HELP.options);
  const generation = values.generation ?? (process.env[GENERATION_ENV] || undefined);
  if (values.generation !== undefined && !GENERATIONS.some((g) => g.id === values.generation))
    throw new UsageError(
      `unknown --generation '${values.generation}'; valid: ${GENERATIONS.map((g) => g.id).join(', ')}`,
    );
  const chosen = chosenGeneration(process.version, generation);
  if ('error' in chosen) throw new UsageError(`--generation: ${chosen.error}`);
  install(values['from-source'] || process.env.SQLITE_BENCH_FROM_SOURCE === '1', chosen.gen);
  // load what was installed, as the engine will: with the same generation chosen
  if (generation) process.env[GENERATION_ENV] = generation;
  for (const line of installedLines(await loadDrivers())) console.error(line);
}

command('install-drivers', import.meta.url, main, HELP);
