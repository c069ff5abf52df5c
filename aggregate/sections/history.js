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
import { COMPARED, num, opLabel } from './common.js';

const WEEK = 7 * 86_400_000;

/**
 * The nights a chart shows: from a Monday (UTC) 12 weeks before the newest night's week, to the end
 * of that week (85 to 91 days of nights, a 13-week axis). The axis moves once a week, not every
 * night, so a night's chart differs from the last one mostly by the new night (a small git delta).
 * @param {string} newest ISO time of the newest night
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

const opOf = (/** @type {string} */ name) => /** @type {import('../../bench/tables/ops.js').Op} */ (OPS.find((o) => o.name === name));
/** An op's figure in the unit it is shown in: ms for slow operations, else ops/s. */
const shown = (/** @type {string} */ op, /** @type {[number, number, number]} */ [m, lo, hi]) => (opOf(op).show === 'ms' ? [1000 / m, 1000 / hi, 1000 / lo] : [m, lo, hi]);
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
  /** @type {[string, string | null, string | null][]} */
  const fields = [['Node', prev.node, n.node], [PRODUCTION_DRIVER, prev.driver, n.driver], ['SQLite', prev.sqlite, n.sqlite], ['SQLite3MC', prev.sqlite3mc, n.sqlite3mc], ['runner image', prev.image, n.image]];
  return fields.filter(([, a, b]) => a !== b).map(([what, a, b]) => `${what} ${inert(a ?? 'none')} → ${inert(b ?? 'none')}`);
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
  return majors.map((major) => {
    const nights = full.filter((e) => semver.major(e.node) === major && e.finishedAt > from)
      .sort((a, b) => (a.finishedAt < b.finishedAt ? -1 : a.finishedAt > b.finishedAt ? 1 : 0))
      .map((e) => ctx.nights.of(e));
    const ops = COMPARED.filter((op) => nights.some((n) => n.figures[op]));
    /** @type {Record<string, [number, number] | null>} */
    const bands = Object.fromEntries(ops.map((op) => [op, bandOf(nights.filter((n) => n.figures[op]).map((n) => shown(op, n.figures[op])[0]))]));
    const outside = nights.map((n, i) => ({
      night: n,
      prev: i > 0 ? nights[i - 1] : null,
      ops: ops.filter((op) => {
        const b = bands[op];
        if (!b || !n.figures[op]) return false;
        const v = shown(op, n.figures[op])[0];
        return v < b[0] || v > b[1];
      }),
    })).filter((o) => o.ops.length);
    return { major, nights, ops, bands, outside, domain: windowOf(newest).domain };
  }).filter((h) => h.nights.length);
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
  const changed = !o.prev ? 'the first night shown' : what.length ? `changed since the night before: ${what.join('; ')}` : 'nothing recorded changed (another VM)';
  return `- ${o.night.finishedAt.slice(0, 10)}, Node ${inert(o.night.node)}: ${figures.join(', ')}; ${changed}.`;
}

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const history = historyOf(ctx);
  if (!history.length) return [];
  const charts = history.map((h) => {
    // one night draws no line: say so rather than show empty panels
    if (h.nights.length < 2) return `_Node ${h.major}: one night so far (${h.nights[0].finishedAt.slice(0, 10)}); the chart starts with the second._`;
    const first = h.nights[0].finishedAt.slice(0, 10);
    const last = h.nights[h.nights.length - 1].finishedAt.slice(0, 10);
    const out = h.outside.map((o) => `${o.night.finishedAt.slice(0, 10)} (${o.ops.map(opLabel).join(', ')})`);
    const alt = `Node ${h.major}, ${h.nights.length} night(s) ${first} to ${last}: ${!h.ops.some((op) => h.bands[op]) ? `too few for a band (${MIN_NIGHTS} needed)` : out.length ? `${out.length} outside the band, newest ${out[out.length - 1]}` : 'all within the band'}.`;
    const points = h.ops.flatMap((op) => h.nights.filter((n) => n.figures[op]).map((n) => {
      const [value, low, high] = shown(op, n.figures[op]);
      const b = h.bands[op];
      const r = (/** @type {number} */ x) => Number(x.toPrecision(4));
      return { op: `${opLabel(op)} (${unit(op)})`, night: n.finishedAt.slice(0, 10), value: r(value), low: r(low), high: r(high), bandLow: b ? r(b[0]) : null, bandHigh: b ? r(b[1]) : null, outside: Boolean(b && (value < b[0] || value > b[1])) };
    }));
    return ctx.chart(`history-node${h.major}`, historySpec({
      domain: h.domain,
      title: `Nightly history, Node ${h.major}: Forward Email Production, the last 13 weeks`,
      subtitle: [`${ctx.platform}. Blue line and ribbon: each night's figure and its 95% interval. Green band: where nights on this runner label fall`, `(median ± ${BAND_SD} robust sd of the nights; each night is another VM). Red dots: nights outside the band.`],
      alt,
      points,
      ops: h.ops.map((op) => `${opLabel(op)} (${unit(op)})`),
    }), alt);
  });
  const all = history.flatMap((h) => h.outside.map((o) => ({ h, o }))).sort((a, b) => (a.o.night.finishedAt > b.o.night.finishedAt ? -1 : 1));
  const listed = ctx.page === 'readme' ? all.slice(0, LISTED) : all;
  return [
    '##### Nightly history of Forward Email Production, the last 13 weeks',
    `One chart per Node major (never comparing Node versions). Every night runs on another VM of this runner label, so nights vary more than one run's ± says: the green band shows how much (median ± ${BAND_SD} robust sd of the nights, from ${MIN_NIGHTS} nights on).`,
    '',
    ...charts,
    '',
    ...(all.length ? [`Nights outside the band${ctx.page === 'readme' && all.length > listed.length ? ` (newest ${listed.length} of ${all.length}; all in [results/README.md](${ctx.resultsLink}/README.md))` : ''}:`, '', ...listed.map(({ h, o }) => item(h, o))] : ['No night outside the band.']),
  ];
}
