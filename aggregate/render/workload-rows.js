// The workloads of a result document as Markdown table rows, one rule for the summary
// (bench/result/summary.js) and the README (aggregate/sections/workload-tables.js): concurrency as WAL
// against DELETE per shape, with every figure's ± and the paired change; scale as each figure per
// size and its growth per 10× more messages. Rows are arrays of cells; `text` makes a string from
// the document safe to show.
import { changePercent, marginText, ratioText } from './figure.js';
import { NOT_A_NUMBER, num, whole } from '../../lib/format.js';
import { widerSide } from '../../lib/stats/headline.js';
import { JOURNAL } from '../../bench/data/workloads.js';

/** @typedef {(s: string) => string} Text */

/**
 * A figure: its median and the wider side of its 95% interval (none: one round, no ±).
 * @param {{ median: number, low?: number, high?: number } | undefined} f
 * @param {(n: number) => string} [show]
 */
function figureCell(f, show = num) {
  if (!f) return '–';
  if (typeof f.low !== 'number' || typeof f.high !== 'number' || !(f.median > 0)) return show(f.median);
  return `${show(f.median)} ${marginText(100 * widerSide(f.median, f.low, f.high))}`;
}

/**
 * A concurrency case's shape in words: "1 writer + 2 readers", "4 readers (no writer)".
 * @param {any} s the case's setup
 */
const shapeOf = (s) => `${s.writer ? '1 writer + ' : ''}${readersOf(s)}${s.writer ? '' : ' (no writer)'}`;
/**
 * "2 readers": the count through the number format (a value that is not a number shows as its
 * placeholder, never as its text).
 * @param {any} s the case's setup
 */
export const readersOf = (s) => `${whole(s.readers)} reader${s.readers === 1 ? '' : 's'}`;
const setupOf = (/** @type {any} */ s, /** @type {Text} */ text) =>
  `${text(String(s.driver))}, ${text(String(s.cipher))}${s.busyTimeout === 0 ? ', busy_timeout 0' : ''}`;

/** A WAL workload's judged pair on a figure: the item of the document's `comparisons` with id JOURNAL, it the member. */
export const journalChange = (
  /** @type {any[] | undefined} */ comparisons,
  /** @type {any} */ wal,
  /** @type {string} */ figure,
) => comparisons?.find((x) => x.id === JOURNAL && x.member === wal?.name && x.op === figure);

/**
 * Concurrency, WAL against DELETE: a row per pair (shape and setup), production's setup first.
 * @param {any} workloads the document's `workloads`
 * @param {any[] | undefined} comparisons the document's (journalChange)
 * @param {Text} text
 * @returns {string[][]} header row first; only the header when there is no pair
 */
export function journalRows(workloads, comparisons, text) {
  const cases = workloads.cases.filter((/** @type {any} */ c) => c.kind === 'concurrency');
  const key = (/** @type {any} */ s) => JSON.stringify([s.readers, s.writer, s.driver, s.cipher, s.busyTimeout]);
  /** @type {Map<string, { wal?: any, del?: any }>} */
  const pairs = new Map();
  for (const c of cases) {
    const p = pairs.get(key(c.setup)) ?? {};
    if (c.setup.journal === 'WAL') p.wal = c;
    else p.del = c;
    pairs.set(key(c.setup), p);
  }
  const cell = (/** @type {any} */ c, /** @type {string} */ figure) =>
    c?.status === 'ok' ? figureCell(c.figures[figure]) : c ? text(c.status) : '–';
  const busy = (/** @type {any} */ c) =>
    c?.status === 'ok' ? `${whole(c.busy?.reads)} / ${whole(c.busy?.writes)}` : '–';
  const rows = [...pairs.values()].map(({ wal, del }) => {
    const s = (wal ?? del).setup;
    return [
      shapeOf(s),
      setupOf(s, text),
      cell(wal, 'reads'),
      cell(del, 'reads'),
      ratioText(journalChange(comparisons, wal, 'reads')),
      s.writer ? cell(wal, 'writes') : '–',
      s.writer ? cell(del, 'writes') : '–',
      s.writer ? ratioText(journalChange(comparisons, wal, 'writes')) : '–',
      `${busy(wal)} · ${busy(del)}`,
    ];
  });
  return [
    [
      'Workload',
      'Setup',
      'Reads/s WAL',
      'Reads/s DELETE',
      'WAL vs DELETE',
      'Writes/s WAL',
      'Writes/s DELETE',
      'WAL vs DELETE',
      'BUSY reads / writes: WAL · DELETE',
    ],
    ...rows,
  ];
}

/**
 * Concurrency latencies and per-reader rates: a row per workload.
 * @param {any} workloads
 * @param {Text} text
 */
