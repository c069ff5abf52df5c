// What the sections share: names as readers know them (a name no table knows: inert,
// lib/markdown.js), how a number is written, which documents a machine class's sections are drawn
// from.
import semver from 'semver';
import { CIPHERS, PRODUCTION_CIPHER } from '../../bench/data/ciphers.js';
import { CONFIGS, PRODUCTION_CONFIG, describeChanges } from '../../bench/data/configs.js';
import { PRODUCTION_DRIVER } from '../../bench/data/drivers.js';
import { parseSetupKey, setupKey } from '../../bench/data/suite.js';
import { COMPARED, opLabel } from '../render/pair-table.js';
import { fragment, inert, table as markdownTable } from '../../lib/markdown.js';
import { day, signedPoints } from '../../lib/format.js';
/** @import { Entry } from '../store.js' */

/** Production's setup key: its PRAGMAs, driver and cipher. */
export const PRODUCTION_SETUP = setupKey({
  config: PRODUCTION_CONFIG,
  driver: PRODUCTION_DRIVER,
  cipher: PRODUCTION_CIPHER,
});

export const configLabel = (/** @type {string} */ c) => CONFIGS.find((x) => x.name === c)?.label ?? inert(c);
export const cipherLabel = (/** @type {string} */ c) => CIPHERS.find((x) => x.name === c)?.label ?? inert(c);
/** A config that equals production (describeChanges: SQLite's default) is "not a tuning". */
export const notATuning = (/** @type {string} */ c) =>
  Boolean(
    describeChanges(/** @type {any} */ (CONFIGS.find((x) => x.name === c) ?? { name: c, pragmas: [] })).equalsDefault,
  );

/**
 * The README's tables: lib/markdown.js table, unpadded (the README block has a byte budget).
 * @param {string[][]} rows the first is the header
 * @param {('l'|'r'|'')[]} [align]
 */
export const readmeTable = (rows, align = []) => markdownTable(rows, align, { padded: false });

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
