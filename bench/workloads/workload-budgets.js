// How long the workloads measure, per mode. Scale's operations use the suite's measuring budget
// (bench/engine/budgets.js) for each operation of a round.
import { BUDGETS } from '../engine/budgets.js';
/** @import { Budget } from '../engine/measure.js' */

/**
 * @typedef {object} WorkloadBudget
 * @property {number} rounds rounds every workload gets, each in fresh processes
 * @property {number} durationMs how long the workers of a concurrency round run
 * @property {number} seedMessages messages in a concurrency template (the suite's size)
 * @property {Budget} ops scale: the budget of each operation in a round
 */

/** @type {Record<'quick' | 'full', WorkloadBudget>} */
export const WORKLOAD_BUDGETS = {
  quick: {
    rounds: 1,
    durationMs: 250,
    seedMessages: BUDGETS.quick.seedMessages,
    ops: { ...pick(BUDGETS.quick), rounds: 1 },
  },
  full: {
    rounds: 5,
    durationMs: 1000,
    seedMessages: BUDGETS.full.seedMessages,
    ops: { ...pick(BUDGETS.full), rounds: 5 },
  },
};

/** @param {Budget} b */
function pick(b) {
  return { time: b.time, warmupTime: b.warmupTime, minSamples: b.minSamples, minSampleMs: b.minSampleMs };
}

/** The longest a round's process may take before it is killed and its workload fails, by kind. */
export const PROCESS_LIMIT_MS = {
  build: 30 * 60_000,
  concurrency: 90_000, // setup limit + duration + stop grace (concurrency.js), with room
  'scale-ops': 10 * 60_000,
  'scale-vacuum': 15 * 60_000,
};
