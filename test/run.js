#!/usr/bin/env node
// npm test [-- --set unit|e2e|node] [--concurrency N] [FILE…]
//
// The test command: node's own test runner over one set of test files (test/sets.js), with as
// many files at once as the machine has cores. node --test runs files in parallel, but by default
// one fewer than the cores: on a 2-core machine one file at a time, the other core idle while
// most tests run in one process. --test-concurrency sets it, from Node 20.10; Node 18 and older
// Node 20 do not know the flag (it would stop them), and run at their default there.
import { spawn } from 'node:child_process';
import os from 'node:os';
import semver from 'semver';
import { UsageError, command, numberFlag, parseStrict } from '../lib/command.js';
import { ROOT } from '../lib/root.js';
import { SETS, filesOf } from './sets.js';

const CORES = os.cpus().length;

const OPTIONS = /** @type {const} */ ({
  set: {
    type: 'string',
    default: 'unit',
    arg: 'NAME',
    description: `the test files: ${Object.entries(SETS)
      .map(([k, v]) => `${k} (${v})`)
      .join('; ')}`,
  },
  concurrency: {
    type: 'string',
    arg: 'N',
    shown: `the cores (${CORES} here); from Node 20.10, older Nodes run at their own default`,
    description: 'how many test files run at once',
  },
});

export const HELP = {
  usage: 'npm test -- [flags] [FILE…]',
  summary:
    "Runs a set of test files with node's test runner (node --test), as many files at once as there are cores; FILE… runs those files instead of a set.",
  options: OPTIONS,
};

/** Whether this Node's test runner takes --test-concurrency (added in v20.10.0 and v21.0.0). */
export const takesConcurrency = (/** @type {string} */ version) => semver.satisfies(version, '>=20.10.0');

/**
 * The arguments of `node` for a set (or the files given), on this Node.
 * @param {{ set: string, concurrency?: number, files?: string[], version?: string }} o
 */
export function testArgs(o) {
  if (!Object.hasOwn(SETS, o.set)) throw new UsageError(`bad --set '${o.set}'; valid: ${Object.keys(SETS).join(', ')}`);
  const files = o.files?.length ? o.files : filesOf(/** @type {keyof typeof SETS} */ (o.set), ROOT);
  const n = o.concurrency ?? CORES;
  return ['--test', ...(takesConcurrency(o.version ?? process.version) ? [`--test-concurrency=${n}`] : []), ...files];
}

async function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, OPTIONS, { positionals: true });
  const args = testArgs({
    set: String(values.set),
    concurrency: numberFlag('concurrency', /** @type {string | undefined} */ (values.concurrency), 1, 64),
    files: values._,
  });
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  // a signal from the terminal reaches the runner too: wait for it to end, and end as it did
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(sig, () => {});
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1)));
  });
}

command('test', import.meta.url, main, HELP);
