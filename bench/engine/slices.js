// Measuring in slices, at the time scale of the machine's noise: a block's cases take turns, a slice
// of a few milliseconds each per cycle, in a new shuffled order every cycle, so every case sees the
// same mix of the machine's fast and slow states and the two sides of a comparison are milliseconds
// apart (docs/methodology.md, "Rounds in blocks, blocks in slices").
//
// A slice is made of samples of `batch` operations (batch sized as tinybench's warm-up says, so the
// harness's own cost stays under about 1%), each with its untimed preparation and clean-up, timed
// back to back until the slice has SLICE_MS of timed work; an operation slower than that is one
// sample, one slice. A round's figures and the paired figure are statistics of the slices:
// lib/stats/slice-figures.js.
import { slowed, warmUp } from './measure.js';
import { MIN_CYCLES, sliceFigures } from '../../lib/stats/slice-figures.js';
import { shuffle } from '../../lib/prng.js';

export { MIN_CYCLES };
/** ms of timed work in one slice (an operation slower than this is a slice of its own). */
export const SLICE_MS = 2;

/**
 * A task warmed up and ready to be run in slices.
 * @typedef {object} Slicer
 * @property {number} batch operations per sample
 * @property {(ms: number) => { ops: number, ms: number, samples: number[] }} slice run samples until `ms`
 *   of timed work; samples: per-operation ms of each
 */

/**
 * Warm a task up and size its samples as a whole round does (measure.js warmUp), then hand out
 * slices of it.
 * @param {import('./measure.js').Task} task
 * @param {import('./measure.js').Budget} budget
 * @returns {Slicer}
 */
export function slicer(task, budget) {
  const run = slowed(task.run, budget.slowdown ?? 0);
  const batch = warmUp(task, budget);
  return {
    batch,
    slice(ms) {
      const samples = /** @type {number[]} */ ([]);
      let spent = 0;
      let ops = 0;
      do {
        task.before?.(batch);
        const t0 = performance.now();
        run(batch);
        const d = performance.now() - t0;
        task.after?.();
        samples.push(d / batch);
        spent += d;
        ops += batch;
      } while (spent < ms);
      return { ops, ms: spent, samples };
    },
  };
}

/**
 * A case's part of a block: its round's figures and each cycle's slice rate.
 * @typedef {import('./measure.js').Round & { fast: number, slices: number[] }} SlicedRound
 *   slices: ops/s of its slice in each cycle, in cycle order (a case that failed stops early)
 */

/**
 * Measure the cases of one block together, in slices: every cycle runs one slice of each case, in
 * a new shuffled order, until the block has spent `budget.time` ms per case and every case has
 * `budget.minSamples` slices (at least MIN_CYCLES). A case whose task throws leaves the cycle
 * with its error; the others go on.
 * @param {{ task: import('./measure.js').Task }[]} cases
 * @param {import('./measure.js').Budget} budget
 * @param {() => number} random
 * @param {() => void} [beforeCycles] run once, untimed, after the warm-ups (a full GC)
 * @returns {({ round: SlicedRound } | { error: unknown })[]}
 */
export function measureBlock(cases, budget, random, beforeCycles) {
  /** @type {(Slicer | { error: unknown })[]} */
  const slicers = cases.map((c) => {
    try {
      return slicer(c.task, budget);
    } catch (error) {
      return { error };
    }
  });
  beforeCycles?.();
  const rates = cases.map(() => /** @type {number[]} */ ([]));
  const latencies = cases.map(() => /** @type {number[]} */ ([]));
  const live = new Set(slicers.flatMap((s, i) => ('slice' in s ? [i] : [])));
  const total = cases.length * budget.time;
  const cycles = Math.max(MIN_CYCLES, budget.minSamples);
  let spent = 0;
  for (let cycle = 0; live.size && (spent < total || cycle < cycles); cycle++) {
    for (const i of shuffle(random, [...live])) {
      const s = /** @type {Slicer} */ (slicers[i]);
      try {
        const r = s.slice(SLICE_MS);
        rates[i].push((r.ops / r.ms) * 1000);
        latencies[i].push(...r.samples);
        spent += r.ms;
      } catch (error) {
        slicers[i] = { error };
        live.delete(i);
      }
    }
  }
  return slicers.map((s, i) =>
    'slice' in s
      ? { round: { ...sliceFigures(rates[i]), opsPerSample: s.batch, latencies: latencies[i], slices: rates[i] } }
      : { error: s.error },
  );
}
