// From the result documents of a compare's rounds to one verdict per case.
//
// Timed operations: per round, each side's headline (ops/s median) and, where the sides alternated
// in slices, the round's paired figure (the median of its cycles' log ratios); every timed case of
// the compare is judged in one family (lib/judge.js: the paired test, Holm, the verdict).
// The database size is deterministic (same seeded data, same driver): it is compared exactly, and
// a file that grows by more than the threshold is slower (a regression) without any statistics.
import { median } from '../../lib/stats/spread.js';
import { MIN_TEST_PAIRS, exactVerdict, judge } from '../../lib/judge.js';
import { VERDICTS } from '../../lib/verdicts.js';
import { caseKey } from '../data/suite.js';
import { pairedLog } from '../../lib/stats/slice-figures.js';
/** @import { Verdict } from '../../lib/verdicts.js' */

export { tally } from '../../lib/verdicts.js';

/**
 * @typedef {object} Series
 * @property {string} key config/driver/cipher/op
 * @property {string} op
 * @property {'ops/s' | 'bytes'} unit
 * @property {number[]} base one figure per pair
 * @property {number[]} head
 * @property {string[]} problems why a pair is missing (a case not ok on a side)
 * @property {(number | null)[]} logs per pair, its paired figure from the slices where both sides alternated in
 *   slices (bench/paired/interleave.js alternate: lib/stats/slice-figures.js pairedLog), else null (the ratio of the two figures is used)
 */

/** The figure a compare reads from a case, or null when the case did not run. */
function measuredValue(/** @type {any} */ c) {
  if (c?.status !== 'ok') return null;
  if (c.size) return { unit: /** @type {const} */ ('bytes'), value: c.size.mainBytes + c.size.walBytes };
  return { unit: /** @type {const} */ ('ops/s'), value: c.stats.opsPerSec.median };
}

/**
 * Pair the rounds' documents case by case.
 * @param {{ base: any, head: any }[]} rounds
 * @returns {Series[]}
 */
export function collect(rounds) {
  const series = /** @type {Map<string, Series>} */ (new Map());
  rounds.forEach((r) => {
    const b = new Map(r.base.cases.map((/** @type {any} */ c) => [caseKey(c), c]));
    const h = new Map(r.head.cases.map((/** @type {any} */ c) => [caseKey(c), c]));
    for (const key of new Set([...b.keys(), ...h.keys()])) {
      const cb = b.get(key);
      const ch = h.get(key);
      /** @type {Series} */
      const s = series.get(key) ?? {
        key,
        op: (cb ?? ch).op,
        unit: measuredValue(cb)?.unit ?? measuredValue(ch)?.unit ?? 'ops/s',
        base: [],
        head: [],
        problems: [],
        logs: [],
      };
      series.set(key, s);
      const fb = measuredValue(cb);
      const fh = measuredValue(ch);
      if (fb && fh) {
        s.base.push(fb.value);
        s.head.push(fh.value);
        s.logs.push(cb.slices && ch.slices ? pairedLog(cb.slices, ch.slices) : null);
      } else {
        for (const [side, c] of /** @type {const} */ ([
          ['base', cb],
          ['head', ch],
        ])) {
          const why = !c ? 'has no such case' : c.status !== 'ok' ? `${c.status}: ${c.reason}` : null;
          if (why && !s.problems.includes(`${side} ${why}`)) s.problems.push(`${side} ${why}`);
        }
      }
    }
  });
  return [...series.values()];
}

/**
 * @typedef {object} Row
 * @property {string} key
 * @property {string} op
 * @property {'ops/s' | 'bytes'} unit
 * @property {number} pairs
 * @property {number | null} base median over the rounds
 * @property {number | null} head
 * @property {number | null} change head / base - 1 (ops/s: negative is slower; bytes: positive is bigger)
 * @property {number | null} low the interval at its Holm-corrected level (lib/judge.js)
 * @property {number | null} high
 * @property {number | null} p two-sided, uncorrected
 * @property {number | null} pAdjusted Holm over every timed case of the compare
 * @property {boolean} significant pAdjusted < alpha
 * @property {number | null} sd noise of one pair (log ratio)
 * @property {Verdict} verdict
 * @property {string} [reason] why not compared
 */

/**
 * @param {Series[]} series
 * @param {{ threshold: number, alpha: number }} o
 * @returns {Row[]}
 */
export function analyse(series, o) {
  const timed = series.filter((s) => !s.problems.length && s.unit === 'ops/s');
  const judged = new Map(
    judge(
      timed.map((s) => s.base.map((b, i) => ({ reference: b, member: s.head[i], log: s.logs[i] }))),
      o,
    ).map((j, i) => [timed[i], j]),
  );
  return series.map((s) => {
    /** @type {Row} */
    const row = {
      key: s.key,
      op: s.op,
      unit: s.unit,
      pairs: s.base.length,
      base: null,
      head: null,
      change: null,
      low: null,
      high: null,
      p: null,
      pAdjusted: null,
      significant: false,
      sd: null,
      verdict: VERDICTS.notCompared,
    };
    if (s.problems.length) return { ...row, reason: s.problems.join('; ') };
    Object.assign(row, { base: median(s.base), head: median(s.head) });
    if (s.unit === 'bytes') {
      const change = /** @type {number} */ (row.head) / /** @type {number} */ (row.base) - 1;
      return { ...row, change, low: change, high: change, verdict: exactVerdict(change, o.threshold) };
    }
    const j = judged.get(s);
    if (!j) return { ...row, reason: `${s.base.length} pair(s); a test needs at least ${MIN_TEST_PAIRS}` };
    const { pairs, change, low, high, p, pAdjusted, sd, verdict } = j;
    return { ...row, pairs, change, low, high, p, pAdjusted, significant: pAdjusted < o.alpha, sd, verdict };
  });
}
