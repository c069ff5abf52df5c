// Verdicts, one vocabulary: what a paired comparison (a change and its 95% interval) found, in the
// same words in every output (the terminal, the README, the PR comment, the documents):
// - faster, slower: the interval lies wholly above, below 0, and reaches the threshold where the
//   comparison has one (a file's size: slower is bigger by more than the threshold);
// - no change: the interval lies within ± the threshold: any real change is smaller than it;
// - too noisy to tell: no evidence either way (the interval holds 0 and reaches beyond the
//   threshold; against a claim, it holds both 0 and the claim);
// - not compared: a side did not measure the case, with a reason.
// A claim (bench/claims/verdict.js) adds its own words on top: holds, smaller than claimed, larger
// than claimed, opposite (the interval meets the claim, lies between 0 and it, beyond it, on the
// other side of 0) and context (nothing claimed: measured beside the others).
// A case's counts (lib/costs.js) have their words here too: costs more, costs less, cost changed
// (some counts up, some down), same cost, not counted. The rules that give them: lib/judge.js.
// Built-ins only (no imports at all): the PR comment job reads it without installing anything.

export const VERDICTS = /** @type {const} */ ({
  faster: 'faster',
  slower: 'slower',
  same: 'no change',
  unclear: 'too noisy to tell',
  notCompared: 'not compared',
});

/** A claim's words, on top of VERDICTS' unclear and notCompared. */
export const CLAIM_VERDICTS = /** @type {const} */ ({
  holds: 'holds',
  smaller: 'smaller than claimed',
  larger: 'larger than claimed',
  opposite: 'opposite',
  context: 'context',
});

/** A case's counts, compared (lib/costs.js judgeCase), in the order the compare's report tallies them. */
export const COUNT_VERDICTS = /** @type {const} */ ({
  more: 'costs more',
  less: 'costs less',
  changed: 'cost changed',
  same: 'same cost',
  notCounted: 'not counted',
});

/** @typedef {typeof VERDICTS[keyof typeof VERDICTS]} Verdict */
/** @typedef {typeof COUNT_VERDICTS[keyof typeof COUNT_VERDICTS]} CountVerdict */
/** @typedef {typeof CLAIM_VERDICTS[keyof typeof CLAIM_VERDICTS] | typeof VERDICTS.unclear | typeof VERDICTS.notCompared} ClaimVerdict */

/** Every verdict, in the order the compare's report ranks them (slower first). */
export const RANKED = /** @type {Verdict[]} */ ([
  VERDICTS.slower,
  VERDICTS.faster,
  VERDICTS.unclear,
  VERDICTS.notCompared,
  VERDICTS.same,
]);

/** How many rows have each of these words (the compare's report's tallies: the time's, the counts'). */
export function tally(
  /** @type {{ verdict: string }[]} */ rows,
  /** @type {string[]} */ words = Object.values(VERDICTS),
) {
  /** @type {Record<string, number>} */
  const n = Object.fromEntries(words.map((w) => [w, 0]));
  for (const r of rows) n[r.verdict]++;
  return n;
}
