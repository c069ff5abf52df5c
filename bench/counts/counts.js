// From marks to counts per operation: what one counted process found for each of its cases
// (worker.js output, with the instructions or system calls of every interval between marks),
// then the two repeats of a case side by side. Pure functions: pass.js does the I/O.
import { COMPONENTS } from '../data/components.js';
import { RUNTIME, addCounts, emptyCounts, kinds } from './strace.js';

/**
 * @typedef {import('./worker.js').WorkerCase} WorkerCase
 * @typedef {import('./strace.js').SyscallCounts} SyscallCounts
 */

/**
 * @typedef {Record<import('../data/components.js').Component, number>} Components instructions by
 *   component (bench/data/components.js)
 */

/**
 * What a mark costs in one process: the median of its calibration intervals (worker.js
 * MARK_CALIBRATION), which a process that repeats itself gives as equal numbers; with that
 * interval's instructions by component, where the dumps were read whole.
 * @param {number[]} ends the calibration's end marks
 * @param {number[]} costs instructions by mark
 * @param {number[][]} [parts] instructions by mark and component (COMPONENTS order)
 * @returns {{ instructions: number, components?: number[] }}
 */
export function markCostOf(ends, costs, parts) {
  const v = [...ends].sort((a, b) => costs[a] - costs[b]);
  const e = v[Math.floor(v.length / 2)];
  return e === undefined
    ? { instructions: 0 }
    : { instructions: costs[e], ...(parts?.[e] ? { components: parts[e] } : {}) };
}

/**
 * Instructions per operation of one counted case: the timed intervals of its windows, less what
 * their marks cost, over the operations; how far the second half's cost per operation is from
 * the first's; and, where the dumps were read whole, the same by component, which add up to the
 * total: each interval's components add up to its instructions exactly (callgrind.js), and the
 * mark's components to the mark's.
 * @param {import('./worker.js').CountedWindow[]} windows
 * @param {number[]} costs instructions by mark
 * @param {{ instructions: number, components?: number[] }} markCost
 * @param {number[][]} [parts] instructions by mark and component (COMPONENTS order)
 * @returns {{ perOp: number, drift?: number, components?: Components }}
 */
export function instructionsPerOp(windows, costs, markCost, parts) {
  const split = parts && markCost.components ? COMPONENTS.map(() => 0) : null;
  const perWindow = windows.map((w) => {
    let total = 0;
    for (const e of w.ends) {
      if (costs[e] === undefined) throw new Error(`no count for mark ${e}`);
      total += costs[e] - markCost.instructions;
      if (!split) continue;
      const p = parts?.[e];
      if (!p) throw new Error(`no components for mark ${e}`);
      for (let i = 0; i < split.length; i++) split[i] += p[i] - (markCost.components?.[i] ?? 0);
    }
    return { ops: w.ops, total };
  });
  const ops = perWindow.reduce((a, w) => a + w.ops, 0);
  const total = perWindow.reduce((a, w) => a + w.total, 0);
  const [a, b] = perWindow;
  return {
    perOp: total / ops,
    ...(b ? { drift: b.total / b.ops / (a.total / a.ops) - 1 } : {}),
    ...(split
      ? { components: /** @type {Components} */ (Object.fromEntries(COMPONENTS.map((c, i) => [c, split[i] / ops]))) }
      : {}),
  };
}

/**
 * System calls (by name) and bytes per operation of one counted case.
 * @param {import('./worker.js').CountedWindow[]} windows
 * @param {SyscallCounts[]} intervals by mark
 */
export function syscallsPerOp(windows, intervals) {
  const sum = emptyCounts();
  let ops = 0;
  for (const w of windows) {
    ops += w.ops;
    for (const e of w.ends) {
      if (!intervals[e]) throw new Error(`no system calls for mark ${e}`);
      addCounts(sum, intervals[e]);
    }
  }
  const per = (/** @type {number} */ n) => n / ops;
  const calls = Object.fromEntries(
    Object.entries(sum.calls)
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([k, v]) => [k, per(v)]),
  );
  return {
    syscalls: /** @type {ReturnType<typeof kinds>} */ (
      Object.fromEntries(Object.entries(kinds(sum.calls)).map(([kind, n]) => [kind, per(n)]))
    ),
    calls,
    bytes: { read: per(sum.bytesRead), written: per(sum.bytesWritten) },
  };
}

