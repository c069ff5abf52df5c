// A run's judged pairs as a table, the one writer of a comparison for the README, results/README.md
// and the terminal summary: which rows (a compared setup, or a pair of sides and a setup), which
// columns (the operations compared) and each cell (changeText, or compactChange in the README's
// few bytes). No npm package down its imports.
import { OPS } from '../../bench/data/ops.js';
import { setupKey, setups } from '../../bench/data/suite.js';
import { changeText } from './figure.js';
import { inert, table } from '../../lib/markdown.js';
import { sign } from '../../lib/format.js';

/** Operations compared in ops/s: every timed one, in table order. */
export const COMPARED = OPS.filter((op) => op.kind === 'timed').map((op) => op.name);
export const opLabel = (/** @type {string} */ op) => OPS.find((o) => o.name === op)?.label ?? inert(op);

/** Setups in table order (bench/data/suite.js): configs, then ciphers, then drivers, each as its table lists them. */
const ORDER = new Map(setups().map((s, i) => [setupKey(s), i]));

/** A percentage with 2 significant figures below 10, whole above: 3.4, 14, 198. */
const short = (/** @type {number} */ x) => (x < 10 ? Number(x.toPrecision(2)).toString() : String(Math.round(x)));
/** A margin: short, but from 0.05 to 1 rounded up to one decimal (0.098 to 0.1: the interval still lies within it, in fewer characters). */
const shortMargin = (/** @type {number} */ x) =>
  x >= 0.05 && x < 1 ? String(Math.ceil(x * 10 - 1e-9) / 10) : short(x);
const decimals = (/** @type {string} */ s) => (s.split('.')[1] ?? '').length;
/** Joins a cell's parts: a no-break space (U+00A0), so that a narrow column never splits "+14%" from its "±3.4". */
const NBSP = '\u00a0';

/**
 * A change as a README table cell, in few bytes (the block has a budget; the chart above the table
 * and results/README.md give the whole interval):
 * - a difference: the change and the wider side of its 95% interval, "+14% ±3.4": the interval
 *   lies within the change ± that (the same convention as an absolute figure's ±; a ± below 1
 *   rounded up to one decimal); the change is written no more precisely than its ± ("+0.3% ±0.1",
 *   not "+0.27% ±0.1");
 * - too noisy to tell (the verdict, or without one the interval holding 0): "≈ ±22", the
 *   interval lies within ±22% of no change: the data fit no difference and any difference up to
 *   that size (the point estimate is noise);
 * - no comparison: "n/a".
 * The parts are joined by NBSP. unit '': the README's wide tables, whose caption says "% ops/s"
 * ("+14 ±3.4": 12 px a column narrower).
 * @param {{ change: number, low: number, high: number, verdict?: string } | undefined} c fractions (−0.1 is −10%)
 * @param {'%' | ''} [unit]
 */
export function compactChange(c, unit = '%') {
  if (!c || ![c.change, c.low, c.high].every(Number.isFinite)) return 'n/a';
  const [change, low, high] = [c.change, c.low, c.high].map((x) => x * 100);
  if (c.verdict === undefined ? low <= 0 && high >= 0 : c.verdict === 'too noisy to tell')
    return `≈${NBSP}±${short(Math.max(-low, high))}`;
  const margin = shortMargin(Math.max(change - low, high - change));
  const first = short(Math.abs(change));
  const rounded = Math.abs(change).toFixed(Math.min(decimals(first), decimals(margin)));
  // never round a difference to 0: then the change keeps its own 2 figures
  const shown = Number(rounded) === 0 ? first : String(Number(rounded));
  return `${sign(change, '-')}${shown}${unit}${NBSP}±${margin}`; // '-', not U+2212: the block's byte budget
}

/** What a comparison table's cells show: its caption, the line right above it. */
const LONG_CAPTION =
  'Each cell: the change in ops/s against the reference (+ is faster, also for operations shown in ms) with its paired 95% interval; "≈": the interval holds 0.';
const SHORT_CAPTION =
  'Each cell: the change in % ops/s (+ is faster) ± the wider side of its 95% interval, in points; "≈ ±22": no evidence of a difference.';

/**
 * One comparison of a run as a table: a row per compared setup (table order), a cell per timed
 * operation it compared, as changeText writes it ('n/a' where a row has no such pair); in the
 * README (`compact`) as compactChange writes it without its unit (the caption says it: the table
 * fits GitHub's column), the chart above it and results/README.md giving the whole intervals. In a
 * run of several sides (items with a `setup`) a row per pair of sides and setup (the order of
 * `ids`, then of the run's sides, then table order); `byOp`: a row per operation, a column per pair.
 * @param {any} doc
 * @param {string | string[]} ids bench/data/comparisons.js, or a shootout's groups (bench/data/shootout-groups.js)
 * @param {(member: string, item: any) => string} rowLabel item: the row's first judged pair
 * @param {string} [corner]
 * @param {{ compact?: boolean, byOp?: boolean, caption?: string, items?: any[], cell?: (item: any) => string, padded?: boolean }} [o]
 *   caption: the table's own; items: rows of the judged pairs' shape other than doc.comparisons (a
 *   shootout's instruction differences, its sides' counts); cell: how an item is written (undefined:
 *   the row has no pair for that operation); padded: cells padded to their column (the terminal's)
 */
export function comparisonTable(doc, ids, rowLabel, corner = 'Compared', o = {}) {
  const order = [ids].flat();
  /** @type {any[]} */
  const mine = (o.items ?? doc.comparisons ?? []).filter((/** @type {any} */ c) => order.includes(c.id));
  const key = (/** @type {any} */ c) => `${c.id}|${c.reference}|${c.member}|${c.setup}`;
  const first = (/** @type {any} */ r) => mine.findIndex((c) => c.id === r.id && c.member === r.member);
  const rank = (/** @type {string} */ k) => ORDER.get(k) ?? 1e9;
  const rows = [...new Map(mine.map((c) => [key(c), c])).values()].sort(
    (a, b) =>
      order.indexOf(a.id) - order.indexOf(b.id) ||
      rank(a.member) - rank(b.member) ||
      first(a) - first(b) ||
      rank(a.setup) - rank(b.setup),
  );
  const ops = COMPARED.filter((op) => mine.some((c) => c.op === op));
  const cell = o.cell ?? (o.compact ? (/** @type {any} */ c) => compactChange(c, '') : changeText);
  const cells = rows.map((r) => ops.map((op) => cell(mine.find((c) => key(c) === key(r) && c.op === op))));
  const labels = rows.map((r) => rowLabel(r.member, r));
  const [head, body] = o.byOp
    ? [labels, ops.map((op, j) => [opLabel(op), ...cells.map((c) => c[j])])]
    : [ops.map(opLabel), cells.map((c, i) => [labels[i], ...c])];
  return `${o.caption ?? (o.compact ? SHORT_CAPTION : LONG_CAPTION)}\n${table(
    [[corner, ...head], ...body],
    ['l', ...head.map(() => /** @type {'r'} */ ('r'))],
    { padded: o.padded ?? false, tight: o.compact },
  )}`;
}
