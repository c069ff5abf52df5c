// The judge: where a paired comparison becomes a verdict (lib/verdicts.js), one rule for every
// caller: the compare and the shootout (bench/paired/case-verdicts.js reads their rounds into pairs), a
// run's comparisons and its claims' intervals (bench/result/analysis.js, bench/workloads/workload-figures.js;
// a claim's own words are a rule on top of the judge's interval: bench/claims/verdict.js). The rule
// on counts is lib/costs.js's (built-ins only: the PR comment job installs nothing).
//
// A pair is one round: the reference's and the member's figure (ops/s), and, where the two
// alternated in slices, the round's paired figure (lib/stats/slice-figures.js pairedLog), used instead of
// the ratio of the two figures. The pairs' log ratios go through the trimmed paired t-test
// (lib/stats/paired.js), the p-values of a family (every timed case of one compare, every
// comparison of one shootout) through Holm's correction. Each interval is then the one at the level
// its Holm step tested it at, 1 − α·p/p_Holm (1 − α for a family of one; α/m, Bonferroni's, at the
// widest), so it excludes 0 exactly when the corrected p-value is below α: the interval printed
// beside a verdict is the one the verdict was judged on. The verdict is a rule of that interval:
// - slower / faster: wholly below / above 0, and reaching the threshold (without one: excluding 0);
// - no change: wholly within ± the threshold (never without one);
// - too noisy to tell: anything else.
import { holm, pairedLogTest } from './stats/paired.js';
import { VERDICTS } from './verdicts.js';
import { sig } from './format.js';
/** @import { Verdict } from './verdicts.js' */

/** The chance of any false alarm over a family (the compare's and the shootout's --alpha default). */
const ALPHA = 0.05;
/** Fewer pairs than this are not judged (the trimmed test needs 2 after trimming). */
export const MIN_TEST_PAIRS = 2;
/** A comparison within one run needs this many rounds paired (df ≥ 2: an interval of 2 pairs tells nothing). */
const MIN_RUN_PAIRS = 3;

/**
 * @typedef {object} PairedRound one round of a comparison, both measured in it
 * @property {number} reference the reference's figure (ops/s)
 * @property {number} member the compared side's
 * @property {number | null} [log] the round's paired figure from alternating slices, ln(member / reference)
 */

/**
 * @typedef {object} Judgement
 * @property {number} pairs
 * @property {number} change member / reference − 1 (ops/s: negative is slower)
 * @property {number} low lower end of its interval (corrected: see above)
 * @property {number} high upper end
 * @property {number} p two-sided p-value of a change of 0, uncorrected
 * @property {number} pAdjusted Holm over the family
 * @property {number} sd noise of one pair (winsorized sd of the log ratios)
 * @property {Exclude<Verdict, 'not compared'>} verdict
 */

/**
 * The verdict of an interval against a threshold (null: none, so never "no change").
 * @param {{ low: number, high: number }} t
 * @param {number | null} threshold e.g. 0.10
 * @returns {Exclude<Verdict, 'not compared'>}
 */
export function verdictOfInterval(t, threshold) {
  const d = threshold ?? 0;
  if (t.high < 0 && t.low <= -d) return VERDICTS.slower;
  if (t.low > 0 && t.high >= d) return VERDICTS.faster;
  if (t.low > -d && t.high < d) return VERDICTS.same;
  return VERDICTS.unclear;
}

/** The paired test of these log ratios at this level. */
const logTest = (/** @type {number[]} */ logs, /** @type {number} */ level) =>
  pairedLogTest(
    logs.map(() => 1),
    logs.map(Math.exp),
    { level },
  );

/**
 * Judge a family of comparisons together: each one's test, Holm over all of them, each interval at
 * its corrected level, each verdict.
 * @param {PairedRound[][]} family each comparison's pairs
 * @param {{ threshold?: number | null, alpha?: number, minPairs?: number }} [o]
 * @returns {(Judgement | null)[]} in the family's order; null for fewer than minPairs pairs
 */
