// The README block, computed from results/: no figure or comparison in it is written by hand.
// Tables never mix platforms or machine classes; rows are Node versions in semver order, the
// newest run of each Node major. Every string that comes from a document goes through inert()
// (lib/markdown.js): it renders as itself, and can open no link, image, HTML or heading, break no
// table and mention no one.
import { markdownTable } from 'markdown-table';
import semver from 'semver';
import { CIPHERS, PRODUCTION_CIPHER } from '../bench/tables/ciphers.js';
import { CONFIGS, PRODUCTION_CONFIG, describeChanges } from '../bench/tables/configs.js';
import { DRIVERS, PRODUCTION_DRIVER } from '../bench/tables/drivers.js';
import { OPS, columnTitle } from '../bench/tables/ops.js';
import { parseSetupKey, setups } from '../bench/tables/suite.js';
import { COMPARISONS } from '../bench/tables/comparisons.js';
import { changeText, comparisonGrid, figureText } from '../bench/result/figure.js';
import { inert } from '../lib/markdown.js';

/** Operations in the per-config tables, in table order, each shown as its row in the ops table says. */
export const COLUMNS = OPS.map((op) => ({ op: op.name, title: columnTitle(op), show: op.show }));
/** Operations compared in ops/s: every timed one. */
const COMPARED = OPS.filter((op) => op.kind === 'timed').map((op) => op.name);

const opLabel = (/** @type {string} */ op) => OPS.find((o) => o.name === op)?.label ?? op;
const configLabel = (/** @type {string} */ c) => CONFIGS.find((x) => x.name === c)?.label ?? c;
const cipherLabel = (/** @type {string} */ c) => CIPHERS.find((x) => x.name === c)?.label ?? c;

/** 3 significant figures, thousands separated. */
export function num(/** @type {number} */ n) {
  if (n >= 1000) return Math.round(Number(n.toPrecision(3))).toLocaleString('en-US');
  return String(Number(n.toPrecision(3)));
}
/** The longest reason shown (a failed cell's reason is up to about 310 characters). */
const REASON_MAX = 320;

/**
 * @param {any} doc
 * @param {{ config: string, driver: string, cipher: string }} s
 * @param {string} op
 */
export const findCase = (doc, s, op) => doc.cases.find((/** @type {any} */ c) => c.config === s.config && c.driver === s.driver && c.cipher === s.cipher && c.op === op);

/** Rows a table can footnote: cells without a figure point to a numbered reason under the table. */
function notes() {
  /** @type {string[]} */
  const list = [];
  return {
    ref(/** @type {string} */ reason) {
      let i = list.indexOf(reason);
      if (i < 0) i = list.push(reason) - 1;
      return `n/a [${i + 1}]`;
    },
    lines: () => list.map((r, i) => `- [${i + 1}] ${inert(r, REASON_MAX)}`),
  };
}

const driverCell = (/** @type {any} */ doc, /** @type {string} */ name) => {
  const d = doc.drivers.find((/** @type {any} */ x) => x.name === name);
  if (!d) return 'not in this run';
  if (d.status !== 'ok') return `${d.status}: ${inert(d.reason, REASON_MAX)}`;
  return `${inert(d.version)} (SQLite ${inert(d.sqlite)})${d.sqlite3mc ? `, ${inert(d.sqlite3mc.replace('SQLite3 Multiple Ciphers', 'SQLite3MC'))}` : ''}`;
};

/**
 * The newest document per Node major: complete before interrupted, full before quick, then newest.
 * @param {import('./store.js').Entry[]} entries of one machine class
 */
export function newestPerMajor(entries) {
  /** > 0 when a is preferred: complete, then full, then newer, then the higher Node, then the file name */
  const better = (/** @type {import('./store.js').Entry} */ a, /** @type {import('./store.js').Entry} */ b) =>
    Number(a.status === 'complete') - Number(b.status === 'complete') ||
    Number(a.mode === 'full') - Number(b.mode === 'full') ||
    (a.finishedAt > b.finishedAt ? 1 : a.finishedAt < b.finishedAt ? -1 : 0) ||
    semver.compare(a.node, b.node) ||
    (a.file > b.file ? 1 : a.file < b.file ? -1 : 0);
  /** @type {Map<number, import('./store.js').Entry>} */
  const best = new Map();
  for (const e of entries) {
    const major = semver.major(e.node);
    const cur = best.get(major);
    if (!cur || better(e, cur) > 0) best.set(major, e);
  }
  return [...best.values()].sort((a, b) => semver.compare(a.node, b.node));
}

