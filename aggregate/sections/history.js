// Nightly history (docs/pipeline.md#what-the-readme-shows, item 5, and docs/pipeline.md#change-points): the
// production setup's figure per operation night by night, one chart per Node major, with each
// night's 95% interval and the band nights on this runner label fall in (the machines' spread, not
// the code's); the nights outside it, and the change points in the figure and the counts, each with
// what its document says changed.
import semver from 'semver';
import { OPS } from '../../bench/data/ops.js';
import { PRODUCTION_DRIVER } from '../../bench/data/drivers.js';
import { historySpec } from '../charts/specs.js';
import { inert } from '../../lib/markdown.js';
import { mad, median } from '../../lib/stats/spread.js';
import { COMPARED, opLabel } from '../render/pair-table.js';
import { num } from '../../lib/format.js';
import { SETTINGS, changePointsOf, withoutModes } from '../../lib/changepoints.js';

const WEEK = 7 * 86_400_000;

/**
 * The nights a chart shows: from a Monday (UTC) 12 weeks before the week of the aggregate's clock
 * to the end of that week. The axis moves once a week, so a night's chart differs from the last
 * one mostly by the new night (a small git delta).
 * @param {string} newest ISO time the history ends: the aggregate's clock
 * @returns {{ from: string, domain: [number, number] }}
 */
export function windowOf(newest) {
  const t = Date.parse(newest);
  const monday = Math.floor((t - 4 * 86_400_000) / WEEK) * WEEK + 4 * 86_400_000; // 1970-01-05 was a Monday
  const start = monday - 12 * WEEK;
  return { from: new Date(start).toISOString(), domain: [start, start + 13 * WEEK] };
}
/** Fewer nights than this: no band (a spread of a handful of VMs says little). */
const MIN_NIGHTS = 7;
/** The band's half-width in robust standard deviations of the nights (within their modes). */
export const BAND_SD = 3;
/**
 * How often an operation's night falls outside the band by chance, as the text says it: measured
 * by `npm run meta:calibration` (rows a: 5.5–6.8% under the nights' noise, most of it the 5% of
 * nights on a slow or fast VM, which a band of the VMs' spread cannot tell from a change).
 */
export const BAND_CHANCE = { op: 0.06, text: 'about 6% of an op’s nights fall outside by chance' };
/** Out-of-band nights listed in the README; results/README.md lists them all. */
export const LISTED = 3;

const opOf = (/** @type {string} */ name) =>
  /** @type {import('../../bench/data/ops.js').Op} */ (OPS.find((o) => o.name === name));
/** An op's figure in the unit it is shown in: ms for slow operations, else ops/s. */
const shown = (/** @type {string} */ op, /** @type {[number, number, number]} */ [m, lo, hi]) =>
  opOf(op).show === 'ms' ? [1000 / m, 1000 / hi, 1000 / lo] : [m, lo, hi];
const unit = (/** @type {string} */ op) => (opOf(op).show === 'ms' ? 'ms' : 'ops/s');
/** Where a figure lies against a band: below (-1), above (1), inside it or without one (0). */
const against = (/** @type {[number, number] | null} */ b, /** @type {number} */ v) =>
  !b ? 0 : v < b[0] ? -1 : v > b[1] ? 1 : 0;

/**
 * The band nights fall in: median ± BAND_SD robust standard deviations of the logs of their figures.
 * Two modes that alternate night to night (select: some VMs near 6,000/s, others near 10,000/s) are
 * both where nights fall: the spread is measured within the modes (lib/changepoints.js withoutModes),
 * and the band runs from below the low mode to above the high one.
 * @param {number[]} xs
 * @returns {[number, number] | null}
 */
export function bandOf(xs) {
  if (xs.length < MIN_NIGHTS) return null;
  const { z, apart } = withoutModes(xs.map(Math.log));
  const m = median(z);
  const s = BAND_SD * mad(z);
  return [Math.exp(m - (apart ?? 0) - s), Math.exp(m + s)];
}

