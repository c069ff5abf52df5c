// The charts as vega-lite specs: data in, spec out, nothing drawn here (draw.js draws).
// A chart is a grid of small panels, one per operation, COLUMNS to a row: built as rows of
// panels (vconcat of hconcat) rather than a wrapped facet, which reserves the row labels' width
// beside every panel.
import { textWidth } from './metrics.js';
import { VERDICT, WIDTH } from './theme.js';

const COLUMNS = 4;
const GAP = 24;
/** px kept for the row labels left of the first panel of a row */
const LABELS = 190;

/** Its labels: the ratio as a signed change in %. */
const PERCENT = "datum.value == 1 ? '0' : format((datum.value - 1) * 100, '+.2~r') + '%'";
/** Where a ratio axis may put a tick: −99%, −90%, −50%, −20%, −10%, −5%, 0, +5%, +10%, +25%, +100%, +400%, +900%, +9900%. */
const TICKS = [0.01, 0.1, 0.5, 0.8, 0.9, 0.95, 1, 1.05, 1.1, 1.25, 2, 5, 10, 100];
/** A point's change and its interval's bounds as the ratios drawn (r, rlo, rhi: 1 + change, at least 0.01). */
const RATIOS = /** @type {const} */ ([
  ['change', 'r'],
  ['low', 'rlo'],
  ['high', 'rhi'],
]).map(([field, as]) => ({ calculate: `max(0.01, 1 + datum.${field} / 100)`, as }));
/** The x axis of a ratio panel: its ticks labelled as changes in %. */
const ratioAxis = (/** @type {number[]} */ ticks) => ({
  title: 'change, % (log scale)',
  axis: { values: ticks, labelExpr: PERCENT, labelOverlap: false, labelFlush: true, grid: true },
});
/** The line at 0 (a ratio of 1) of a ratio panel. */
const zeroRule = (/** @type {any} */ scale) => ({
  mark: { type: 'rule', color: '#333', strokeWidth: 1 },
  encoding: { x: { datum: 1, type: 'quantitative', scale } },
});
/** A change in % as the ratio drawn (changes of −99% and below at −99%). */
const ratio = (/** @type {number} */ pct) => Math.max(0.01, 1 + pct / 100);

/**
 * A panel's ratio scale and its ticks: the domain holds every interval and 1 (no change), padded a
 * little; the ticks are those of TICKS inside it, at most 5, always 1.
 */
function ratioScale(/** @type {{ low: number, high: number }[]} */ points) {
  const lo = Math.min(1, ...points.map((p) => ratio(p.low))) / 1.02;
  const hi = Math.max(1, ...points.map((p) => ratio(p.high))) * 1.02;
  const inside = TICKS.filter((t) => t >= lo && t <= hi);
  const below = inside.filter((t) => t < 1);
  const above = inside.filter((t) => t > 1);
  // the farthest tick each side, and 0: three labels that never crowd a 140 px panel
  // (a side's tick is left out when it would sit within a fifth of the panel of 0's label)
  const apart = (/** @type {number} */ t) => Math.abs(Math.log(t)) / Math.log(hi / lo) > 0.2;
  const ticks = [...below.slice(0, 1).filter(apart), 1, ...above.slice(-1).filter(apart)];
  return { scale: { type: 'log', domain: [lo, hi], nice: false, zero: false }, ticks };
}

/**
 * @template T
 * @param {T[]} xs
 * @param {number} n
 * @returns {T[][]}
 */
const rowsOf = (xs, n) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/**
 * A panel's y: a row per member, in the order given, the labels only left of a row's first panel.
 * @param {string[]} members
 * @param {[number, number]} padding between the rows, and outside the first and the last
 * @param {number} labelLimit px of a label at most
 * @param {number} i the panel's place in its row
 */
const memberRows = (members, [paddingInner, paddingOuter], labelLimit, i) => ({
  field: 'member',
  type: 'nominal',
  sort: members,
  scale: { domain: members, paddingInner, paddingOuter },
  title: null,
  axis: i === 0 ? { labelLimit } : null,
});

/**
 * What every chart of panels has around its panels: its title and subtitle, the alt text as its
 * description, its data, and a panel per operation, `cols` to a row.
 * @param {{ title: string, subtitle: string[], alt: string, ops: string[] }} o
 * @param {unknown[]} values the data
 * @param {(op: string, i: number) => any} panel an operation's panel, i its place in its row
 * @param {{ cols: number, bounds: 'flush' | 'full', spacing: number }} layout bounds: vega-lite's, of a row; spacing: between rows
 */
const panels = (o, values, panel, { cols, bounds, spacing }) => ({
  title: { text: o.title, subtitle: o.subtitle },
  description: o.alt,
  data: { values },
  vconcat: rowsOf(o.ops, cols).map((row) => ({ hconcat: row.map(panel), spacing: GAP, align: 'none', bounds })),
  spacing,
});