/**
 * @typedef {object} CaseCounts one case's counts in the result document (schema: `counts`)
 * @property {'ok'|'error'} status
 * @property {string} [reason]
 * @property {number} [warmup] operations run before the counted ones
 * @property {number} [ops] operations counted
 * @property {number} [instructions] per operation, first count
 * @property {Components} [components] those instructions by component (bench/data/components.js), adding up to them
 * @property {number} [drift] second half's instructions per operation over the first's, less 1
 * @property {{ fsync: number, write: number, read: number, other: number, runtime: number }} [syscalls] per operation
 * @property {Record<string, number>} [calls] every system call, by name, per operation
 * @property {{ read: number, written: number }} [bytes] per operation, as the read and write calls returned them
 * @property {{ instructions: number, components?: Components, difference: number, syscallsSame: boolean, syscalls?: object, calls?: object, bytes?: object }} [repeat]
 *   the second count, in a new process: its instructions per operation (and by component), their relative difference from the first's, and whether every
 *   system call and byte per operation was the same, leaving out the runtime's own (strace.js RUNTIME); if not,
 *   the repeat's system calls and bytes
 */

/**
 * What the repeat must match: every call but the runtime's own (strace.js RUNTIME), and the bytes.
 * @param {ReturnType<typeof syscallsPerOp>} s
 */
function ioOf(s) {
  const { runtime: _, ...kinds } = s.syscalls;
  return {
    kinds,
    calls: Object.fromEntries(Object.entries(s.calls).filter(([name]) => !RUNTIME.has(name))),
    bytes: s.bytes,
  };
}

/**
 * @typedef {{ instructions?: ReturnType<typeof instructionsPerOp>, syscalls?: ReturnType<typeof syscallsPerOp>, reason?: string, ops?: number, warmup?: number }} OneCount
 *   what one count (callgrind and strace processes) found for a case
 */

/**
 * The two counts of a case, side by side. Either may be missing (its process failed) or not ok.
 * @param {OneCount} a first count
 * @param {OneCount} b the repeat
 * @returns {CaseCounts}
 */
export function caseCounts(a, b) {
  const reason = a.reason ?? b.reason;
  if (reason) return { status: 'error', reason };
  if (!a.instructions || !b.instructions || !a.syscalls || !b.syscalls)
    return { status: 'error', reason: 'a counted process did not report this case' };
  const same = JSON.stringify(ioOf(a.syscalls)) === JSON.stringify(ioOf(b.syscalls));
  return {
    status: 'ok',
    warmup: a.warmup,
    ops: a.ops,
    instructions: a.instructions.perOp,
    ...(a.instructions.components ? { components: a.instructions.components } : {}),
    ...(a.instructions.drift === undefined ? {} : { drift: a.instructions.drift }),
    ...a.syscalls,
    repeat: {
      instructions: b.instructions.perOp,
      ...(b.instructions.components ? { components: b.instructions.components } : {}),
      difference: b.instructions.perOp / a.instructions.perOp - 1,
      syscallsSame: same,
      ...(same ? {} : { syscalls: b.syscalls.syscalls, calls: b.syscalls.calls, bytes: b.syscalls.bytes }),
    },
  };
}

/**
 * How far the repeats differ over all counted cases: the distribution of |difference| in
 * instructions, the worst case named, and how many cases repeat their system calls exactly.
 * @param {{ key: string, counts: CaseCounts }[]} counted
 */
export function repeatSpread(counted) {
  const ok = counted.filter((c) => c.counts.status === 'ok' && c.counts.repeat);
  const diffs = ok
    .map((c) => ({
      key: c.key,
      d: Math.abs(/** @type {NonNullable<CaseCounts['repeat']>} */ (c.counts.repeat).difference),
    }))
    .sort((x, y) => x.d - y.d);
  const q = (/** @type {number} */ p) =>
    diffs.length ? diffs[Math.min(diffs.length - 1, Math.floor(p * diffs.length))].d : 0;
  const worst = diffs.at(-1);
  return {
    cases: ok.length,
    within: {
      '0.001%': diffs.filter((x) => x.d <= 1e-5).length,
      '0.01%': diffs.filter((x) => x.d <= 1e-4).length,
      '0.1%': diffs.filter((x) => x.d <= 1e-3).length,
      '1%': diffs.filter((x) => x.d <= 1e-2).length,
    },
    quantiles: { p50: q(0.5), p90: q(0.9), p99: q(0.99), max: worst?.d ?? 0 },
    ...(worst ? { worst: { key: worst.key, difference: worst.d } } : {}),
    syscallsSame: ok.filter((c) => c.counts.repeat?.syscallsSame).length,
  };
}