/** @typedef {[string, string | null, string | null][]} Changed what changed: what, before, after */
/** What changed, named without its versions (the README's short form): "changed: Node, SQLite". */
const changedNames = (/** @type {Changed} */ fields) =>
  fields.length ? `changed: ${fields.map(([name]) => name).join(', ')}` : 'nothing recorded changed';
/** What changed, in words: "Node v24.1.0 → v24.2.0" (document strings made inert). */
const changedText = (/** @type {Changed} */ fields) =>
  fields.map(([what, a, b]) => `${what} ${inert(a ?? 'none')} → ${inert(b ?? 'none')}`);

/** The fields that changed from one night to the next. */
function changedFields(
  /** @type {import('../nights.js').Night} */ prev,
  /** @type {import('../nights.js').Night} */ n,
) {
  /** @type {Changed} */
  const fields = [
    ['Node', prev.node, n.node],
    [PRODUCTION_DRIVER, prev.driver, n.driver],
    ['SQLite', prev.sqlite, n.sqlite],
    ['SQLite3MC', prev.sqlite3mc, n.sqlite3mc],
    ['runner image', prev.image, n.image],
    ['commit', prev.commit?.slice(0, 7) ?? null, n.commit?.slice(0, 7) ?? null],
  ];
  return fields.filter(([, a, b]) => a !== b);
}

/**
 * The series a change point is looked for in, per operation: the night's figure (ops/s), and where
 * the run counted, what one operation cost (aggregate/nights.js Counts, in that order).
 * @type {{ name: string, label: string, kind: 'wall' | 'count', value: (n: import('../nights.js').Night, op: string) => number | undefined }[]}
 */
const MEASURES = [
  { name: 'wall', label: 'ops/s', kind: 'wall', value: (n, op) => n.figures[op]?.[0] },
  { name: 'instructions', label: 'instructions/op', kind: 'count', value: (n, op) => n.counts?.[op]?.[0] },
  { name: 'fsync', label: 'fsyncs/op', kind: 'count', value: (n, op) => n.counts?.[op]?.[1] },
  { name: 'writes', label: 'writes/op', kind: 'count', value: (n, op) => n.counts?.[op]?.[2] },
  { name: 'bytesWritten', label: 'bytes written/op', kind: 'count', value: (n, op) => n.counts?.[op]?.[3] },
];

/** @typedef {ReturnType<typeof changePoints>[number]} NightChange a change point: the night a level moved and stayed */

/**
 * The change points of one Node major's nights on one machine class (`label`, the runner label),
 * newest first: per operation and measure (MEASURES), each from its first night of the new level
 * (`night`, YYYY-MM-DD, UTC), with what the documents say changed that night (`changed`, and in
 * words `cause`: at that night, `at` 0, or, when nothing changed then, the night before, −1, or after,
 * 1: a change point is placed to a night or so); `nights` oldest first. `size`: after / before − 1
 * (ops/s: + is faster; a count: + is more), corrected where it was found near the noise
 * (lib/changepoints.js selected), with its 95% interval `low`, `high`; `measured` as measured;
 * `before`, `after` the levels (the median of the nights since the change point before).
 */
export function changePoints(
  /** @type {import('../nights.js').Night[]} */ nights,
  /** @type {{ label: string, major: number }} */ { label, major },
) {
  const out = COMPARED.flatMap((op) =>
    MEASURES.flatMap((m) => {
      // a count may be 0 (a select's fsyncs): kept, and shifted by ZERO_SHIFT, so that one appearing is a step
      const series = nights.filter((n) =>
        m.kind === 'count' ? m.value(n, op) !== undefined : (m.value(n, op) ?? 0) > 0,
      );
      const values = series.map((n) => /** @type {number} */ (m.value(n, op)));
      const shift = m.kind === 'count' && values.some((v) => v === 0) ? ZERO_SHIFT : 0;
      return changePointsOf(
        values.map((v) => v + shift),
        SETTINGS[m.kind],
      ).map((c) => {
        const { changed, at } = causeOf(series, c.index);
        const night = series[c.index];
        return {
          label,
          major,
          op,
          measure: m.name,
          night: night.finishedAt.slice(0, 10),
          finishedAt: night.finishedAt,
          size: c.size,
          measured: c.measured,
          low: c.low,
          high: c.high,
          before: c.before - shift,
          after: c.after - shift,
          changed,
          at,
          cause: causeText(changed, at),
        };
      });
    }),
  );
  return out.sort((a, b) => (a.finishedAt > b.finishedAt ? -1 : a.finishedAt < b.finishedAt ? 1 : 0));
}

