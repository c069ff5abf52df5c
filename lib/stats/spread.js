// Robust summaries of a sample: median, quantiles, spread, the standard error of a median. Used by
// the engine (a case's rounds), the compare and the meta benchmarks. Paired tests are in paired.js.

/** The q-quantile, linear between order statistics. */
export function quantile(/** @type {number[]} */ xs, /** @type {number} */ q) {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  const lo = Math.floor(i);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (i - lo);
}

export const mean = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The sample standard deviation of some figures. */
export function sd(/** @type {number[]} */ xs) {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
}

/** The coefficient of variation (sample sd / mean) of some figures, as a fraction. */
export const cv = (/** @type {number[]} */ xs) => sd(xs) / mean(xs);

/** The median of some figures (NaN for none). */
export function median(/** @type {number[]} */ xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length ? (s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2) : NaN;
}

/**
 * A robust standard deviation: the median absolute deviation scaled to a standard deviation
 * (× 1.4826), so one wild figure does not inflate it the way it would inflate a plain sd.
 * @param {number[]} xs
 */
export function mad(xs) {
  const m = median(xs);
  return 1.4826 * median(xs.map((x) => Math.abs(x - m)));
}

/** The robust standard deviation (mad) of the logs of some positive figures. */
export const logSpread = (/** @type {number[]} */ xs) => mad(xs.map(Math.log));

/**
 * The relative standard error, in %, of the median of some positive figures (a case's round
 * medians), estimated from their spread: 1.2533 · σ / √n, the large-sample standard error of a
 * median, with σ their `logSpread`, so one disturbed round does not inflate it.
 * NaN for fewer than 3 figures.
 * @param {number[]} xs
 */
export function medianRse(xs) {
  if (xs.length < 3) return NaN;
  return 100 * Math.expm1((1.2533 * logSpread(xs)) / Math.sqrt(xs.length));
}
