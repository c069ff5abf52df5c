// The claims table of a result document: a row per check of every claim (bench/data/production-claims.js),
// with the claimed effect, what the run measured (its judged pair's change and 95% interval, read
// through bench/data/production-claims.js judgedPair, in the claim's metric) and the claim's
// verdict. One rule for `npm run claims` and the README's "Claims checked" section. The words
// (claim, what is checked) come from the table; from the document only numbers, verdicts and reasons.
import { CLAIMS, MIN_PAIRS, SOURCE, judgedPair } from '../../bench/data/production-claims.js';
import { OPS } from '../../bench/data/ops.js';
import { changePercent, intervalText } from './figure.js';
import { mechanismOf } from './mechanism.js';
import { whole } from '../../lib/format.js';

/** @typedef {ReturnType<typeof claimRows>[number]} ClaimRow */

/** A claim's change: whole from 100% up. */
const pct = (/** @type {number} */ x) => changePercent(x, 100);
/** A change in ops/s as a change in time: time goes as 1 / ops/s. */
const asTime = (/** @type {number} */ r) => 1 / (1 + r) - 1;

/**
 * A change in ops/s, and its interval, as the metric shows it.
 * @param {string} metric
 * @param {{ change: number, low: number, high: number }} c
 */
export function metricChange(metric, c) {
  if (metric !== 'time') return { change: c.change, low: c.low, high: c.high };
  return { change: asTime(c.change), low: asTime(c.high), high: asTime(c.low) };
}

/**
 * The claimed effect in words, in the check's metric.
 * @param {import('../../bench/data/production-claims.js').Check} check
 */
export function claimedText(check) {
  const c = check.claim;
  if (!c) return `(${check.metric})`;
  if (c.kind === 'none') return 'no claim (context)';
  if (c.kind === 'minimal') return `within ±${+(c.bound * 100).toFixed(1)}%`;
  const unit = check.metric === 'time' ? ' time' : ' ops/s';
  if (c.kind === 'direction')
    return check.metric === 'time' ? (c.sign > 0 ? 'less time' : 'more time') : c.sign > 0 ? 'faster' : 'slower';
  const m = metricChange(check.metric, { change: c.low, low: c.low, high: c.high });
  return c.low === c.high ? `${pct(m.change)}${unit}` : `${pct(m.low)} to ${pct(m.high)}${unit}`;
}

/**
 * A row per check of every claim the document checked: what the check is (the table's words), the
 * claimed effect and our change with its 95% interval in the check's metric (null when not
 * measured), the verdict, why it is not measured or has no verdict (from the document: shown
 * inert), and the counted mechanism, the cause of the verdict (mechanism.js).
 * @param {any} doc a result document (its `claims`, bench/result/analysis.js)
 */
export function claimRows(doc) {
  const found = new Map((Array.isArray(doc?.claims) ? doc.claims : []).map((/** @type {any} */ e) => [e?.id, e]));
  const cases = new Map(
    (Array.isArray(doc?.cases) ? doc.cases : []).map((/** @type {any} */ c) => [
      `${c?.config}/${c?.driver}/${c?.cipher}/${c?.op}`,
      c,
    ]),
  );
  return CLAIMS.flatMap((claim) => {
    const got = found.get(claim.id);
    if (!got) return [];
    return claim.checks.map((check, index) => {
      const r = (Array.isArray(got.checks) ? got.checks : []).find((/** @type {any} */ x) => x?.index === index);
      const op = OPS.find((o) => o.name === check.op);
      const pair = r && r.verdict !== 'not compared' ? judgedPair(doc, r) : null;
      const m = typeof pair?.change === 'number' ? metricChange(check.metric, pair) : null;
      const unit = check.metric === 'time' ? 'time' : 'ops/s';
      return {
        claim,
        first: index === 0, // the claim's first row
        says: `${check.says}${op ? ` (${op.label})` : ''}`,
        claimed: claimedText(check),
        change: m,
        measured: m && `${intervalText(m, 100)} ${unit}, ${whole(pair.pairs)} pairs`,
        verdict: m ? String(r.verdict) : 'not compared',
        reason: typeof r?.reason === 'string' ? r.reason : m ? null : 'not in this document',
        mechanism: m && mechanismOf(cases.get(`${r.reference}/${r.op}`), cases.get(`${r.member}/${r.op}`)),
      };
    });
  });
}

/**
 * What the claims table's intervals are, for the line under it: each check on its own, not
 * corrected over the run's checks (a per-check reading).
 * @param {ClaimRow[]} rows
 */
export const perCheckText = (rows) =>
  `Each interval is the check's own 95% interval, not corrected over the ${whole(rows.filter((r) => r.measured).length)} checks measured: read each on its own; with no real effect, about 3 in 100 at ${MIN_PAIRS} pairs exclude 0 (docs/claims.md).`;

/**
 * The claims table as Markdown rows (header first).
 * @param {ClaimRow[]} rows
 * @param {{ text: (s: string, max?: number) => string, link?: boolean }} o how document strings are shown (inert in the README), and whether the claim links to its source
 * @returns {string[][]}
 */
export function claimCells(rows, o) {
  return [
    ['#', 'Claim', 'Checked', 'Claimed', 'Measured (95% interval)', 'Verdict', 'Counted (against the reference)'],
    ...rows.map((r) => [
      r.first ? String(r.claim.n) : '',
      r.first ? (o.link ? `[${r.claim.short}](${SOURCE.url})` : r.claim.short) : '',
      r.says,
      r.claimed,
      r.measured ?? '—',
      r.reason === null ? o.text(r.verdict) : `${o.text(r.verdict)}: ${o.text(r.reason, 320)}`,
      r.mechanism ?? '',
    ]),
  ];
}
