// The judged pairs of a run of several sides (the shootout's, the compare's), from its rounds
// (bench/paired/run-sides.js): the statistics of bench/paired/case-verdicts.js per pair of sides
// and case: per round, each side's ops/s median; the paired figure of the member side against its
// reference side in the same round (the median over the cycles of the log ratio of their
// alternating slices); the trimmed paired test; Holm over every timed comparison of the run
// together, each interval at its corrected level; the verdicts (lib/judge.js). A database's size
// (the compare's) is compared exactly: change = low = high, no p (lib/judge.js exactVerdict).
import { analyse, collect } from './case-verdicts.js';
import { caseKey, parseCaseKey, setupKey } from '../data/suite.js';
import { sig } from '../../lib/format.js';
/** @import { Verdict } from '../../lib/verdicts.js' */

/** Figures are written with 6 significant digits, as the suite writes them (lib/format.js sig): the
 * digits beyond are noise, and they would make every night's document larger in git. Null stays null. */
const sig6 = (/** @type {number | null} */ x) => (x === null || !Number.isFinite(x) ? x : sig(x));

/**
 * The judged pairs of a run of several sides, as the document's `comparisons` (document.schema.json
 * $defs/comparison): per pair of sides and case both listed, the member side against its reference side.
 * @param {Record<string, { cases: any[] }>[]} rounds per round, each side's cases
 * @param {import('../data/run-plan.js').SidePair[]} pairs
 * @param {Record<string, string[]>} listed per side label, the case keys its server listed (in scope)
 * @param {{ threshold: number, alpha: number }} o
 */
export function judgeSidePairs(rounds, pairs, listed, o) {
  const empty = { cases: [] };
  const parts = pairs.map((c) => {
    const both = new Set((listed[c.reference] ?? []).filter((k) => (listed[c.member] ?? []).includes(k)));
    const series = collect(rounds.map((r) => ({ base: r[c.reference] ?? empty, head: r[c.member] ?? empty }))).filter(
      (s) => both.has(s.key),
    );
    return series.map((s) => ({ c, s }));
  });
  const rows = analyse(
    parts.flat().map((x) => x.s),
    o,
  );
  return parts.flat().map(({ c }, i) => {
    const r = rows[i];
    return {
      id: c.comparison,
      reference: c.reference,
      member: c.member,
      setup: setupKey(parseCaseKey(r.key)),
      op: r.op,
      pairs: r.pairs,
      change: sig6(r.change),
      low: sig6(r.low),
      high: sig6(r.high),
      p: sig6(r.p),
      pAdjusted: sig6(r.pAdjusted),
      verdict: /** @type {Verdict} */ (r.verdict),
      ...(r.reason ? { reason: r.reason } : {}),
    };
  });
}

/** A case's figure in a round: its ops/s median, or a size's bytes, exact (case-verdicts.js reads the same). */
const figureOf = (/** @type {any} */ c) =>
  c.stats ? sig6(c.stats.opsPerSec.median) : c.size ? c.size.mainBytes + c.size.walBytes : null;

/**
 * Each side's cases, as the document keeps them: per case, its figure in each round (ops/s, a
 * size's bytes; null where it did not run that round).
 * @param {Record<string, { cases: any[] }>[]} rounds
 * @param {string[]} labels
 */
export function roundCases(rounds, labels) {
  /** @type {{ side: string, rounds: (number | null)[], status: string, reason?: string }[]} */
  const out = [];
  for (const side of labels) {
    const keys = [...new Set(rounds.flatMap((r) => (r[side]?.cases ?? []).map(caseKey)))].sort();
    for (const key of keys) {
      const cs = rounds.map((r) => (r[side]?.cases ?? []).find((/** @type {any} */ c) => caseKey(c) === key));
      const bad = cs.find((c) => c && c.status !== 'ok');
      /** @type {{ side: string, rounds: (number | null)[], status: string, reason?: string }} */
      const f = {
        ...parseCaseKey(key),
        side,
        status: bad ? bad.status : 'ok',
        rounds: cs.map((c) => (c?.status === 'ok' ? figureOf(c) : null)),
      };
      if (bad) f.reason = String(bad.reason || bad.status).slice(0, 500);
      out.push(f);
    }
  }
  return out;
}
