// What the sections share: names as readers know them (a name no table knows: inert,
// lib/markdown.js), how a number is written, which documents a machine class's sections are drawn
// from, and a comparison of a run as a table.
import semver from 'semver';
import { CIPHERS } from '../../bench/data/ciphers.js';
import { CONFIGS, describeChanges } from '../../bench/data/configs.js';
import { OPS } from '../../bench/data/ops.js';
import { parseSetupKey, setupKey, setups } from '../../bench/data/suite.js';
import { changeText } from '../render/figure.js';
import { fragment, inert, table as markdownTable } from '../../lib/markdown.js';
import { day, sign, signedPoints } from '../../lib/format.js';
/** @import { Entry } from '../store.js' */

/** Operations compared in ops/s: every timed one, in table order. */
export const COMPARED = OPS.filter((op) => op.kind === 'timed').map((op) => op.name);
export const opLabel = (/** @type {string} */ op) => OPS.find((o) => o.name === op)?.label ?? inert(op);
export const configLabel = (/** @type {string} */ c) => CONFIGS.find((x) => x.name === c)?.label ?? inert(c);
export const cipherLabel = (/** @type {string} */ c) => CIPHERS.find((x) => x.name === c)?.label ?? inert(c);
/** A config that equals production (describeChanges: SQLite's default) is "not a tuning". */
export const notATuning = (/** @type {string} */ c) =>
  Boolean(
    describeChanges(/** @type {any} */ (CONFIGS.find((x) => x.name === c) ?? { name: c, pragmas: [] })).equalsDefault,
  );

/**
 * The README's tables: lib/markdown.js table, unpadded (the README block has a byte budget);
 * `tight` for the wide ones.
 * @param {string[][]} rows the first is the header
 * @param {('l'|'r'|'')[]} [align]
 * @param {{ tight?: boolean }} [o]
 */
export const table = (rows, align = [], o = {}) => markdownTable(rows, align, { ...o, padded: false });

/** A run's finish time as shown: to the second, UTC. */
export const when = (/** @type {string} */ iso) => inert(String(iso).replace(/\.\d+Z$/, 'Z'), 40);

/** > 0 when entry a is shown before b: complete, then full, then newer, then the higher Node, then the file name. */
const better = (/** @type {Entry} */ a, /** @type {Entry} */ b) =>
  Number(a.status === 'complete') - Number(b.status === 'complete') ||
  Number(a.mode === 'full') - Number(b.mode === 'full') ||
  (a.finishedAt > b.finishedAt ? 1 : a.finishedAt < b.finishedAt ? -1 : 0) ||
  semver.compare(a.node, b.node) ||
  (a.file > b.file ? 1 : a.file < b.file ? -1 : 0);
/** The entry to show of these (`better`), or null. */
export const best = (/** @type {Entry[]} */ entries) =>
  entries.reduce((/** @type {Entry | null} */ b, e) => (!b || better(e, b) > 0 ? e : b), null);

/** The document to show per Node major (`better`), by Node. */
export function newestPerMajor(/** @type {Entry[]} */ entries) {
  const majors = [...new Set(entries.map((e) => semver.major(e.node)))];
  return /** @type {Entry[]} */ (majors.map((m) => best(entries.filter((e) => semver.major(e.node) === m)))).sort(
    (a, b) => semver.compare(a.node, b.node),
  );
}

/**
 * The run a machine class's comparisons come from: the newest full run of newestFirst.
 * @param {{ entries: Entry[], load: (e: Entry) => any }} ctx
 * @returns {any | null}
 */
export function comparisonRun(ctx) {
  const pick = newestFirst(ctx.entries).find((e) => e.mode === 'full');
  return pick ? ctx.load(pick) : null;
}

/**
 * The newest run per Node major (newestPerMajor), newest first; on a tie (one nightly run finishes
 * several cells at once) the highest Node first. The order every section picks "the newest run" in.
 */
