// The statistics of a compare, small enough to read in one go. The t distribution comes from
// stdlib (@stdlib/stats-base-dists-t-*); the tests check every function here against SciPy and
// statsmodels values.
//
// One case gives n pairs (base_i, head_i) of ops/s, each pair measured back to back (interleave.js).
// The change is estimated on the log scale, where a ratio is a difference and a slowdown and a
// speedup of the same size weigh the same: d_i = ln(head_i / base_i), a trimmed-mean t-test of
// "d is centred on 0", and a 95% interval exp(mean ± t·se) - 1. Verdicts: lib/judge.js.
import tcdf from '@stdlib/stats-base-dists-t-cdf';
import tquantile from '@stdlib/stats-base-dists-t-quantile';
import erfc from '@stdlib/math-base-special-erfc';
import gammaln from '@stdlib/math-base-special-gammaln';
import { sd as sampleSd } from './spread.js';

/**
 * The share of pairs trimmed from each end: 20%, Wilcox's usual choice. On a shared 2-core VM
 * some measurements are hit by a hiccup of the machine (ops/s 20-30% low for one 100 ms window);
 * with 10 rounds the two lowest and two highest log ratios are set aside.
 */
const TRIM = 0.2;

/**
 * @typedef {object} PairedTest
 * @property {number} n pairs
 * @property {number} trimmed pairs left out at each end (g)
 * @property {number} df degrees of freedom, n - 2g - 1
 * @property {number} change head / base - 1 (exp of the trimmed mean log ratio); negative is slower
 * @property {number} low lower end of the 95% interval of `change`
 * @property {number} high upper end of the 95% interval of `change`
 * @property {number} p two-sided p-value of "no change"
 * @property {number} sd winsorized standard deviation of the log ratios (the noise of one pair)
 * @property {number} se standard error of the trimmed mean
 */

/**
 * Paired test on log ratios: the trimmed-mean t-test of Tukey and McLaughlin (Wilcox's `trimci`).
 * g = floor(trim · n) pairs are left out at each end, the spread is the winsorized standard
 * deviation s_w, se = s_w / ((1 - 2·trim) · √n), df = n - 2g - 1. With trim 0 it is Student's
 * paired t-test. Up to g disturbed pairs at each end then move neither the estimate nor its interval.
 * @param {number[]} base ops/s, one per pair
 * @param {number[]} head ops/s, same length, same order
 * @param {{ trim?: number, level?: number }} [o]
 * @returns {PairedTest}
 */
export function pairedLogTest(base, head, o = {}) {
  const trim = o.trim ?? TRIM;
  const level = o.level ?? 0.95;
  if (base.length !== head.length)
    throw new Error(`pairedLogTest: ${base.length} base figures but ${head.length} head figures`);
  const n = base.length;
  const g = Math.floor(trim * n);
  if (n - 2 * g < 2)
    throw new Error(`pairedLogTest: needs at least ${2 * g + 2} pairs to trim ${g} at each end, got ${n}`);
  const d = base
    .map((b, i) => {
      if (!(b > 0) || !(head[i] > 0))
        throw new Error(`pairedLogTest: pair ${i} is not two positive figures (${b}, ${head[i]})`);
      return Math.log(head[i] / b);
    })
    .sort((a, b) => a - b);
  const kept = d.slice(g, n - g);
  const mean = kept.reduce((a, b) => a + b, 0) / kept.length;
  const w = d.map((x, i) => (i < g ? d[g] : i >= n - g ? d[n - g - 1] : x));
  const sd = sampleSd(w);
  const { se, df } = design(sd, n, trim);
  const half = tquantile(1 - (1 - level) / 2, df) * se;
  let p;
  if (se === 0)
    p = mean === 0 ? 1 : 0; // every kept pair gave the same ratio: no noise to test against
  else p = Math.min(1, 2 * tcdf(-Math.abs(mean / se), df));
  return {
    n,
    trimmed: g,
    df,
    change: Math.expm1(mean),
    low: Math.expm1(mean - half),
    high: Math.expm1(mean + half),
    p,
    sd,
    se,
  };
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

/**
 * Power of the two-sided test at level `alpha` against a true change `delta` of the (trimmed) mean
 * log ratio, given its standard error and degrees of freedom: P(T > t_{1-alpha/2}) for the
 * noncentral t with noncentrality delta / se (the other tail is negligible). Computed as
 * E[ Φc(t_c·√(V/df) - nc) ] over V ~ χ²(df), by Simpson's rule.
 * @param {number} se
 * @param {number} df
 * @param {number} delta |ln(head / base)|
 * @param {number} alpha
 */
export function power(se, df, delta, alpha) {
  const nc = delta / se;
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

/** Standard error and degrees of freedom of `pairedLogTest` for n pairs of (winsorized) sd. */
function design(/** @type {number} */ sd, /** @type {number} */ n, trim = TRIM) {
  return { se: sd / ((1 - 2 * trim) * Math.sqrt(n)), df: n - 2 * Math.floor(trim * n) - 1 };
}

/**
 * How many pairs detect a slowdown of `effect` (fraction of throughput) with the given power at
 * two-sided level `alpha` (already divided by the number of comparisons when correcting), when one
 * pair's log ratio has (winsorized) standard deviation `sd`.
 * @param {number} sd
 * @param {number} effect e.g. 0.10 for 10% slower
 * @param {number} alpha
 * @param {{ power?: number, trim?: number }} [o]
 * @returns {number} pairs (Infinity above 1000)
 */
export function pairsNeeded(sd, effect, alpha, o = {}) {
  const delta = Math.abs(Math.log(1 - effect));
  for (let n = 3; n <= 1000; n++) {
    const { se, df } = design(sd, n, o.trim);
    if (df >= 1 && power(se, df, delta, alpha) >= (o.power ?? 0.95)) return n;
  }
  return Infinity;
}

/**
 * The smallest slowdown (fraction of throughput) that n pairs detect with the given power.
 * @param {number} sd
 * @param {number} n
 * @param {number} alpha
 * @param {{ power?: number, trim?: number }} [o]
 */
export function detectable(sd, n, alpha, o = {}) {
  const { se, df } = design(sd, n, o.trim);
  let lo = 0;
  let hi = 40 * se + 1; // on the log scale
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (power(se, df, mid, alpha) >= (o.power ?? 0.95)) hi = mid;
    else lo = mid;
  }
  return -Math.expm1(-hi);
}
