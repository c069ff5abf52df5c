// Change points in a nightly series: the nights where a level moved and stayed. Every night runs on
// another VM, so a night-by-night threshold flags VMs, not code: as the best CI dashboards do
// (MongoDB's Otava/Hunter, Chromium's perf dashboard), the history is segmented instead. Per series:
// logs; two alternating modes removed (withoutModes); outliers Hampel-filtered; optimal
// partitioning with a penalty per change point; Otava's gate (Welch's t-test between neighbouring
// segments, p ≤ alpha and at least minChange); correlated nights (lagCorrelation), the storage's
// rounding (roundingOf) and the selection at the gate (selected) in each interval. The method and
// its reasons: docs/pipeline.md#change-points; its settings are set on a synthetic year
// (bench/meta/changepoints-year.js), its coverage and false alarms measured by
// `npm run meta:calibration` (rows b and c).
import tcdf from '@stdlib/stats-base-dists-t-cdf';
import tquantile from '@stdlib/stats-base-dists-t-quantile';
import erfc from '@stdlib/math-base-special-erfc';
import { mad, median } from './stats/spread.js';

/** Nights a segment holds at least (Chromium's perf dashboard: 6). */
const MIN_SEGMENT = 6;
/**
 * The least share of a month's nights a mode holds (withoutModes): a few slow or fast VMs (5% of
 * nights, some weeks more) are outliers for the Hampel filter, not a mode; select's low mode holds
 * 20–50% of the nights.
 */
const MIN_MODE_SHARE = 0.2;
/** A value this many robust sd from its window's median is an outlier (Hampel filter). */
const HAMPEL_K = 3;
/** The Hampel filter's half-window: 3 nights each side. */
const HALF_WINDOW = 3;
/**
 * The least robust sd on the log scale: what 4 significant figures (aggregate/nights.js) leave of an
 * exact count is a rounding error of up to 0.1%, an sd of about 0.03%.
 */
const SD_FLOOR = 3e-4;

/**
 * The settings per kind of series, chosen on the synthetic year (bench/meta/changepoints-year.js):
 * counts (instructions, system calls, bytes per operation) are nearly exact, so a change of 0.5% is
 * one; wall time moves by several % from VM to VM, so a change is 2% or more (Chromium keeps 1%).
 * @type {Record<'count' | 'wall', Options>}
 */
export const SETTINGS = {
  count: { alpha: 1e-5, minChange: 0.005, penalty: 1, halfWindow: 0, states: true },
  wall: { alpha: 1e-7, minChange: 0.02, penalty: 1, minSegment: 14 },
};

/**
 * @typedef {object} Options
 * @property {number} [alpha] the t-test's threshold (default 1e-4)
 * @property {number} [minChange] the least relative change kept (default 0.01)
 * @property {number} [penalty] per change point, in units of the variance × log(n) (default 3)
 * @property {number} [minSegment] nights a segment holds at least (default MIN_SEGMENT)
 * @property {number} [halfWindow] the Hampel filter's nights each side (default HALF_WINDOW); counts
 *   take 0, none: Node 24 counts a fifth of the nights 1% off (two heap layouts), and a window of 7
 *   nights holds 4 of them often enough that the filter makes false steps of 1% of them
 * @property {boolean} [states] each segment's variance at least the series' noise from the 80th
 *   percentile of neighbours' differences (counts: six nights in one heap layout have none of
 *   their own, and the MAD does not see a minority state)
 */

/**
 * @typedef {object} ChangePoint
 * @property {number} index the first value of the new level
 * @property {number} size the change, after / before − 1: as measured, or, found near the gate,
 *   moved SELECTION_SHARE of the way to the size it most likely has among the steps the noise let
 *   through (selected)
 * @property {number} measured the change of the levels as measured (size, before the correction)
 * @property {number} low its 95% interval's lower end (the same scale)
 * @property {number} high its upper end
 * @property {number} p the t-test's p-value between the neighbouring segments
 * @property {number} before the level before: the median of its segment, in the series' unit
 * @property {number} after the level after: the median of its segment
 */

/**
 * The robust sd of a series' values night to night: of the differences between neighbours, / √2.
 * @param {number[]} z
 */
function robustSd(z) {
  if (z.length < 3) return SD_FLOOR;
  const d = z.slice(1).map((x, i) => x - z[i]);
  return Math.max(SD_FLOOR, mad(d) / Math.SQRT2);
}

