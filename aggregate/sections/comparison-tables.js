// results/README.md: every comparison of the newest full run as a table, including the ones the
// README block shows only as a chart (encryption against better-sqlite3).
import { COMPARISONS } from '../../bench/data/comparisons.js';
import { comparisonRun, setupLabel } from './common.js';
import { comparisonTable } from '../render/pair-table.js';

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const doc = comparisonRun(ctx);
  if (!doc?.comparisons?.length) return [];
  return COMPARISONS.filter(
    (c) => c.id !== 'self-check' && doc.comparisons.some((/** @type {any} */ x) => x.id === c.id),
  )
    .flatMap((c) => ['', `##### ${c.title}`, '', comparisonTable(doc, c.id, setupLabel)])
    .slice(1);
}
