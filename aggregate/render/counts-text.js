// A case's counts as text, for the summary: instructions and fsyncs per operation, where the
// instructions go (components), the repeat's spread over the run, and what changed between the
// two sides of a paired comparison.
import { COUNT_FLOOR, componentDifference, componentMoved } from '../../lib/costs.js';
import { MINUS, percent, sign, signedPercent, whole } from '../../lib/format.js';
import { REASON_MAX, inert, table } from '../../lib/markdown.js';
import { PRODUCTION_CONFIG } from '../../bench/data/configs.js';
import { PRODUCTION_DRIVER } from '../../bench/data/drivers.js';
import { COMPONENTS, COMPONENT_LABELS, NATIVE_COMPONENTS } from '../../bench/data/components.js';
import { OPS } from '../../bench/data/ops.js';

/** A count in a few characters: 975.9k, 1.05M, 0.020, 2. */
export function countText(/** @type {number} */ n) {
  if (n >= 1e9) return `${+(n / 1e9).toPrecision(3)}G`;
  if (n >= 1e6) return `${+(n / 1e6).toPrecision(3)}M`;
  if (n >= 1e4) return `${+(n / 1e3).toPrecision(3)}k`;
  if (n >= 100 || Number.isInteger(n)) return String(Math.round(n));
  return n >= 1 ? n.toFixed(2) : n.toFixed(3);
}

/** One case's counts in a cell: "instructions · fsyncs" per operation, or why there are none. */
export function countCell(/** @type {any} */ c) {
  if (!c || c.status !== 'ok' || c.size) return '';
  const k = c.counts;
  if (!k) return '';
  if (k.status !== 'ok') return 'not counted';
  return `${countText(k.instructions)} · ${countText(k.syscalls.fsync)}`;
}

/**
 * What the counts of a comparison's two sides say changed: instructions per operation in percent,
 * then every kind of system call and the bytes written whose counts per operation differ. Empty
 * when either side (the reference case, the compared one) was not counted.
 */