/**
 * The best split of some sorted values into two groups (least squares), each of `least` or more:
 * where the high group starts, and each group's median and robust sd.
 * @param {number[]} sorted
 * @param {number} least
 */
function twoGroups(sorted, least) {
  const at = bestSplit(prefix(sorted), 0, sorted.length, least);
  if (at < 0) return null;
  const low = sorted.slice(0, at);
  const high = sorted.slice(at);
  return {
    cut: (sorted[at - 1] + sorted[at]) / 2,
    apart: median(high) - median(low),
    spread: Math.max(mad(low), mad(high), SD_FLOOR),
  };
}

/** Nights each side of a night that tell its mode: levels move little within a month. */
const MODE_HALF_WINDOW = 15;

/**
 * Two modes that alternate night to night, removed: each night of the low mode raised by the
 * distance between the modes. A night's mode is told within the month around it (its window of
 * 31 nights split in two groups, least squares), so a level that moves over the year does not mix
 * the modes up. The series has two modes when most windows split into two groups of 15% of their
 * nights or more, 20% and 4 robust sd apart or more, and the nights switch mode at least half as
 * often as independent nights would (a step splits only the windows around it, and switches once).
 * @param {number[]} z logs
 * @returns {{ z: number[], apart: number | null }}
 */
export function withoutModes(z) {
  const n = z.length;
  if (n < 4 * MIN_SEGMENT) return { z, apart: null };
  // most series are one mode at first sight: all their nights split into two groups close together
  const whole = twoGroups(
    [...z].sort((x, y) => x - y),
    Math.ceil(0.05 * n),
  );
  if (!whole || whole.apart < Math.log(1.2)) return { z, apart: null };
  const w = Math.min(MODE_HALF_WINDOW, Math.floor((n - 1) / 2));
  // each night's window: the cut between its two groups where they are two modes, else none
  const cuts = z.map((_, i) => {
    const a = Math.max(0, Math.min(i - w, n - 2 * w - 1));
    const g = twoGroups(
      z.slice(a, a + 2 * w + 1).sort((x, y) => x - y),
      Math.ceil(MIN_MODE_SHARE * (2 * w + 1)),
    );
    return g && g.apart >= Math.log(1.2) && g.apart >= 4 * g.spread ? g : null;
  });
  const split = cuts.filter((g) => g !== null);
  if (split.length < n / 2) return { z, apart: null };
  // a night whose window is no two modes takes the cut of the nearest window that is
  const low = z.map((x, i) => {
    let d = 0;
    while (!cuts[i - d] && !cuts[i + d]) d++;
    return x < /** @type {{ cut: number }} */ (cuts[i - d] ?? cuts[i + d]).cut;
  });
  const share = low.filter(Boolean).length / n;
  const switches = low.filter((x, i) => i > 0 && x !== low[i - 1]).length;
  if (switches < Math.max(4, share * (1 - share) * (n - 1))) return { z, apart: null };
  const apart = median(split.map((g) => g.apart));
  return { z: z.map((x, i) => (low[i] ? x + apart : x)), apart };
}

/**
 * The night-to-night correlation of a series' noise (lag 1, AR(1)'s φ), 0 to 0.9, robustly: the
 * Gnanadesikan–Kettenring correlation (MADs of neighbours' sums and differences) of the residuals
 * from the running median of the month around each night (a median keeps a step's edge). Nights
 * sharing a runner image or a noisy week are correlated; why and how much: docs/pipeline.md#change-points.
 * @param {number[]} z
 */
export function lagCorrelation(z) {
  if (z.length < 8) return 0;
  const h = Math.min(MODE_HALF_WINDOW, Math.floor(z.length / 6));
  const r = z.map((x, i) => x - median(z.slice(Math.max(0, i - h), i + h + 1)));
  const plus = mad(r.slice(1).map((x, i) => x + r[i])) ** 2;
  const minus = mad(r.slice(1).map((x, i) => x - r[i])) ** 2;
  if (!(plus + minus > 0)) return 0;
  // a lag-1 correlation read around a local level of m nights is low by (1 + 3φ)/m (Marriott &
  // Pope, Biometrika 41, 1954): φ read 0.43 for 0.5, 0.62 for 0.7
  const m = Math.min(z.length, 2 * h + 1);
  const phi = Math.min(0.9, Math.max(0, ((m * (plus - minus)) / (plus + minus) + 1) / (m - 3)));
  // read from 91 nights, φ is uncertain (its standard error, the MADs' efficiency of 37% counted,
  // √(2.7 (1 − φ²)/n): 0.15 at φ = 0.5); the nights are taken as correlated as PHI_MARGIN of it
  // above: where φ read low by chance, false steps were 2.5 per 100 series-years (registry, c4)
  return Math.min(0.9, phi + PHI_MARGIN * Math.sqrt((2.7 * (1 - phi * phi)) / z.length));
}

