// A case's figure as text, one rule for the summary and the README: ops/s or ms median with the
// wider side of its 95% interval, the modes where its rounds fall into separated groups, or the
// file size. And a change as text with its 95% interval, one rule for the summary, the README, the
// claims, the shootout and the PR comment. Built-ins only down its imports (the comment job).
import { OPS } from '../../bench/data/ops.js';
import { headlineMargin, widerSide } from '../../lib/stats/headline.js';
import { NOT_A_NUMBER, megabytes, num, signedPercent, whole } from '../../lib/format.js';
import { JOURNAL } from '../../bench/data/workloads.js';

/** @typedef {(n: number) => string} NumberText */

/** The ± of a figure, in percent of it: "±3.4%", "±12%", "±>999%". */
export const marginText = (/** @type {number} */ m) => `±${m < 10 ? m.toFixed(1) : m < 1000 ? Math.round(m) : '>999'}%`;
const share = (/** @type {number} */ s) => `${Math.round(s * 100)}%`;

/**
 * @param {any} c a case of a result document
 * @param {NumberText} num how a number is written
 * @returns {{ text: string, reason?: undefined } | { text: null, reason: string }}
 */
export function figureText(c, num) {
  if (!c) return { text: null, reason: 'not in this run' };
  if (c.status !== 'ok') return { text: null, reason: `${c.status}: ${c.reason}` };
  const show = OPS.find((o) => o.name === c.op)?.show;
  if (show === 'bytes') return { text: megabytes(c.size.mainBytes + c.size.walBytes) };
  const s = c.stats;
  const unit = show === 'ms' ? ' ms' : '';
  const value = (/** @type {number} */ opsPerSec) => (show === 'ms' ? 1000 / opsPerSec : opsPerSec);
  if (s.modes)
    return {
      text: `modes ${s.modes.map((/** @type {any} */ m) => `${num(value(m.rate))}${unit} (${share(m.share)})`).join(' / ')}`,
    };
  return {
    text: `${num(show === 'ms' ? s.latencyMs.median : s.opsPerSec.median)}${unit} ${marginText(headlineMargin(s))}`,
  };
}

/**
 * The operations whose own work is the same in every slice: they write nothing (counted: no write
 * and no fsync per operation), so their fastest slices are the ones the machine disturbed least.
 * An operation that writes has its fastest slices where its own work was least, without a WAL
 * checkpoint or sync: a quick run printed production insert at 5,542/s typical and 18,682/s
 * "fastest typical" (issue 38). Only these show a fastest typical figure.
 */
export const STEADY_OPS = ['select'];

/**
 * Whether a case's fastest typical figure means least interference: its counts show no write and
 * no fsync per operation, or, uncounted, its operation is one of STEADY_OPS.
 */
export const steady = (/** @type {any} */ c) => {
  const s = c?.counts?.status === 'ok' ? c.counts.syscalls : null;
  return s ? s.write === 0 && s.fsync === 0 : STEADY_OPS.includes(c?.op);
};

/**
 * What the absolute ± was measured to cover, printed beside it: a repeat run's figure inside a
 * run's own 95% interval (npm run meta:precision over repeat runs here; calibration row f5). It
 * says 95% and covers more, so its coverage is printed rather than the ± narrowed on few runs.
 */
export const ABSOLUTE_COVERAGE =
  'held 98–99.7% of repeat runs’ figures on an otherwise idle VM (wider than 95% needs), and 84% when other jobs shifted whole runs by −34% to +58%';

/**
 * What the A/A self-check (bench/result/analysis.js combinedP) catches, printed beside its result:
 * it fails by chance in at most `falseFailure` of runs, and catches intervals 2× and 4× too narrow
 * in at least `twice` and `four` of runs. npm run meta:calibration rows f2 and f3 check these
 * against the simulated rates (1.5%, 52%, 98% at worst over the noises there).
 */
export const SELF_CHECK_CATCHES = { falseFailure: 0.02, twice: 0.45, four: 0.95 };
export const CATCHES = `fails by chance in ≤ ${100 * SELF_CHECK_CATCHES.falseFailure}% of runs; catches intervals 2× too narrow in ${100 * SELF_CHECK_CATCHES.twice}%+ of runs, 4× in ${100 * SELF_CHECK_CATCHES.four}%+`;

/** A p-value as printed (a document's number: anything else is "?"). */
export const pText = (/** @type {unknown} */ p) =>
  typeof p !== 'number' ? '?' : p < 0.001 ? '< 0.001' : p.toFixed(p < 0.01 ? 3 : 2);

/**
 * A case's fastest typical figure (bench/engine/slices.js) with the wider side of its 95% interval;
 * null where it has none (a size) or where it would not mean least interference (steady).
 */
export function fastText(/** @type {any} */ c, /** @type {NumberText} */ num) {
  const f = c?.status === 'ok' && steady(c) ? c.stats?.fast : null;
  if (!f) return null;
  const show = OPS.find((o) => o.name === c.op)?.show;
  const margin =
    typeof f.low === 'number' && typeof f.high === 'number' ? 100 * widerSide(f.opsPerSec, f.low, f.high) : null;
  const text = show === 'ms' ? `${num(1000 / f.opsPerSec)} ms` : num(f.opsPerSec);
  return margin === null ? text : `${text} ${marginText(margin)}`;
}

/** A change signed in percent (signedPercent, whole from `whole`%), NOT_A_NUMBER if not a finite number. */
export const changePercent = (/** @type {unknown} */ x, whole = Infinity) =>
  typeof x === 'number' && Number.isFinite(x) ? signedPercent(x, whole) : NOT_A_NUMBER;

/**
 * A change with its 95% interval: "+12.3% [+8.1%, +16.6%]".
 * @param {{ change: number, low: number, high: number }} c
 * @param {number} [whole] whole percents from this one up (default: never)
 */
export const intervalText = (c, whole) =>
  `${changePercent(c.change, whole)} [${changePercent(c.low, whole)}, ${changePercent(c.high, whole)}]`;

/**
 * A paired comparison (result document `comparisons`): the change with its 95% interval, "≈"
 * where the interval holds 0.
 */
export function changeText(
  /** @type {{ change: number, low: number, high: number, verdict: string } | undefined} */ c,
) {
  if (!c) return 'n/a';
  return `${c.verdict === 'too noisy to tell' ? '≈ ' : ''}${intervalText(c)}`;
}

/** A run's judged pairs counted, its workloads' (id JOURNAL) named: "37 comparisons (13 of them the workloads' …)". */
export function comparisonCount(/** @type {{ id: string }[]} */ comparisons) {
  const k = comparisons.filter((c) => c.id === JOURNAL).length;
  return `${whole(comparisons.length)} comparisons${k ? ` (${whole(k)} of them the workloads' WAL against DELETE)` : ''}`;
}

/**
 * A paired change (or a growth, as a change) as a ratio with its interval where the member is at
 * least twice the reference and the interval excludes 0 (×317 [×168, ×596] reads better than
 * +31594%), else as `otherwise` writes it: changeText, or the README's compactChange. The
 * workloads' tables and the claims' README cells.
 * @param {{ change: number, low: number, high: number, verdict?: string } | undefined} c
 * @param {(c: any) => string} [otherwise]
 */
export const ratioText = (c, otherwise = changeText) =>
  c && c.verdict !== 'too noisy to tell' && c.change >= 1 && c.low > 0
    ? `×${num(1 + c.change)} [×${num(1 + c.low)}, ×${num(1 + c.high)}]`
    : otherwise(c);