export function countChange(/** @type {any} */ ref, /** @type {any} */ member) {
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
 * A case's instructions per operation by component, in a line: "966k instr = cipher 92% ·
 * SQLite 5.2% · libc 1.9% · runtime 1.2% · binding 0.1%", largest first, those under 0.05% left out.
 */
function componentsText(/** @type {any} */ k) {
  const share = (/** @type {(typeof COMPONENTS)[number]} */ c) => k.components[c] / k.instructions;
  const parts = COMPONENTS.filter((c) => share(c) >= 0.0005)
    .sort((a, b) => share(b) - share(a))
    .map((c) => `${COMPONENT_LABELS[c]} ${percent(share(c), share(c) < 0.1 || share(c) > 0.99 ? 1 : 0)}`);
  return `${countText(k.instructions)} instr = ${parts.join(' · ')}`;
}

/** A signed count: "+1.02M", "−2.1k". */
const signedCount = (/** @type {number} */ n) => `${sign(n)}${countText(Math.abs(n))}`;

/** A share of a whole: whole from 10% up, else one decimal; "−" below 0. */
const share = (/** @type {number} */ x) =>
  `${x < 0 ? MINUS : ''}${(Math.abs(x) * 100).toFixed(Math.abs(x) < 0.1 ? 1 : 0)}%`;

/**
 * Where a difference in instructions per operation goes (lib/costs.js componentDeltas):
 * each component whose change is beyond its own repeat and at least COUNT_FLOOR of the base's
 * instructions (what a total's change must reach), largest first, with its instructions per
 * operation and its share of the whole difference, "of which runtime +1.02M (96%), libc +41k
 * (3.9%)"; then those that hold 1% or more of the base's instructions and did not move, "; SQLite
 * within repeat". Empty without components.
 * @param {Record<string, { delta: number, tolerance: number }> | null | undefined} changes
 * @param {Record<string, number> | undefined} base the base's instructions per operation by component
 */
export function attributionText(changes, base) {
  if (!changes || !base) return '';
  const total = Object.values(changes).reduce((s, x) => s + x.delta, 0);
  const sum = Object.values(base).reduce((s, x) => s + x, 0);
  const of = COMPONENTS.filter((c) => changes[c]);
  const moved = of.filter((c) => componentMoved(changes[c]));
  const parts = moved
    .filter((c) => Math.abs(changes[c].delta) >= COUNT_FLOOR * sum)
    .sort((a, b) => Math.abs(changes[b].delta) - Math.abs(changes[a].delta))
    .map((c) => `${COMPONENT_LABELS[c]} ${signedCount(changes[c].delta)} (${share(changes[c].delta / total)})`);
  const still = of.filter((c) => !moved.includes(c) && base[c] >= 0.01 * sum).map((c) => COMPONENT_LABELS[c]);
  return [
    parts.length ? `of which ${parts.join(', ')}` : 'no component beyond its repeat',
    ...(still.length ? [`${still.join(', ')} within repeat`] : []),
  ].join('; ');
}

/**
 * Where the instructions go, for the production config's counted cases (every driver and
 * cipher), by operation; then, per cipher, what opening a database costs (setup: the key
 * derivation and the first page) beside what an insert costs thereafter, in the cipher's part.
 * Empty when no case of the production config has components.
 */
export function componentLines(/** @type {any} */ doc) {
  const ok = (/** @type {any} */ c) => c.counts?.status === 'ok' && c.counts.components;
  const prod = doc.cases.filter((/** @type {any} */ c) => c.config === PRODUCTION_CONFIG && ok(c));
  if (!prod.length) return [];
  const lines = ['', 'Where one operation’s instructions go, production PRAGMAs (docs/counting.md#components):', ''];
  for (const op of OPS)
    for (const c of prod.filter((/** @type {any} */ x) => x.op === op.name))
      lines.push(`- ${op.name}, ${inert(c.driver)}, ${inert(c.cipher)}: ${componentsText(c.counts)}`);
  const of = (/** @type {string} */ cipher, /** @type {string} */ op) =>
    prod.find((/** @type {any} */ c) => c.driver === PRODUCTION_DRIVER && c.cipher === cipher && c.op === op)?.counts;
  const ciphers = [...new Set(prod.map((/** @type {any} */ c) => c.cipher))].filter((x) => of(x, 'setup'));
  if (ciphers.length)
    lines.push(
      '',
      `Opening against steady state (${inert(PRODUCTION_DRIVER)}): what one open costs (setup: a new file, its key derived, its first pages) and one insert after it, in all and in the cipher:`,
      '',
      table(
        [
          ['Cipher', 'Open', 'of which cipher', 'Insert', 'of which cipher'],
          ...ciphers.map((x) => {
            const [open, insert] = [of(x, 'setup'), of(x, 'insert')];
            const two = (/** @type {any} */ k) =>
              k ? [countText(k.instructions), countText(k.components.cipher)] : ['', ''];
            return [inert(x), ...two(open), ...two(insert)];
          }),
        ],
        ['l', 'r', 'r', 'r', 'r'],
      ),
    );
  return lines;
}

/**
 * How many cases' components each repeat within 0.05% (lib/costs.js componentDifference), for the
 * counting line: the native ones first (bench/data/components.js NATIVE_COMPONENTS).
 */
function componentRepeat(/** @type {any[]} */ cases) {
  const split = cases.filter((c) => c.counts?.status === 'ok' && c.counts.components && c.counts.repeat?.components);
  if (!split.length) return '';
  const within = [...NATIVE_COMPONENTS, /** @type {const} */ ('runtime')].map(
    (n) =>
      `${COMPONENT_LABELS[n]} ${whole(split.filter((c) => (componentDifference(c.counts, n) ?? 0) <= 5e-4).length)}`,
  );
  return ` By component, the cases whose two counts are within 0.05% of each other (of ${whole(split.length)}): ${within.join(', ')}.`;
}

/** The document's counting pass in a line: whether it ran, how far its two counts differ (its cases': components). */
export function countingLine(/** @type {any} */ counting, /** @type {any[]} */ cases = []) {
  if (!counting) return 'Counts: this run did not count (no `counting` in the document).';
  if (counting.status === 'unavailable') return `Counts: not counted: ${inert(counting.reason, REASON_MAX)}.`;
  const r = counting.repeat;
  const head = `Counts (instructions under valgrind ${inert(counting.tools?.valgrind)}'s callgrind, system calls under strace ${inert(counting.tools?.strace)}; ${whole(counting.processes)} processes, ${whole(counting.seconds)} s)`;
  if (!r?.cases) return `${head}: no case counted${counting.reason ? `: ${inert(counting.reason, REASON_MAX)}` : ''}.`;
  const worst = r.worst ? `, worst ${percent(r.worst.difference, 4)} (${inert(r.worst.key)})` : '';
  return (
    `${head}: ${counting.status === 'ok' && counting.reason ? `${inert(counting.reason, REASON_MAX)}. Each` : 'every case'} counted twice in new processes; instructions per operation within 0.1% of each other in ` +
    `${whole(r.within?.['0.1%'])} of ${whole(r.cases)} cases (median difference ${percent(r.quantiles.p50, 4)}${worst}); system calls and bytes ` +
    `the same in ${whole(r.syscallsSame)} of ${whole(r.cases)}.${componentRepeat(cases)}${counting.status === 'error' ? ` Some processes failed: ${inert(counting.reason, REASON_MAX)}.` : ''}`
  );
}
