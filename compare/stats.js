// The statistics of a compare, small enough to read in one go. The t distribution comes from
// stdlib (@stdlib/stats-base-dists-t-*); the tests check every function here against SciPy and
// statsmodels values.
//
// One case gives n pairs (base_i, head_i) of ops/s, each pair measured back to back in separate
// processes (ABBA order, see run.js). The change is estimated on the log scale, where a ratio is a
// difference and a slowdown and a speedup of the same size weigh the same: d_i = ln(head_i / base_i),
// a paired (one-sample) t-test of mean(d) = 0, and a 95% interval exp(mean ± t·se) - 1.
import tcdf from '@stdlib/stats-base-dists-t-cdf';
import tquantile from '@stdlib/stats-base-dists-t-quantile';
import erfc from '@stdlib/math-base-special-erfc';
import gammaln from '@stdlib/math-base-special-gammaln';

/**
 * @typedef {object} PairedTest
 * @property {number} n pairs
 * @property {number} change head / base - 1 (geometric mean of the ratios); negative is slower
 * @property {number} low lower end of the 95% interval of `change`
 * @property {number} high upper end of the 95% interval of `change`
 * @property {number} p two-sided p-value of "no change"
 * @property {number} sd standard deviation of the log ratios (the noise of one pair)
 */

/**
 * Paired t-test on log ratios.
 * @param {number[]} base ops/s, one per pair
 * @param {number[]} head ops/s, same length, same order
 * @param {number} [level] confidence level of the interval
 * @returns {PairedTest}
 */
export function pairedLogTest(base, head, level = 0.95) {
  if (base.length !== head.length) throw new Error(`pairedLogTest: ${base.length} base figures but ${head.length} head figures`);
  const n = base.length;
  if (n < 2) throw new Error(`pairedLogTest: needs at least 2 pairs, got ${n}`);
  const d = base.map((b, i) => {
    if (!(b > 0) || !(head[i] > 0)) throw new Error(`pairedLogTest: pair ${i} is not two positive figures (${b}, ${head[i]})`);
    return Math.log(head[i] / b);
  });
  const mean = d.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(d.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const se = sd / Math.sqrt(n);
  const df = n - 1;
  const half = tquantile(1 - (1 - level) / 2, df) * se;
  let p;
  if (se === 0) p = mean === 0 ? 1 : 0; // every pair gave the same ratio: no noise to test against
  else p = Math.min(1, 2 * tcdf(-Math.abs(mean / se), df));
  return { n, change: Math.expm1(mean), low: Math.expm1(mean - half), high: Math.expm1(mean + half), p, sd };
}

/**
 * Holm's step-down adjustment: family-wise error rate control for any dependence between tests.
 * Returns adjusted p-values in the input order; reject where adjusted p < alpha.
 * @param {number[]} p
 * @returns {number[]}
 */
export function holm(p) {
  const m = p.length;
  const order = p.map((x, i) => [x, i]).sort((a, b) => a[0] - b[0]);
  const out = new Array(m);
  let running = 0;
  order.forEach(([x, i], k) => {
    running = Math.max(running, Math.min(1, (m - k) * x));
    out[i] = running;
  });
  return out;
}

/** @typedef {'regression' | 'improvement' | 'no change' | 'too noisy to tell'} Verdict */

/**
 * The verdict of one case, from its interval and its corrected significance.
 * - regression: significantly slower after the correction, and the interval reaches a slowdown of
 *   `threshold` or more (the slowdown is real and may be as large as the threshold);
 * - improvement: the same, faster;
 * - no change: the whole interval lies within ±threshold (any real change is smaller than it);
 * - too noisy to tell: not significant, and the interval reaches beyond ±threshold.
 * @param {{ low: number, high: number }} t
 * @param {boolean} significant
 * @param {number} threshold e.g. 0.10
 * @returns {Verdict}
 */
export function verdict(t, significant, threshold) {
  if (significant && t.high < 0 && t.low <= -threshold) return 'regression';
  if (significant && t.low > 0 && t.high >= threshold) return 'improvement';
  if (t.low > -threshold && t.high < threshold) return 'no change';
  return 'too noisy to tell';
}

/**
 * Power of the two-sided paired t-test at level `alpha` against a true change `delta` of the mean
 * log ratio, with n pairs of standard deviation sd: P(T > t_{1-alpha/2}) for the noncentral t with
 * n - 1 degrees of freedom and noncentrality delta·√n / sd (the other tail is negligible).
 * Computed as E[ Φc(t_c·√(V/df) - nc) ] over V ~ χ²(df), by Simpson's rule.
 * @param {number} sd
 * @param {number} delta |ln(head / base)|
 * @param {number} n
 * @param {number} alpha
 */
export function power(sd, delta, n, alpha) {
  const df = n - 1;
  const nc = (delta * Math.sqrt(n)) / sd;
  const tc = tquantile(1 - alpha / 2, df);
  const logNorm = -(df / 2) * Math.LN2 - gammaln(df / 2);
  const top = df + 14 * Math.sqrt(2 * df) + 30;
  const steps = 4000;
  const h = top / steps;
  let sum = 0;
  for (let i = 0; i <= steps; i++) {
    const v = i * h;
    const pdf = v === 0 ? (df === 2 ? 0.5 : 0) : Math.exp(logNorm + (df / 2 - 1) * Math.log(v) - v / 2);
    const tail = 0.5 * erfc((tc * Math.sqrt(v / df) - nc) / Math.SQRT2);
    sum += (i === 0 || i === steps ? 1 : i % 2 ? 4 : 2) * pdf * tail;
  }
  return Math.min(1, (sum * h) / 3);
}

/**
 * How many pairs detect a slowdown of `effect` (fraction of throughput) with the given power at
 * two-sided level `alpha` (already divided by the number of comparisons when correcting), when one
 * pair's log ratio has standard deviation `sd`.
 * @param {number} sd
 * @param {number} effect e.g. 0.10 for 10% slower
 * @param {number} alpha
 * @param {number} [target] power
 * @returns {number} pairs (Infinity above 1000)
 */
export function pairsNeeded(sd, effect, alpha, target = 0.95) {
  const delta = Math.abs(Math.log(1 - effect));
  for (let n = 2; n <= 1000; n++) if (power(sd, delta, n, alpha) >= target) return n;
  return Infinity;
}

/**
 * The smallest slowdown (fraction of throughput) that n pairs detect with the given power.
 * @param {number} sd
 * @param {number} n
 * @param {number} alpha
 * @param {number} [target] power
 */
export function detectable(sd, n, alpha, target = 0.95) {
  let lo = 0;
  let hi = 20 * sd + 1; // on the log scale
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (power(sd, mid, n, alpha) >= target) hi = mid;
    else lo = mid;
  }
  return -Math.expm1(-hi);
}
