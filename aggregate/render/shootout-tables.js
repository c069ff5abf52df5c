// The shape every shootout table shares, of the time (shootout-report.js) and of the instructions
// (shootout-counts.js): per comparison group a heading, then a table per base side (the driver
// upgrade's base differs per Node, that Node's 12.x, so its heads are shown as "Node with 13.x vs
// its base" and the base column is dropped), a row per case in the report's order, a column per
// head. What a cell holds is the caller's. Every string that came from a document goes through
// lib/markdown.js.
import { inert } from '../../lib/markdown.js';
import { OPS } from '../../bench/data/ops.js';
import { parseCaseKey } from '../../bench/data/suite.js';
import { GROUPS } from '../../bench/data/shootout-groups.js';

const opOrder = (/** @type {string} */ op) => OPS.findIndex((o) => o.name === op);

/** A judged pair's case (document.schema.json $defs/comparison: its setup and op), with its key. */
export const pairCase = (/** @type {{ setup: string, op: string }} */ r) => {
  const key = `${r.setup}/${r.op}`;
  return { key, ...parseCaseKey(key) };
};

/** Cases in the report's order: driver, cipher, config, operation. */
export const byCase = (/** @type {any} */ a, /** @type {any} */ b) =>
  a.driver.localeCompare(b.driver) ||
  a.cipher.localeCompare(b.cipher) ||
  a.config.localeCompare(b.config) ||
  opOrder(a.op) - opOrder(b.op);

/** Whether the cases span more than one config (then every row names its config). */
export const severalConfigs = (/** @type {any[]} */ cases) => new Set(cases.map((c) => c.config)).size > 1;

/** A case's first two columns' titles. */
export const caseHeader = (/** @type {boolean} */ configs) => [
  configs ? 'Config · driver · cipher' : 'Driver · cipher',
  'Operation',
];

/** A case's first two cells: its setup and its operation. */
export const caseCells = (/** @type {any} */ c, /** @type {boolean} */ configs) => [
  inert(`${configs ? `${c.config} · ` : ''}${c.driver} · ${c.cipher}`),
  inert(OPS.find((op) => op.name === c.op)?.label ?? c.op),
];

/**
 * The tables of judged pairs, per group (id) and reference side.
 * @param {any[]} items judged pairs: id, reference, member, setup, op (document.schema.json $defs/comparison)
 * @param {object} o
 * @param {(name: string) => string} o.heading the group's heading, from its name (inert)
 * @param {string} o.baseUnit the base column's unit ("ops/s", "instr/op")
 * @param {(base: string, c: any) => string} o.baseCell the base side's cell of a case
 * @param {(row: any) => string} o.cell a head's cell; undefined where the head has no row for the case
 * @param {(rows: string[][], align: ('l'|'r')[]) => string} o.write the table writer
 * @param {string} [o.caption] what the cells show, under each group's heading
 * @returns {string[]} Markdown lines
 */
export function groupTables(items, o) {
  /** @type {string[]} */
  const lines = [];
  for (const group of /** @type {(keyof typeof GROUPS)[]} */ (Object.keys(GROUPS))) {
    const inGroup = items.filter((r) => r.id === group).map((r) => ({ ...r, ...pairCase(r) }));
    if (!inGroup.length) continue;
    lines.push(o.heading(inert(GROUPS[group])), '', ...(o.caption ? [o.caption, ''] : []));
    const perBase = group === 'driver-upgrade' ? [null] : [...new Set(inGroup.map((r) => r.reference))];
    for (const base of perBase) {
      const rows = inGroup.filter((r) => base === null || r.reference === base);
      const heads = [...new Set(rows.map((r) => r.member))];
      const cases = [...new Map(rows.map((r) => [r.key, r])).values()].sort(byCase);
      const configs = severalConfigs(cases);
      if (base !== null && perBase.length > 1) lines.push(`Against ${inert(base)}:`, '');
      const header = [
        ...caseHeader(configs),
        ...(base !== null ? [`${inert(base)} ${o.baseUnit}`] : []),
        ...heads.map((h) =>
          base === null ? `${inert(h)} vs ${inert(rows.find((r) => r.member === h).reference)}` : inert(h),
        ),
      ];
      const body = cases.map((c) => [
        ...caseCells(c, configs),
        ...(base !== null ? [o.baseCell(base, c)] : []),
        ...heads.map((h) => o.cell(rows.find((r) => r.member === h && r.key === c.key))),
      ]);
      lines.push(
        ...o
          .write(
            [header, ...body],
            [
              'l',
              'l',
              ...(base !== null ? /** @type {const} */ (['r']) : []),
              ...heads.map(() => /** @type {const} */ ('r')),
            ],
          )
          .split('\n'),
        '',
      );
    }
  }
  return lines;
}
