// The statistics of slices (bench/engine/slices.js measures them): a round's typical under load (the
// median of its slices' rates) and fastest typical (their FAST_QUANTILE), and the paired figure of
// two cases whose slices alternated (the median over the cycles both ran of the log ratio of their
// slices). Why these: docs/methodology.md, "Which figure is which".
import { median, quantile } from './spread.js';

/** The fastest typical figure: this quantile of a round's slice rates (the 10th percentile of slice times). */
export const FAST_QUANTILE = 0.9;
/** A block runs at least this many cycles, so each pair has a median to take. */
export const MIN_CYCLES = 3;

/**
 * A round's two figures from its slices' rates (ops/s).
 * @param {number[]} rates
 */
export const sliceFigures = (rates) => ({ opsPerSec: median(rates), fast: quantile(rates, FAST_QUANTILE) });

/**
 * The paired figure of two cases measured in alternating slices: the median over the cycles both
 * ran of log(member's slice rate / reference's).
 * @param {number[]} reference slice rates per cycle
 * @param {number[]} member
 * @returns {number | null} null when they share fewer than MIN_CYCLES cycles
 */
export function pairedLog(reference, member) {
  const n = Math.min(reference.length, member.length);
  if (n < MIN_CYCLES) return null;
  const logs = [];
  for (let i = 0; i < n; i++) logs.push(Math.log(member[i] / reference[i]));
  return median(logs);
}