/**
 * Added to a count's series that holds a 0 (no fsync per select, until one appears): the change
 * points work on logs. Its size is then against 0.001 per operation, and the levels (before, after)
 * say what it was.
 */
const ZERO_SHIFT = 0.001;

/** Both pages show the same history: its change points are found once per aggregate. */
const found = new Map();
/** changePoints, remembered for the same nights (the README's and results/README.md's). */
function changePointsOnce(
  /** @type {import('../nights.js').Night[]} */ nights,
  /** @type {{ label: string, major: number }} */ o,
) {
  const key = `${o.label}|${o.major}|${nights.map((n) => n.sha256).join(',')}`;
  if (!found.has(key)) {
    if (found.size > 100) found.clear();
    found.set(key, changePoints(nights, o));
  }
  return /** @type {NightChange[]} */ (found.get(key));
}

/**
 * What changed at a change point (its night `i` in `series`): from the night before it to its
 * night, else a night either side.
 * @returns {{ changed: Changed, at: -1 | 0 | 1 }}
 */
function causeOf(/** @type {import('../nights.js').Night[]} */ series, /** @type {number} */ i) {
  for (const at of /** @type {const} */ ([0, -1, 1])) {
    const [a, b] = [series[i + at - 1], series[i + at]];
    const changed = a && b ? changedFields(a, b) : [];
    if (changed.length) return { changed, at };
  }
  return { changed: [], at: 0 };
}

function causeText(/** @type {Changed} */ changed, /** @type {number} */ at) {
  if (!changed.length) return 'nothing recorded changed (another VM)';
  const what = changedText(changed).join('; ');
  return at === 0 ? what : `${what} (the night ${at < 0 ? 'before' : 'after'})`;
}

/** A relative change in %, signed, 2 significant figures below 10%: +3.0%, −0.52%, +14%. */
const pct = (/** @type {number} */ x) => {
  const v = 100 * x;
  const a = Math.abs(v);
  const s = a >= 10 ? String(Math.round(a)) : a >= 1 ? a.toFixed(1) : a.toPrecision(2);
  return `${v < 0 ? '−' : '+'}${s}%`;
};
export const measureLabel = (/** @type {string} */ name) => MEASURES.find((m) => m.name === name)?.label ?? name;

/**
 * What a change point's interval covers, measured on simulated nights (npm run meta:calibration,
 * rows b1–b7): the sentence results/README.md prints beside the change points.
 */
const CHANGE_COVERAGE =
  'held 92–96% of simulated steps (77% of the few 3% wall-time steps found where nights are correlated, printed 1.3× too large); a size found near the noise, which the noise made larger, is corrected for it (3% wall-time steps: 1.01 of the step on average) and says so';

/**
 * A change point's size with its interval: "+3.0% [+2.8%, +3.2%]"; where it was found near the noise
 * and corrected for that by more than a tenth, what was measured beside it: "+1.4% [−0.1%, +4.5%],
 * found near the noise at +3.6%".
 */
export const sizeText = (/** @type {Pick<NightChange, 'size' | 'measured' | 'low' | 'high'>} */ c) =>
  `${pct(c.size)} [${pct(c.low)}, ${pct(c.high)}]${Math.abs(c.measured - c.size) > 0.1 * Math.abs(c.measured) ? `, found near the noise at ${pct(c.measured)}` : ''}`;

