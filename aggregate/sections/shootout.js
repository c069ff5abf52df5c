// "Node versions on one machine": the newest shootout of this machine class (npm run shootout,
// bench/shootout/): every Node measured on one VM in one interleaved run, each against the
// reference Node with its 95% interval and verdict, the rows with the driver held constant kept
// apart from the driver upgrade and from Node 18's older driver. Nothing when the machine class has
// no shootout: Node versions are never compared across matrix cells (different VMs).
import { inert } from '../../lib/markdown.js';
import { table } from './common.js';
import { shootoutLines } from '../../bench/shootout/report.js';
import { PRODUCTION_CIPHER } from '../../bench/tables/ciphers.js';
import { PRODUCTION_DRIVER } from '../../bench/tables/drivers.js';

/**
 * The shootout to show: complete before anything else, full before quick, then the newest.
 * @param {import('../store.js').Entry[]} entries
 */
export function newestShootout(entries) {
  const shootouts = entries.filter((e) => e.kind === 'shootout');
  const better = (/** @type {import('../store.js').Entry} */ a, /** @type {import('../store.js').Entry} */ b) =>
    Number(a.mode === 'full') - Number(b.mode === 'full') || (a.finishedAt > b.finishedAt ? 1 : a.finishedAt < b.finishedAt ? -1 : 0) || (a.file > b.file ? 1 : a.file < b.file ? -1 : 0);
  return shootouts.reduce((/** @type {import('../store.js').Entry | null} */ best, e) => (!best || better(e, best) > 0 ? e : best), null);
}

/**
 * @param {{ entries: import('../store.js').Entry[], load: (e: import('../store.js').Entry) => any, resultsLink: string, page?: 'readme' | 'results' }} ctx
 * @returns {string[]}
 */
export function render(ctx) {
  const entry = newestShootout(ctx.entries);
  if (!entry) return [];
  const doc = ctx.load(entry);
  const count = ctx.entries.filter((e) => e.kind === 'shootout').length;
  return [
    '##### Node versions on one machine',
    '',
    // the README shows production's driver and cipher; results/README.md every setup
    ...(ctx.page === 'readme'
      ? [...shootoutLines(doc, { only: (r) => r.driver === PRODUCTION_DRIVER && r.cipher === PRODUCTION_CIPHER, table }), `Every driver (better-sqlite3, node:sqlite): [the results page](${ctx.resultsLink}/README.md).`, '']
      : shootoutLines(doc, { table })),
    `_From [${inert(entry.file)}](${ctx.resultsLink}/${entry.file})${doc.run.mode === 'quick' ? ' (a quick run: a smoke test, few rounds)' : ''}; ${count} shootout(s) of this machine class in \`${ctx.resultsLink}/\`._`,
  ];
}
