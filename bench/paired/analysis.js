// From the result documents of a compare's rounds to one verdict per case.
//
// Timed operations: per round, each side's headline (ops/s median) and, where the sides alternated
// in slices, the round's paired figure (the median of its cycles' log ratios); the pairs go through the
// paired log-ratio t-test, all p-values of the compare through Holm together, then `verdict`.
// The database size is deterministic (same seeded data, same driver): it is compared exactly, and
// a file that grows by more than the threshold is slower (a regression) without any statistics.
import { median } from '../../lib/stats/spread.js';
import { holm, pairedLogTest, verdict } from '../../lib/stats/paired.js';
import { caseKey } from '../tables/suite.js';
import { pairedLog } from '../../lib/stats/slices.js';
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
 *   slices (bench/paired/interleave.js alternate: slices.js pairedLog), else null (the ratio of the two figures is used)
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
  /** @type {Map<string, Series>} */
  const series = new Map();
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
 * @property {number | null} low 95% interval
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
  /** @type {Row[]} */
  const rows = [];
  /** @type {{ row: Row }[]} */
  const tested = [];
  for (const s of series) {
    const row = /** @type {Row} */ ({
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
      verdict: 'not compared',
    });
    rows.push(row);
    if (s.problems.length) {
      row.reason = s.problems.join('; ');
      continue;
    }
    row.base = median(s.base);
    row.head = median(s.head);
    if (s.unit === 'bytes') {
      row.change = row.head / row.base - 1;
      row.low = row.high = row.change;
      row.verdict = row.change > o.threshold ? 'slower' : row.change < -o.threshold ? 'faster' : 'no change';
      continue;
    }
    if (s.base.length < 2) {
      row.reason = `${s.base.length} pair(s); a test needs at least 2`;
      continue;
    }
    // a pair measured in alternating slices brings its own figure: the median of its cycles' log ratios
    const logs = s.base.map((b, i) => s.logs?.[i] ?? Math.log(s.head[i] / b));
    const t = pairedLogTest(
      logs.map(() => 1),
      logs.map(Math.exp),
    );
    Object.assign(row, { change: t.change, low: t.low, high: t.high, p: t.p, sd: t.sd });
    tested.push({ row });
  }
  const adjusted = holm(tested.map((t) => /** @type {number} */ (t.row.p)));
  tested.forEach(({ row }, i) => {
    row.pAdjusted = adjusted[i];
    row.significant = adjusted[i] < o.alpha;
    row.verdict = verdict(/** @type {any} */ (row), row.significant, o.threshold);
  });
  return rows;
}
