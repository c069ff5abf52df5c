// A case's counts as text, for the summary: instructions and fsyncs per operation, the repeat's
// spread over the run, and what changed between the two sides of a paired comparison.
import { percent, signedPercent, whole } from '../../lib/format.js';
import { REASON_MAX, inert } from '../../lib/markdown.js';

/**
 * A count in a few characters: 975.9k, 1.05M, 0.020, 2.
 * @param {number} n
 */
export function countText(n) {
  if (n >= 1e9) return `${+(n / 1e9).toPrecision(3)}G`;
  if (n >= 1e6) return `${+(n / 1e6).toPrecision(3)}M`;
  if (n >= 1e4) return `${+(n / 1e3).toPrecision(3)}k`;
  if (n >= 100 || Number.isInteger(n)) return String(Math.round(n));
  return n >= 1 ? n.toFixed(2) : n.toFixed(3);
}

/**
 * One case's counts in a cell: "instructions · fsyncs" per operation, or why there are none.
 * @param {any} c a case of a result document
 */
export function countCell(c) {
  if (!c || c.status !== 'ok' || c.size) return '';
  const k = c.counts;
  if (!k) return '';
  if (k.status !== 'ok') return 'not counted';
  return `${countText(k.instructions)} · ${countText(k.syscalls.fsync)}`;
}

/**
 * What the counts of a comparison's two sides say changed: instructions per operation in percent,
 * then every kind of system call and the bytes written whose counts per operation differ. Empty
 * when either side was not counted.
 * @param {any} ref the reference case
 * @param {any} member the compared case
 */
export function countChange(ref, member) {
  const a = ref?.counts;
  const b = member?.counts;
  if (a?.status !== 'ok' || b?.status !== 'ok') return '';
  const parts = [`instr ${signedPercent(b.instructions / a.instructions - 1)}`];
  for (const kind of /** @type {const} */ (['fsync', 'write', 'read']))
    if (a.syscalls[kind] !== b.syscalls[kind])
      parts.push(`${kind} ${countText(a.syscalls[kind])}→${countText(b.syscalls[kind])}`);
  if (a.bytes.written !== b.bytes.written)
    parts.push(`written ${countText(a.bytes.written)}→${countText(b.bytes.written)} B`);
  return parts.join(', ');
}

/**
 * The counting pass in a line: whether it ran, and how far its two counts differ.
 * @param {any} counting the document's `counting`
 */
export function countingLine(counting) {
  if (!counting) return 'Counts: this run did not count (no `counting` in the document).';
  if (counting.status === 'unavailable') return `Counts: not counted: ${inert(counting.reason, REASON_MAX)}.`;
  const r = counting.repeat;
  const head = `Counts (instructions under valgrind ${inert(counting.tools?.valgrind)}'s callgrind, system calls under strace ${inert(counting.tools?.strace)}; ${whole(counting.processes)} processes, ${whole(counting.seconds)} s)`;
  if (!r?.cases) return `${head}: no case counted${counting.reason ? `: ${inert(counting.reason, REASON_MAX)}` : ''}.`;
  const worst = r.worst ? `, worst ${percent(r.worst.difference, 4)} (${inert(r.worst.key)})` : '';
  return (
    `${head}: ${counting.status === 'ok' && counting.reason ? `${inert(counting.reason, REASON_MAX)}. Each` : 'every case'} counted twice in new processes; instructions per operation within 0.1% of each other in ` +
    `${whole(r.within?.['0.1%'])} of ${whole(r.cases)} cases (median difference ${percent(r.quantiles.p50, 4)}${worst}); system calls and bytes ` +
    `the same in ${whole(r.syscallsSame)} of ${whole(r.cases)}.${counting.status === 'error' ? ` Some processes failed: ${inert(counting.reason, REASON_MAX)}.` : ''}`
  );
}