export function latencyRows(workloads, text) {
  const rows = workloads.cases
    .filter((/** @type {any} */ c) => c.kind === 'concurrency' && c.status === 'ok')
    .map((/** @type {any} */ c) => [
      text(c.name),
      figureCell(c.figures.readsPerReader),
      Array.isArray(c.perReader) ? c.perReader.map(num).join(' / ') : NOT_A_NUMBER,
      `${figureCell(c.figures.readP50)} / ${figureCell(c.figures.readP99)}`,
      c.figures.writeP50 ? `${figureCell(c.figures.writeP50)} / ${figureCell(c.figures.writeP99)}` : '–',
    ]);
  return [
    ['Workload', 'Reads/s per reader', 'Each reader (median of rounds)', 'Read p50 / p99 (ms)', 'Write p50 / p99 (ms)'],
    ...rows,
  ];
}

/**
 * How a figure's cost grows per 10× messages from the smallest to the largest size, with bounds from
 * both sizes' 95% intervals (the growth lies within them when both figures lie within theirs), as a
 * change: { change, low, high } of growth − 1; null without two sizes with intervals. The one
 * growth of both pages (the README's scale line, results/README.md's scale table).
 * @param {any[]} sizes the ok scale cases, smallest first
 * @param {{ id: string, rate?: boolean }} g rate: the figure is per second, its cost the time per operation
 */
export function growthOf(sizes, g) {
  const [a, b] = [sizes[0], sizes[sizes.length - 1]];
  const fa = a?.figures?.[g.id];
  const fb = b?.figures?.[g.id];
  if (sizes.length < 2 || ![fa, fb].every((f) => f && f.median > 0 && f.low > 0 && f.high > 0)) return null;
  // a cost and its bounds: the time per operation of a rate, else the figure
  const cost = (/** @type {any} */ f) => (g.rate ? [1 / f.median, 1 / f.high, 1 / f.low] : [f.median, f.low, f.high]);
  const [[ma, la, ha], [mb, lb, hb]] = [cost(fa), cost(fb)];
  const d = Math.log10(b.setup.messages / a.setup.messages);
  const per = (/** @type {number} */ x) => x ** (1 / d) - 1;
  return { change: per(mb / ma), low: per(lb / ha), high: per(hb / la) };
}

/** Scale figures as rows: label, whether it is a rate (its cost the time per operation), and how a value is shown. */
export const SCALE_ROWS = [
  { id: 'select', label: 'Select/s', rate: true },
  { id: 'insert', label: 'Insert/s', rate: true },
  { id: 'update', label: 'Update/s', rate: true },
  { id: 'delete', label: 'Delete/s', rate: true },
  { id: 'checkpoint', label: 'WAL checkpoint/s (20 updates)', rate: true },
  { id: 'vacuum', label: 'VACUUM (ms)' },
  { id: 'vacuumCheckpoint', label: 'Checkpoint after VACUUM (ms)' },
  { id: 'vacuumPeakRss', label: 'Peak RSS during VACUUM (MB)', show: (/** @type {number} */ b) => num(b / 1e6) },
  { id: 'fileBytes', label: 'Database file (MB)', show: (/** @type {number} */ b) => num(b / 1e6) },
];

/** An exact growth (the file's size), as ratioText writes a growth: × from twice on. */
const exactGrowth = (/** @type {number} */ x) => (x >= 1 ? `×${num(1 + x)}` : changePercent(x));

/**
 * Scale: a row per figure, a column per size, and the growth of its cost per 10× more messages
 * (growthOf, with its interval; the file's size is exact, so is its growth).
 * @param {any} workloads
 * @param {Text} text
 * @returns {string[][]} header row first; only the header when no size was measured
 */
export function scaleRows(workloads, text) {
  const cases = workloads.cases
    .filter((/** @type {any} */ c) => c.kind === 'scale')
    .sort((/** @type {any} */ a, /** @type {any} */ b) => a.setup.messages - b.setup.messages);
  if (!cases.length) return [['Figure']];
  const header = [
    'Figure',
    ...cases.map((/** @type {any} */ c) => `${num(c.setup.messages)} messages`),
    'Cost per 10× messages',
  ];
  const bytes = (/** @type {any} */ c) => c.files.before.mainBytes + c.files.before.walBytes;
  // the file's size as a figure whose interval is itself
  const sizes = cases
    .filter((/** @type {any} */ c) => c.status === 'ok')
    .map((/** @type {any} */ c) => ({
      ...c,
      figures: { ...c.figures, fileBytes: { median: bytes(c), low: bytes(c), high: bytes(c) } },
    }));
  const rows = SCALE_ROWS.map((r) => {
    const cells = cases.map((/** @type {any} */ c) => {
      if (c.status !== 'ok') return text(c.status);
      if (r.id === 'fileBytes') return (r.show ?? num)(bytes(c));
      return figureCell(c.figures[r.id], r.show);
    });
    const g = growthOf(sizes, r);
    return [r.label, ...cells, !g ? '–' : r.id === 'fileBytes' ? exactGrowth(g.change) : ratioText(g)];
  });
  return [header, ...rows];
}

/**
 * The workloads that did not run, with why.
 * @param {any} workloads
 * @param {Text} text
 */
export function notRunLines(workloads, text) {
  return workloads.cases
    .filter((/** @type {any} */ c) => c.status !== 'ok')
    .map((/** @type {any} */ c) => `- ${text(c.name)}: ${text(c.status)}: ${text(String(c.reason))}`);
}