/** A machine class's nights per Node major, with bands and the nights outside them. */
export function historyOf(
  /** @type {Pick<import('./index.js').SectionContext, 'machine' | 'entries' | 'nights'>} */ ctx,
) {
  const full = ctx.entries.filter((e) => e.mode === 'full' && e.status === 'complete');
  if (!full.length) return [];
  // the history ends at the job's clock (nights.js Nights), never at a document's date (trust.js);
  // without a clock (a page rendered alone), at the newest night
  const newest =
    ctx.nights.now === undefined
      ? full.reduce((a, e) => (e.finishedAt > a ? e.finishedAt : a), '')
      : new Date(ctx.nights.now).toISOString();
  const { from, domain } = windowOf(newest);
  const majors = [...new Set(full.map((e) => semver.major(e.node)))].sort((a, b) => a - b);
  return majors
    .map((major) => {
      const nights = full
        .filter((e) => semver.major(e.node) === major && e.finishedAt > from)
        .sort((a, b) => (a.finishedAt < b.finishedAt ? -1 : a.finishedAt > b.finishedAt ? 1 : 0))
        .map((e) => ctx.nights.of(e));
      const ops = COMPARED.filter((op) => nights.some((n) => n.figures[op]));
      /** @type {Record<string, [number, number] | null>} */
      const bands = Object.fromEntries(
        ops.map((op) => [op, bandOf(nights.filter((n) => n.figures[op]).map((n) => shown(op, n.figures[op])[0]))]),
      );
      const outside = nights
        .map((n, i) => ({
          night: n,
          prev: i > 0 ? nights[i - 1] : null,
          ops: ops.filter((op) => n.figures[op] && against(bands[op], shown(op, n.figures[op])[0])),
        }))
        .filter((o) => o.ops.length);
      const changes = changePointsOnce(nights, { label: ctx.machine, major });
      return { major, nights, ops, bands, outside, changes, domain };
    })
    .filter((h) => h.nights.length);
}

/** One out-of-band night as a list item. */
function item(
  /** @type {ReturnType<typeof historyOf>[number]} */ h,
  /** @type {ReturnType<typeof historyOf>[number]['outside'][number]} */ o,
) {
  const figures = o.ops.map((op) => {
    const v = shown(op, o.night.figures[op])[0];
    const b = /** @type {[number, number]} */ (h.bands[op]);
    return `${opLabel(op)} ${num(v)} ${unit(op)} (${v < b[0] ? 'below' : 'above'} ${num(b[0])}–${num(b[1])})`;
  });
  const changed = o.prev ? changedFields(o.prev, o.night) : null;
  const text = `${changed?.length ? 'changed since the night before: ' : ''}${changed ? causeText(changed, 0) : 'the first night shown'}`;
  return `- ${o.night.finishedAt.slice(0, 10)}, Node ${inert(o.night.node)}: ${figures.join(', ')}; ${text}.`;
}

/**
 * The operations of an out-of-band night in few words: "Insert, Select slower", "8 operations slower",
 * "Setup slower, Insert faster" (an operation shown in ms is slower above its band, one in ops/s below it).
 */
function movedOps(
  /** @type {ReturnType<typeof historyOf>[number]} */ h,
  /** @type {ReturnType<typeof historyOf>[number]['outside'][number]} */ o,
) {
  const slower = (/** @type {string} */ op) =>
    shown(op, o.night.figures[op])[0] < /** @type {[number, number]} */ (h.bands[op])[0] !== (unit(op) === 'ms');
  return [true, false]
    .map((way) => o.ops.filter((op) => slower(op) === way))
    .map((ops, i) => {
      if (!ops.length) return null;
      return `${ops.length > 2 ? `${ops.length} operations` : ops.map(opLabel).join(', ')} ${i ? 'faster' : 'slower'}`;
    })
    .filter(Boolean)
    .join(', ');
}

/** A chart's alt text: the finding, short (≤ about 150 characters, the same on both pages). */
function altOf(/** @type {ReturnType<typeof historyOf>[number]} */ h) {
  const first = h.nights[0].finishedAt.slice(0, 10);
  const last = h.nights[h.nights.length - 1].finishedAt.slice(0, 10);
  const newest = h.outside[h.outside.length - 1];
  const finding = !h.ops.some((op) => h.bands[op])
    ? `too few for a band (${MIN_NIGHTS} needed)`
    : newest
      ? `${h.outside.length} outside the band, newest ${newest.night.finishedAt.slice(0, 10)} (${movedOps(h, newest)})`
      : 'all within the band';
  return `Node ${h.major}, ${h.nights.length} night(s) ${first} to ${last}: ${finding}.`;
}