/**
 * @param {{ entry: import('./store.js').Entry, doc: any }[]} rows one per Node major, semver order
 * @param {string} resultsLink
 */
function environmentTable(rows, resultsLink) {
  const table = [['Node', 'Run (UTC)', 'Mode', 'CPU', 'Cores', 'Memory', 'OS', 'Runner image', ...DRIVERS.map((d) => d.name)]];
  for (const { entry, doc } of rows) {
    const e = doc.environment;
    const image = e.ci?.imageOs ? `${e.ci.imageOs} ${e.ci.imageVersion ?? ''}`.trim() : e.ci ? e.ci.provider : 'local';
    table.push([
      inert(e.node),
      `[${inert(doc.run.finishedAt.replace(/\.\d+Z$/, 'Z'))}](${resultsLink}/${entry.file})`,
      `${doc.run.mode}${doc.run.status === 'interrupted' ? ', interrupted' : ''}`,
      inert(e.cpuModel),
      String(e.cores),
      `${Math.round(e.memoryBytes / 2 ** 30)} GiB`,
      inert(`${e.platform} ${e.osRelease}`),
      inert(image),
      ...DRIVERS.map((d) => driverCell(doc, d.name)),
    ]);
  }
  return markdownTable(table);
}

/**
 * One table per (config, driver, cipher): a row per Node version.
 * @param {{ entry: any, doc: any }[]} rows
 * @param {{ config: string, driver: string, cipher: string }} s
 */
function configTable(rows, s) {
  const n = notes();
  const table = [['Node', ...COLUMNS.map((c) => c.title), 'Driver']];
  for (const { doc } of rows) {
    const d = doc.drivers.find((/** @type {any} */ x) => x.name === s.driver);
    table.push([inert(doc.environment.node), ...COLUMNS.map((col) => {
      const f = figureText(findCase(doc, s, col.op), num);
      return f.text ?? n.ref(/** @type {string} */ (f.reason));
    }), d?.status === 'ok' ? inert(d.version) : n.ref(`${s.driver}: ${d ? `${d.status}: ${d.reason}` : 'not in this run'}`)]);
  }
  const { note } = describeChanges(/** @type {any} */ (CONFIGS.find((c) => c.name === s.config)));
  const title = `${configLabel(s.config)} — ${s.driver}${s.cipher === 'none' ? ', no encryption' : `, ${cipherLabel(s.cipher)}`}`;
  return [`##### ${title}`, '', ...(note ? [`_${inert(note)}._`, ''] : []), markdownTable(table, { align: ['l', ...COLUMNS.map(() => 'r'), 'l'] }), ...(n.lines().length ? ['', ...n.lines()] : [])].join('\n');
}

/**
 * One comparison of a run's document (bench/tables/comparisons.js), paired within the run: a row
 * per compared setup, a column per timed operation, each cell the change with its 95% interval.
 * @param {any} doc
 * @param {import('../bench/tables/comparisons.js').Comparison} cmp
 * @param {(setupKey: string) => string} rowLabel
 */
function comparisonTable(doc, cmp, rowLabel) {
  const table = [['Compared', ...COMPARED.map(opLabel)], ...comparisonGrid(doc.comparisons ?? [], cmp.id, COMPARED).map((r) => [rowLabel(r.member), ...r.cells])];
  return [`##### ${cmp.title}`, '', markdownTable(table, { align: ['l', ...COMPARED.map(() => 'r')] })].join('\n');
}

/**
 * The run's comparisons, or why it has none.
 * @param {any} doc the newest full run of the machine class
 */
