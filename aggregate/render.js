// The README block, computed from results/: no figure or comparison in it is written by hand.
// Tables never mix platforms or machine classes; rows are Node versions in semver order, the
// newest run of each Node major.
import { markdownTable } from 'markdown-table';
import semver from 'semver';
import { CIPHERS, PRODUCTION_CIPHER } from '../bench/tables/ciphers.js';
import { CONFIGS, PRODUCTION_CONFIG, describeChanges } from '../bench/tables/configs.js';
import { DRIVERS, PRODUCTION_DRIVER } from '../bench/tables/drivers.js';
import { OPS, columnTitle } from '../bench/tables/ops.js';
import { setups } from '../bench/tables/suite.js';
import { headlineMargin } from '../bench/engine/measure.js';

/** Operations in the per-config tables, in table order, each shown as its row in the ops table says. */
export const COLUMNS = OPS.map((op) => ({ op: op.name, title: columnTitle(op), show: op.show }));
/** Operations compared in ops/s: every timed one. */
const COMPARED = OPS.filter((op) => op.kind === 'timed').map((op) => op.name);
const REFERENCE_MAJOR = 22;

const opLabel = (/** @type {string} */ op) => OPS.find((o) => o.name === op)?.label ?? op;
const configLabel = (/** @type {string} */ c) => CONFIGS.find((x) => x.name === c)?.label ?? c;
const cipherLabel = (/** @type {string} */ c) => CIPHERS.find((x) => x.name === c)?.label ?? c;

/** 3 significant figures, thousands separated. */
export function num(/** @type {number} */ n) {
  if (n >= 1000) return Math.round(Number(n.toPrecision(3))).toLocaleString('en-US');
  return String(Number(n.toPrecision(3)));
}
const pm = (/** @type {number} */ rme) => `±${rme < 10 ? rme.toFixed(1) : Math.round(rme)}%`;
const one = (/** @type {string} */ s) => s.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/**
 * @param {any} doc
 * @param {{ config: string, driver: string, cipher: string }} s
 * @param {string} op
 */
export const findCase = (doc, s, op) => doc.cases.find((/** @type {any} */ c) => c.config === s.config && c.driver === s.driver && c.cipher === s.cipher && c.op === op);

/**
 * The figure of a case as shown, or null with the reason it has none.
 * @param {any} c
 * @param {'ms'|'ops'|'bytes'} show
 */
export function cellText(c, show) {
  if (!c) return { text: null, reason: 'not in this run' };
  if (c.status !== 'ok') return { text: null, reason: `${c.status}: ${c.reason}` };
  if (show === 'bytes') return { text: ((c.size.mainBytes + c.size.walBytes) / 1e6).toFixed(2) };
  if (show === 'ms') return { text: `${num(c.stats.latencyMs.median)} ${pm(c.stats.rme)}` };
  return { text: `${num(c.stats.opsPerSec.median)} ${pm(headlineMargin(c.stats))}` };
}

/**
 * Change of b relative to a in ops/s, %, with its uncertainty (the two margins combined in quadrature).
 * @param {any} a reference case
 * @param {any} b compared case
 */
export function change(a, b) {
  if (a?.status !== 'ok' || b?.status !== 'ok' || !a.stats || !b.stats) return null;
  const r = b.stats.opsPerSec.median / a.stats.opsPerSec.median;
  const u = r * Math.hypot(headlineMargin(a.stats), headlineMargin(b.stats));
  return { pct: (r - 1) * 100, u, withinNoise: Math.abs((r - 1) * 100) <= u };
}
const changeText = (/** @type {ReturnType<typeof change>} */ c) =>
  c ? `${c.withinNoise ? '≈ ' : ''}${c.pct >= 0 ? '+' : '−'}${Math.abs(c.pct).toFixed(1)}% ±${c.u.toFixed(1)}` : 'n/a';

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
    lines: () => list.map((r, i) => `- [${i + 1}] ${one(r)}`),
  };
}