export const newestFirst = (/** @type {Entry[]} */ entries) =>
  newestPerMajor(entries).sort(
    (a, b) =>
      (a.finishedAt < b.finishedAt ? 1 : a.finishedAt > b.finishedAt ? -1 : 0) || semver.compare(b.node, a.node),
  );

/** Where a run is named in a heading line: its Node and its date. */
export const runName = (/** @type {any} */ doc) => `${inert(doc.environment.node)}, run of ${day(doc.run.finishedAt)}`;

/** A setup key as a row label: config, driver, cipher. */
export function setupLabel(/** @type {string} */ key) {
  const s = parseSetupKey(key);
  return `${configLabel(s.config)}, ${inert(s.driver)}, ${s.cipher === 'none' ? 'no encryption' : cipherLabel(s.cipher)}`;
}

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
 * operation, as changeText writes it; in the README (`compact`) as compactChange writes it without
 * its unit (the caption says it: the table fits GitHub's column), the chart above it and
 * results/README.md giving the whole intervals. In a run of several sides (items with a `setup`)
 * a row per pair of sides and setup (the order of `ids`, then of the run's sides, then table
 * order), a column per operation it measured; `byOp`: a row per operation, a column per pair.
 * @param {any} doc
 * @param {string | string[]} ids bench/data/comparisons.js, or a shootout's groups (bench/data/shootout-groups.js)
 * @param {(member: string, item: any) => string} rowLabel item: the row's first judged pair
 * @param {string} [corner]
 * @param {{ compact?: boolean, byOp?: boolean, caption?: string, items?: any[], cell?: (item: any) => string }} [o]
 *   caption: the table's own; items: rows of the judged pairs' shape other than doc.comparisons (a
 *   shootout's instruction differences, its sides' counts); cell: how an item is written
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
  const ops = COMPARED.filter((op) => !mine.some((c) => c.setup) || mine.some((c) => c.op === op));
  const cell = o.cell ?? (o.compact ? (/** @type {any} */ c) => compactChange(c, '') : changeText);
  const cells = rows.map((r) => ops.map((op) => cell(mine.find((c) => key(c) === key(r) && c.op === op))));
  const labels = rows.map((r) => rowLabel(r.member, r));
  const [head, body] = o.byOp
    ? [labels, ops.map((op, j) => [opLabel(op), ...cells.map((c) => c[j])])]
    : [ops.map(opLabel), cells.map((c, i) => [labels[i], ...c])];
  return `${o.caption ?? (o.compact ? SHORT_CAPTION : LONG_CAPTION)}\n${table(
    [[corner, ...head], ...body],
    ['l', ...head.map(() => /** @type {'r'} */ ('r'))],
    { tight: o.compact },
  )}`;
}

/** The link to a machine class on results/README.md: the fragment GitHub gives its heading. */
export const classLink = (/** @type {{ resultsLink: string, machine: string }} */ ctx) =>
  `${ctx.resultsLink}/README.md${fragment(ctx.machine)}`;

/**
 * The comparisons of a run as chart data: change and interval in %, per member and operation.
 * @param {any} doc
 * @param {string} id
 * @param {(member: string) => string} label
 * @returns {{ member: string, op: string, change: number, low: number, high: number, verdict: string }[]}
 */
export function comparisonPoints(doc, id, label) {
  return (doc.comparisons ?? [])
    .filter((/** @type {any} */ c) => c.id === id && COMPARED.includes(c.op))
    .map((/** @type {any} */ c) => ({
      member: label(c.member),
      op: opLabel(c.op),
      change: pct(c.change),
      low: pct(c.low),
      high: pct(c.high),
      verdict: c.verdict,
    }));
}
/** A fraction as the charts' percent, to a tenth. */
export const pct = (/** @type {number} */ x) => Math.round(x * 1000) / 10;

/** A signed percentage for prose, whole from 10%: +12%, −3.4% (x in percent). */
export const signed = (/** @type {number} */ x) => signedPoints(x, 10);
