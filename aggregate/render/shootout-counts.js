// The shootout's counts in Markdown (its document's `counting`, bench/shootout/count-nodes.js): per
// comparison group a table of the instruction differences against the same base sides as the
// time's tables, each cell the change in instructions per operation with the larger of the two
// sides' repeat differences; then, for every difference beyond its repeat, where it goes (the
// components: runtime, binding, SQLite, cipher, libc); then every side's counts per case. Shown
// after the time's tables by the CLI's summary and results/README.md (shootout-report.js); a
// machine that could not count gets one line saying why. Every string that came from a document goes through lib/markdown.js.
import { inert, table } from '../../lib/markdown.js';
import { MINUS, sign } from '../../lib/format.js';
import { attributionText, countText } from './counts-text.js';
import { beyondRepeat } from '../../lib/costs.js';
import { parseCaseKey } from '../../bench/data/suite.js';
import { byCase, caseCells, caseHeader, groupTables, pairCase, severalConfigs } from './shootout-tables.js';
import { OPS } from '../../bench/data/ops.js';

/** A small fraction as a percentage: two decimals under 1%, one under 10%, else whole: 0.0003 → "0.03%". */
function smallPercent(/** @type {number} */ x) {
  const p = Math.abs(x * 100);
  if (p === 0) return '0%';
  if (p < 0.005) return '<0.01%';
  return `${p < 1 ? p.toFixed(2) : p < 10 ? p.toFixed(1) : Math.round(p)}%`;
}

/** A signed change of instructions: "+1.23%", "−0.04%"; "±0%" when nothing changed at that precision. */
const signedSmall = (/** @type {number} */ x) =>
  Math.abs(x) < 5e-5 ? '±0%' : `${sign(x)}${smallPercent(x).replace('<', '')}`;

/** A difference's cell: the change, ± the repeat spread, and "(within repeat)" where it is not one. */
function differenceCell(/** @type {any} */ d) {
  if (!d) return '';
  return `${signedSmall(d.change)} ±${smallPercent(d.spread)}${beyondRepeat(d) ? '' : ' (within repeat)'}`;
}

/** A side's counts of one case: instructions per operation ± its repeat, fsyncs and writes per operation. */
function sideCell(/** @type {any} */ c) {
  if (!c) return '';
  if (c.status !== 'ok') return `not counted: ${inert(c.reason ?? '', 80)}`;
  return `${countText(c.instructions)} ±${smallPercent(c.difference)} · ${countText(c.fsync)} · ${countText(c.write)}`;
}

/**
 * Where each difference beyond its repeat goes, a line each: "v20 12.x against v24 12.x, select
 * (better-sqlite3 · none): +117% instructions/op, of which runtime +1.02M (96%); SQLite within
 * repeat" (aggregate/render/counts-text.js attributionText).
 * @param {any[]} diffs the document's differences, each with its case's fields
 * @param {(side: string, key: string) => any} caseOf a side's counted case
 * @returns {string[]} Markdown lines; none where no difference has components
 */
function attributionLines(diffs, caseOf) {
  const moved = diffs
    .filter((d) => d.components && beyondRepeat(d))
    .map((d) => ({ ...d, ...pairCase(d) }))
    .sort(byCase);
  if (!moved.length) return [];
  return [
    '**Where the differences go** (by component, docs/counting.md#components; a component moved only beyond its own repeat):',
    '',
    ...moved.map(
      (d) =>
        `- ${inert(d.member)} against ${inert(d.reference)}, ${inert(OPS.find((o) => o.name === d.op)?.label ?? d.op)} (${inert(`${d.driver} · ${d.cipher}`)}): ${signedSmall(d.change)} instructions/op, ${attributionText(d.components, caseOf(d.reference, d.key)?.components)}`,
    ),
    '',
  ];
}

/**
 * The one line saying what was counted, or why nothing was.
 * @param {any} counting a document's `counting`
 */
export function countingLine(counting) {
  if (counting.status === 'unavailable')
    return `Instructions per operation: not counted: ${inert(counting.reason ?? '', 300)}.`;
  const failed = (counting.sides ?? []).filter((/** @type {any} */ s) => s.status !== 'ok');
  return [
    `Instructions per operation, counted after the timed run (valgrind ${inert(counting.tools?.valgrind ?? '?')}'s callgrind; system calls under strace ${inert(counting.tools?.strace ?? '?')}), each side under its own Node with its own drivers, every case twice in new processes (${counting.mode} databases, ${Math.round(counting.seconds ?? 0)} s).`,
    `A change (+ is more instructions) against the same base as the time; ± the larger of the two sides' repeat differences: a change within its tolerance (the larger of 0.1%, 3 × that, 2 × the largest of its operation's) is no difference.`,
    ...failed.map((/** @type {any} */ s) => `${inert(s.side)} was not counted: ${inert(s.reason ?? '', 300)}.`),
  ].join(' ');
}

/**
 * The counts' tables of one document.
 * @param {any} doc a valid shootout document
 * @param {{ table?: (rows: string[][], align: ('l'|'r')[]) => string }} [o] as shootoutLines
 * @returns {string[]} Markdown lines; none for a document without `counting`
 */
export function countLines(doc, o = {}) {
  const c = doc.counting;
  if (!c) return [];
  const lines = [countingLine(c), ''];
  if (c.status === 'unavailable') return lines;
  const write = o.table ?? table;
  /** @type {any[]} */
  const diffs = c.differences ?? [];
  /** @type {any[]} */
  const counted = (c.cases ?? []).map((/** @type {any} */ x) => ({ ...x, ...parseCaseKey(x.key) }));
  const caseOf = (/** @type {string} */ side, /** @type {string} */ key) =>
    counted.find((x) => x.side === side && x.key === key && x.status === 'ok');
  const instrOf = (/** @type {string} */ side, /** @type {string} */ key) => caseOf(side, key)?.instructions;
  lines.push(
    ...groupTables(diffs, {
      heading: (name) => `**Instructions: ${name}**`,
      baseUnit: 'instr/op',
      baseCell: (base, x) => {
        const b = instrOf(base, x.key);
        return b === undefined ? '' : countText(b);
      },
      cell: differenceCell,
      write,
    }),
    ...attributionLines(diffs, caseOf),
  );
  if (counted.length) {
    const sides = [...new Set(counted.map((x) => x.side))];
    const cases = [...new Map(counted.map((x) => [x.key, x])).values()].sort(byCase);
    const configs = severalConfigs(cases);
    lines.push(
      `**Counts per side**: instructions per operation ±its repeat difference · fsyncs · writes per operation (${MINUS} where the side did not count the case)`,
      '',
      ...write(
        [
          [...caseHeader(configs), ...sides.map((s) => inert(s))],
          ...cases.map((x) => [
            ...caseCells(x, configs),
            ...sides.map((s) => sideCell(counted.find((y) => y.side === s && y.key === x.key)) || MINUS),
          ]),
        ],
        ['l', 'l', ...sides.map(() => /** @type {const} */ ('r'))],
      ).split('\n'),
      '',
    );
  }
  return lines;
}
