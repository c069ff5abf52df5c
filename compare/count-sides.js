// Count each side of a compare: `npm run counts` (bench/counts/cli.js) run in the side's own
// checkout, with its own code and drivers, on the Node the compare runs on. Both sides at once, each
// on its share of the cores, where every side gets at least MIN_CORES_PER_SIDE (a count is exact per
// process: what runs beside it does not change it); else one after the other, each on every core.
// A side without that file, or on a machine that cannot count, gets the reason instead, and wall
// time alone decides.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { costRows, costTally } from '../lib/costs.js';
/** @import { CostRow } from '../lib/costs.js' */

/**
 * @typedef {object} CostsSection compare.json's `costs`
 * @property {'ok'|'unavailable'|'error'} status
 * @property {string} [reason]
 * @property {number} [seconds]
 * @property {boolean} [together] both sides counted at once (countingLayout)
 * @property {number} [jobs] counting processes at once, per side
 * @property {{ base: { node: string, seconds: number }, head: { node: string, seconds: number } }} [sides]
 * @property {ReturnType<typeof costTally>} [tally]
 * @property {CostRow[]} [rows]
 */

/**
 * Run `npm run counts` in a side's checkout; resolves to what it wrote, or why it wrote nothing.
 * @param {{ label: string, dir: string }} side
 * @param {string[]} args the counts CLI's flags (mode, filters, seed; --probe-loop)
 * @param {{ log: (line: string) => void, inject?: Record<string, import('../bench/counts/worker.js').Inject>, jobs?: number }} o
 * @returns {Promise<{ doc: any } | { reason: string }>}
 */
export async function runCounts(side, args, o) {
  const cli = path.join(side.dir, 'bench', 'counts', 'cli.js');
  if (!fs.existsSync(cli)) return { reason: `${side.label} has no bench/counts/cli.js (it is older than the counts)` };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `sqlite-bench-counts-${side.label}-`));
  try {
    const out = path.join(tmp, 'counts.json');
    const extra = [];
    if (o.inject) {
      fs.writeFileSync(path.join(tmp, 'inject.json'), JSON.stringify(o.inject));
      extra.push('--inject', path.join(tmp, 'inject.json'));
    }
    if (o.jobs) extra.push('--jobs', String(o.jobs));
    const child = spawn(process.execPath, [cli, ...args, ...extra, '--out', out], {
      cwd: side.dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let last = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (/** @type {string} */ d) => {
      for (const line of d.split('\n').filter(Boolean)) {
        last = line;
        if (/processes done|counted in/.test(line)) o.log(`${side.label}: ${line}`);
      }
    });
    /** @type {number} */
    const code = await new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (c, sig) => resolve(sig ? -1 : (c ?? -1)));
    });
    if (!fs.existsSync(out)) return { reason: `${side.label}'s counting exited ${code}: ${last || 'no message'}` };
    return { doc: JSON.parse(fs.readFileSync(out, 'utf8')) };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Run one side's counting pass; resolves to its output, or a reason (also when it could not count).
 * @param {{ label: string, dir: string }} side
 * @param {string[]} args the counts CLI's flags (mode, filters, seed)
 * @param {{ log: (line: string) => void, inject?: Record<string, import('../bench/counts/worker.js').Inject>, jobs?: number }} o
 * @returns {Promise<{ doc: any } | { reason: string }>}
 */
export async function countSide(side, args, o) {
  const got = await runCounts(side, args, o);
  if ('reason' in got || got.doc.counting?.status === 'ok') return got;
  const { counting } = got.doc;
  return { reason: `${side.label}: counting ${counting?.status}: ${counting?.reason ?? 'no reason'}` };
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
 * Count both sides and compare their costs.
 * @param {{ label: string, dir: string }[]} sides base, head
 * @param {string[]} args
 * @param {{ log: (line: string) => void, inject?: Record<string, import('../bench/counts/worker.js').Inject>, jobs?: number, together?: boolean }} o
 *   inject: calibration only, into the second side; together, jobs: the layout (default countingLayout of
 *   this machine's cores)
 * @returns {Promise<CostsSection>}
 */
export async function countSides(sides, args, o) {
  const t0 = Date.now();
  const auto = countingLayout(os.cpus().length);
  const together = o.together ?? auto.together;
  const jobs = o.jobs ?? auto.jobs;
  o.log(
    `counting both sides ${together ? `at once, ${jobs} processes each` : `one after the other, ${jobs} processes at once`} (bench/counts/cli.js in each checkout)`,
  );
  const { inject } = o;
  const one = (/** @type {0|1} */ i) =>
    countSide(sides[i], args, { log: o.log, jobs, ...(i === 1 && inject ? { inject } : {}) });
  const [base, head] = together ? await Promise.all([one(0), one(1)]) : [await one(0), await one(1)];
  const seconds = (Date.now() - t0) / 1000;
  const layout = { together, jobs };
  if ('reason' in base || 'reason' in head) {
    const reason = /** @type {{ reason: string }} */ ('reason' in base ? base : head).reason;
    return {
      status: /cannot count|unavailable|older than/.test(reason) ? 'unavailable' : 'error',
      reason,
      seconds,
      ...layout,
    };
  }
  const rows = costRows(base.doc.cases, head.doc.cases);
  return {
    status: 'ok',
    seconds,
    ...layout,
    sides: {
      base: { node: base.doc.node, seconds: base.doc.seconds },
      head: { node: head.doc.node, seconds: head.doc.seconds },
    },
    tally: costTally(rows),
    rows,
  };
}
