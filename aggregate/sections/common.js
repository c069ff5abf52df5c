// What the sections share: names as readers know them, how a number is written, which documents a
// machine class's sections are drawn from, and a comparison of a run as a table.
import semver from 'semver';
import { CIPHERS } from '../../bench/tables/ciphers.js';
import { CONFIGS, describeChanges } from '../../bench/tables/configs.js';
import { OPS } from '../../bench/tables/ops.js';
import { parseSetupKey, setupKey, setups } from '../../bench/tables/suite.js';
import { comparisonGrid } from '../../bench/result/figure.js';
import { inert } from '../../lib/markdown.js';

/** Operations compared in ops/s: every timed one, in table order. */
export const COMPARED = OPS.filter((op) => op.kind === 'timed').map((op) => op.name);
export const opLabel = (/** @type {string} */ op) => OPS.find((o) => o.name === op)?.label ?? op;
export const configLabel = (/** @type {string} */ c) => CONFIGS.find((x) => x.name === c)?.label ?? c;
export const cipherLabel = (/** @type {string} */ c) => CIPHERS.find((x) => x.name === c)?.label ?? c;
/** A config that equals production (describeChanges: SQLite's default) is "not a tuning". */
export const notATuning = (/** @type {string} */ c) => Boolean(describeChanges(/** @type {any} */ (CONFIGS.find((x) => x.name === c) ?? { name: c, pragmas: [] })).equalsDefault);

/** 3 significant figures, thousands separated. */
export function num(/** @type {number} */ n) {
  if (n >= 1000) return Math.round(Number(n.toPrecision(3))).toLocaleString('en-US');
  return String(Number(n.toPrecision(3)));
}

/**
 * A GFM table without padding: renders as lib/markdown.js table() does, in fewer bytes (the README
 * block has a byte budget; cells are written as given).
 * @param {string[][]} rows the first is the header
 * @param {('l'|'r'|'')[]} [align]
 */
export function table(rows, align = []) {
  const line = (/** @type {string[]} */ cells) => `| ${cells.join(' | ')} |`;
  const rule = rows[0].map((_, i) => ({ l: ':--', r: '--:' })[align[i] ?? ''] ?? '---');
  return [line(rows[0]), line(rule), ...rows.slice(1).map(line)].join('\n');
}

/** The longest reason shown (a failed cell's reason is up to about 310 characters). */
export const REASON_MAX = 320;

/** A run's finish time as shown: to the second, UTC. */
export const when = (/** @type {string} */ iso) => iso.replace(/\.\d+Z$/, 'Z');

/**
 * The newest document per Node major: complete before interrupted, full before quick, then newest.
 * @param {import('../store.js').Entry[]} entries of one machine class
 */
export function newestPerMajor(entries) {
  /** > 0 when a is preferred: complete, then full, then newer, then the higher Node, then the file name */
  const better = (/** @type {import('../store.js').Entry} */ a, /** @type {import('../store.js').Entry} */ b) =>
    Number(a.status === 'complete') - Number(b.status === 'complete') ||
    Number(a.mode === 'full') - Number(b.mode === 'full') ||
    (a.finishedAt > b.finishedAt ? 1 : a.finishedAt < b.finishedAt ? -1 : 0) ||
    semver.compare(a.node, b.node) ||
    (a.file > b.file ? 1 : a.file < b.file ? -1 : 0);
  /** @type {Map<number, import('../store.js').Entry>} */
  const best = new Map();
  for (const e of entries) {
    const major = semver.major(e.node);
    const cur = best.get(major);
    if (!cur || better(e, cur) > 0) best.set(major, e);
  }
  return [...best.values()].sort((a, b) => semver.compare(a.node, b.node));
}

/**
 * The run a machine class's comparisons come from: the newest full run with comparisons among the
 * newest run per Node major; on a tie (one nightly run finishes several cells at once) the highest Node.
 * @param {{ entries: import('../store.js').Entry[], load: (e: import('../store.js').Entry) => any }} ctx
 * @returns {any | null}
 */
