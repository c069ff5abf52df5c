// The shootout's tables, in Markdown, from a shootout document: the CLI's summary on stdout and
// results/README.md's "Node versions on one machine" section (aggregate/sections/shootout.js) are
// the same lines. Per comparison group the run's one comparison table (render/pair-table.js
// comparisonTable): a row per Node against its base side and setup, a column per operation, each
// cell the change with its Holm-corrected interval and the verdict. Then the counts (the
// document's `counting`, bench/shootout/count-nodes.js) in the same table: the instruction
// differences against the same base sides, each with the larger of the two sides' repeat
// differences; where each difference beyond its repeat goes (runtime, binding, SQLite, cipher,
// libc); every side's counts. Every string that came from a document goes through lib/markdown.js.
import { inert } from '../../lib/markdown.js';
import { MINUS, NOT_A_NUMBER, day, driverText, sign, whole } from '../../lib/format.js';
import { attributionText, countText } from '../render/counts-text.js';
import { changeText } from '../render/figure.js';
import { setupLabel } from './common.js';
import { comparisonTable, opLabel } from '../render/pair-table.js';
import { beyondRepeat } from '../../lib/costs.js';
import { parseCaseKey } from '../../bench/data/suite.js';
import { GROUPS } from '../../bench/data/shootout-groups.js';
import { OPS } from '../../bench/data/ops.js';
import { referenceOf } from '../../bench/result/header.js';

/** A row's first cell: the Node (against its base side) and the setup. */
const CORNER = 'Node · config, driver, cipher';
const finite = (/** @type {unknown[]} */ xs) => xs.every((x) => typeof x === 'number' && Number.isFinite(x));

/** One cell: the change with its Holm-corrected interval as the run's tables write it (changeText: "≈" too noisy to tell), then any other verdict. */
function cell(/** @type {any} */ r) {
  if (r?.verdict === 'not compared') return `not compared: ${inert(r.reason ?? '', 120)}`;
  if (r && !finite([r.change, r.low, r.high])) return `${NOT_A_NUMBER} ${inert(r.verdict)}`;
  return r?.verdict === 'too noisy to tell' ? changeText(r) : `${changeText(r)}${r ? ` ${inert(r.verdict)}` : ''}`;
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
  const reference = doc.sides.find((/** @type {any} */ x) => x.label === referenceOf(doc));
  return doc.sides.map((/** @type {any} */ s) => {
    if (s.status !== 'ok')
      return `- ${inert(s.label)}: Node ${inert(s.node)}: **did not run**: ${inert(s.reason ?? '', 300)}`;
    const ds = s.drivers.filter(
      (/** @type {any} */ d) => d.name !== 'node:sqlite' || s.generation === reference?.generation,
    );
    const text = ds.map((/** @type {any} */ d) => inert(driverText(d), 400)).join('; ');
    return `- ${inert(s.label)}: Node ${inert(s.node)}${s.override ? ' (12.x installed beside the default 13.x)' : ''}: ${text}`;
  });
}

/** Per group of judged pairs (or instruction differences), its heading and its comparison table. */
const groupTables = (
  /** @type {any} */ doc,
  /** @type {any[]} */ items,
  /** @type {(name: string) => string} */ heading,
  /** @type {(item: any) => string} */ cellOf,
  /** @type {string} */ caption,
) =>
  Object.keys(GROUPS)
    .filter((group) => items.some((r) => r.id === group))
    .flatMap((group) => [
      heading(inert(GROUPS[/** @type {keyof typeof GROUPS} */ (group)])),
      '',
      comparisonTable(
        doc,
        group,
        (member, r) => `${inert(member)} vs ${inert(r.reference)} · ${setupLabel(r.setup)}`,
        CORNER,
        {
          items,
          cell: cellOf,
          caption,
        },
      ),
      '',
    ]);

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
const differenceCell = (/** @type {any} */ d) =>
  d ? `${signedSmall(d.change)} ±${smallPercent(d.spread)}${beyondRepeat(d) ? '' : ' (within repeat)'}` : 'n/a';

/** A side's counts of one case: instructions per operation ± its repeat, fsyncs and writes per operation. */
function sideCell(/** @type {any} */ c) {
  if (!c) return MINUS;
  if (c.status !== 'ok') return `not counted: ${inert(c.reason ?? '', 80)}`;
  return `${countText(c.instructions)} ±${smallPercent(c.difference)} · ${countText(c.fsync)} · ${countText(c.write)}`;
}

const opOrder = (/** @type {string} */ op) => OPS.findIndex((o) => o.name === op);

/**
 * Where each difference beyond its repeat goes, a line each: "v20 12.x against v24 12.x, select
 * (better-sqlite3 · none): +117% instructions/op, of which runtime +1.02M (96%); SQLite within
 * repeat" (aggregate/render/counts-text.js attributionText), by setup, then operation; none where
 * no difference has components.
 */
