// The margin of a stored case's headline figure: a statistic of result documents, read by the
// summary and the aggregate alike.

/**
 * The wider side of an interval around a figure, as a fraction of the figure.
 * @param {number} value
 * @param {number} low
 * @param {number} high
 */
export const widerSide = (value, low, high) => Math.max(high / value - 1, 1 - low / value);

/**
 * The 95% relative margin, in %, of a case's headline ops/s: the wider side of its interval when it
 * has one (3 rounds or more, bench/result/analysis.js), else 1.96 × its `medianRse` (documents
 * from before the interval), else tinybench's margin of error over the pooled samples (quick runs).
 * @param {{ opsPerSec: { median: number, rme: number, rse?: number, low?: number, high?: number } }} stats
 */
export function headlineMargin(stats) {
  const o = stats.opsPerSec;
  if (typeof o.low === 'number' && typeof o.high === 'number') return 100 * widerSide(o.median, o.low, o.high);
  return typeof o.rse === 'number' ? 1.96 * o.rse : o.rme;
}
