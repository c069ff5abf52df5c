// The machines the figures come from: the newest run per Node major of this machine class, with
// its hardware, OS, runner image and drivers, each run linked to its document.
import { DRIVERS } from '../../bench/tables/drivers.js';
import { inert } from '../../lib/markdown.js';
import { newestPerMajor, REASON_MAX, table, when } from './common.js';

const driverCell = (/** @type {any} */ doc, /** @type {string} */ name) => {
  const d = doc.drivers.find((/** @type {any} */ x) => x.name === name);
  if (!d) return 'not in this run';
  if (d.status !== 'ok') return `${d.status}: ${inert(d.reason, REASON_MAX)}`;
  return `${inert(d.version)} (SQLite ${inert(d.sqlite)})${d.sqlite3mc ? `, ${inert(d.sqlite3mc.replace('SQLite3 Multiple Ciphers', 'SQLite3MC'))}` : ''}`;
};

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const rows = newestPerMajor(ctx.entries).map((entry) => ({ entry, doc: ctx.load(entry) }));
  if (!rows.length) return [];
  // the block leaves out what the machine class's heading already says (CPU, cores, image OS)
  const full = ctx.page === 'results';
  const t = [['Node', 'Run (UTC)', 'Mode', ...(full ? ['CPU', 'Cores', 'Memory', 'OS'] : []), 'Runner image', ...DRIVERS.map((d) => d.name)]];
  for (const { entry, doc } of rows) {
    const e = doc.environment;
    const image = e.ci?.imageOs ? `${e.ci.imageOs} ${e.ci.imageVersion ?? ''}`.trim() : e.ci ? e.ci.provider : 'local';
    t.push([
      inert(e.node),
      `[${inert(when(doc.run.finishedAt))}](${ctx.resultsLink}/${entry.file})`,
      `${doc.run.mode}${doc.run.status === 'interrupted' ? ', interrupted' : ''}`,
      ...(full ? [inert(e.cpuModel), String(e.cores), `${Math.round(e.memoryBytes / 2 ** 30)} GiB`, inert(`${e.platform} ${e.osRelease}`)] : []),
      inert(image),
      ...DRIVERS.map((d) => driverCell(doc, d.name)),
    ]);
  }
  return ['##### Machines: the newest run per Node major (each its own matrix cell, a different VM: not a comparison of Node versions)', table(t)];
}