function attributionLines(/** @type {any[]} */ diffs, /** @type {(side: string, key: string) => any} */ caseOf) {
  const moved = diffs
    .filter((d) => d.components && beyondRepeat(d))
    .sort((a, b) => (a.setup < b.setup ? -1 : a.setup > b.setup ? 1 : 0) || opOrder(a.op) - opOrder(b.op));
  if (!moved.length) return [];
  return [
    '**Where the differences go** (by component, docs/counting.md#components; a component moved only beyond its own repeat):',
    '',
    ...moved.map((d) => {
      const { driver, cipher } = parseCaseKey(`${d.setup}/${d.op}`);
      return `- ${inert(d.member)} against ${inert(d.reference)}, ${opLabel(d.op)} (${inert(`${driver} · ${cipher}`)}): ${signedSmall(d.change)} instructions/op, ${attributionText(d.components, caseOf(d.reference, `${d.setup}/${d.op}`)?.components)}`;
    }),
    '',
  ];
}

/** The one line saying what the document's `counting` counted, or why nothing was. */
function countingLine(/** @type {any} */ counting) {
  if (counting.status === 'unavailable')
    return `Instructions per operation: not counted: ${inert(counting.reason ?? '', 300)}.`;
  const failed = (counting.sides ?? []).filter((/** @type {any} */ s) => s.status !== 'ok');
  return [
    `Instructions per operation, counted after the timed run (valgrind ${inert(counting.tools?.valgrind ?? '?')}'s callgrind; system calls under strace ${inert(counting.tools?.strace ?? '?')}), each side under its own Node with its own drivers, every case twice in new processes (${counting.mode} databases, ${Math.round(counting.seconds ?? 0)} s).`,
    `A change (+ is more instructions) against the same base as the time; ± the larger of the two sides' repeat differences: a change within its tolerance (the larger of 0.1%, 3 × that, 2 × the largest of its operation's) is no difference.`,
    ...failed.map((/** @type {any} */ s) => `${inert(s.side)} was not counted: ${inert(s.reason ?? '', 300)}.`),
  ].join(' ');
}

/** The counts' tables of a valid shootout document: none without `counting`. */
export function countLines(/** @type {any} */ doc) {
  const c = doc.counting;
  if (!c) return [];
  if (c.status === 'unavailable') return [countingLine(c), ''];
  /** @type {any[]} */
  const diffs = c.differences ?? [];
  // each side's counted cases in a judged pair's shape: a row per side and setup
  const counted = (c.cases ?? []).map((/** @type {any} */ x) => {
    const { config, driver, cipher, op } = parseCaseKey(x.key);
    return { ...x, id: 'counts', member: x.side, setup: `${config}/${driver}/${cipher}`, op };
  });
  const caseOf = (/** @type {string} */ side, /** @type {string} */ key) =>
    counted.find((/** @type {any} */ x) => x.side === side && x.key === key && x.status === 'ok');
  return [
    countingLine(c),
    '',
    ...groupTables(
      doc,
      diffs,
      (name) => `**Instructions: ${name}**`,
      differenceCell,
      'Each cell: the change in instructions per operation against the base side ± the larger repeat difference.',
    ),
    ...attributionLines(diffs, caseOf),
    ...(counted.length
      ? [
          comparisonTable(doc, 'counts', (side, x) => `${inert(side)} · ${setupLabel(x.setup)}`, CORNER, {
            items: counted,
            cell: sideCell,
            caption: `**Counts per side**: instructions per operation ±its repeat difference · fsyncs · writes per operation (${MINUS} where the side did not count the case)`,
          }),
          '',
        ]
      : []),
  ];
}

/** The tables of a valid shootout document. */
export function shootoutLines(/** @type {any} */ doc) {
  return [
    `Measured ${day(doc.run.finishedAt)} on ${inert(machineText(doc))}: every Node on the same machine in one run, ${whole(doc.run.budget.rounds)} rounds, interleaved (new engine servers every round, cases in a new order, the Nodes of each case in alternating slices of ~2 ms, in a rotating order). Reference: **${inert(referenceOf(doc) ?? 'none')}** (the newest LTS Node that ran with the driver held constant, 12.x). Each cell: the change in ops/s against the row's base side, its interval, and the verdict (both Holm-corrected over all ${tested(doc)} comparisons of the run; a difference under ${whole(doc.run.threshold * 100)}% is no change).`,
    '',
    ...groupTables(
      doc,
      doc.comparisons,
      (name) => `**${name}**`,
      cell,
      'Each cell: the change in ops/s against the base side (+ is faster), its 95% interval corrected (Holm) over the shootout, its verdict; "≈": too noisy to tell.',
    ),
    ...countLines(doc),
    'Nodes and drivers:',
    '',
    ...sideLines(doc),
    '',
  ];
}