/**
 * The chart lines: one chart per Node major with two nights or more; majors with one night so far
 * in one line.
 */
function chartLines(
  /** @type {import('./index.js').SectionContext} */ ctx,
  /** @type {ReturnType<typeof historyOf>} */ history,
) {
  const single = history.filter((h) => h.nights.length < 2);
  const charts = history
    .filter((h) => h.nights.length >= 2)
    .map((h) => {
      const alt = altOf(h);
      const points = h.ops.flatMap((op) =>
        h.nights
          .filter((n) => n.figures[op])
          .map((n) => {
            const [value, low, high] = shown(op, n.figures[op]);
            const b = h.bands[op];
            const r = (/** @type {number} */ x) => Number(x.toPrecision(4));
            return {
              op: `${opLabel(op)} (${unit(op)})`,
              night: n.finishedAt.slice(0, 10),
              value: r(value),
              low: r(low),
              high: r(high),
              bandLow: b ? r(b[0]) : null,
              bandHigh: b ? r(b[1]) : null,
              outside: against(b, value) !== 0,
              change: h.changes.some((c) => c.op === op && c.measure === 'wall' && c.finishedAt === n.finishedAt),
            };
          }),
      );
      return {
        major: h.major,
        line: ctx.chart(
          `history-node${h.major}`,
          historySpec({
            domain: h.domain,
            title: `Nightly history, Node ${h.major}: Production, the last 13 weeks`,
            subtitle: [
              `${ctx.platform}. Blue line and ribbon: each night's figure and its 95% interval. Green band: where nights on this runner label fall`,
              `(median ± ${BAND_SD} robust sd of the nights; each night is another VM). Red dots: nights outside the band; purple lines: change points.`,
            ],
            alt,
            points,
            ops: h.ops.map((op) => `${opLabel(op)} (${unit(op)})`),
          }),
          alt,
        ),
      };
    });
  // one night draws no line: say so rather than show empty panels
  const one = (/** @type {typeof single} */ hs) =>
    `_Node ${hs.map((h) => h.major).join(', ')}: one night so far (${[...new Set(hs.map((h) => h.nights[0].finishedAt.slice(0, 10)))].join(', ')}); the chart starts with the second._`;
  if (ctx.page === 'readme') return [...charts.map((c) => c.line), ...(single.length ? [one(single)] : [])];
  return history.map((h) =>
    h.nights.length < 2 ? one([h]) : /** @type {any} */ (charts.find((c) => c.major === h.major)).line,
  );
}

/**
 * The newest out-of-band nights in one line, for the README: nights of one date that moved alike and
 * changed alike in one item (each Node cell is its own VM), what changed named without its versions
 * (results/README.md has them).
 * @param {{ h: ReturnType<typeof historyOf>[number], o: ReturnType<typeof historyOf>[number]['outside'][number] }[]} listed newest first
 */
function shortItems(listed) {
  /** @type {Map<string, string[]>} */
  const groups = new Map();
  for (const { h, o } of listed) {
    // the item with its Nodes left out (a newline, in no item, stands for them)
    const key = `${o.night.finishedAt.slice(0, 10)}, Node \n: ${movedOps(h, o)}; ${o.prev ? changedNames(changedFields(o.prev, o.night)) : 'the first night shown'}`;
    groups.set(key, [...(groups.get(key) ?? []), inert(o.night.node)]);
  }
  return [...groups].map(([key, nodes]) => key.replace('\n', () => nodes.join(', '))).join(' · ');
}

/**
 * The newest change points in one sentence, for the README: those of one night and Node major in
 * one item, at most two named with their size, what changed named without its versions
 * (results/README.md has them). None: nothing is said (the README's line is short; results/README.md
 * says there was none). `all` newest first, `link` to results/README.md.
 */
