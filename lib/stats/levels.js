// How much the machine moves between rounds, measured on the run's own cases: in each block of a
// round (one operation's cases, measured back to back: bench/run/run-suite.js blocksOf) the machine's level is
// the median over the block's cases of (the case's figure that round / the case's median over its
// rounds). The spread of those levels over the rounds is the machine's movement over minutes,
// seen by every case of that operation alike; a repeat run meets the machine at another level.
import { median, sd } from './spread.js';

/**
 * @param {{ op: string, rounds: number[], slots: string[] }[]} cases each case's round figures and the block of each
 * @returns {Record<string, { levels: Record<string, number>, sd: number }>} per operation: each block's level (log), and their standard deviation, in % (NaN with fewer than 3 blocks)
 */
export function machineLevels(cases) {
  /** @type {Map<string, Map<string, number[]>>} op → slot → log ratios */
  const byOp = new Map();
  for (const c of cases) {
    if (c.rounds.length < 3 || c.slots.length !== c.rounds.length) continue;
    const m = Math.log(median(c.rounds));
    const slots = byOp.get(c.op) ?? new Map();
    c.rounds.forEach((x, i) => slots.set(c.slots[i], [...(slots.get(c.slots[i]) ?? []), Math.log(x) - m]));
    byOp.set(c.op, slots);
  }
  const out = /** @type {Record<string, { levels: Record<string, number>, sd: number }>} */ ({});
  for (const [op, slots] of byOp) {
    const levels = Object.fromEntries(
      [...slots].filter(([, xs]) => xs.length >= 3).map(([slot, xs]) => [slot, median(xs)]),
    );
    const ls = Object.values(levels);
    out[op] = { levels, sd: ls.length >= 3 ? 100 * Math.expm1(sd(ls)) : NaN };
  }
  return out;
}
