// Count each side of a run of several sides, one way for the compare and the shootout: the
// counting pass alone (`npm run counts`, bench/counts/cli.js) run in the side's checkout under the
// side's Node with its environment. A side says all it differs by: the compare's are checkouts
// (each counts with its own code and drivers, on the Node it runs on), the shootout's are Nodes
// with their driver generation in this checkout (each counts the cases it measured, by --case).
// The sides at once, each on its share of the cores, where every side gets at least
// MIN_CORES_PER_SIDE (a count is exact per process: what runs beside it does not change it); else
// one after the other, each on every core. Each side's progress (a line at least every 10 s, with
// an ETA) goes to the log with its label. A side without that script, or on a machine that cannot
// count, gets the reason instead, and wall time alone decides.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
/** @import { Inject } from '../counts/worker.js' */

/** @typedef {Pick<import('./interleave.js').Side, 'label' | 'dir' | 'node' | 'env'>} Side */
/**
 * Why a side has no counts: `unavailable`, it cannot count (its checkout has no counting script,
 * or its machine no valgrind or strace, as the script's own document says); `error`, it tried and
 * failed. Said by whoever knew, never read back from the reason's words.
 * @typedef {{ status: 'unavailable' | 'error', reason: string }} Failed
 */

/**
 * @typedef {object} CountOptions
 * @property {(line: string) => void} log
 * @property {Record<string, Inject>} [inject] calibration only
 * @property {number} [jobs] counting processes at once
 */

/** The counting pass alone (`npm run counts`): the contract between the compare and a side of any version that has it. */
const COUNTS_CLI = 'bench/counts/cli.js';

/**
 * Run `npm run counts` (bench/counts/cli.js) in a side's checkout under the side's Node with its
 * environment; resolves to what it wrote to --out, or why there are no counts: it wrote nothing,
 * or its pass could not count (its `counting` says unavailable or error). Its stderr lines go to
 * the log, prefixed with the side's label.
 * @param {Side} side
 * @param {string[]} args its flags (mode, filters or cases, seed; --probe-loop)
 * @param {CountOptions} o
 * @returns {Promise<{ doc: any } | Failed>}
 */
export async function runCounts(side, args, o) {
  const cli = path.join(side.dir, COUNTS_CLI);
  if (!fs.existsSync(cli))
    return { status: 'unavailable', reason: `${side.label} has no ${COUNTS_CLI} (it is older than the counts)` };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-counts-'));
  try {
    const out = path.join(tmp, 'counts.json');
    const extra = [];
    if (o.inject) {
      fs.writeFileSync(path.join(tmp, 'inject.json'), JSON.stringify(o.inject));
      extra.push('--inject', path.join(tmp, 'inject.json'));
    }
    if (o.jobs) extra.push('--jobs', String(o.jobs));
    const child = spawn(side.node ?? process.execPath, [cli, ...args, ...extra, '--out', out], {
      cwd: side.dir,
      env: side.env ?? process.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let last = 'no message';
    readline.createInterface({ input: child.stderr }).on('line', (line) => {
      if (line.trim()) o.log(`${side.label}: ${(last = line)}`);
    });
    /** @type {number} */
    const code = await new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (c, sig) => resolve(sig ? -1 : (c ?? -1)));
    });
    if (!fs.existsSync(out))
      return { status: 'error', reason: `${side.label}'s counting exited ${code}: ${last}`.slice(0, 900) };
    const doc = JSON.parse(fs.readFileSync(out, 'utf8'));
    const counting = doc.counting ?? { status: 'ok' }; // --probe-loop counts no case
    if (counting.status === 'ok') return { doc };
    return {
      status: counting.status === 'unavailable' ? 'unavailable' : 'error',
      reason: `${side.label}: counting ${counting.status}: ${counting.reason ?? 'no reason'}`,
    };
  } catch (err) {
    return {
      status: 'error',
      reason: `${side.label}'s counting: ${String(/** @type {Error} */ (err).message).split('\n')[0]}`.slice(0, 900),
    };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Both sides are counted at once when each gets at least this many cores (a callgrind process and its repeat). */
const MIN_CORES_PER_SIDE = 2;

/**
 * How to count the sides on this many cores: at once, the cores shared out, when every side gets
 * at least MIN_CORES_PER_SIDE; else one after the other, each on every core.
 * @param {number} cores
 * @param {number} [sides]
 */
export function countingLayout(cores, sides = 2) {
  const share = Math.floor(cores / sides);
  return share >= MIN_CORES_PER_SIDE ? { together: true, jobs: share } : { together: false, jobs: Math.max(1, cores) };
}

/**
 * Count every side, at once or one after the other (countingLayout), each with runCounts.
 * @template {Side} S
 * @param {S[]} sides
 * @param {(side: S) => string[]} args each side's flags
 * @param {CountOptions & { together?: boolean }} o together, jobs: the layout (default countingLayout
 *   of this machine's cores)
 * @returns {Promise<{ results: Awaited<ReturnType<typeof runCounts>>[], together: boolean, jobs: number }>}
 */
export async function countEach(sides, args, o) {
  const auto = countingLayout(os.cpus().length, sides.length);
  const together = o.together ?? auto.together;
  const jobs = o.jobs ?? auto.jobs;
  o.log(
    `counting ${sides.length} sides ${together ? `at once, ${jobs} processes each` : `one after the other, ${jobs} processes at once`} (${COUNTS_CLI} under each side's Node)`,
  );
  const one = async (/** @type {S} */ side) => {
    const t = Date.now();
    const got = await runCounts(side, args(side), { ...o, jobs });
    o.log(
      `counting ${side.label}: ${'reason' in got ? `failed: ${got.reason}` : 'done'} in ${((Date.now() - t) / 1000).toFixed(0)} s`,
    );
    return got;
  };
  const results = [];
  if (together) results.push(...(await Promise.all(sides.map(one))));
  else for (const side of sides) results.push(await one(side));
  return { results, together, jobs };
}