function changeSentence(/** @type {NightChange[]} */ all, /** @type {string} */ link) {
  if (!all.length) return 'No change point (a level that moved and stayed) in these 13 weeks.';
  /** @type {Map<string, NightChange[]>} */
  const groups = new Map();
  for (const c of all) groups.set(`${c.night}|${c.major}`, [...(groups.get(`${c.night}|${c.major}`) ?? []), c]);
  const listed = [...groups.values()].slice(0, LISTED);
  const items = listed.map((cs) => {
    const named = cs.slice(0, 2).map((c) => `${opLabel(c.op)} ${measureLabel(c.measure)} ${sizeText(c)}`);
    const more = cs.length > 2 ? `, ${cs.length - 2} more` : '';
    return `${cs[0].night}, Node ${cs[0].major}: ${named.join(', ')}${more}; ${changedNames(cs[0].changed)}`;
  });
  const of =
    groups.size > listed.length ? `newest ${listed.length} nights of ${groups.size}; all: ${link}` : `details: ${link}`;
  return `Change points, a level that moved and stayed (${of}): ${items.join(' · ')}.`;
}

/** A change point as a list item of results/README.md. */
function changeItem(/** @type {NightChange} */ c) {
  const unit = measureLabel(c.measure);
  return `- ${c.night}, Node ${c.major}, ${opLabel(c.op)}, ${unit}: ${sizeText(c)} (${num(c.before)} → ${num(c.after)}); changed: ${c.cause}.`;
}

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const history = historyOf(ctx);
  if (!history.length) return [];
  const all = history
    .flatMap((h) => h.outside.map((o) => ({ h, o })))
    .sort((a, b) => (a.o.night.finishedAt > b.o.night.finishedAt ? -1 : 1));
  const changes = history
    .flatMap((h) => h.changes)
    .sort((a, b) => (a.finishedAt > b.finishedAt ? -1 : a.finishedAt < b.finishedAt ? 1 : a.major - b.major));
  if (ctx.page === 'readme') {
    const link = `[${ctx.resultsLink}/README.md](${ctx.resultsLink}/README.md)`;
    const listed = all.slice(0, LISTED);
    return [
      '##### Nightly history of Production, 13 weeks',
      // said once, under the first machine class
      ...(ctx.brief
        ? []
        : [
            `A chart per Node major (not compared with each other). Each night runs on another VM, so nights vary more than a run's ±: the green band (median ± ${BAND_SD} robust sd, from ${MIN_NIGHTS} nights) shows how much: ${BAND_CHANCE.text}.`,
            '',
          ]),
      ...chartLines(ctx, history),
      '',
      `${
        all.length
          ? `Outside the band${all.length > listed.length ? ` (newest ${listed.length} of ${all.length}; all: ${link})` : ` (details: ${link})`}: ${shortItems(listed)}.`
          : 'No night outside the band.'
      }${changes.length ? ` ${changeSentence(changes, link)}` : ''}`,
    ];
  }
  return [
    '##### Nightly history of Production, the last 13 weeks',
    `One chart per Node major (never comparing Node versions). Every night runs on another VM of this runner label, so nights vary more than one run's ± says: the green band shows how much (median ± ${BAND_SD} robust sd of the nights within their modes, from ${MIN_NIGHTS} nights on; ${BAND_CHANCE.text}, mostly slow or fast VMs, as measured by \`npm run meta:calibration\`).`,
    '',
    ...chartLines(ctx, history),
    '',
    ...(all.length
      ? ['Nights outside the band:', '', ...all.map(({ h, o }) => item(h, o))]
      : ['No night outside the band.']),
    '',
    ...(changes.length
      ? [
          `Change points: the nights a level moved and stayed, per operation in the figure and, where the runs counted, in what one operation cost (found over the nights shown; the size is the change of the level, with its 95% interval, which ${CHANGE_COVERAGE}: [calibration](../docs/checking.md#the-calibration-registry-npm-run-metacalibration)):`,
          '',
          ...changes.map(changeItem),
        ]
      : ['No change point (a level that moved and stayed) in these 13 weeks.']),
  ];
}
