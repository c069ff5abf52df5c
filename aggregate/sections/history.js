// Nightly history: the production setup's figure per operation, night by night over the last 13
// weeks (about 90 days), one chart per Node major, with each night's 95% interval and the band nights on this
// runner label fall in. Every night runs on another VM of the label, so the band is the machines'
// spread, not the code's; a night outside it is marked, and listed with what its document says
// changed since the night before (Node patch, driver, SQLite, runner image).
import semver from 'semver';
import { OPS } from '../../bench/tables/ops.js';
import { PRODUCTION_DRIVER } from '../../bench/tables/drivers.js';
import { historySpec } from '../charts/specs.js';
import { inert } from '../../lib/markdown.js';
import { logSpread, median } from '../../lib/stats/spread.js';
import { COMPARED, opLabel } from './common.js';
import { num } from '../../lib/format.js';

const WEEK = 7 * 86_400_000;

/**
 * The nights a chart shows: from a Monday (UTC) 12 weeks before the newest night's week, to the end
 * of that week (85 to 91 days of nights, a 13-week axis). The axis moves once a week, not every
 * night, so a night's chart differs from the last one mostly by the new night (a small git delta).
 * @param {string} newest ISO time of the newest night
 * @returns {{ from: string, domain: [number, number] }}
 */
export function windowOf(newest) {
  const t = Date.parse(newest);
  const monday = Math.floor((t - 4 * 86_400_000) / WEEK) * WEEK + 4 * 86_400_000; // 1970-01-05 was a Monday
  const start = monday - 12 * WEEK;
  return { from: new Date(start).toISOString(), domain: [start, start + 13 * WEEK] };
}
/** Fewer nights than this: no band (a spread of a handful of VMs says little). */
export const MIN_NIGHTS = 7;
/**
 * The band's half-width in robust standard deviations of the nights: 3, so that with 8 operations a
 * night is flagged by chance about 2% of the time (at 1.96 it would be a third of the nights).
 */
export const BAND_SD = 3;
/** Out-of-band nights listed in the README; results/README.md lists them all. */
export const LISTED = 3;

const opOf = (/** @type {string} */ name) =>
  /** @type {import('../../bench/tables/ops.js').Op} */ (OPS.find((o) => o.name === name));
/** An op's figure in the unit it is shown in: ms for slow operations, else ops/s. */
const shown = (/** @type {string} */ op, /** @type {[number, number, number]} */ [m, lo, hi]) =>
  opOf(op).show === 'ms' ? [1000 / m, 1000 / hi, 1000 / lo] : [m, lo, hi];
const unit = (/** @type {string} */ op) => (opOf(op).show === 'ms' ? 'ms' : 'ops/s');

/**
 * The band nights fall in: median ± BAND_SD robust standard deviations of the logs of their figures.
 * @param {number[]} xs
 * @returns {[number, number] | null}
 */
export function bandOf(xs) {
  if (xs.length < MIN_NIGHTS) return null;
  const m = Math.log(median(xs));
  const s = BAND_SD * logSpread(xs);
  return [Math.exp(m - s), Math.exp(m + s)];
}

/**
 * What changed from one night to the next, as the documents record it.
 * @param {import('../nights.js').Night} prev
 * @param {import('../nights.js').Night} n
 */
function changes(prev, n) {
  return changedFields(prev, n).map(([what, a, b]) => `${what} ${inert(a ?? 'none')} → ${inert(b ?? 'none')}`);
}

/**
 * The fields that changed from one night to the next: what, before, after.
 * @param {import('../nights.js').Night} prev
 * @param {import('../nights.js').Night} n
 */
function changedFields(prev, n) {
  /** @type {[string, string | null, string | null][]} */
  const fields = [
    ['Node', prev.node, n.node],
    [PRODUCTION_DRIVER, prev.driver, n.driver],
    ['SQLite', prev.sqlite, n.sqlite],
    ['SQLite3MC', prev.sqlite3mc, n.sqlite3mc],
    ['runner image', prev.image, n.image],
  ];
  return fields.filter(([, a, b]) => a !== b);
}

/**
 * A machine class's nights per Node major, with bands and the nights outside them.
 * @param {import('./index.js').SectionContext} ctx
 */
export function historyOf(ctx) {
  const full = ctx.entries.filter((e) => e.mode === 'full' && e.status === 'complete');
  if (!full.length) return [];
  const newest = full.reduce((a, e) => (e.finishedAt > a ? e.finishedAt : a), '');
  const { from } = windowOf(newest);
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
          ops: ops.filter((op) => {
            const b = bands[op];
            if (!b || !n.figures[op]) return false;
            const v = shown(op, n.figures[op])[0];
            return v < b[0] || v > b[1];
          }),
        }))
        .filter((o) => o.ops.length);
      return { major, nights, ops, bands, outside, domain: windowOf(newest).domain };
    })
    .filter((h) => h.nights.length);
}

/**
 * One out-of-band night as a list item.
 * @param {ReturnType<typeof historyOf>[number]} h
 * @param {ReturnType<typeof historyOf>[number]['outside'][number]} o
 */
