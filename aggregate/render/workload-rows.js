// The workloads of a result document as Markdown table rows, one rule for the summary
// (bench/result/summary.js) and the README (aggregate/sections/workload-tables.js): concurrency as WAL
// against DELETE per shape, with every figure's ± and the paired change; scale as each figure per
// size and its growth per 10× more messages. Rows are arrays of cells; `text` makes a string from
// the document safe to show.
import { marginText, ratioText } from './figure.js';
import { NOT_A_NUMBER, num, whole } from '../../lib/format.js';
import { widerSide } from '../../lib/stats/headline.js';

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

/**
 * Concurrency, WAL against DELETE: a row per pair (shape and setup), production's setup first.
 * @param {any} workloads the document's `workloads`
 * @param {Text} text
 * @returns {string[][]} header row first; only the header when there is no pair
 */
export function journalRows(workloads, text) {
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
  const cmp = (/** @type {any} */ c, /** @type {string} */ figure) =>
    workloads.comparisons.find((/** @type {any} */ x) => x.member === c?.name && x.op === figure);
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
      ratioText(cmp(wal, 'reads')),
      s.writer ? cell(wal, 'writes') : '–',
      s.writer ? cell(del, 'writes') : '–',
      s.writer ? ratioText(cmp(wal, 'writes')) : '–',
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

/** Scale figures as rows: label and how a value is shown. */
const SCALE_ROWS = [
  { id: 'select', label: 'Select/s' },
  { id: 'insert', label: 'Insert/s' },
  { id: 'update', label: 'Update/s' },
  { id: 'delete', label: 'Delete/s' },
  { id: 'checkpoint', label: 'WAL checkpoint/s (20 updates)' },
  { id: 'vacuum', label: 'VACUUM (ms)' },
  { id: 'vacuumCheckpoint', label: 'Checkpoint after VACUUM (ms)' },
  { id: 'vacuumPeakRss', label: 'Peak RSS during VACUUM (MB)', show: (/** @type {number} */ b) => num(b / 1e6) },
  { id: 'fileBytes', label: 'Database file (MB)', show: (/** @type {number} */ b) => num(b / 1e6) },
];

/**
 * Scale: a row per figure, a column per size, and the growth of its cost per 10× more messages.
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
  const rows = SCALE_ROWS.map((r) => {
    const cells = cases.map((/** @type {any} */ c) => {
      if (c.status !== 'ok') return text(c.status);
      if (r.id === 'fileBytes') return (r.show ?? num)(c.files.before.mainBytes + c.files.before.walBytes);
      return figureCell(c.figures[r.id], r.show);
    });
    const g = workloads.growth.find((/** @type {any} */ x) => x.figure === r.id);
    return [r.label, ...cells, g ? `×${num(g.perTenfold)}` : '–'];
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
