// The readable summary of a result document: one row per (config, driver, cipher), one column
// per operation, each figure with its ±; then every case that did not run, with why.
import { markdownTable } from 'markdown-table';
import { CONFIGS } from './configs.js';
import { OPS } from './ops.js';
import { caseKey } from './suite.js';
import { headlineMargin } from './measure.js';

const fmt = (/** @type {number} */ n) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n >= 10 ? n.toFixed(1) : n.toFixed(2));

/**
 * One cell: ops/s median for fast operations, ms median for slow ones (setup, VACUUM), MB for size.
 * @param {any} c
 */
export function cell(c) {
  if (!c) return '';
  if (c.status !== 'ok') return c.status;
  if (c.size) return `${((c.size.mainBytes + c.size.walBytes) / 1e6).toFixed(2)} MB`;
  const s = c.stats;
  if (c.op === 'setup' || c.op === 'vacuum') return `${fmt(s.latencyMs.median)} ms ±${s.rme.toFixed(1)}%`;
  return `${fmt(s.opsPerSec.median)} ±${headlineMargin(s).toFixed(1)}%`;
}

/** Column headings, from the ops table. */
const heading = (/** @type {import('./ops.js').Op} */ op) =>
  op.name === 'setup' || op.name === 'vacuum' ? `${op.label} (ms)` : op.kind === 'size' ? 'DB + WAL (MB)' : `${op.label}/s`;

/**
 * @param {any} doc a result document
 * @returns {string}
 */
export function summarize(doc) {
  const ops = OPS.filter((op) => doc.cases.some((/** @type {any} */ c) => c.op === op.name));
  /** @type {Map<string, Map<string, any>>} */
  const rows = new Map();
  for (const c of doc.cases) {
    const k = `${c.config}|${c.driver}|${c.cipher}`;
    if (!rows.has(k)) rows.set(k, new Map());
    rows.get(k)?.set(c.op, c);
  }
  const order = (/** @type {string} */ k) => {
    const [config] = k.split('|');
    return CONFIGS.findIndex((x) => x.name === config);
  };
  const keys = [...rows.keys()].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const notes = new Map(doc.configs.map((/** @type {any} */ c) => [c.name, c]));
  const table = [
    ['Config', 'Driver', 'Cipher', ...ops.map(heading)],
    ...keys.map((k) => {
      const [config, driver, cipher] = k.split('|');
      const n = /** @type {any} */ (notes.get(config));
      const label = `${n?.label ?? config}${n?.equalsDefault ? ' (= default)' : ''}`;
      return [label, driver, cipher, ...ops.map((op) => cell(rows.get(k)?.get(op.name)))];
    }),
  ];
  const lines = [markdownTable(table, { align: ['l', 'l', 'l', ...ops.map(() => 'r')] })];
  const drivers = doc.drivers.map((/** @type {any} */ d) =>
    d.status === 'ok'
      ? `- ${d.name} ${d.version}: SQLite ${d.sqlite}${d.sqlite3mc ? `, ${d.sqlite3mc}` : ''}, binary ${d.binary?.origin}`
      : `- ${d.name}: ${d.status}: ${d.reason}`,
  );
  lines.push('', 'Drivers:', ...drivers);
  const defaults = doc.configs.filter((/** @type {any} */ c) => c.note);
  if (defaults.length) lines.push('', 'Configs:', ...defaults.map((/** @type {any} */ c) => `- ${c.label}: ${c.note}`));
  const notOk = doc.cases.filter((/** @type {any} */ c) => c.status !== 'ok');
  if (notOk.length) {
    lines.push('', 'Not measured:');
    /** @type {Map<string, string[]>} */
    const byReason = new Map();
    for (const c of notOk) {
      const r = `${c.status}: ${c.reason}`;
      byReason.set(r, [...(byReason.get(r) ?? []), caseKey(c)]);
    }
    for (const [reason, which] of byReason) lines.push(`- ${which.length} case(s), ${reason} (${which.slice(0, 3).join(', ')}${which.length > 3 ? ', …' : ''})`);
  }
  lines.push('', 'Figures: median ops/s ± the 95% relative margin of that median, from the spread of the rounds (a quick run has one round: tinybench’s margin over its samples); setup and VACUUM: median ms ± the margin of error of the mean of the pooled samples.');
  const slow = doc.run.budget?.slowdown;
  if (slow) lines.unshift(`CALIBRATION RUN: every timed task was slowed by ${+(slow * 100).toFixed(3)}% on purpose (--slowdown); these are not real figures.`, '');
  return lines.join('\n');
}
