// The shootout's counts: after the interleaved run, what one operation of every measured case
// costs on each side, in instructions (valgrind's callgrind) and system calls (strace), counted
// twice in new processes (docs/counting.md), each side by its own Node with its own drivers
// (bench/paired/count-sides.js: `npm run counts` under the side's Node and environment, the
// compare's way), and the document's `counting` made of them. Wall time on a shared VM cannot see
// a difference between Nodes under 12-97% in 10 rounds; an instruction count repeats to ~0.01%, so
// a CPU-bound difference is seen beside the time's verdict, with its repeat spread.
import { sig } from '../../lib/format.js';
import { COUNT_METHOD } from '../counts/pass.js';
import { countingTools } from '../counts/tools.js';
import { countDifferences } from '../../lib/costs.js';
import { countEach } from '../paired/count-sides.js';
/** @import { CaseCounts } from '../counts/counts.js' */
/** @import { CountingSection } from '../counts/pass.js' */

const sig6 = (/** @type {number} */ x) => (Number.isFinite(x) ? sig(x) : x);

/**
 * @typedef {object} CountSide what `npm run counts` (bench/counts/cli.js) wrote for one side
 * @property {string} node
 * @property {number} seconds
 * @property {CountingSection} counting
 * @property {{ key: string, counts: CaseCounts }[]} cases
 */

/** A case's components with 6 significant digits. */
const sig6All = (/** @type {Record<string, number>} */ c) =>
  Object.fromEntries(Object.entries(c).map(([k, v]) => [k, sig6(v)]));

/**
 * One side's counted cases as the document keeps them: instructions per operation and how far
 * the repeat was from them, by component in both counts (bench/data/components.js), fsyncs,
 * writes, reads and bytes written and read per operation, whether every system call repeated.
 * @param {string} label
 * @param {Pick<CountSide, 'cases'>} out
 */
export function sideCases(label, out) {
  return out.cases.map(({ key, counts: c }) => {
    if (c.status !== 'ok' || c.instructions === undefined || !c.syscalls || !c.components || !c.repeat?.components)
      return {
        side: label,
        key,
        status: /** @type {const} */ ('error'),
        reason: (c.reason ?? 'not counted').slice(0, 500),
      };
    return {
      side: label,
      key,
      status: /** @type {const} */ ('ok'),
      instructions: sig6(c.instructions),
      difference: sig6(c.repeat.difference),
      components: sig6All(c.components),
      repeatComponents: sig6All(c.repeat.components),
      fsync: sig6(c.syscalls.fsync),
      write: sig6(c.syscalls.write),
      read: sig6(c.syscalls.read),
      ...(c.bytes ? { written: sig6(c.bytes.written), bytesRead: sig6(c.bytes.read) } : {}),
      syscallsSame: c.repeat.syscallsSame,
    };
  });
}

/**
 * @typedef {ReturnType<typeof sideCases>[number]} CountedCase
 */

/**
 * The document's `counting`: each side's pass, its counted cases, and the differences between
 * the compared sides; a side that could not count is kept with its reason.
 * @param {{ label: string, result: { doc: CountSide } | { reason: string } }[]} results
 * @param {import('../data/run-plan.js').SidePair[]} pairs
 * @param {{ mode: 'quick'|'full', tools: { valgrind: string, strace: string }, seconds: number }} o
 */
export function countingSection(results, pairs, o) {
  const sides = results.map(({ label, result }) => {
    if ('reason' in result) return { side: label, status: /** @type {const} */ ('error'), reason: result.reason };
    const out = result.doc;
    const c = out.counting;
    return {
      side: label,
      node: out.node,
      status: /** @type {const} */ ('ok'),
      seconds: sig6(out.seconds),
      ...(c.processes ? { processes: c.processes } : {}),
      ...(c.flags ? { flags: c.flags.node } : {}),
      ...(c.repeat
        ? { repeat: { cases: c.repeat.cases, max: sig6(c.repeat.quantiles.max), syscallsSame: c.repeat.syscallsSame } }
        : {}),
    };
  });
  const cases = results.flatMap(({ label, result }) => ('doc' in result ? sideCases(label, result.doc) : []));
  const bad = sides.find((s) => s.status !== 'ok');
  // unavailable (a side's checkout or machine cannot count) only when no side failed trying
  const failed = results.flatMap(({ result }) => ('status' in result ? [result.status] : []));
  const status = !bad ? 'ok' : failed.length && failed.every((x) => x === 'unavailable') ? 'unavailable' : 'error';
  return {
    status: /** @type {'ok' | 'unavailable' | 'error'} */ (status),
    ...(bad ? { reason: `${bad.side}: ${bad.reason}`.slice(0, 1000) } : {}),
    mode: o.mode,
    tools: o.tools,
    method: COUNT_METHOD,
    seconds: sig6(o.seconds),
    sides,
    cases,
    differences: countDifferences(cases, pairs),
  };
}

/**
 * Count every side of a run of several (the shootout's Nodes, the compare's checkouts) with its
 * flags (bench/paired/count-sides.js countEach), and make the document's `counting` of them. A
 * machine that cannot count (not Linux, no valgrind or strace) gets a section saying why; a side
 * whose pass fails is kept with its reason.
 * @template {import('../paired/count-sides.js').Side} S
 * @param {S[]} sides
 * @param {import('../data/run-plan.js').SidePair[]} pairs
 * @param {(side: S) => string[]} args each side's flags to `npm run counts`
 * @param {import('../paired/count-sides.js').CountOptions & { together?: boolean }} o the layout
 *   (together, jobs) as countEach's, default this machine's
 */
export async function countRun(sides, pairs, args, o) {
  const tools = countingTools();
  if (tools.status !== 'ok')
    return { counting: { status: /** @type {const} */ ('unavailable'), reason: tools.reason }, results: null };
  const started = Date.now();
  const { results, together } = await countEach(sides, args, o);
  const counting = countingSection(
    results.map((result, i) => ({ label: sides[i].label, result })),
    pairs,
    {
      mode: 'quick',
      tools: { valgrind: tools.valgrind, strace: tools.strace },
      seconds: (Date.now() - started) / 1000,
    },
  );
  return { counting, results, together };
}
