// One measuring method for every case on every Node: tinybench 4.1.0 (the last release that runs
// on Node 18, so every cell uses the same one), synchronous, with a warm-up, a time budget and a
// minimum sample count.
//
// Operations faster than `minSampleMs` are run `opsPerSample` times per sample, so the harness's
// own cost per sample (two clock reads and a call) stays under about 1% of what it measures;
// every figure is reported per operation. Slower operations are one per sample, so their
// latency percentiles are those of single operations.
import { Bench } from 'tinybench';

/**
 * @typedef {object} Task
 * @property {(n: number) => void} run the timed work: n operations
 * @property {(n: number) => void} [before] untimed preparation for the next n operations
 * @property {() => void} [after] untimed clean-up after each sample
 * @property {number} [maxBatch] the most operations one sample may hold (1: never batch)
 */
/**
 * @typedef {object} Budget
 * @property {number} time ms of measuring per task
 * @property {number} warmupTime ms of warm-up per task (also used to size batches)
 * @property {number} minSamples at least this many samples, even past the time budget
 * @property {number} minSampleMs batch operations faster than this
 */
/**
 * @typedef {object} Stats
 * @property {{ median: number, mean: number, rme: number }} opsPerSec
 * @property {{ median: number, mean: number, p99: number, min: number, max: number, sd: number }} latencyMs per operation
 * @property {number} rme relative margin of error of the mean latency, % (95%)
 * @property {number} samples
 * @property {number} opsPerSample
 * @property {number} totalMs time spent in timed work
 */

/**
 * @param {Task} task
 * @param {number} batch
 * @param {{ time: number, iterations: number }} opts
 */
function runBench(task, batch, opts) {
  const bench = new Bench({ ...opts, warmup: false, throws: true });
  bench.add('task', () => task.run(batch), {
    beforeEach: task.before ? () => task.before?.(batch) : undefined,
    afterEach: task.after,
  });
  bench.runSync();
  const result = /** @type {any} */ (bench.tasks[0].result);
  if (result?.error) throw result.error;
  return result;
}

/**
 * Measure a task. Throws what the task throws.
 * @param {Task} task
 * @param {Budget} budget
 * @returns {Stats}
 */
export function measure(task, budget) {
  // warm-up: also tells how long one operation takes
  const warm = runBench(task, 1, { time: budget.warmupTime, iterations: Math.min(budget.minSamples, 5) });
  const perOp = warm.latency.p50;
  const maxBatch = task.maxBatch ?? 1000;
  const batch = Math.max(1, Math.min(maxBatch, Math.ceil(budget.minSampleMs / Math.max(perOp, 1e-6))));
  const r = runBench(task, batch, { time: budget.time, iterations: budget.minSamples });
  const lat = r.latency;
  const thr = r.throughput;
  return {
    opsPerSec: { median: thr.p50 * batch, mean: thr.mean * batch, rme: thr.rme },
    latencyMs: { median: lat.p50 / batch, mean: lat.mean / batch, p99: lat.p99 / batch, min: lat.min / batch, max: lat.max / batch, sd: lat.sd / batch },
    rme: lat.rme,
    samples: lat.samples.length,
    opsPerSample: batch,
    totalMs: r.totalTime,
  };
}
