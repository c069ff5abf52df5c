// One measuring method for every case on every Node: tinybench 4.1.0 (the last release that runs
// on Node 18, so every cell uses the same one), synchronous, with a warm-up, a time budget and a
// minimum sample count (docs/methodology.md, "The same method on every Node").
//
// `measure` is one round, `combine` turns the rounds into the case's statistics: the headline,
// ops/s median, is the median of the rounds' medians, so one disturbed round does not move it, and
// `medianRse` its uncertainty; every other statistic is tinybench's over the pooled per-operation
// samples of all rounds. Operations faster than `minSampleMs` run `opsPerSample` times per sample;
// slower ones one per sample, so their latency percentiles are those of single operations.
import { Bench } from 'tinybench';
import { median, medianRse } from '../../lib/stats/spread.js';

/**
 * @typedef {object} Task
 * @property {(n: number) => void} run the timed work: n operations
 * @property {(n: number) => void} [before] untimed preparation for the next n operations
 * @property {() => void} [after] untimed clean-up after each sample
 * @property {number} [maxBatch] the most operations one sample may hold (1: never batch)
 */
/**
 * @typedef {object} Budget
 * @property {number} time ms of measuring per task and round
 * @property {number} warmupTime ms of warm-up per task and round (also sizes batches)
 * @property {number} minSamples at least this many samples per round, even past the time budget
 * @property {number} minSampleMs batch operations faster than this
 * @property {number} rounds rounds every case gets
 * @property {number} [maxRounds] at most this many rounds per case (see run.js: extra rounds)
 * @property {number} [targetRse] %: a case gets extra rounds while `medianRse` of its rounds is above this
 * @property {number} [deadlineSeconds] no extra round starts this many seconds after the run started
 * @property {number} [slowdown] calibration only (see `slowed`): fraction of throughput to take away; 0 or absent in every real run
 */
/**
 * @typedef {object} Round
 * @property {number} opsPerSec the round's median ops/s (per operation)
 * @property {number} opsPerSample
 * @property {number[]} latencies per-operation latency of each sample, ms
 * @property {number} [fast] the round's fastest typical ops/s (lib/stats/slice-figures.js FAST_QUANTILE of its slices); rounds measured in slices
 */
/**
 * @typedef {object} Stats
 * @property {{ median: number, mean: number, rme: number, rse?: number }} opsPerSec median: of the rounds' medians; rse: its `medianRse` (3 rounds or more)
 * @property {{ median: number, mean: number, p99: number, min: number, max: number, sd: number }} latencyMs per operation
 * @property {number} rme relative margin of error of the mean latency, % (95%)
 * @property {number} samples pooled over the rounds
 * @property {number} opsPerSample the most any round used
 * @property {number[]} rounds each round's median ops/s
 * @property {number} totalMs time spent in timed work, all rounds
 * @property {{ opsPerSec: number, rounds: number[], rse?: number }} [fast] fastest typical (slices.js): opsPerSec is the
 *   median of the rounds' fast figures; rse its `medianRse` (3 rounds or more)
 */

/**
 * A calibration slowdown: the task's timed work, followed (inside the same timed call) by a busy
 * wait that stretches it to 1 / (1 - fraction) of its own duration, so its throughput falls by
 * exactly `fraction` whatever the operation. Used only by `npm run compare -- --calibrate`
 * (engine flag --slowdown), never in a published result: the aggregate refuses such documents.
 * @param {(n: number) => void} run
 * @param {number} fraction 0 <= fraction < 1
 * @returns {(n: number) => void}
 */
export function slowed(run, fraction) {
  if (!fraction) return run;
  const stretch = 1 / (1 - fraction);
  return (n) => {
    const t0 = performance.now();
    run(n);
    const until = t0 + (performance.now() - t0) * stretch;
    while (performance.now() < until); // busy: a sleep would be coarser than the work it stretches
  };
}

/**
 * @param {Task} task
 * @param {number} batch
 * @param {{ time: number, iterations: number }} opts
 * @param {number} [slowdown]
 */