function item(h, o) {
  const figures = o.ops.map((op) => {
    const v = shown(op, o.night.figures[op])[0];
    const b = /** @type {[number, number]} */ (h.bands[op]);
    return `${opLabel(op)} ${num(v)} ${unit(op)} (${v < b[0] ? 'below' : 'above'} ${num(b[0])}–${num(b[1])})`;
  });
  const what = o.prev ? changes(o.prev, o.night) : [];
  const changed = !o.prev
    ? 'the first night shown'
    : what.length
      ? `changed since the night before: ${what.join('; ')}`
      : 'nothing recorded changed (another VM)';
  return `- ${o.night.finishedAt.slice(0, 10)}, Node ${inert(o.night.node)}: ${figures.join(', ')}; ${changed}.`;
}

/** Faster or slower: an operation shown in ms is slower above its band, one in ops/s below it. */
function direction(
  /** @type {ReturnType<typeof historyOf>[number]} */ h,
  /** @type {import('../nights.js').Night} */ night,
  /** @type {string} */ op,
) {
  const below = shown(op, night.figures[op])[0] < /** @type {[number, number]} */ (h.bands[op])[0];
  return below === (unit(op) === 'ms') ? 'faster' : 'slower';
}

/**
 * The operations of an out-of-band night in few words: "Insert, Select slower", "8 operations slower",
 * "Setup slower, Insert faster".
 * @param {ReturnType<typeof historyOf>[number]} h
 * @param {ReturnType<typeof historyOf>[number]['outside'][number]} o
 */
export function movedOps(h, o) {
  return ['slower', 'faster']
    .map((way) => o.ops.filter((op) => direction(h, o.night, op) === way))
    .map((ops, i) => {
      if (!ops.length) return null;
      return `${ops.length > 2 ? `${ops.length} operations` : ops.map(opLabel).join(', ')} ${i ? 'faster' : 'slower'}`;
    })
    .filter(Boolean)
    .join(', ');
}

/**
 * A chart's alt text: the finding, short (≤ about 150 characters, the same on both pages).
 * @param {ReturnType<typeof historyOf>[number]} h
 */
export function altOf(h) {
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
 * @param {import('./index.js').SectionContext} ctx
 * @param {ReturnType<typeof historyOf>} history
 */
function chartLines(ctx, history) {
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
              outside: Boolean(b && (value < b[0] || value > b[1])),
            };
          }),
      );
      return {
        major: h.major,
        line: ctx.chart(
          `history-node${h.major}`,
          historySpec({
            domain: h.domain,
            title: `Nightly history, Node ${h.major}: Forward Email Production, the last 13 weeks`,
            subtitle: [
              `${ctx.platform}. Blue line and ribbon: each night's figure and its 95% interval. Green band: where nights on this runner label fall`,
              `(median ± ${BAND_SD} robust sd of the nights; each night is another VM). Red dots: nights outside the band.`,
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
export function shortItems(listed) {
  /** @type {Map<string, string[]>} */
  const groups = new Map();
  for (const { h, o } of listed) {
    const what = o.prev ? changedFields(o.prev, o.night).map(([name]) => name) : [];
    const changed = !o.prev
      ? 'the first night shown'
      : what.length
        ? `changed: ${what.join(', ')}`
        : 'nothing recorded changed';
    const key = `${movedOps(h, o)}; ${changed}`;
    const day = o.night.finishedAt.slice(0, 10);
    groups.set(`${day}\n${key}`, [...(groups.get(`${day}\n${key}`) ?? []), inert(o.night.node)]);
  }
  return [...groups]
    .map(([k, nodes]) => {
      const [day, key] = k.split('\n');
      return `${day}, Node ${nodes.join(', ')}: ${key}`;
    })
    .join(' · ');
}

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const history = historyOf(ctx);
  if (!history.length) return [];
  const all = history
    .flatMap((h) => h.outside.map((o) => ({ h, o })))
    .sort((a, b) => (a.o.night.finishedAt > b.o.night.finishedAt ? -1 : 1));
  if (ctx.page === 'readme') {
    const link = `[${ctx.resultsLink}/README.md](${ctx.resultsLink}/README.md)`;
    const listed = all.slice(0, LISTED);
    return [
      '##### Nightly history of production, 13 weeks',
      `A chart per Node major (not compared with each other). Each night runs on another VM, so nights vary more than a run's ±: the green band (median ± ${BAND_SD} robust sd, from ${MIN_NIGHTS} nights) shows how much.`,
      '',
      ...chartLines(ctx, history),
      '',
      all.length
        ? `Outside the band${all.length > listed.length ? ` (newest ${listed.length} of ${all.length}; all: ${link})` : ` (details: ${link})`}: ${shortItems(listed)}.`
        : 'No night outside the band.',
    ];
  }
  return [
    '##### Nightly history of Forward Email Production, the last 13 weeks',
    `One chart per Node major (never comparing Node versions). Every night runs on another VM of this runner label, so nights vary more than one run's ± says: the green band shows how much (median ± ${BAND_SD} robust sd of the nights, from ${MIN_NIGHTS} nights on).`,
    '',
    ...chartLines(ctx, history),
    '',
    ...(all.length
      ? ['Nights outside the band:', '', ...all.map(({ h, o }) => item(h, o))]
      : ['No night outside the band.']),
  ];
}