/** Standard errors of φ's reading added to it (lagCorrelation): set by the registry's row c4. */
const PHI_MARGIN = 0.5;

/**
 * The variance of a level's error from its storage at 4 significant figures (aggregate/nights.js)
 * that no number of nights averages out (log scale; docs/pipeline.md#change-points): the rounding's
 * sawtooth, a unit u of the 4th figure, averaged over nights of sd s, Σ u²/(2π²k²) ·
 * exp(−4π²k²s²/u²), u²/12 at s = 0.
 * @param {number} v the level's value
 * @param {number} s the sd of its nights (logs)
 */
function roundingOf(v, s) {
  if (!(v > 0)) return 0;
  const u = 10 ** (Math.floor(Math.log10(v)) - 3) / v;
  if (s < 1e-3 * u) return (u * u) / 12;
  let sum = 0;
  for (let k = 1; k < 100; k++) {
    const term = Math.exp((-4 * Math.PI ** 2 * k * k * s * s) / (u * u)) / (k * k);
    if (term < 1e-9) break;
    sum += term;
  }
  return ((u * u) / (2 * Math.PI ** 2)) * sum;
}

/**
 * The upper 95% point of |A + B|, A and B uniform errors of variances va and vb (the two levels'
 * rounding): on the sum's trapezoid, exactly (a normal's 1.96 sd is wider: 96–100% coverage).
 * @param {number} va
 * @param {number} vb
 */
function roundingQuantile(va, vb) {
  const [a, b] = [Math.sqrt(3 * Math.max(va, vb)), Math.sqrt(3 * Math.min(va, vb))];
  return b <= 0.05 * a ? 0.95 * a : a + b - 2 * Math.sqrt(0.05 * a * b);
}

/**
 * The share of the selective correction (selected) a printed size takes: the whole one is
 * median-unbiased but not mean-unbiased (a change found at the gate goes to about 0). Set on
 * simulated wall-time steps (npm run meta:calibration, rows b4, b5, b7; docs/pipeline.md#change-points).
 */
const SELECTION_SHARE = 0.7;

const upper = (/** @type {number} */ x) => 0.5 * erfc(x / Math.SQRT2);

/**
 * A change found past the gate, |d| > t, overstates a step near it (the noise made it larger). The
 * selective answer (Lee, Sun, Sun & Taylor, Ann. Statist. 44, 2016): the size μ at which d is the
 * q-quantile of N(μ, σ²) given |·| > t; q = 0.5 the median-unbiased size, 0.975 and 0.025 its 95%
 * interval's ends; far above the gate, d and d ± 1.96σ.
 * @param {number} d the change found (log scale)
 * @param {number} sigma its sd
 * @param {number} t the gate
 * @param {number} q
 * @returns {number}
 */
