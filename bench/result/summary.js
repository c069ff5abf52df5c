// The readable summary of a result document: one row per (config, driver, cipher), one column
// per operation, each figure with its ±; then every case that did not run, with why.
import { markdownTable } from 'markdown-table';
import { CONFIGS } from '../tables/configs.js';
import { OPS, columnTitle } from '../tables/ops.js';
import { caseKey, setupKey } from '../tables/suite.js';
import { headlineMargin } from '../engine/measure.js';

const rateText = (/** @type {number} */ n) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n >= 10 ? n.toFixed(1) : n.toFixed(2));

/**
 * One cell, as its operation is shown: ops/s or ms median with its ±, or MB.
 * @param {any} c
 */
export function cell(c) {
  if (!c) return '';
  if (c.status !== 'ok') return c.status;
  const show = OPS.find((o) => o.name === c.op)?.show;
  if (show === 'bytes') return `${((c.size.mainBytes + c.size.walBytes) / 1e6).toFixed(2)} MB`;
  const s = c.stats;
  if (show === 'ms') return `${rateText(s.latencyMs.median)} ms ±${s.rme.toFixed(1)}%`;
  return `${rateText(s.opsPerSec.median)} ±${headlineMargin(s).toFixed(1)}%`;
}

/**
 * @param {any} doc a result document
 * @returns {string}
 */
export function summarize(doc) {
  const ops = OPS.filter((op) => doc.cases.some((/** @type {any} */ c) => c.op === op.name));
  /** @type {Map<string, { setup: import('../tables/suite.js').Setup, byOp: Map<string, any> }>} */
  const rows = new Map();
  for (const c of doc.cases) {
    const k = setupKey(c);
    if (!rows.has(k)) rows.set(k, { setup: { config: c.config, driver: c.driver, cipher: c.cipher }, byOp: new Map() });
    rows.get(k)?.byOp.set(c.op, c);
  }
  const order = (/** @type {string} */ config) => CONFIGS.findIndex((x) => x.name === config);
  const sorted = [...rows.values()].sort((a, b) => order(a.setup.config) - order(b.setup.config) || a.setup.driver.localeCompare(b.setup.driver) || a.setup.cipher.localeCompare(b.setup.cipher));
  const notes = new Map(doc.configs.map((/** @type {any} */ c) => [c.name, c]));
  const table = [
    ['Config', 'Driver', 'Cipher', ...ops.map(columnTitle)],
    ...sorted.map(({ setup: { config, driver, cipher }, byOp }) => {
      const n = /** @type {any} */ (notes.get(config));
      const label = `${n?.label ?? config}${n?.equalsDefault ? ' (= default)' : ''}`;
      return [label, driver, cipher, ...ops.map((op) => cell(byOp.get(op.name)))];
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
