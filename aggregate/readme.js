// The README's results block: replaced between its markers, nothing outside them touched. A README
// whose markers are missing, repeated, out of order or nested is refused: markers are never guessed.
export const START = '<!-- BENCHMARK_RESULTS_START -->';
export const END = '<!-- BENCHMARK_RESULTS_END -->';

const count = (/** @type {string} */ s, /** @type {string} */ m) => s.split(m).length - 1;

/**
 * @param {string} readme
 * @param {string} block
 * @returns {string}
 */
export function replaceBlock(readme, block) {
  const starts = count(readme, START);
  const ends = count(readme, END);
  if (starts !== 1 || ends !== 1) {
    throw new Error(`README.md must contain ${START} and ${END} exactly once each (found ${starts} and ${ends}); not changed`);
  }
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (b < a) throw new Error(`README.md has ${END} before ${START}; not changed`);
  return `${readme.slice(0, a + START.length)}\n${block}\n${readme.slice(b)}`;
}
