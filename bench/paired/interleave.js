// A run of several sides (the compare's, the shootout's, the calibrations'), through the one round
// loop (bench/run/runner.js): one engine per side and round, and each case measured on every side,
// the order of the sides alternating (ABBA: base first for one case, head first for the next, the
// other way round in the next round). The sides alternate in slices of milliseconds within each
// case (`alternate`), so the machine's switching between states within a second falls on both; a
// drift of the machine over minutes falls on both alike.
import { startEngine } from '../engine/start.js';
import { runRounds, sideOrder } from '../run/runner.js';
import { sessionOfFlags } from '../engine/flags.js';
import { createRandom, shuffle } from '../../lib/prng.js';
import { parseCaseKey } from '../data/suite.js';
import { CommandError, numberFlag } from '../../lib/command.js';
import { MIN_CYCLES, SLICE_MS } from '../engine/slices.js';
import { sliceFigures } from '../../lib/stats/slice-figures.js';

/** A side that could not be measured (its engine failed, too few sides ran). */
export class SideError extends CommandError {}

/**
 * Rounds, and ms per case, side and round, of a compare and a shootout: the PR check's budget
 * (about 10 minutes for the whole suite on 2 cores), sized by the calibration (docs/compare.md);
 * --quick is a smoke run.
 */
const DEFAULTS = { full: { rounds: 10, time: 80 }, quick: { rounds: 3, time: 20 } };

/**
 * The rounds and time of an interleaved run from its --rounds, --time and --quick.
 * @param {{ rounds?: string, time?: string, quick?: boolean }} v
 */
export function roundsAndTime(v) {
  const d = DEFAULTS[v.quick ? 'quick' : 'full'];
  return {
    rounds: numberFlag('rounds', v.rounds, 2, 1000) ?? d.rounds,
    time: numberFlag('time', v.time, 1, 600_000) ?? d.time,
  };
}

/**
 * One side of a paired comparison (the compare's, the shootout's): a checkout whose engine runs
 * the cases under a Node, with an environment (the driver generation).
 * @typedef {object} Side
 * @property {string} label 'base' | 'head' | 'v24 12.x' | …
 * @property {string} dir the checkout
 * @property {string} given what the user passed
 * @property {string | null} commit
 * @property {boolean} worktree made (and removed) by the compare
 * @property {string} [node] the Node executable its processes run with (default this process's)
 * @property {NodeJS.ProcessEnv} [env] their environment (default this process's)
 */

/**
 * What an engine's stderr says about why it stopped: Node's fatal-error lines (a failed assertion)
 * and the frames in a native driver, else its last two lines.
 * @param {string} stderr
 */
