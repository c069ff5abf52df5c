// The shootout's tables, in Markdown, from a shootout document: the CLI's summary on stdout and the
// README's "Node versions on one machine" section (aggregate/sections/shootout.js) are the same
// lines. Per comparison group a table: a row per case (driver, cipher, operation), a column per
// Node, each cell the change against the group's base side with its Holm-corrected interval and the verdict.
// Then the counts' tables (shootout-counts.js): instructions per operation per Node.
// Every string that came from a document goes through lib/markdown.js.
import { inert, table } from '../../lib/markdown.js';
import { NOT_A_NUMBER, day, driverText, rate, signedPercent, whole } from '../../lib/format.js';
import { countLines } from './shootout-counts.js';
import { groupTables } from './shootout-tables.js';
import { rangeText } from './figure.js';
import { caseKey } from '../../bench/data/suite.js';
import { median } from '../../lib/stats/spread.js';
import { referenceOf } from '../../bench/result/header.js';

/** A side's ops/s of a case: the median of its rounds (the document's cases), '' where it has none. */
const sideRate = (/** @type {any} */ doc, /** @type {string} */ side, /** @type {string} */ key) => {
  const c = doc.cases.find((/** @type {any} */ x) => x.side === side && caseKey(x) === key);
  const xs = (c?.rounds ?? []).filter((/** @type {unknown} */ x) => typeof x === 'number');
  return xs.length ? rate(median(xs)) : '';
};
const finite = (/** @type {unknown[]} */ xs) => xs.every((x) => typeof x === 'number' && Number.isFinite(x));

/** One cell: the change, its Holm-corrected interval, the verdict. */
export function cell(/** @type {any} */ r) {
  if (!r) return '';
  if (r.verdict === 'not compared') return `not compared: ${inert(r.reason ?? '', 120)}`;
  if (!finite([r.change, r.low, r.high])) return `${NOT_A_NUMBER} ${inert(r.verdict)}`;
  return `${signedPercent(r.change)} ${rangeText(r.low, r.high)} ${inert(r.verdict)}`;
}

/** The machine, as plain text (inert it for Markdown): platform, CPU, cores, runner image. */
export function machineText(/** @type {any} */ doc) {
  const e = doc.environment;
  const image = e.ci?.imageOs
    ? `, ${e.ci.imageOs}${e.ci.imageVersion ? ` ${e.ci.imageVersion}` : ''}`
    : e.ci
      ? `, ${e.ci.provider}`
      : ', not CI';
  return `${e.platform} ${e.arch}, ${e.cpuModel} × ${e.cores}${image}`;
}

/** How many judged pairs Holm corrected over: every compared one of the run, every driver. */
export const tested = (/** @type {any} */ doc) => doc.comparisons.filter((/** @type {any} */ r) => r.p !== null).length;

/** One line per side: its Node patch version and the drivers it loaded, or why it did not run. */
function sideLines(/** @type {any} */ doc) {
  return doc.sides.map((/** @type {any} */ s) => {
    if (s.status !== 'ok')
      return `- ${inert(s.label)}: Node ${inert(s.node)}: **did not run**: ${inert(s.reason ?? '', 300)}`;
    const ds = s.drivers.filter(
      (/** @type {any} */ d) =>
        d.name !== 'node:sqlite' ||
        s.generation === doc.sides.find((/** @type {any} */ x) => x.label === referenceOf(doc))?.generation,
    );
    const text = ds.map((/** @type {any} */ d) => inert(driverText(d), 400)).join('; ');
    return `- ${inert(s.label)}: Node ${inert(s.node)}${s.override ? ' (12.x installed beside the default 13.x)' : ''}: ${text}`;
  });
}

/**
 * The tables of one document.
 * @param {any} doc a valid shootout document
 * @param {{ heading?: string, table?: (rows: string[][], align: ('l'|'r')[]) => string }} [o] table: the table
 *   writer (default lib/markdown.js table, padded for a terminal)
 * @returns {string[]} Markdown lines
 */
export function shootoutLines(doc, o = {}) {
  const ref = referenceOf(doc);
  const lines = [];
  if (o.heading) lines.push(o.heading, '');
  lines.push(
    `Measured ${day(doc.run.finishedAt)} on ${inert(machineText(doc))}: every Node on the same machine in one run, ${whole(doc.run.budget.rounds)} rounds, interleaved (new engine servers every round, cases in a new order, the Nodes of each case in alternating slices of ~2 ms, in a rotating order). Reference: **${inert(ref)}** (the newest LTS Node that ran with the driver held constant, 12.x). Each cell: the change in ops/s against the group's base, its interval, and the verdict (both Holm-corrected over all ${tested(doc)} comparisons of the run; a difference under ${whole(doc.run.threshold * 100)}% is no change).`,
    '',
  );
  lines.push(
    ...groupTables(doc.comparisons, {
      heading: (name) => `**${name}**`,
      baseUnit: 'ops/s',
      caption:
        'Each cell: the change in ops/s against the base side (+ is faster), its 95% interval corrected (Holm) over the shootout, its verdict; the base column: its ops/s.',
      baseCell: (base, c) => sideRate(doc, base, c.key),
      cell,
      write: o.table ?? table,
    }),
  );
  lines.push(...countLines(doc, o));
  lines.push('Nodes and drivers:', '', ...sideLines(doc), '');
  return lines;
}
