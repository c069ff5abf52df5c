// The order of a round: the operations in a shuffled order, and within each operation's block its
// cases in a shuffled order. Every pair a run compares is of cases of the same operation
// (bench/data/run-plan.js), so its two sides are measured in the same block, seconds apart,
// by the same engine process, and a drift of the machine over minutes falls on both. A case's
// round is tagged with its block (`slot`), by which the comparisons pair rounds.
import { shuffle } from '../../lib/prng.js';

/**
 * @template {{ op: string }} C
 * @param {() => number} random
 * @param {C[]} cases
 * @returns {C[]}
 */
export function roundOrder(random, cases) {
  const blocks = /** @type {Map<string, C[]>} */ (new Map());
  for (const c of cases) blocks.set(c.op, [...(blocks.get(c.op) ?? []), c]);
  return shuffle(random, [...blocks.keys()]).flatMap((op) => shuffle(random, /** @type {C[]} */ (blocks.get(op))));
}

/** The block a round of a case was measured in: the round (or pass) and the operation. */
export const slotOf = (/** @type {string} */ round, /** @type {{ op: string }} */ c) => `${round}/${c.op}`;
