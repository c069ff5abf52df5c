// Beyond one operation at a time (bench/workloads/): per machine class, from the newest run that
// measured the workloads (a full one when there is one), the concurrency table (WAL against
// DELETE with 1, 2 and 4 readers beside a writer, and readers alone, each figure with its ±, the
// paired change) and the scale table (each figure at each database size, and how its cost grows per
// 10× more messages). The README shows production's setup; results/README.md every setup, and the
// latencies.
import { inert } from '../../lib/markdown.js';
import { PRODUCTION_CIPHER } from '../../bench/tables/ciphers.js';
import { PRODUCTION_DRIVER } from '../../bench/tables/drivers.js';
import { journalRows, latencyRows, notRunLines, scaleRows } from '../../bench/workloads/tables.js';
import { newestFirst, runName, table } from './common.js';

/**
 * The run the workloads come from: among the newest run per Node major, the newest full one that
 * has workloads, else the newest quick one (a smoke test, said so); on a tie the highest Node.
 * @param {import('./index.js').SectionContext} ctx
 * @returns {any | null}
 */
export function workloadRun(ctx) {
  const withWorkloads = newestFirst(ctx.entries.filter((e) => (e.kind ?? 'result') === 'result')).map((e) => ({ e, doc: ctx.load(e) })).filter((x) => x.doc?.workloads?.cases?.length);
  return (withWorkloads.find((x) => x.doc.run.mode === 'full') ?? withWorkloads[0])?.doc ?? null;
}

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const doc = workloadRun(ctx);
  if (!doc) return [];
  const w = doc.workloads;
  const readme = ctx.page === 'readme';
  const out = ['##### Concurrency and scale', ''];
  const quick = w.mode === 'quick' ? ' A quick run: one round, a smoke test without ±.' : '';
  out.push(`From ${runName(doc)}: ${w.budget.rounds} round(s) per workload, each in fresh processes, in a shuffled order; ± is the wider side of the 95% interval of the median of the rounds.${quick}`, '');
  const production = (/** @type {any} */ s) => s.driver === PRODUCTION_DRIVER && s.cipher === PRODUCTION_CIPHER && s.busyTimeout !== 0;
  // the README: production's setup only, without the setup column
  const journal = readme ? journalRows(w, inert, production).map((r) => r.filter((_, i) => i !== 1)) : journalRows(w, inert);
  if (journal.length > 1) {
    out.push(`Concurrency: one writer inserting a message per transaction and K readers selecting a mailbox's newest 50, each its own connection in a worker thread, on one database${readme ? ` (${PRODUCTION_DRIVER}, ${PRODUCTION_CIPHER}, production's PRAGMAs)` : ''}; WAL against the rollback journal (DELETE), the change paired by round ("≈": within noise).`, '');
    out.push(table(journal, ['l', ...journal[0].slice(1).map(() => 'r')]), '');
    if (!readme) out.push(table(latencyRows(w, inert), ['l', 'r', 'r', 'r', 'r']), '');
  }
  const scale = scaleRows(w, inert);
  if (scale.length > 1) {
    out.push(`Scale: the production setup at ${scale[0].length - 2} database sizes; "cost per 10× messages": how the time per operation (or the ms, the MB) grows when the mailbox grows tenfold (fitted over the sizes).`, '');
    out.push(table(scale, ['l', ...scale[0].slice(1).map(() => 'r')]), '');
  }
  const notRun = notRunLines(w, inert);
  if (notRun.length && !readme) out.push('Not measured:', ...notRun, '');
  while (out[out.length - 1] === '') out.pop();
  return out;
}
