#!/usr/bin/env node
// npm run ci:verify-drivers — after `npm run ci:install-from-source`: the native binary each driver
// loads must be the one compiled here, for this Node's ABI and this arch, not a bundled or
// downloaded prebuild (better-sqlite3-multiple-ciphers 13.x prefers its bundled one). Exit 1 if not.
// A user's `npm install` may well install prebuilds: this check is for the benchmark's cells.
import fs from 'node:fs';
import path from 'node:path';
import { driversDir, loadDrivers } from '../engine/load-drivers.js';
import { ROOT } from '../../lib/root.js';
import { command } from '../../lib/command.js';

/**
 * @param {Map<string, { info: import('../engine/load-drivers.js').DriverInfo }>} drivers
 * @returns {string[]} problems
 */
export function verify(drivers) {
  const problems = [];
  const dir = driversDir();
  for (const { info } of drivers.values()) {
    if (info.binary?.origin === 'built-into-node' || info.status === 'skipped') continue;
    if (info.status !== 'ok' || !info.binary) {
      problems.push(`${info.name}: ${info.status}: ${info.reason ?? 'no binary recorded'}`);
      continue;
    }
    const file = path.resolve(ROOT, info.binary.file);
    if (info.binary.origin !== 'built-from-source')
      problems.push(`${info.name}: loaded a ${info.binary.origin} (${info.binary.file}), not the binary built here`);
    if (!file.startsWith(dir + path.sep))
      problems.push(
        `${info.name}: loaded ${info.binary.file}, outside ${path.relative(ROOT, dir)} (the install for ${process.version})`,
      );
    if (!file.split(path.sep).join('/').includes('/build/Release/'))
      problems.push(`${info.name}: loaded ${info.binary.file}, not node-gyp's build/Release`);
    if (!fs.existsSync(file)) {
      problems.push(`${info.name}: ${info.binary.file} does not exist`);
      continue;
    }
    const head = fs.readFileSync(file).subarray(0, 20);
    const machine = head.readUInt16LE(18);
    /** @type {Record<string, number | undefined>} ELF e_machine per process.arch */
    const machines = { x64: 0x3e, arm64: 0xb7 };
    const expected = machines[process.arch];
    if (head.subarray(0, 4).toString('latin1') === '\x7fELF' && expected && machine !== expected)
      problems.push(`${info.name}: ${info.binary.file} is not an ${process.arch} ELF binary`);
  }
  return problems;
}

const HELP = {
  usage: 'npm run ci:verify-drivers',
  summary:
    'After ci:install-from-source: the native binary each driver loads must be the one compiled here, for this Node and arch; exit 1 if not. No flags.',
};

async function main() {
  const drivers = await loadDrivers();
  for (const { info } of drivers.values()) {
    console.log(
      `${info.name}: ${info.status === 'ok' ? `${info.version}, ${info.binary?.origin}, ${info.binary?.file}${info.binary?.sha256 ? `, sha256 ${info.binary.sha256.slice(0, 12)}…` : ''}` : `${info.status}: ${info.reason}`}`,
    );
  }
  const problems = verify(drivers);
  for (const p of problems) console.error(`ci:verify-drivers: ${p}`);
  return problems.length ? 1 : 0;
}

command('ci:verify-drivers', import.meta.url, main, HELP);
