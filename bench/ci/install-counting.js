#!/usr/bin/env node
// npm run ci:install-counting — what the counting pass (bench/counts/) needs on a Linux matrix
// cell: valgrind and strace from the runner image's Ubuntu archive, at the versions pinned here,
// then checked by running them. A macOS cell does not count (valgrind does not run there); the
// workflow runs this step on Linux only, and on another system it says so and does nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { CommandError, command } from '../../lib/command.js';
import { countingTools } from '../counts/tools.js';

/**
 * The Ubuntu packages, per release (VERSION_CODENAME in /etc/os-release): GitHub's ubuntu-24.04
 * and ubuntu-24.04-arm images are noble, whose main archive holds exactly these (checked in
 * archive.ubuntu.com's noble, noble-updates and noble-security indexes, Nov 2026: no update to
 * either). `setarch` comes with util-linux, which every Ubuntu has. A release not listed installs
 * the archive's current versions, and the document records which (`counting.tools`).
 */
const PACKAGES = {
  noble: { valgrind: '1:3.22.0-0ubuntu3', strace: '6.8-0ubuntu2' },
};

/** The release codename of this Linux, or null. */
function codename() {
  try {
    return /^VERSION_CODENAME=(.+)$/m.exec(fs.readFileSync('/etc/os-release', 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

const HELP = {
  usage: 'npm run ci:install-counting',
  summary:
    'Installs valgrind and strace at the pinned versions for the counting pass on a Linux cell, then runs them to check; elsewhere it says so and does nothing. No flags.',
};

function main() {
  if (process.platform !== 'linux') {
    console.log(
      `ci:install-counting: ${process.platform} does not count (valgrind runs on Linux only); nothing to install`,
    );
    return 0;
  }
  const release = codename();
  const pinned = release ? PACKAGES[/** @type {keyof typeof PACKAGES} */ (release)] : undefined;
  const wanted = Object.entries(pinned ?? PACKAGES.noble).map(([p, v]) => (pinned ? `${p}=${v}` : p));
  const root = process.getuid?.() === 0;
  const apt = (/** @type {string[]} */ args) => {
    const r = spawnSync(root ? 'apt-get' : 'sudo', root ? args : ['apt-get', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status !== 0) throw new CommandError(`apt-get ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  };
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', '--no-install-recommends', ...wanted]);
  const tools = countingTools();
  if (tools.status !== 'ok') throw new CommandError(`after installing ${wanted.join(' ')}: ${tools.reason}`);
  const where = execFileSync('sh', ['-c', 'command -v valgrind strace'], { encoding: 'utf8' }).trim().split('\n');
  console.log(
    `ci:install-counting: valgrind ${tools.valgrind}, strace ${tools.strace} (${where.join(', ')}; ${release ?? 'unknown release'}${pinned ? ', pinned' : ', not pinned: no versions listed for this release'})`,
  );
  return 0;
}

command('ci:install-counting', import.meta.url, main, HELP);
