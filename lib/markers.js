// Generated blocks between markers (the README's results and catalogue): replaced between their
// markers, nothing outside them touched. A text whose markers are missing, repeated, out of order
// or nested is refused: markers are never guessed.
export const START = '<!-- BENCHMARK_RESULTS_START -->';
export const END = '<!-- BENCHMARK_RESULTS_END -->';

const count = (/** @type {string} */ s, /** @type {string} */ m) => s.split(m).length - 1;

/**
 * Replace the text between one start and one end marker, refusing anything else.
 * @param {string} text
 * @param {string} start
 * @param {string} end
 * @param {string} block
 * @param {string} [file] named in the error
 * @returns {string}
 */
export function replaceBetween(text, start, end, block, file = 'README.md') {
  const starts = count(text, start);
  const ends = count(text, end);
  if (starts !== 1 || ends !== 1) {
    throw new Error(
      `${file} must contain ${start} and ${end} exactly once each (found ${starts} and ${ends}); not changed`,
    );
  }
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (b < a) throw new Error(`${file} has ${end} before ${start}; not changed`);
  return `${text.slice(0, a + start.length)}\n${block}\n${text.slice(b)}`;
}

/**
 * @param {string} readme
 * @param {string} block
 */
export const replaceBlock = (readme, block) => replaceBetween(readme, START, END, block);
