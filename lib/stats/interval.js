// The interval of an absolute figure (a case's median of its rounds' figures): where a repeat run
// on the same machine is expected to land, 95% of the time. On the log scale, Student's t with
// n − 1 degrees of freedom (the spread of a few rounds is itself uncertain) times two parts in
// quadrature:
//  - within the run: the standard error of the median of the case's rounds (spread.js medianRse).
//    Each round is in another block, so the rounds' spread already holds how the machine moved
//    from block to block;
//  - between runs: the movement of one block of the run (levels.js), as a repeat run's level can
//    differ from this run's as much as one block's level differs from another's. The standard error
//    of the run's level (× √2 for the repeat) was measured as the alternative and under-covered
//    repeats on a quiet machine (docs/checking.md).
// Where the rounds fall into separated groups (modes.js), the interval spans them all: a repeat can
// land in either.
// And Wilson's interval of a proportion: how often a printed claim held, for the calibration
// registry (bench/meta/calibration.js).
import tquantile from '@stdlib/stats-base-dists-t-quantile';
import { median, medianRse } from './spread.js';
import { modesOf } from './modes.js';

/**
 * @typedef {object} Interval
 * @property {number} low lower end of the 95% interval (ops/s)
 * @property {number} high upper end
 * @property {number} within % relative standard error of the median from the rounds (NaN below 3 rounds)
 * @property {number} between % the machine's movement between blocks for this operation (levels.js), as used
 * @property {import('./modes.js').Mode[] | null} modes
 */

/**
 * The 95% interval of a median of round figures.
 * @param {number[]} rounds the rounds' figures, ops/s
 * @param {number} between % the machine's relative movement between runs for this kind of case: one
 *   block's movement (levels.js)
 * @returns {Interval | null} null below 3 rounds (no spread to go by)
 */
export function intervalOf(rounds, between) {
  if (rounds.length < 3) return null;
  const within = medianRse(rounds);
  const half = tquantile(0.975, rounds.length - 1) * Math.hypot(Math.log1p(within / 100), Math.log1p(between / 100));
  const modes = modesOf(rounds);
  const lowest = modes ? modes[0].rate : median(rounds);
  const highest = modes ? modes[modes.length - 1].rate : median(rounds);
  return { low: lowest * Math.exp(-half), high: highest * Math.exp(half), within, between, modes };
}

/**
 * Whether a repeat's figure lands where two intervals say it may: the distance between the two
 * medians on the log scale is within the combined half-widths on that side (√(a² + b²)), as for
 * two independent estimates. The test of coverage in meta:precision.
 * @param {{ median: number, low: number, high: number }} first
 * @param {{ median: number, low: number, high: number }} later
 */
export function lands(first, later) {
  const d = Math.log(later.median / first.median);
  const up = (/** @type {typeof first} */ x) => Math.log(x.high / x.median);
  const down = (/** @type {typeof first} */ x) => Math.log(x.median / x.low);
  return d >= 0 ? d <= Math.hypot(up(first), down(later)) : -d <= Math.hypot(down(first), up(later));
}

/** The normal quantile of a two-sided 95% interval. */
export const Z = 1.959964;

/**
 * Wilson's 95% score interval of a proportion k of n (Wilson, JASA 22, 1927): how often a
 * claim held, from k of n trials (the calibration registry, bench/meta/).
 * @param {number} k
 * @param {number} n
 * @returns {[number, number]}
 */
export function wilson(k, n) {
  if (!n) return [0, 1];
  const p = k / n;
  const d = 1 + (Z * Z) / n;
  const c = (p + (Z * Z) / (2 * n)) / d;
  const h = (Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}
