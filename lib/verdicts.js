// Verdicts, one vocabulary: what a paired comparison (a change in ops/s and its 95% interval) found.
// The outcomes, each named once (the keys below):
// - faster, slower: the interval lies wholly above, below 0 (and reaches the check's threshold
//   where it has one);
// - same: the interval lies within ± the threshold: any real change is smaller than it;
// - unclear: the interval holds 0 and reaches beyond the threshold (against a claim: holds both 0
//   and the claim): no evidence either way;
// - notCompared: a side did not measure the case (a reason says why);
// against a claim (bench/claims/verdict.js):
// - holds, smaller, larger: the interval meets the claimed change, lies between 0 and it, beyond it;
// - opposite: it lies on the other side of 0;
// - context: nothing was claimed, the case is measured beside the others.
// Each output writes its own words for them, kept as they are (readers know them, stored documents
// and their schemas hold them); docs/glossary.md "verdict" maps them.
// Built-ins only (no imports at all): the PR comment job reads it without installing anything.

/** The PR check's words (compare.json, the PR comment), in the order its report ranks them. */
export const COMPARE_WORDS = /** @type {const} */ ({
  slower: 'regression',
  faster: 'improvement',
  unclear: 'too noisy to tell',
  notCompared: 'not compared',
  same: 'no change',
});

/** A result document's comparisons (lib/stats/comparison.js): no threshold, so no `same`. */
export const RESULT_WORDS = /** @type {const} */ ({
  faster: 'faster',
  slower: 'slower',
  unclear: 'within noise',
});

/** The shootout's words, for a Node against its base. */
export const SHOOTOUT_WORDS = /** @type {const} */ ({
  faster: RESULT_WORDS.faster,
  slower: RESULT_WORDS.slower,
  same: 'no difference',
  unclear: 'too noisy',
  notCompared: COMPARE_WORDS.notCompared,
});

/** The claims' words (bench/claims/verdict.js). */
export const CLAIM_WORDS = /** @type {const} */ ({
  holds: 'holds',
  smaller: 'smaller than claimed',
  larger: 'larger than claimed',
  opposite: 'opposite',
  unclear: RESULT_WORDS.unclear,
  context: 'context',
});

/** The claims' word for a check the run could not measure, with why (their *not compared*). */
export const NOT_MEASURED = 'not measured';

/** @typedef {typeof COMPARE_WORDS[keyof typeof COMPARE_WORDS]} CompareVerdict */
/** @typedef {typeof RESULT_WORDS[keyof typeof RESULT_WORDS]} ResultVerdict */
/** @typedef {typeof SHOOTOUT_WORDS[keyof typeof SHOOTOUT_WORDS]} ShootoutVerdict */
/** @typedef {typeof CLAIM_WORDS[keyof typeof CLAIM_WORDS]} ClaimVerdict */
