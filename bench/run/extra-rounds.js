// Which cases the next extra round measures (see run-suite.js).

/** An extra round measures at least this many cases (all the imprecise ones, if fewer). */
const MIN_CASES = 16;

/**
 * The cases of the next extra round: those within a factor 2 of the least precise one, so the time goes
 * where the uncertainty is largest (halving a standard error takes four times the rounds), and at
 * least the `minCases` least precise, so an extra round is worth its engine's start (about 0.4 s).
 * @template T
 * @param {{ c: T, rse: number }[]} imprecise every case that may get more rounds and is above the target, with its rse
 * @param {number} [minCases]
 * @returns {T[]} least precise first
 */
export function nextExtraRound(imprecise, minCases = MIN_CASES) {
  if (!imprecise.length) return [];
  const ranked = [...imprecise].sort((a, b) => b.rse - a.rse);
  const floor = Math.min(ranked[0].rse / 2, ranked[Math.min(minCases, ranked.length) - 1].rse);
  return ranked.filter((x) => x.rse >= floor).map((x) => x.c);
}
