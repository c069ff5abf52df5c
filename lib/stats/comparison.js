// A comparison within one run: a case against its reference, both measured in the same rounds,
// in the same block of each round (bench/run/order.js), so a drift of the machine falls on both.
// Only rounds where both were measured in the same block pair up; the pairs go through the
// compare's paired test (paired.js: log ratios, 20%-trimmed t-test, 95% interval). A round measured in
// slices brings its own paired figure (the median over its block's cycles of the log ratio of the two
// cases' slices, milliseconds apart), which the machine's switching between states cancels in.
import { pairedLogTest } from './paired.js';
import { VERDICTS } from '../verdicts.js';
import { sig } from '../format.js';
/** @import { Verdict } from '../verdicts.js' */

/** Fewer pairs than this give no comparison (the trimmed test needs 2 after trimming, and df ≥ 2). */
export const MIN_PAIRS = 3;

/**
 * @typedef {object} PairedChange
 * @property {number} pairs
 * @property {number} change member / reference − 1 (ops/s)
 * @property {number} low lower end of its 95% interval
 * @property {number} high upper end
 * @property {number} p two-sided p-value of a change of 0
 * @property {Exclude<Verdict, 'no change' | 'not compared'>} verdict faster/slower when
 *   the interval excludes 0 (no threshold: never no change)
 */

/**
 * @param {{ slot: string, opsPerSec: number }[]} reference the reference case's rounds
 * @param {{ slot: string, opsPerSec: number, log?: number | null }[]} member the compared case's rounds; log:
 *   the round's paired figure against this reference from the slices of their block (bench/engine/slices.js
 *   pairedLog), used instead of the ratio of the two rounds' figures where present
 * @returns {PairedChange | null} null with fewer than MIN_PAIRS pairs
 */
export function pairedChange(reference, member) {
  const bySlot = new Map(reference.map((r) => [r.slot, r.opsPerSec]));
  const pairs = member.filter((m) => bySlot.has(m.slot));
  if (pairs.length < MIN_PAIRS) return null;
  const logs = pairs.map((m) =>
    typeof m.log === 'number' ? m.log : Math.log(m.opsPerSec / /** @type {number} */ (bySlot.get(m.slot))),
  );
  const t = pairedLogTest(
    logs.map(() => 1),
    logs.map(Math.exp),
  );
  const verdict = t.low > 0 ? VERDICTS.faster : t.high < 0 ? VERDICTS.slower : VERDICTS.unclear;
  return { pairs: t.n, change: t.change, low: t.low, high: t.high, p: t.p, verdict };
}

/**
 * A paired change as a document stores it: its figures to 6 significant digits (lib/format.js sig).
 * @param {PairedChange} c
 */
export const storedChange = (c) => ({
  pairs: c.pairs,
  change: sig(c.change),
  low: sig(c.low),
  high: sig(c.high),
  p: sig(c.p),
  verdict: c.verdict,
});
