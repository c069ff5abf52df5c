// A case's figure as text, one rule for the summary and the README: ops/s or ms median with the
// wider side of its 95% interval, the modes where its rounds fall into separated groups, or the
// file size. And a paired comparison as text.
import { OPS } from '../tables/ops.js';
import { headlineMargin, widerSide } from '../../lib/stats/headline.js';
import { megabytes, signedPercent } from '../../lib/format.js';

/** @typedef {(n: number) => string} NumberText */

const pm = (/** @type {number} */ m) => `±${m < 10 ? m.toFixed(1) : Math.round(m)}%`;
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
  return { text: `${num(show === 'ms' ? s.latencyMs.median : s.opsPerSec.median)}${unit} ${pm(headlineMargin(s))}` };
}

/**
 * A case's fastest typical figure (bench/engine/slices.js) with the wider side of its 95% interval;
 * null where it has none (a size).
 * @param {any} c
 * @param {NumberText} num
 */
export function fastText(c, num) {
  const f = c?.status === 'ok' ? c.stats?.fast : null;
  if (!f) return null;
  const show = OPS.find((o) => o.name === c.op)?.show;
  const margin =
    typeof f.low === 'number' && typeof f.high === 'number' ? 100 * widerSide(f.opsPerSec, f.low, f.high) : null;
  const text = show === 'ms' ? `${num(1000 / f.opsPerSec)} ms` : num(f.opsPerSec);
  return margin === null ? text : `${text} ${pm(margin)}`;
}

/**
 * A paired comparison (result document `comparisons`): the change with its 95% interval, "≈"
 * where the interval holds 0.
 * @param {{ change: number, low: number, high: number, verdict: string } | undefined} c
 */
export function changeText(c) {
  if (!c) return 'n/a';
  const p = signedPercent;
  return `${c.verdict === 'too noisy to tell' ? '≈ ' : ''}${p(c.change)} [${p(c.low)}, ${p(c.high)}]`;
}

/**
 * One comparison of a run as a grid: a row per compared setup, in the order the document has
 * them, and in each row a cell per operation (changeText; 'n/a' where that pair has no figure).
 * @param {any[]} comparisons the document's `comparisons`
 * @param {string} id which comparison (bench/tables/comparisons.js)
 * @param {string[]} ops the columns
 * @param {(member: string, op: string) => string} [why] what the counts say changed, after the time (the summary)
 * @returns {{ member: string, cells: string[] }[]}
 */
export function comparisonGrid(comparisons, id, ops, why) {
  const rows = comparisons.filter((c) => c.id === id);
  return [...new Set(rows.map((c) => c.member))].map((member) => ({
    member,
    cells: ops.map((op) => {
      const time = changeText(rows.find((c) => c.member === member && c.op === op));
      const counts = why?.(member, op);
      return counts ? `${time}; ${counts}` : time;
    }),
  }));
}
