// "Claims checked": the claims of the production write-up (bench/tables/experiments.js), each with what
// the newest full run of this machine class measured (change and 95% interval, paired within the run)
// and the verdict (bench/claims/verdict.js). The claim and what is checked are the table's words, the
// link the table's; from the document only numbers, verdicts and reasons, the reasons shown inert.
import { claimCells, claimRows } from '../../bench/claims/table.js';
import { SOURCE } from '../../bench/tables/experiments.js';
import { inert } from '../../lib/markdown.js';
import { newestFirst, runName, table } from './common.js';

/**
 * The newest full run (the highest Node on a tie) of the machine class's newest runs per Node major
 * that carries experiments.
 * @param {import('./index.js').SectionContext} ctx
 */
export function claimsRun(ctx) {
  const docs = newestFirst(ctx.entries.filter((e) => (e.kind ?? 'result') === 'result')).filter((e) => e.mode === 'full').map((e) => ctx.load(e));
  return docs.find((d) => Array.isArray(d?.experiments) && d.experiments.length) ?? null;
}

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const doc = claimsRun(ctx);
  if (!doc) return [];
  const rows = claimRows(doc);
  if (!rows.length) return [];
  return [
    '##### Claims checked',
    '',
    `The performance claims of ${SOURCE.publisher}'s [${SOURCE.title}](${SOURCE.url}), each measured in the newest full run (${runName(doc)}): the claim's variant against its reference, in the same blocks of the same rounds; the change with its paired 95% interval. ` +
      `Verdicts: holds (the interval meets the claimed change and excludes 0), smaller or larger than claimed, opposite, within noise (the interval holds 0 and the claim); a claim with no number is judged by its direction ([the rules](${ctx.page === 'results' ? '../' : ''}docs/claims.md)).`,
    '',
    // the README links the source once, above; the results page on every claim
    table(claimCells(rows, { text: (s, max) => inert(s, max), link: ctx.page === 'results' }), ['r', 'l', 'l', 'r', 'r', 'l']),
  ];
}
