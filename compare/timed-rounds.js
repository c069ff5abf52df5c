// How many timed rounds each case of a compare gets. Wall time on a shared runner sees a change of
// 10–20% in one case; the counts (lib/costs.js) see a change in a case's CPU cost to a tenth of a
// percent (a select's to a few percent). Where the counts decide the CPU cost and the operation
// waits on nothing else, the timed rounds add little: such a case is timed in fewer rounds, and
// the PR check's minutes go to the cases where wall time still decides (waiting on the disk: an
// fsync is one system call to the counts, whatever the device does). The rule is this table.
import { OPS } from '../bench/data/ops.js';
import { parseCaseKey } from '../bench/data/suite.js';

export const ROUNDS_RULE = /** @type {const} */ ({
  /**
   * Rounds of a case whose counts decide its CPU cost (at most --rounds): 5 pairs still trim one at
   * each end (the 20% trimmed mean), so one hiccup does not decide its wall-time verdict.
   */
  cpuRounds: 5,
  /** The operations whose time is their CPU cost (bench/data/ops.js `bound`). */
  bound: 'cpu',
  /**
   * At most this many fsyncs per operation on either side: one per 100 operations waits about 10 µs
   * per operation at a 1 ms fsync, what the cheapest operation (an update, ~30k instructions) costs
   * in CPU. Counted in quick mode: a select 0, an update 0 (a checkpoint every ~700), a delete 0.05
   * (secure_delete and auto_vacuum: a checkpoint every ~20), synchronous=FULL about 1 (every commit).
   */
  maxFsyncPerOp: 0.01,
  /** Where counting found that the two counts of a side made the same system calls and bytes. */
  exact: true,
});

/** The operations whose figure is exact, not timed (a database's size): one round says it. */
const EXACT_OPS = new Set(OPS.filter((o) => o.kind === 'size').map((o) => o.name));
const CPU_OPS = new Set(OPS.filter((o) => o.kind === 'timed' && o.bound === ROUNDS_RULE.bound).map((o) => o.name));

/**
 * Whether the counts decide a case's CPU cost, so its wall time needs fewer rounds: a CPU-bound
 * operation counted on both sides (counting.cases), each side's system calls repeated exactly
 * where the rule asks, and at most ROUNDS_RULE.maxFsyncPerOp fsyncs per operation on either.
 * @param {string} op
 * @param {any[]} two the case's base and head in counting.cases, status ok
 */
function decidedByCounts(op, two) {
  if (!CPU_OPS.has(op) || two.length !== 2) return false;
  if (ROUNDS_RULE.exact && !two.every((c) => c.syscallsSame !== false)) return false;
  return Math.max(...two.map((c) => c.fsync ?? Infinity)) <= ROUNDS_RULE.maxFsyncPerOp;
}

/**
 * The cases a compare times in fewer rounds: the sizes, and the cases the counts decide.
 * @param {{ status: string, reason?: string, cases?: { side: string, key: string, status: string }[] }} counting
 *   the run's `counting` (bench/shootout/count-nodes.js countRun), its sides base and head
 * @returns {(key: string) => boolean}
 */
export function fewerRounds(counting) {
  const ok = counting.status === 'ok' ? (counting.cases ?? []).filter((c) => c.status === 'ok') : [];
  const decided = new Set(
    [...new Set(ok.map((c) => c.key))].filter((key) =>
      decidedByCounts(
        parseCaseKey(key).op,
        ok.filter((c) => c.key === key && (c.side === 'base' || c.side === 'head')),
      ),
    ),
  );
  return (key) => decided.has(key) || EXACT_OPS.has(parseCaseKey(key).op);
}