const driverCell = (/** @type {any} */ doc, /** @type {string} */ name) => {
  const d = doc.drivers.find((/** @type {any} */ x) => x.name === name);
  if (!d) return 'not in this run';
  if (d.status !== 'ok') return `${d.status}: ${one(d.reason)}`;
  return `${d.version} (SQLite ${d.sqlite})${d.sqlite3mc ? `, ${d.sqlite3mc.replace('SQLite3 Multiple Ciphers', 'SQLite3MC')}` : ''}`;
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
      e.node,
      `[${doc.run.finishedAt.replace(/\.\d+Z$/, 'Z')}](${resultsLink}/${entry.file})`,
      `${doc.run.mode}${doc.run.status === 'interrupted' ? ', interrupted' : ''}`,
      one(e.cpuModel),
      String(e.cores),
      `${Math.round(e.memoryBytes / 2 ** 30)} GiB`,
      `${e.platform} ${e.osRelease}`,
      one(image),
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
    table.push([doc.environment.node, ...COLUMNS.map((col) => {
      const f = cellText(findCase(doc, s, col.op), col.show);
      return f.text ?? n.ref(/** @type {string} */ (f.reason));
    }), d?.status === 'ok' ? d.version : n.ref(`${s.driver}: ${d ? `${d.status}: ${d.reason}` : 'not in this run'}`)]);
  }
  const { note } = describeChanges(/** @type {any} */ (CONFIGS.find((c) => c.name === s.config)));
  const title = `${configLabel(s.config)} — ${s.driver}${s.cipher === 'none' ? ', no encryption' : `, ${cipherLabel(s.cipher)}`}`;
  return [`##### ${title}`, '', ...(note ? [`_${note}._`, ''] : []), markdownTable(table, { align: ['l', ...COLUMNS.map(() => 'r'), 'l'] }), ...(n.lines().length ? ['', ...n.lines()] : [])].join('\n');
}

/**
 * Encryption overhead in one document: each cipher against a reference setup.
 * @param {any} doc
 * @param {{ config: string, driver: string, cipher: string }} ref
 * @param {string} title
 */
function overheadTable(doc, ref, title) {
  const table = [['Cipher', ...COMPARED.map(opLabel)]];
  for (const cipher of CIPHERS.filter((c) => c.sqlite3mc)) {
    const s = { config: PRODUCTION_CONFIG, driver: PRODUCTION_DRIVER, cipher: cipher.name };
    const row = COMPARED.map((op) => {
      const base = findCase(doc, ref, op);
      const c = findCase(doc, s, op);
      if (c?.status !== 'ok') return `n/a (${c ? c.status : 'not run'})`;
      if (base?.status !== 'ok') return 'n/a (no reference)';
      return changeText(change(base, c));
    });
    table.push([cipher.label, ...row]);
  }
  return [`##### ${title}`, '', markdownTable(table, { align: ['l', ...COMPARED.map(() => 'r')] })].join('\n');
}

/**
 * Node versions side by side, production config, relative to a reference major.
 * @param {{ entry: any, doc: any }[]} rows
 */
function nodeTable(rows) {
  const s = { config: PRODUCTION_CONFIG, driver: PRODUCTION_DRIVER, cipher: PRODUCTION_CIPHER };
  const majors = rows.map((r) => semver.major(r.doc.environment.node));
  const refRow = rows[majors.indexOf(REFERENCE_MAJOR)] ?? rows[0];
  const table = [['Operation', ...rows.map((r) => r.doc.environment.node + (r === refRow ? ' (reference)' : ''))]];
  for (const op of COMPARED) {
    const ref = findCase(refRow.doc, s, op);
    table.push([opLabel(op), ...rows.map((r) => {
      const c = findCase(r.doc, s, op);
      if (r === refRow) return ref?.status === 'ok' ? `${num(ref.stats.opsPerSec.median)}/s` : `n/a (${ref ? ref.status : 'not run'})`;
      return changeText(change(ref, c));
    })]);
  }
  return [`##### Node versions, ${configLabel(s.config)} (ops/s relative to ${refRow.doc.environment.node})`, '', markdownTable(table, { align: ['l', ...rows.map(() => 'r')] })].join('\n');
}

/**
 * The best config per operation in one document, and whether it stands out from the runner-up.
 * @param {any} doc
 */
