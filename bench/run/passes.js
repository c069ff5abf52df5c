// Which cases the next pass of extra rounds measures (see run-suite.js).

/** An extra pass measures at least this many cases (all the imprecise ones, if fewer). */
const MIN_PASS = 16;

/**
 * The cases of the next pass: those within a factor 2 of the least precise one, so the time goes
 * where the uncertainty is largest (halving a standard error takes four times the rounds), and at
 * least the `minPass` least precise, so a pass is worth its engine's start (about 0.4 s).
 * @template T
 * @param {{ c: T, rse: number }[]} imprecise every case that may get more rounds and is above the target, with its rse
 * @param {number} [minPass]
 * @returns {T[]} least precise first
 */
export function nextPass(imprecise, minPass = MIN_PASS) {
  if (!imprecise.length) return [];
  const ranked = [...imprecise].sort((a, b) => b.rse - a.rse);
  const floor = Math.min(ranked[0].rse / 2, ranked[Math.min(minPass, ranked.length) - 1].rse);
  return ranked.filter((x) => x.rse >= floor).map((x) => x.c);
}