function comparisonsOf(doc) {
  const when = `${inert(doc.environment.node)}, run of ${doc.run.finishedAt.slice(0, 10)}`;
  if (!doc.comparisons?.length) return [`_No comparisons: the newest full run (${when}) has none (documents from before paired comparisons, or too few rounds)._`];
  const out = [`Comparisons within one run (${when}): each case against its reference, measured in the same blocks of the same rounds, change in ops/s with its paired 95% interval; "≈": the interval holds 0.`];
  const sc = doc.selfCheck;
  if (sc) {
    const aa = doc.comparisons.filter((/** @type {any} */ c) => c.id === 'self-check');
    out.push('', `**Self-check** (${configLabel(PRODUCTION_CONFIG)} measured twice, as two cases): ${sc.passed ? 'identical configs' : '**failed**: identical configs'} differ by ${aa.map((/** @type {any} */ c) => `${opLabel(c.op)} ${changeText(c)}`).join(', ')}.${sc.passed ? '' : ' This run\'s comparisons are less certain than their intervals say.'}`);
  }
  const label = (/** @type {string} */ key) => {
    const s = parseSetupKey(key);
    return `${configLabel(s.config)}, ${s.driver}, ${s.cipher === 'none' ? 'no encryption' : cipherLabel(s.cipher)}`;
  };
  for (const cmp of COMPARISONS.filter((c) => c.id !== 'self-check')) out.push('', comparisonTable(doc, cmp, label));
  return out;
}

/**
 * @param {{ entries: () => import('./store.js').Entry[], load: (e: import('./store.js').Entry) => any }} store
 * @param {{ resultsLink?: string }} [opts]
 * @returns {string}
 */
export function renderBlock(store, { resultsLink = 'results' } = {}) {
  const entries = store.entries();
  if (!entries.length) return '_No results yet._';
  const newest = entries.reduce((a, b) => (b.finishedAt > a.finishedAt ? b : a));
  const out = [
    `_Last updated ${newest.finishedAt.replace(/\.\d+Z$/, 'Z')} (the newest run's finish time) from ${entries.length} result document(s) in [\`${resultsLink}/\`](${resultsLink}/)._`,
    '',
    '**How to read these numbers.** Each figure is the median of several rounds on one machine (ops/s; setup and VACUUM in ms). ' +
      'Its ± is the wider side of a 95% interval: where a repeat run on the same machine is expected to land, from the spread of the rounds and how much the machine moved between them ([methodology](docs/methodology.md)). ' +
      '"modes" means the rounds fell into separated groups: both are shown, with their shares, because the figure has no one typical value. ' +
      'A comparison is paired: both cases measured in the same blocks of the same rounds, the change with its 95% interval in brackets; "≈" marks an interval that holds 0, which is no evidence of a difference. ' +
      'Each run also measures production twice, as two cases (the self-check): identical configs should show no difference. ' +
      'Quick runs are smoke tests: their figures are not compared. Figures from different sections, or different rows of a per-configuration table, come from different machines and are not comparable.',
  ];
  const platforms = [...new Set(entries.map((e) => e.platform))].sort();
  for (const platform of platforms) {
    out.push('', `### ${platform}`);
    const machines = [...new Set(entries.filter((e) => e.platform === platform).map((e) => e.machine))].sort();
    for (const machine of machines) {
      const rows = newestPerMajor(entries.filter((e) => e.machine === machine)).map((entry) => ({ entry, doc: store.load(entry) }));
      const history = entries.filter((e) => e.machine === machine).length;
      out.push('', `#### ${inert(machine)}`, '', `Newest run per Node major; ${history} run(s) of this machine class in \`${resultsLink}/\`.`, '', environmentTable(rows, resultsLink));
      // the newest full run; on a tie (one nightly run finishes several cells at once) the highest Node
      const newer = (/** @type {any} */ a, /** @type {any} */ b) => b.run.finishedAt > a.run.finishedAt || (b.run.finishedAt === a.run.finishedAt && semver.gt(b.environment.node, a.environment.node));
      const newestFull = rows.map((r) => r.doc).filter((d) => d.run.mode === 'full').reduce((a, b) => (!a || newer(a, b) ? b : a), null);
      out.push('', ...(newestFull ? comparisonsOf(newestFull) : ['_No comparisons: quick runs are smoke tests (one round per case)._']));
      const shown = setups().filter((s) => !(s.config === PRODUCTION_CONFIG && s.driver === PRODUCTION_DRIVER && s.cipher !== PRODUCTION_CIPHER));
      out.push('', `<details><summary>Per configuration: ${shown.length} tables, a row per Node version (each row from its own matrix cell, a different machine: not a comparison between Node versions)</summary>`);
      for (const s of shown) out.push('', configTable(rows, s));
      out.push('', '</details>');
    }
  }
  return out.join('\n');
}