/**
 * Paired comparisons of one run as dots with their 95% intervals, a panel per operation, 0 marked.
 * Each panel has its own x scale, a log scale of the ratio (1 + change) labelled in %: a change of
 * +4000% and one of −5% are both readable, and −50% is as far from 0 as +100% (clamped at −99%).
 * @param {{ title: string, subtitle: string[], alt: string, points: { member: string, op: string, change: number, low: number, high: number, verdict: string, series?: string }[], members: string[], ops: string[], series?: { domain: string[], title: string } }} o
 *   series: more than one reference per member, told apart by shape and offset
 */
export function comparisonSpec(o) {
  const cols = Math.min(COLUMNS, o.ops.length);
  const width = Math.floor((WIDTH - LABELS - GAP * (cols - 1)) / cols);
  const color = {
    field: 'verdict',
    type: 'nominal',
    scale: VERDICT,
    legend: { title: null, orient: 'top', direction: 'horizontal' },
  };
  const yOffset = o.series
    ? {
        yOffset: {
          field: 'series',
          type: 'nominal',
          sort: o.series.domain,
          scale: { domain: o.series.domain, paddingOuter: 0.5 },
        },
      }
    : {};
  const shape = o.series
    ? {
        shape: {
          field: 'series',
          type: 'nominal',
          scale: { domain: o.series.domain, range: ['circle', 'triangle-up', 'square'] },
          legend: { title: o.series.title, orient: 'bottom', direction: 'horizontal' },
        },
      }
    : {};
  const panel = (/** @type {string} */ op, /** @type {number} */ i) => {
    const { scale, ticks } = ratioScale(o.points.filter((p) => p.op === op));
    const y = memberRows(o.members, [0.2, 0.1], 2 * LABELS, i);
    return {
      title: { text: op, anchor: 'start', fontSize: 13 },
      width,
      height: o.members.length * (o.series ? 26 : 19),
      transform: [{ filter: { field: 'op', equal: op } }, ...RATIOS],
      layer: [
        zeroRule(scale),
        {
          mark: { type: 'rule', strokeWidth: 2.5, clip: true },
          encoding: {
            y,
            ...yOffset,
            x: { field: 'rlo', type: 'quantitative', scale, ...ratioAxis(ticks) },
            x2: { field: 'rhi' },
            color,
          },
        },
        {
          mark: { type: 'point', filled: true, size: 55, opacity: 1 },
          encoding: { y, ...yOffset, x: { field: 'r', type: 'quantitative', scale }, color, ...shape },
        },
      ],
    };
  };
  return {
    ...panels(o, o.points, panel, { cols, bounds: 'flush', spacing: 20 }),
    resolve: { scale: { y: 'shared', color: 'shared', shape: 'shared', yOffset: 'shared' } },
  };
}

/**
 * One Node major's nights on one machine class: per operation the night's figure with its 95%
 * interval (a shaded ribbon), the band nights on this runner label usually fall in, the
 * nights outside it marked, and the change points (the first night of a new level) as vertical lines.
 * @param {{ title: string, subtitle: string[], alt: string, domain: [number, number], points: { op: string, night: string, value: number, low: number, high: number, bandLow: number | null, bandHigh: number | null, outside: boolean, change?: boolean }[], ops: string[] }} o
 *   domain: the time axis, in ms since the epoch (fixed for a week: history.js windowOf)
 */
export function historySpec(o) {
  const cols = Math.min(COLUMNS, o.ops.length);
  const axis = 52; // px of a panel's y labels and title
  const width = Math.floor((WIDTH - axis * cols - GAP * (cols - 1)) / cols);
  const x = {
    field: 'night',
    type: 'temporal',
    title: 'night (UTC)',
    scale: { domain: o.domain },
    axis: { format: '%b %d', labelAngle: 0, tickCount: 3, labelOverlap: true, labelFontSize: 11, titleFontSize: 11 },
  };
  const panel = (/** @type {string} */ op) => {
    // the unit is in the panel's name, "Insert (ops/s)": the y axis says it too
    const y = {
      type: 'quantitative',
      scale: { zero: false },
      title: /\(([^)]+)\)$/.exec(op)?.[1] ?? null,
      axis: { tickCount: 4, format: '~s', titleFontSize: 11 },
    };
    return {
      title: { text: op, anchor: 'start', fontSize: 13 },
      width,
      height: 110,
      transform: [{ filter: { field: 'op', equal: op } }],
      layer: [
        {
          transform: [{ filter: 'datum.bandLow != null' }],
          mark: { type: 'area', color: '#2da44e', opacity: 0.18 },
          encoding: { x, y: { ...y, field: 'bandLow' }, y2: { field: 'bandHigh' } },
        },
        {
          mark: { type: 'area', color: '#0969da', opacity: 0.25 },
          encoding: { x, y: { ...y, field: 'low' }, y2: { field: 'high' } },
        },
        {
          transform: [{ filter: 'datum.change' }],
          mark: { type: 'rule', color: '#8250df', strokeWidth: 1.5, strokeDash: [4, 3] },
          encoding: { x },
        },
        { mark: { type: 'line', color: '#0969da', strokeWidth: 1.5 }, encoding: { x, y: { ...y, field: 'value' } } },
        {
          transform: [{ filter: 'datum.outside' }],
          mark: { type: 'point', filled: true, color: '#cf222e', size: 40, opacity: 1 },
          encoding: { x, y: { ...y, field: 'value' } },
        },
      ],
    };
  };
  // every panel has its own y axis: full bounds, so its labels never overlap the panel before
  return panels(o, o.points, panel, { cols, bounds: 'full', spacing: 16 });
}

