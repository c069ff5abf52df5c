// How long a run measures: the quick and full budgets, and what a run gives its engines of them.

/** @typedef {import('./measure.js').Budget & { seedMessages: number }} RunBudget */

/** @type {Record<'quick'|'full', RunBudget>} */
export const BUDGETS = {
  quick: { time: 40, warmupTime: 10, minSamples: 3, minSampleMs: 0.02, rounds: 1, seedMessages: 800 },
  // 8 rounds of 120 ms rather than 5 of 200: a comparison's pairs are its blocks, and with slices
  // what moves a pair is the block (a new process, new copies), not the time within it; the
  // trimmed paired test's t drops from 4.30 (5 pairs, 2 df) to 2.57 (8 pairs, 5 df)
  full: {
    time: 120,
    warmupTime: 50,
    minSamples: 2,
    minSampleMs: 0.02,
    rounds: 8,
    maxRounds: 25,
    targetRse: 1,
    deadlineSeconds: 570,
    seedMessages: 2000,
  },
};

/** What a run's engines get of its budget: the measuring parts (bench/run/run-suite.js sessionOptions). */
export const BUDGET_KEYS = /** @type {const} */ (['time', 'warmupTime', 'minSamples', 'minSampleMs', 'seedMessages']);

/**
 * The budget of a run or session: the mode's, with the options' overrides.
 * @param {{ mode: 'quick'|'full', budget?: Partial<RunBudget>, time?: number, slowdown?: number }} o
 * @returns {RunBudget}
 */
export const budgetOf = (o) => ({
  ...BUDGETS[o.mode],
  ...o.budget,
  ...(o.time ? { time: o.time } : {}),
  ...(o.slowdown ? { slowdown: o.slowdown } : {}),
});