function runBench(task, batch, opts, slowdown = 0) {
  const run = slowed(task.run, slowdown);
  const bench = new Bench({ ...opts, warmup: false, throws: true });
  // tinybench calls a task once when it is added, to see whether it is async: that call must not
  // do the work (it would open a database that is never closed, or write a row nobody counts).
  let armed = false;
  bench.add(
    'task',
    () => {
      if (armed) run(batch);
    },
    {
      beforeEach: task.before ? () => task.before?.(batch) : undefined,
      afterEach: task.after,
    },
  );
  armed = true;
  bench.runSync();
  const result = /** @type {any} */ (bench.tasks[0].result);
  if (result?.error) throw result.error;
  return result;
}

/**
 * The warm-up of a round (tinybench, `budget.warmupTime`), which also tells how long one operation
 * takes: the operations per sample that keep a sample at `budget.minSampleMs` or more (at most the
 * task's maxBatch). Throws what the task throws. A round measured whole (`measure`) and one in
 * slices (slices.js) start here alike.
 * @param {Task} task
 * @param {Budget} budget
 */
export function warmUp(task, budget) {
  const warm = runBench(task, 1, { time: budget.warmupTime, iterations: 1 }, budget.slowdown);
  const perOp = warm.latency.p50;
  const maxBatch = task.maxBatch ?? 1000;
  return Math.max(1, Math.min(maxBatch, Math.ceil(budget.minSampleMs / Math.max(perOp, 1e-6))));
}

/**
 * Measure one round of a task. Throws what the task throws.
 * @param {Task} task
 * @param {Budget} budget
 * @returns {Round}
 */
export function measure(task, budget) {
  const batch = warmUp(task, budget);
  const r = runBench(task, batch, { time: budget.time, iterations: budget.minSamples }, budget.slowdown);
  return {
    opsPerSec: r.throughput.p50 * batch,
    opsPerSample: batch,
    latencies: r.latency.samples.map((/** @type {number} */ s) => s / batch),
  };
}

/**
 * tinybench's statistics of given samples: a task that reports each sample as its duration.
 * @param {number[]} samples ms
 */
export function tinybenchStats(samples) {
  let i = 0;
  const bench = new Bench({ time: 0, iterations: samples.length, warmup: false, throws: true });
  bench.add('samples', () => ({ overriddenDuration: samples[i++] }));
  i = 0; // the call tinybench makes when the task is added (see runBench) took one
  bench.runSync();
  return /** @type {any} */ (bench.tasks[0].result);
}

/**
 * The statistics of a case from its rounds.
 * @param {Round[]} rounds
 * @returns {Stats}
 */
export function combine(rounds) {
  if (!rounds.length) throw new Error('no rounds to combine');
  const r = tinybenchStats(rounds.flatMap((x) => x.latencies));
  const lat = r.latency;
  const medians = rounds.map((x) => x.opsPerSec);
  const rse = medianRse(medians);
  return {
    opsPerSec: {
      median: median(medians),
      mean: r.throughput.mean,
      rme: r.throughput.rme,
      ...(Number.isNaN(rse) ? {} : { rse }),
    },
    latencyMs: { median: lat.p50, mean: lat.mean, p99: lat.p99, min: lat.min, max: lat.max, sd: lat.sd },
    rme: lat.rme,
    samples: lat.samples.length,
    opsPerSample: Math.max(...rounds.map((x) => x.opsPerSample)),
    rounds: medians,
    totalMs: rounds.reduce((t, x) => t + x.latencies.reduce((a, b) => a + b, 0) * x.opsPerSample, 0),
    ...fastOf(rounds),
  };
}

/** The fastest typical figure of rounds measured in slices (each has `fast`); nothing otherwise. */
function fastOf(/** @type {Round[]} */ rounds) {
  if (!rounds.every((x) => typeof x.fast === 'number')) return {};
  const fast = rounds.map((x) => /** @type {number} */ (x.fast));
  const rse = medianRse(fast);
  return { fast: { opsPerSec: median(fast), rounds: fast, ...(Number.isNaN(rse) ? {} : { rse }) } };
}
