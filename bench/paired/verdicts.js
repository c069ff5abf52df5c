// The verdicts a compare gives a case (the PR check's words, lib/verdicts.js), and their count.
// Built-ins only: the PR comment job reads them without installing anything.
import { COMPARE_WORDS } from '../../lib/verdicts.js';

/** Every verdict, in the order the report ranks them. */
export const COMPARE_VERDICTS = /** @type {import('../../lib/verdicts.js').CompareVerdict[]} */ (
  Object.values(COMPARE_WORDS)
);

/**
 * How many rows have each verdict (compare.json `tally`, in this order).
 * @param {{ verdict: string }[]} rows
 */
export function tally(rows) {
  const W = COMPARE_WORDS;
  /** @type {Record<string, number>} */
  const n = Object.fromEntries([W.slower, W.faster, W.same, W.unclear, W.notCompared].map((w) => [w, 0]));
  for (const r of rows) n[r.verdict]++;
  return n;
}