export function comparisonRun(ctx) {
  const pick = newestFirst(ctx.entries).find((e) => e.mode === 'full');
  return pick ? ctx.load(pick) : null;
}

/**
 * The newest run per Node major (newestPerMajor), newest first; on a tie (one nightly run finishes
 * several cells at once) the highest Node first. The order every section picks "the newest run" in.
 * @param {import('../store.js').Entry[]} entries of one machine class
 */
export function newestFirst(entries) {
  return newestPerMajor(entries).sort((a, b) => (a.finishedAt < b.finishedAt ? 1 : a.finishedAt > b.finishedAt ? -1 : 0) || semver.compare(b.node, a.node));
}

/** Where a run is named in a heading line: its Node and its date. */
export const runName = (/** @type {any} */ doc) => `${inert(doc.environment.node)}, run of ${doc.run.finishedAt.slice(0, 10)}`;

/** A setup key as a row label: config, driver, cipher. */
export function setupLabel(/** @type {string} */ key) {
  const s = parseSetupKey(key);
  return `${configLabel(s.config)}, ${s.driver}, ${s.cipher === 'none' ? 'no encryption' : cipherLabel(s.cipher)}`;
}

/** Setups in table order (bench/tables/suite.js): configs, then ciphers, then drivers, each as its table lists them. */
const ORDER = new Map(setups().map((s, i) => [setupKey(s), i]));

/**
 * comparisonGrid (bench/result/figure.js) with its rows in table order, not in the run's order.
 * @param {any} doc
 * @param {string} id
 */
export const grid = (doc, id) => comparisonGrid(doc.comparisons ?? [], id, COMPARED).sort((a, b) => (ORDER.get(a.member) ?? 1e9) - (ORDER.get(b.member) ?? 1e9));

/**
 * A change as the README block shows it: changeText (bench/result/figure.js) in fewer bytes, the
 * block having a byte budget: ASCII minus signs, and the interval's bounds without their % signs.
 * "≈ −0.2% [−0.5%, +0.0%]" becomes "≈ -0.2% [-0.5, +0.0]".
 * @param {string} cell
 */
export const shortChange = (cell) => cell.replace(/\u2212/g, '-').replace(/\[([^\]]*)\]/, (m) => m.replace(/%/g, ''));

/**
 * One comparison of a run as a table: a row per compared setup, a cell per timed operation.
 * @param {any} doc
 * @param {string} id bench/tables/comparisons.js
 * @param {(member: string) => string} rowLabel
 * @param {string} [corner]
 * @param {(cell: string) => string} [cell] how a cell is written (shortChange in the README block)
 */
export function comparisonTable(doc, id, rowLabel, corner = 'Compared', cell = (c) => c) {
  const rows = grid(doc, id);
  return table([[corner, ...COMPARED.map(opLabel)], ...rows.map((r) => [rowLabel(r.member), ...r.cells.map(cell)])], ['l', ...COMPARED.map(() => /** @type {'r'} */ ('r'))]);
}

/**
 * The comparisons of a run as chart data: change and interval in %, per member and operation.
 * @param {any} doc
 * @param {string} id
 * @param {(member: string) => string} label
 */
export function comparisonPoints(doc, id, label) {
  return (doc.comparisons ?? []).filter((/** @type {any} */ c) => c.id === id && COMPARED.includes(c.op)).map((/** @type {any} */ c) => ({
    member: label(c.member), op: opLabel(c.op), change: pct(c.change), low: pct(c.low), high: pct(c.high), verdict: c.verdict,
  }));
}
const pct = (/** @type {number} */ x) => Math.round(x * 1000) / 10;

/** A signed percentage for prose: +12%, −3.4%. */
export const signed = (/** @type {number} */ x) => `${x >= 0 ? '+' : '−'}${Math.abs(x) >= 10 ? Math.round(Math.abs(x)) : Math.abs(x).toFixed(1)}%`;