export function selected(d, sigma, t, q) {
  if (d < 0) return -selected(-d, sigma, t, 1 - q);
  // the share of N(μ, σ²) given |·| > t at or below d (falls as μ rises)
  const below = (/** @type {number} */ mu) => {
    const low = upper((t + mu) / sigma);
    const kept = low + upper((t - mu) / sigma);
    return (low + Math.max(0, upper((t - mu) / sigma) - upper((d - mu) / sigma))) / kept;
  };
  let [lo, hi] = [d - 40 * sigma, d + 10 * sigma];
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (below(mid) > q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The size printed for a change d found past the gate t (log scale, sd sigma): SELECTION_SHARE of
 * the way from d to the median-unbiased size among the changes found (selected).
 * @param {number} d
 * @param {number} sigma
 * @param {number} t
 */
export const foundSize = (d, sigma, t) => d + SELECTION_SHARE * (selected(d, sigma, t, 0.5) - d);

/**
 * The Hampel filter: a value more than HAMPEL_K robust sd from the median of its window of
 * 2 × half + 1 nights is replaced by that median (near the ends, the window is cut).
 * @param {number[]} z
 * @param {number} sd
 * @param {number} [half]
 */
function hampel(z, sd, half = HALF_WINDOW) {
  return z.map((x, i) => {
    const m = median(z.slice(Math.max(0, i - half), i + half + 1));
    return Math.abs(x - m) > HAMPEL_K * sd ? m : x;
  });
}

/** Prefix sums of values and squares, for each segment's mean and squared deviations in O(1). */
function prefix(/** @type {number[]} */ z) {
  const s = new Float64Array(z.length + 1);
  const q = new Float64Array(z.length + 1);
  for (let i = 0; i < z.length; i++) {
    s[i + 1] = s[i] + z[i];
    q[i + 1] = q[i] + z[i] * z[i];
  }
  const sum = (/** @type {number} */ a, /** @type {number} */ b) => s[b] - s[a];
  return {
    mean: (/** @type {number} */ a, /** @type {number} */ b) => sum(a, b) / (b - a),
    /** squared deviations from the mean of z[a..b) */
    sse: (/** @type {number} */ a, /** @type {number} */ b) => Math.max(0, q[b] - q[a] - sum(a, b) ** 2 / (b - a)),
  };
}

/**
 * The segmentation of least cost: the sum over segments of squared deviations from their means,
 * plus `beta` per change point, segments of `min` values or more (optimal partitioning).
 * @param {number[]} z
 * @param {number} beta
 * @param {number} min
 * @returns {number[]} the change points: each segment's first index, the first segment's left out
 */
function partition(z, beta, min) {
  const n = z.length;
  if (n < 2 * min) return [];
  const { sse } = prefix(z);
  const cost = new Float64Array(n + 1).fill(Infinity);
  const last = new Int32Array(n + 1).fill(-1);
  cost[0] = -beta;
  for (let t = min; t <= n; t++) {
    // the last segment is z[s..t): s = 0, or s ≥ min so that z[0..s) is a segmentation too
    for (let s = 0; s <= t - min; s = s === 0 ? min : s + 1) {
      const c = cost[s] + sse(s, t) + beta;
      if (c < cost[t]) {
        cost[t] = c;
        last[t] = s;
      }
    }
  }
  /** @type {number[]} */
  const cps = [];
  for (let t = n; last[t] > 0; t = last[t]) cps.unshift(last[t]);
  return cps;
}

/**
 * Welch's t-test between z[a..k) and z[k..b), each segment's variance at least `floor`², times
 * `f` = (1 + φ)/(1 − φ) (correlated nights hold fewer independent ones: the variance of a mean of
 * AR(1) nights), plus `fixed`, each segment's variance no number of nights averages out (the
 * storage's rounding, roundingOf): the difference of the means (after − before), its standard
 * error, degrees of freedom, p-value and 95% interval's half-width.
 * @param {ReturnType<typeof prefix>} pre
 * @param {number} a
 * @param {number} k
 * @param {number} b
 * @param {number} floor
 * @param {number} [f]
 * @param {[number, number]} [fixed] each segment's
 */
function welch(pre, a, k, b, floor, f = 1, fixed = [0, 0]) {
  const n1 = k - a;
  const n2 = b - k;
  const v1 = (f * Math.max(floor * floor, pre.sse(a, k) / (n1 - 1))) / n1;
  const v2 = (f * Math.max(floor * floor, pre.sse(k, b) / (n2 - 1))) / n2;
  const diff = pre.mean(k, b) - pre.mean(a, k);
  const se = Math.sqrt(v1 + v2 + fixed[0] + fixed[1]);
  const df = Math.max(1, (v1 + v2) ** 2 / (v1 ** 2 / (n1 - 1) + v2 ** 2 / (n2 - 1)) / f);
  // the 95% interval's half-width: the nights' part (t) and the rounding's (uniform), in quadrature
  const half = Math.hypot(tquantile(0.975, df) * Math.sqrt(v1 + v2), roundingQuantile(fixed[0], fixed[1]));
  return { diff, se, df, half, p: Math.min(1, 2 * tcdf(-Math.abs(diff / se), df)) };
}

/**
 * Where between a and b one split fits best (least squared deviations), segments of `min` or more.
 * @param {ReturnType<typeof prefix>} pre
 * @param {number} a
 * @param {number} b
 * @param {number} min
 */
function bestSplit(pre, a, b, min) {
  let at = -1;
  let best = Infinity;
  for (let k = a + min; k <= b - min; k++) {
    const c = pre.sse(a, k) + pre.sse(k, b);
    if (c < best) [best, at] = [c, k];
  }
  return at;
}

/**
 * The night one step is most likely at between a and b (least squares), of the series as the
 * detection sees it (modes removed, outliers filtered): what knowing there is one step there gives,
 * the best a method can place it (bench/meta/changepoints-year.js compares with it).
 * @param {number[]} values
 * @param {number} a
 * @param {number} b
 */
export function oneSplit(values, a, b) {
  const centred = withoutModes(values.map(Math.log)).z;
  return bestSplit(prefix(hampel(centred, robustSd(centred))), a, b, 1);
}

/**
 * The change points of a series of positive figures, one per night, oldest first.
 * @param {number[]} values
 * @param {Options} [o]
 * @returns {ChangePoint[]}
 */
export function changePointsOf(values, o = {}) {
  const min = o.minSegment ?? MIN_SEGMENT;
  if (values.length < 2 * min || values.some((v) => !(v > 0) || !Number.isFinite(v))) return [];
  const { z: centred } = withoutModes(values.map(Math.log));
  const phi = lagCorrelation(centred);
  const alpha = o.alpha ?? 1e-4;
  const minChange = o.minChange ?? 0.01;
  const n = values.length;
  // the variance of a mean of AR(1) nights is f times the independent nights'; and the sd from
  // neighbours' differences is σ√(1 − φ)
  const f = (1 + phi) / (1 - phi);
  const sd = Math.max(SD_FLOOR, robustSd(centred) / Math.sqrt(1 - phi));
  const z = hampel(centred, sd, o.halfWindow);
  const pre = prefix(z);
  const beta = (o.penalty ?? 3) * f * sd * sd * Math.log(n);
  let cps = partition(z, beta, min);
  // the gate: the weakest failing change point goes, and its neighbours are tested again
  const bounds = () => [0, ...cps, n];
  const test = (/** @type {number} */ i) => {
    const b = bounds();
    // a segment's own variance may be none (six nights in one heap layout): o.states takes the
    // variance around every level found, pooled (the storage's rounding is its own term)
    const pooled = b.slice(1).reduce((sum, end, j) => sum + pre.sse(b[j], end), 0) / Math.max(1, n - b.length + 1);
    const floor = o.states ? Math.max(1e-5, Math.sqrt(pooled)) : SD_FLOOR;
    const level = (/** @type {number} */ a, /** @type {number} */ e) =>
      roundingOf(median(values.slice(a, e)), Math.sqrt(pre.sse(a, e) / (e - a - 1)));
    return welch(pre, b[i], b[i + 1], b[i + 2], floor, f, [level(b[i], b[i + 1]), level(b[i + 1], b[i + 2])]);
  };
  const fails = (/** @type {ReturnType<typeof test>} */ t) => t.p > alpha || Math.abs(Math.expm1(t.diff)) < minChange;
  for (;;) {
    const tests = cps.map((_, i) => test(i));
    const failing = tests.map((t, i) => ({ t, i })).filter(({ t }) => fails(t));
    if (!failing.length) break;
    const weakest = failing.reduce((w, x) =>
      x.t.p > w.t.p || (x.t.p === w.t.p && Math.abs(x.t.diff) < Math.abs(w.t.diff)) ? x : w,
    );
    cps = cps.filter((_, i) => i !== weakest.i);
  }
  // each kept change point placed again between its neighbours, now that the weak ones are gone
  cps = cps.map((_, i) => {
    const b = bounds();
    return bestSplit(pre, b[i], b[i + 2], min);
  });
  return cps.flatMap((index, i) => {
    const t = test(i);
    if (fails(t)) return [];
    // the gate a change of this sign passed: p ≤ alpha and at least minChange
    const gate = Math.max(tquantile(1 - alpha / 2, t.df) * t.se, Math.abs(Math.log1p(Math.sign(t.diff) * minChange)));
    const sigma = t.half / 1.959964;
    const at = (/** @type {number} */ q) => Math.expm1(selected(t.diff, sigma, gate, q));
    const b = bounds();
    return [
      {
        index,
        size: Math.expm1(foundSize(t.diff, sigma, gate)),
        measured: Math.expm1(t.diff),
        low: at(0.975),
        high: at(0.025),
        p: t.p,
        before: median(values.slice(b[i], index)),
        after: median(values.slice(index, b[i + 2])),
      },
    ];
  });
}
