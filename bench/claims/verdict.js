// The verdict on a claim from a paired comparison: where the claimed effect lies against our change
// and its 95% interval, a rule on top of the judge's interval (lib/judge.js `judgeRounds`). Pure:
// the same inputs give the same verdict. Changes are in ops/s, member / reference − 1; a claim
// about time is turned into one about ops/s by bench/data/production-claims.js (faster = fewer ms =
// more ops/s).
// The words: lib/verdicts.js's, a claim's own on top.

/** @typedef {import('../data/production-claims.js').ClaimedChange} ClaimedChange what the table's check claims (kinds: change, direction, minimal, none) */

/** @typedef {import('../../lib/verdicts.js').ClaimVerdict} Verdict */

/**
 * @param {ClaimedChange} claim
 * @param {{ low: number, high: number }} measured the 95% interval of our change (ops/s, member / reference − 1)
 * @returns {Verdict}
 */
export function verdictOf(claim, measured) {
  const { low, high } = measured;
  if (!(low <= high)) throw new Error(`bad interval [${low}, ${high}]`);
  if (claim.kind === 'none') return 'context';
  if (claim.kind === 'minimal') {
    const b = claim.bound;
    if (low >= -b && high <= b) return 'holds';
    if (low > b) return 'larger than claimed';
    if (high < -b) return 'opposite';
    return 'too noisy to tell';
  }
  // a claimed change is of one sign, never 0: bench/claims/validate.js checks the table when loaded
  const sign = claim.kind === 'direction' ? claim.sign : Math.sign(claim.low);
  // the interval on the claim's side: positive is the claimed direction
  const [L, H] = sign > 0 ? [low, high] : [-high, -low];
  if (claim.kind === 'direction') return L > 0 ? 'holds' : H < 0 ? 'opposite' : 'too noisy to tell';
  const [A, B] = sign > 0 ? [claim.low, claim.high] : [-claim.high, -claim.low];
  if (H < 0) return 'opposite';
  if (L <= 0) return H >= A ? 'too noisy to tell' : 'smaller than claimed';
  if (H < A) return 'smaller than claimed';
  if (L > B) return 'larger than claimed';
  return 'holds';
}