export function judge(family, o = {}) {
  const alpha = o.alpha ?? ALPHA;
  const logs = family.map((pairs) =>
    pairs.length < (o.minPairs ?? MIN_TEST_PAIRS)
      ? null
      : pairs.map((x) => (typeof x.log === 'number' ? x.log : Math.log(x.member / x.reference))),
  );
  const tests = logs.map((l) => l && logTest(l, 1 - alpha));
  const adjusted = holm(tests.flatMap((t) => (t ? [t.p] : [])));
  let k = 0;
  return tests.map((first, i) => {
    if (!first) return null;
    const pAdjusted = adjusted[k++];
    // p ≤ pAdjusted ≤ m·p, so the level lies between 1 − α and 1 − α/m
    const t =
      first.p < pAdjusted ? logTest(/** @type {number[]} */ (logs[i]), 1 - (alpha * first.p) / pAdjusted) : first;
    return {
      pairs: t.n,
      change: t.change,
      low: t.low,
      high: t.high,
      p: t.p,
      pAdjusted,
      sd: t.sd,
      verdict: verdictOfInterval(t, o.threshold ?? null),
    };
  });
}

/**
 * A deterministic figure where bigger is worse (a database file's size): no statistics, the
 * change against the threshold.
 * @param {number} change head / base − 1
 * @param {number} threshold
 */
export const exactVerdict = (change, threshold) =>
  change > threshold ? VERDICTS.slower : change < -threshold ? VERDICTS.faster : VERDICTS.same;

/**
 * A case's rounds with their blocks, for pairing, and with each round's paired figure against the
 * reference of setup key `referenceKey` where the slices gave one; null when it has none.
 * @param {any} c a result document's case
 * @param {string} [referenceKey]
 * @returns {{ slot: string, opsPerSec: number, log?: number }[] | null}
 */
export const roundsOf = (c, referenceKey) => {
  if (!(c?.status === 'ok' && c.stats?.slots)) return null;
  /** @type {(number | null)[] | undefined} */
  const logs = referenceKey ? c.stats.paired?.[referenceKey] : undefined;
  return c.stats.rounds.map((/** @type {number} */ x, /** @type {number} */ i) => ({
    slot: c.stats.slots[i],
    opsPerSec: x,
    ...(typeof logs?.[i] === 'number' ? { log: logs[i] } : {}),
  }));
};

/**
 * A comparison within one run: a case against its reference, both measured in the same rounds, in
 * the same block of each round (bench/run/run-suite.js blocksOf), so a drift of the machine falls on both. Only
 * rounds where both were measured in the same block (slot `<round>/<block>`) pair up.
 * @param {{ slot: string, opsPerSec: number }[]} reference the reference case's rounds (roundsOf)
 * @param {{ slot: string, opsPerSec: number, log?: number | null }[]} member the compared case's
 *   rounds; log: the round's paired figure against this reference from the slices of their block
 * @returns {(PairedRound & { slot: string })[]}
 */
export function roundPairs(reference, member) {
  const bySlot = new Map(reference.map((r) => [r.slot, r.opsPerSec]));
  return member
    .filter((m) => bySlot.has(m.slot))
    .map((m) => ({
      slot: m.slot,
      reference: /** @type {number} */ (bySlot.get(m.slot)),
      member: m.opsPerSec,
      log: m.log,
    }));
}

/**
 * roundPairs judged as a family of one, no threshold.
 * @param {{ slot: string, opsPerSec: number }[]} reference
 * @param {{ slot: string, opsPerSec: number, log?: number | null }[]} member
 * @returns {Judgement | null} null with fewer than MIN_RUN_PAIRS pairs
 */
export const judgeRounds = (reference, member) =>
  judge([roundPairs(reference, member)], { minPairs: MIN_RUN_PAIRS })[0];

/**
 * A judgement as a run's document stores it: its figures to 6 significant digits (lib/format.js sig).
 * @param {Judgement} c
 */
export const storedJudgement = (c) => ({
  pairs: c.pairs,
  change: sig(c.change),
  low: sig(c.low),
  high: sig(c.high),
  p: sig(c.p),
  verdict: c.verdict,
});