function bestTable(doc) {
  const table = [['Operation', 'Best config', 'ops/s', 'Runner-up', 'ops/s', 'Difference']];
  for (const op of COMPARED) {
    const ranked = CONFIGS.map((c) => findCase(doc, { config: c.name, driver: PRODUCTION_DRIVER, cipher: PRODUCTION_CIPHER }, op))
      .filter((c) => c?.status === 'ok')
      .sort((a, b) => b.stats.opsPerSec.median - a.stats.opsPerSec.median);
    if (ranked.length < 2) continue;
    const [a, b] = ranked;
    const d = change(b, a);
    table.push([
      opLabel(op), configLabel(a.config), `${num(a.stats.opsPerSec.median)} ${pm(headlineMargin(a.stats))}`,
      configLabel(b.config), `${num(b.stats.opsPerSec.median)} ${pm(headlineMargin(b.stats))}`,
      d?.withinNoise ? `${changeText(d)}: within noise` : changeText(d),
    ]);
  }
  return [`##### Best configuration per operation (${doc.environment.node}, run of ${doc.run.finishedAt.slice(0, 10)}; ${PRODUCTION_DRIVER}, ${cipherLabel(PRODUCTION_CIPHER)})`, '', markdownTable(table, { align: ['l', 'l', 'r', 'l', 'r', 'r'] })].join('\n');
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
    '**How to read these numbers.** Each ops/s figure is the median of the medians of several rounds of many samples on one machine; ± is its 95% relative margin of error (from the spread of the rounds), the noise within that run: another run on the same machine can differ by more where an operation waits on the disk (fsync), whose speed drifts over minutes. ' +
      'Comparisons are between cases of the same run on the same machine, as a change in ops/s with the two margins combined; ' +
      '"≈" marks a change within that noise, which is no evidence of a difference. Figures from different sections come from different machines and are not comparable.',
  ];
  const platforms = [...new Set(entries.map((e) => e.platform))].sort();
  for (const platform of platforms) {
    out.push('', `### ${platform}`);
    const machines = [...new Set(entries.filter((e) => e.platform === platform).map((e) => e.machine))].sort();
    for (const machine of machines) {
      const rows = newestPerMajor(entries.filter((e) => e.machine === machine)).map((entry) => ({ entry, doc: store.load(entry) }));
      // the newest run; on a tie (one nightly run finishes several cells at once) the highest Node
      const latest = rows.reduce((a, b) => (b.doc.run.finishedAt > a.doc.run.finishedAt || (b.doc.run.finishedAt === a.doc.run.finishedAt && semver.gt(b.doc.environment.node, a.doc.environment.node)) ? b : a));
      const history = entries.filter((e) => e.machine === machine).length;
      out.push('', `#### ${one(machine)}`, '', `Newest run per Node major; ${history} run(s) of this machine class in \`${resultsLink}/\`.`, '', environmentTable(rows, resultsLink));
      out.push('', nodeTable(rows));
      out.push('', bestTable(latest.doc));
      const enc = latest.doc;
      out.push('', `Encryption overhead, ${enc.environment.node}, run of ${enc.run.finishedAt.slice(0, 10)}, ${configLabel(PRODUCTION_CONFIG)} PRAGMAs: ops/s of each cipher relative to the reference.`);
      out.push('', overheadTable(enc, { config: PRODUCTION_CONFIG, driver: PRODUCTION_DRIVER, cipher: 'none' }, `Against ${PRODUCTION_DRIVER} without a key`));
      out.push('', overheadTable(enc, { config: PRODUCTION_CONFIG, driver: 'better-sqlite3', cipher: 'none' }, 'Against better-sqlite3 (unencrypted)'));
      const shown = setups().filter((s) => !(s.config === PRODUCTION_CONFIG && s.driver === PRODUCTION_DRIVER && s.cipher !== PRODUCTION_CIPHER));
      out.push('', `<details><summary>Per configuration: ${shown.length} tables, a row per Node version</summary>`);
      for (const s of shown) out.push('', configTable(rows, s));
      out.push('', '</details>');
    }
  }
  return out.join('\n');
}