function crashReason(stderr) {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = lines
    .filter((l) => /Assertion failed|FATAL ERROR|Error:|Segmentation fault/.test(l) || /^#\s+\S/.test(l))
    .map((l) => l.replace(/^#\s+/, ''));
  const driverFrames = lines
    .filter((l) => /\.node\]$/.test(l))
    .map((l) => l.replace(/^\d+:\s+0x[0-9a-f]+\s+/, '').replace(/\[\S*\/node_modules\/([^/]+)\/\S*\]$/, '[$1]'))
    .slice(0, 1);
  const picked = [...new Set([...fatal, ...driverFrames])];
  return (picked.length ? picked : lines.slice(-2)).join(' | ').slice(0, 800) || 'no message';
}

/**
 * A running engine of one side.
 * @param {Side} side
 * @param {string[]} args engine flags (the bench's: flags.js)
 */
export async function startSide(side, args) {
  const fail = (/** @type {string} */ what, /** @type {string} */ stderr) =>
    new SideError(`${side.label} (${side.given}) engine ${what}: ${crashReason(stderr)}`);
  return {
    side,
    ...(await startEngine(sessionOfFlags(args), { dir: side.dir, fail, node: side.node, env: side.env })),
  };
}

/** An engine's reply as a result-document case, for `collect`. */
function asCase(/** @type {string} */ key, /** @type {any} */ r) {
  if (!r) return null;
  const c = { ...parseCaseKey(key), status: r.status };
  if (r.status !== 'ok') return { ...c, reason: r.reason };
  if (r.bytes !== undefined) return { ...c, size: { mainBytes: r.bytes, walBytes: 0 } };
  return { ...c, stats: { opsPerSec: { median: r.opsPerSec } } };
}

/**
 * One round of one case on every side, in slices alternating between the sides' engine processes
 * (bench/engine/slices.js): each side opens the case on a fresh copy and warms it up,
 * then every cycle runs one slice (~SLICE_MS) on each side in a rotating order, until each side has
 * `time` ms of slices and at least MIN_CYCLES; then each closes it. The sides' slices of a cycle
 * are milliseconds apart, so the machine's switching between fast and slow states, which is faster
 * than a whole measurement, falls on both: a side's result carries its slices, from which the
 * compare takes the paired figure of the round (lib/stats/slice-figures.js pairedLog).
 * @param {Awaited<ReturnType<typeof startSide>>[]} engines
 * @param {string} key
 * @param {{ time: number, r: number, j: number }} o
 * @returns {Promise<Map<string, any>>} per side label, its case (asCase, with `slices`)
 */
async function alternate(engines, key, o) {
  const out = /** @type {Map<string, any>} */ (new Map());
  const open = /** @type {typeof engines} */ ([]);
  for (const s of sideOrder(engines, o.r, o.j)) {
    const r = await s.request({ open: key });
    if (r.status === 'ok' && typeof r.batch === 'number') open.push(s);
    else {
      const c = asCase(key, r);
      if (c) out.set(s.side.label, c);
    }
  }
  /** @type {Map<string, { rates: number[], ms: number }>} */
  const got = new Map(open.map((s) => [s.side.label, { rates: [], ms: 0 }]));
  const live = [...open];
  for (
    let cycle = 0;
    live.length && (cycle < MIN_CYCLES || live.some((s) => (got.get(s.side.label)?.ms ?? 0) < o.time));
    cycle++
  ) {
    for (const s of sideOrder([...live], o.r, o.j + cycle)) {
      const r = await s.request({ slice: key, ms: SLICE_MS });
      const g = /** @type {{ rates: number[], ms: number }} */ (got.get(s.side.label));
      if (r.status === 'ok') {
        g.rates.push(r.opsPerSec);
        g.ms += r.ms;
      } else {
        out.set(s.side.label, asCase(key, r));
        live.splice(live.indexOf(s), 1);
      }
    }
  }
  for (const s of open) {
    const r = await s.request({ close: key });
    if (out.has(s.side.label)) continue;
    if (r.status !== 'ok') {
      out.set(s.side.label, asCase(key, r));
      continue;
    }
    const { rates } = /** @type {{ rates: number[] }} */ (got.get(s.side.label));
    const f = sliceFigures(rates);
    const c = /** @type {any} */ (asCase(key, { status: 'ok', opsPerSec: f.opsPerSec }));
    out.set(s.side.label, { ...c, stats: { ...c.stats, fast: { opsPerSec: f.fast } }, slices: rates });
  }
  return out;
}

/**
 * Measure every case `rounds` times on every side, interleaved, one engine per side and round
 * (runner.js); an engine that fails fails the run (SideError).
 * @param {{ side: Side, args: string[] }[]} specs one per side; labels must differ
 * @param {{ rounds: number, seed: number, only?: (key: string, round: number) => boolean, time?: number,
 *   onProgress?: (p: import('../../lib/progress.js').Progress) => void }} o
 *   time: ms of slices per case, side and round (default its budget's);
 *   only: the cases round r measures, among those the engines list (default all); the rounds
 *   from the first left with none are not run
 * @returns {Promise<{ rounds: Record<string, { cases: any[] }>[], ready: Record<string, any>, seconds: number[] }>}
 *   seconds: each round's wall time
 */
export async function interleave(specs, o) {
  const random = createRandom(o.seed ^ 0xc0ffee);
  /** @type {Record<string, any>} each side's ready message, from its first engine */
  let ready = {};
  const listed = () => [...new Set(Object.values(ready).flatMap((x) => x.cases))];
  const wanted = (/** @type {string[]} */ keys, /** @type {number} */ r) =>
    keys.filter((k) => !o.only || o.only(k, r)).sort();
  const out = /** @type {Record<string, { cases: any[] }>[]} */ ([]);
  const { seconds } = await runRounds(
    specs.map((s) => ({ start: () => startSide(s.side, s.args) })),
    {
      more: (r) => r < o.rounds && (r === 0 || wanted(listed(), r).length > 0),
      units: (r, engines) => {
        const es = /** @type {NonNullable<typeof engines>} */ (engines);
        if (r === 0) ready = Object.fromEntries(es.map((s) => [s.side.label, s.ready]));
        out.push(Object.fromEntries(es.map((s) => [s.side.label, { cases: [] }])));
        return shuffle(random, wanted([...new Set(es.flatMap((s) => s.ready.cases))], r)).map((key) => ({
          key,
          current: key,
        }));
      },
      measure: async ({ key }, engines, { r, j }) => {
        const here = engines.filter((s) => s.ready.cases.includes(key));
        // a case of one side only is sliced alone, so its figure is made as every other case's
        const got = await alternate(here, key, { time: o.time ?? here[0].ready.budget?.time ?? 80, r, j });
        for (const [label, c] of got) if (c) out[r][label].cases.push(c);
      },
      // the ETA counts case-rounds, not rounds: with `only`, later rounds may measure fewer cases
      later: (r) => {
        let n = 0;
        for (let q = r + 1; q < o.rounds; q++) n += wanted(listed(), q).length;
        return n;
      },
      onProgress: o.onProgress,
    },
  );
  return { rounds: out, ready, seconds };
}