/**
 * The shootout (Node versions on one machine): a panel per operation, in each a horizontal bar per
 * compared side from 0 to its change, its 95% interval a dark line with caps, coloured by verdict;
 * a side with no figure for an operation (it did not run, the case was not compared) is a grey
 * note in its row, never a bar. The x scale is comparisonSpec's: a log scale of the ratio (1 +
 * change) labelled in %, per panel. Where a point has `instr` (its instructions per operation as a
 * change on the bar's scale, counted under valgrind), a black diamond sits on its row there.
 * @param {{ title: string, subtitle: string[], alt: string, legend: string, points: { member: string, op: string, change: number, low: number, high: number, verdict: string, instr?: number }[], notes: { member: string, op: string, note: string }[], members: string[], ops: string[] }} o
 *   points: the bars (change, low, high in %); notes: the rows without one; legend: the verdict legend's title
 */
export function shootoutSpec(o) {
  const cols = Math.min(COLUMNS, o.ops.length);
  // the verdicts as colours: the comparison charts' blue, orange and grey, "no change" lighter
  const verdicts = { domain: [...VERDICT.domain, 'no change'], range: [...VERDICT.range, '#c5cdd6'] };
  const labels = Math.ceil(Math.max(60, ...o.members.map((m) => textWidth(m, 12))) + 12);
  const width = Math.floor((WIDTH - labels - GAP * (cols - 1)) / cols);
  const color = {
    field: 'verdict',
    type: 'nominal',
    scale: verdicts,
    legend: { title: o.legend, orient: 'top', direction: 'horizontal' },
  };
  const panel = (/** @type {string} */ op, /** @type {number} */ i) => {
    const inPanel = o.points.filter((p) => p.op === op);
    const { scale, ticks } = ratioScale([
      ...inPanel,
      ...inPanel.flatMap((p) => (p.instr === undefined ? [] : [{ low: p.instr, high: p.instr }])),
    ]);
    const y = memberRows(o.members, [0.25, 0.15], labels, i);
    const x = (/** @type {string} */ field, /** @type {any} */ more = {}) => ({
      field,
      type: 'quantitative',
      scale,
      ...more,
    });
    const bars = [{ filter: 'isValid(datum.change)' }];
    const [lo, hi] = scale.domain;
    const notes = o.notes.filter((n) => n.op === op).map((n) => textWidth(n.note, 11) + 8);
    const left = (Math.log(1 / lo) / Math.log(hi / lo)) * width >= Math.max(0, ...notes);
    return {
      title: { text: op, anchor: 'start', fontSize: 13 },
      width,
      height: o.members.length * 20,
      transform: [{ filter: { field: 'op', equal: op } }, ...RATIOS, { calculate: '1', as: 'one' }],
      layer: [
        {
          transform: bars,
          mark: { type: 'bar', clip: true },
          encoding: { y, x: x('r', ratioAxis(ticks)), x2: { field: 'one' }, color },
        },
        {
          transform: bars,
          mark: { type: 'rule', color: '#24292f', strokeWidth: 1.3, clip: true },
          encoding: { y, x: x('rlo'), x2: { field: 'rhi' } },
        },
        ...['rlo', 'rhi'].map((f) => ({
          transform: bars,
          mark: { type: 'tick', color: '#24292f', thickness: 1.3, size: 7, clip: true },
          encoding: { y, x: x(f) },
        })),
        zeroRule(scale),
        ...(inPanel.some((p) => p.instr !== undefined)
          ? [
              {
                transform: [
                  { filter: 'isValid(datum.instr)' },
                  { calculate: 'max(0.01, 1 + datum.instr / 100)', as: 'ri' },
                ],
                mark: {
                  type: 'point',
                  shape: 'diamond',
                  filled: true,
                  color: '#24292f',
                  size: 45,
                  opacity: 1,
                  clip: true,
                },
                encoding: { y, x: x('ri') },
              },
            ]
          : []),
        // at the panel's edge with room for it left of 0, else at the other: not across the line at 0
        {
          transform: [{ filter: 'isValid(datum.note)' }],
          mark: { type: 'text', align: left ? 'left' : 'right', fontSize: 11, fontStyle: 'italic', color: '#57606a' },
          encoding: { y, x: { value: left ? 3 : width - 3 }, text: { field: 'note' } },
        },
      ],
    };
  };
  return {
    ...panels(o, [...o.points, ...o.notes], panel, { cols, bounds: 'flush', spacing: 20 }),
    resolve: { scale: { y: 'shared', color: 'shared' } },
  };
}
