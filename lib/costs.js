// The counts of two sides compared (the compare's base and head; a claim's reference and variant):
// what each case costs per operation on either side (instructions under callgrind; fsyncs, writes
// and bytes under strace; bench/counts/), side by side, and whether the cost changed. Counts do not move with the machine: a change beyond what two processes of the same
// code disagree by is a change in the code's cost, found where wall time is too noisy to tell.
// Pure functions over each side's `npm run counts` output (bench/counts/cli.js); built-ins only
// (the PR comment renders them).

/**
 * The smallest change in instructions/op that is called a change: 0.1%, above the repeat spread of
 * 99% of the cases on Node 20 (docs/counting.md: p99 0.044%).
 */
export const INSTRUCTIONS_FLOOR = 0.001;
/** A case's tolerance is at least this many times the largest disagreement of its own two counts on either side. */
export const SPREAD_TIMES = 3;
/**
 * ...and at least this many times the largest disagreement of any case of its operation: the
 * repeat runs with the heap laid out differently (bench/counts/cli.js), and a select's count moves
 * with the layout by about 1% either way, so two layouts, base's and head's, may lie twice that apart.
 */
export const OP_SPREAD_TIMES = 2;
/**
 * The PR check fails on an increase in instructions/op of this much or more (beyond the
 * tolerance), or in bytes written per operation; smaller increases are reported, not failed.
 */
export const FAIL_INCREASE = 0.01;

/** The system-call counts compared exactly, as [field, label]. */
export const IO = /** @type {const} */ ([
  ['fsync', 'fsync'],
  ['write', 'writes'],
  ['read', 'reads'],
  ['written', 'bytes written'],
  ['bytesRead', 'bytes read'],
]);

/** @typedef {typeof IO[number][0]} IoField */

/**
 * @typedef {object} SideCost one side's counts of a case, per operation
 * @property {number} instructions the mean of its two counts (first and repeat, in new processes)
 * @property {number} spread |repeat / first - 1| of its instructions
 * @property {boolean} exact whether its two counts made the same system calls and bytes
 * @property {Record<IoField, number>} io
 */

/**
 * @typedef {object} CostRow
 * @property {string} key
 * @property {string} op
 * @property {typeof COST_VERDICTS[number]} verdict
 * @property {string} [reason] why not counted
 * @property {SideCost | null} base
 * @property {SideCost | null} head
 * @property {number | null} change instructions/op, head over base, less 1
 * @property {number | null} tolerance the smallest |change| called a change for this case
 * @property {{ field: IoField, base: number, head: number }[]} io the system-call counts that differ
 * @property {boolean} fails whether this case fails the PR check (FAIL_INCREASE, an added fsync or write)
 */

/**
 * One side's counts of a case, or why there are none.
 * @param {any} counts a case's `counts` (bench/counts/counts.js CaseCounts)
 * @returns {SideCost | { reason: string }}
 */
export function sideCost(counts) {
  if (!counts) return { reason: 'not counted' };
  if (counts.status !== 'ok') return { reason: String(counts.reason ?? 'not counted') };
  const a = counts.instructions;
  const b = counts.repeat?.instructions ?? a;
  if (!(a > 0) || !(b > 0)) return { reason: 'no instructions counted' };
  return {
    instructions: (a + b) / 2,
    spread: Math.abs(b / a - 1),
    exact: counts.repeat?.syscallsSame !== false,
    io: {
      fsync: counts.syscalls?.fsync ?? 0,
      write: counts.syscalls?.write ?? 0,
      read: counts.syscalls?.read ?? 0,
      written: counts.bytes?.written ?? 0,
      bytesRead: counts.bytes?.read ?? 0,
    },
  };
}

/** Two exact counts per operation are the same (they are ratios of whole numbers). */
const same = (/** @type {number} */ a, /** @type {number} */ b) => Math.abs(a - b) <= 1e-9 * Math.max(1, a, b);

