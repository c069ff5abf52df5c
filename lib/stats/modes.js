// Separated groups of round medians: a case whose rounds fall into two groups far apart (select is
// bimodal on some machines: some processes run near 6,000/s, others near 10,600/s) has no one
// typical figure, and the median of a few rounds is whichever group those rounds happened to catch.
import { median } from './spread.js';

/** Two groups are separated when the gap between them is at least this ratio (25%)… */
export const MIN_GAP = Math.log(1.25);
/** …and at least this many times the spread within the groups. */
const GAP_TO_SPREAD = 4;
/** Each group has at least this many rounds (a single wild round is an outlier, not a mode). */
const MIN_ROUNDS = 2;

/**
 * @typedef {object} Mode
 * @property {number} rate the median of the group's rounds (ops/s)
 * @property {number} share the group's share of the rounds
 * @property {number} rounds how many rounds fall in it
 */

/**
 * The modes of a case's round medians, lowest first, or null when they form one group. The rounds
 * are split at the widest gap between neighbours (on the log scale); the split stands when each
 * side has at least MIN_ROUNDS rounds, the gap is at least MIN_GAP, and it is GAP_TO_SPREAD times
 * the larger range of the two groups (so two tight groups far apart, not one wide spread).
 * @param {number[]} xs round medians, positive
 * @returns {Mode[] | null}
 */
export function modesOf(xs) {
  if (xs.length < 2 * MIN_ROUNDS) return null;
  const logs = xs.map(Math.log).sort((a, b) => a - b);
  let at = -1;
  let gap = 0;
  for (let i = MIN_ROUNDS; i <= logs.length - MIN_ROUNDS; i++) {
    const g = logs[i] - logs[i - 1];
    if (g > gap) [gap, at] = [g, i];
  }
  if (at < 0) return null;
  const groups = [logs.slice(0, at), logs.slice(at)];
  const spread = Math.max(...groups.map((g) => g[g.length - 1] - g[0]));
  if (gap < MIN_GAP || gap < GAP_TO_SPREAD * spread) return null;
  return groups.map((g) => ({ rate: Math.exp(median(g)), share: g.length / logs.length, rounds: g.length }));
}
