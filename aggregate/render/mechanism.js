// What a claim's two sides cost per operation, where the run counted them (bench/counts/): the
// mechanism behind a verdict, e.g. "fsync/op 1 against 0.002", "instructions/op +4.1%". The same
// rule as the compare's counts (lib/costs.js): system calls and bytes per operation differ when
// they differ at all (both counted the same twice); instructions when the change exceeds the
// tolerance and is at least MIN_INSTRUCTIONS (smaller differences between configs say little about
// why one is faster), then in which components (lib/costs.js componentDeltas), e.g. "instructions/op 966k
// against 77.1k (+1152%), of which cipher +884k (99%)".
import { attributionText, countText } from './counts-text.js';
import { componentDeltas, costRows } from '../../lib/costs.js';
import { signedPercent } from '../../lib/format.js';

/** Instruction differences below this are left out of a mechanism. */
const MIN_INSTRUCTIONS = 0.01;

const LABEL = /** @type {const} */ ({
  fsync: 'fsync/op',
  write: 'writes/op',
  read: 'reads/op',
  written: 'bytes written/op',
  bytesRead: 'bytes read/op',
});

/**
 * The counted mechanism of a check: member against reference, or null when either side was not
 * counted or nothing differs.
 * @param {any} reference the reference case of the result document (with `counts`)
 * @param {any} member
 * @param {{ io?: boolean }} [o] io: false leaves the system calls and bytes out (the instructions alone)
 */
export function mechanismOf(reference, member, o = {}) {
  if (reference?.counts?.status !== 'ok' || member?.counts?.status !== 'ok') return null;
  const [row] = costRows(
    [{ key: 'x', op: String(reference.op), counts: reference.counts }],
    [{ key: 'x', op: String(member.op), counts: member.counts }],
  );
  if (!row || !row.base || !row.head || row.change === null) return null;
  const parts = row.io
    .filter((x) => o.io !== false && x.field !== 'read' && x.field !== 'bytesRead')
    .map((x) => `${LABEL[x.field]} ${countText(x.head)} against ${countText(x.base)}`);
  if (Math.abs(row.change) > (row.tolerance ?? 0) && Math.abs(row.change) >= MIN_INSTRUCTIONS)
    parts.push(
      [
        `instructions/op ${countText(row.head.instructions)} against ${countText(row.base.instructions)} (${signedPercent(row.change)})`,
        attributionText(row.components && componentDeltas(row.base, row.components), reference.counts.components),
      ]
        .filter(Boolean)
        .join(', '),
    );
  return parts.length ? parts.join('; ') : null;
}
