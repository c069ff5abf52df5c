// The verdicts a compare gives a case, and their count. Built-ins only: the PR comment job reads
// them without installing anything.

/** Every verdict, in the order the report ranks them. */
export const VERDICTS = /** @type {const} */ ([
  'regression',
  'improvement',
  'too noisy to tell',
  'not compared',
  'no change',
]);

/**
 * How many rows have each verdict.
 * @param {{ verdict: string }[]} rows
 */
export function tally(rows) {
  /** @type {Record<string, number>} */
  const n = { regression: 0, improvement: 0, 'no change': 0, 'too noisy to tell': 0, 'not compared': 0 };
  for (const r of rows) n[r.verdict]++;
  return n;
}