/**
 * The cases of both sides, compared. A case's instructions changed when |head / base - 1| exceeds
 * its tolerance: the largest of INSTRUCTIONS_FLOOR, SPREAD_TIMES × the larger of its own two repeat
 * spreads, and OP_SPREAD_TIMES × the largest repeat spread of any case of the same operation on
 * either side (the repeat is counted with the heap laid out differently, and a select's count moves
 * by about 1% with the layout, as it does with any change of code: then no select is trusted
 * closer than that, in this compare). Its fsyncs, writes, reads and bytes per
 * operation changed when they differ at all, where both sides counted them the same twice.
 * @param {{ key: string, op: string, counts: any }[]} base
 * @param {{ key: string, op: string, counts: any }[]} head
 * @returns {CostRow[]}
 */
export function costRows(base, head) {
  const sides = [base, head].map((cs) => new Map(cs.map((c) => [c.key, { op: c.op, cost: sideCost(c.counts) }])));
  /** @type {Map<string, number>} */
  const opSpread = new Map();
  for (const m of sides)
    for (const { op, cost } of m.values())
      if ('instructions' in cost) opSpread.set(op, Math.max(opSpread.get(op) ?? 0, cost.spread));
  const keys = [...new Set([...sides[0].keys(), ...sides[1].keys()])].sort();
  return keys.map((key) => {
    const op = /** @type {{ op: string }} */ (sides[0].get(key) ?? sides[1].get(key)).op;
    const [b, h] = sides.map((m) => m.get(key)?.cost ?? { reason: 'not in this side' });
    if (!('instructions' in b) || !('instructions' in h)) {
      const why = 'reason' in b ? `base: ${b.reason}` : `head: ${/** @type {{ reason: string }} */ (h).reason}`;
      return {
        key,
        op,
        verdict: 'not counted',
        reason: why,
        base: 'instructions' in b ? b : null,
        head: 'instructions' in h ? h : null,
        change: null,
        tolerance: null,
        io: [],
        fails: false,
      };
    }
    const change = h.instructions / b.instructions - 1;
    const tolerance = Math.max(
      INSTRUCTIONS_FLOOR,
      SPREAD_TIMES * Math.max(b.spread, h.spread),
      OP_SPREAD_TIMES * (opSpread.get(op) ?? 0),
    );
    const io =
      b.exact && h.exact
        ? IO.filter(([f]) => !same(b.io[f], h.io[f])).map(([field]) => ({
            field,
            base: b.io[field],
            head: h.io[field],
          }))
        : [];
    const moved = Math.abs(change) > tolerance;
    const ups = (moved && change > 0 ? 1 : 0) + io.filter((x) => x.head > x.base).length;
    const downs = (moved && change < 0 ? 1 : 0) + io.filter((x) => x.head < x.base).length;
    const fails =
      (moved && change >= FAIL_INCREASE) ||
      io.some(
        (x) =>
          ((x.field === 'fsync' || x.field === 'write') && x.head > x.base) ||
          (x.field === 'written' && x.head >= x.base * (1 + FAIL_INCREASE)),
      );
    return {
      key,
      op,
      verdict: ups && downs ? 'cost changed' : ups ? 'costs more' : downs ? 'costs less' : 'same cost',
      base: b,
      head: h,
      change,
      tolerance,
      io,
      fails,
    };
  });
}

/** A case's verdict on its counts. */
export const COST_VERDICTS = /** @type {const} */ ([
  'costs more',
  'costs less',
  'cost changed',
  'same cost',
  'not counted',
]);

/** How many cases got each verdict, and how many fail the check. */
export function costTally(/** @type {CostRow[]} */ rows) {
  /** @type {Record<CostRow['verdict'], number>} */
  const n = { 'costs more': 0, 'costs less': 0, 'cost changed': 0, 'same cost': 0, 'not counted': 0 };
  for (const r of rows) n[r.verdict]++;
  return { ...n, fails: rows.filter((r) => r.fails).length };
}
