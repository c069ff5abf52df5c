// The spread statistics of the meta benchmarks (bench:precision, bench:floor).

/**
 * The q-quantile, linear between order statistics.
 * @param {number[]} xs
 * @param {number} q
 */
export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  const lo = Math.floor(i);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (i - lo);
}

/** The arithmetic mean. */
export const mean = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The coefficient of variation (sample sd / mean) of some figures, as a fraction.
 * @param {number[]} xs
 */
export function cv(xs) {
  const m = mean(xs);
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
  return sd / m;
}

/** A fraction as a percentage with two decimals. */
export const pct = (/** @type {number} */ x) => `${(x * 100).toFixed(2)}%`;
