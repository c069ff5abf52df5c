// "Node versions on one machine" (docs/pipeline.md#what-the-readme-shows, item 1): the newest shootout of this
// machine class. Nothing when the class has none: Node versions are never compared across matrix
// cells (different VMs). Both pages draw one chart; the README adds one line and one compact table
// (render/pair-table.js comparisonTable byOp); results/README.md keeps every driver's long tables
// (shootout-report.js).
import { inert, plain } from '../../lib/markdown.js';
import { day, whole } from '../../lib/format.js';
import { PRODUCTION_SETUP, best, classLink, pct, signed } from './common.js';
import { COMPARED, compactChange, comparisonTable, opLabel } from '../render/pair-table.js';
import { machineText, shootoutLines, tested } from './shootout-report.js';
import { beyondRepeat } from '../../lib/costs.js';
import { GROUPS } from '../../bench/data/shootout-groups.js';
import { PRODUCTION_CIPHER } from '../../bench/data/ciphers.js';
import { PRODUCTION_DRIVER } from '../../bench/data/drivers.js';
import { shootoutSpec } from '../charts/specs.js';
import { documentLink } from '../assets.js';
import { pairsOf, referenceOf } from '../../bench/result/header.js';

const TITLE = 'Node versions on one machine';
/** This section is given the shootouts (sections/index.js). */
export const shootouts = true;

/** What follows a compared side's name, per group: a driver change is never read as a Node's. */
const SUFFIX = /** @type {Record<string, string>} */ ({
  'driver-upgrade': ' (driver)',
  'different-driver': ' (other driver)',
  'same-node': ' (A/A)',
});

/**
 * How a compared side is named: in the chart (`name`, against its base), and in the README table
 * and the alt text (`short`: the line says what a Node is compared with; a driver upgrade's base
 * is its own Node's, named by its driver line alone).
 */
function names(/** @type {{ comparison: string, reference: string, member: string }} */ c) {
  const upgrade = c.comparison === 'driver-upgrade';
  const against = upgrade ? c.reference.replace(/^v\d+ /, '') : c.reference;
  const name = `${c.member} vs ${against}${SUFFIX[c.comparison] ?? ''}`;
  return { name, short: upgrade ? name : `${c.member}${SUFFIX[c.comparison] ?? ''}` };
}

/**
 * A shootout as the chart and the README table show it: the compared sides (columns) in the
 * report's group order, each with its rows of production's setup, the sides that did not run,
 * the operations measured.
 */
export function shootoutView(/** @type {any} */ doc) {
  const groups = Object.keys(GROUPS);
  const rank = (/** @type {string} */ g) => (groups.includes(g) ? groups.indexOf(g) : groups.length);
  /** @type {any[]} */
  const diffs = doc.counting?.differences ?? [];
  // each judged pair with its instruction difference (the document's `counting`), if counted
  const rows = doc.comparisons
    .filter((/** @type {any} */ r) => r.setup === PRODUCTION_SETUP)
    .map((/** @type {any} */ r) => {
      const instr = diffs.find((d) =>
        ['id', 'reference', 'member', 'setup', 'op'].every((/** @type {string} */ f) => d[f] === r[f]),
      );
      return instr ? { ...r, instr } : r;
    });
  const columns = pairsOf(doc)
    .sort((a, b) => rank(a.comparison) - rank(b.comparison)) // stable: the run's order within a group
    .map((/** @type {any} */ c) => ({
      ...names(c),
      rows: rows.filter(
        (/** @type {any} */ r) => r.id === c.comparison && r.reference === c.reference && r.member === c.member,
      ),
    }))
    .filter((c) => c.rows.length);
  const failed = /** @type {string[]} */ (
    doc.sides.filter((/** @type {any} */ s) => s.status !== 'ok').map((/** @type {any} */ s) => s.label)
  );
  const ops = COMPARED.filter((op) => rows.some((/** @type {any} */ r) => r.op === op));
  return { columns, failed, ops };
}

/** What follows a change whose interval excludes 0: the verdict, or why it is not one. */
const MARKS = /** @type {Record<string, (threshold: number) => string>} */ ({
  faster: () => 'faster',
  slower: () => 'slower',
  'no change': (t) => `(<${t}%)`, // the interval excludes 0 but lies under the threshold
  'too noisy to tell': () => '(noisy)', // the interval excludes 0, the test over every comparison does not
});

/**
 * A README table cell: compactChange (≈ when the interval holds 0), then the verdict where it is
 * one; where the interval excludes 0 and the verdict is no change, why not, so that no cell
 * claims a difference its verdict does not. `threshold`: in %, the smallest change that counts.
 */
export function shootoutCell(/** @type {any} */ r, /** @type {number} */ threshold) {
  const text = compactChange(
    r && r.verdict !== 'not compared' ? { change: r.change, low: r.low, high: r.high } : undefined,
  );
  if (text === 'n/a' || text.startsWith('≈')) return text;
  const mark = MARKS[r.verdict]?.(threshold);
  return mark ? `${text} ${mark}` : text;
}

const DID_NOT_RUN = 'did not run';
/** An alt text's length a reader hears out (the README's convention: about 200 characters). */
const ALT = 200;

/** The chart's data: a bar per compared side and operation, a note where there is none. */
export function shootoutPoints(/** @type {ReturnType<typeof shootoutView>} */ view) {
  const compared = (/** @type {any} */ r) =>
    r.verdict !== 'not compared' && [r.change, r.low, r.high].every(Number.isFinite);
  const points = view.columns.flatMap((c) =>
    c.rows.filter(compared).map((/** @type {any} */ r) => ({
      member: c.name,
      op: opLabel(r.op),
      change: pct(r.change),
      low: pct(r.low),
      high: pct(r.high),
      verdict: /** @type {string} */ (r.verdict),
      who: c.short,
      // instructions per operation as the bar reads (+ is fewer: what the time would be if it
      // followed the instructions), where the case was counted on both sides
      ...(r.instr ? { instr: pct(1 / (1 + r.instr.change) - 1) } : {}),
    })),
  );
  const notes = [
    ...view.columns.flatMap((c) =>
      c.rows
        .filter((/** @type {any} */ r) => !compared(r))
        .map((/** @type {any} */ r) => ({ member: c.name, op: opLabel(r.op), note: 'not compared' })),
    ),
    ...view.failed.flatMap((label) =>
      view.ops.map((op) => ({ member: `${label} (${DID_NOT_RUN})`, op: opLabel(op), note: DID_NOT_RUN })),
    ),
  ];
  return {
    points,
    notes,
    members: [...view.columns.map((c) => c.name), ...view.failed.map((l) => `${l} (${DID_NOT_RUN})`)],
  };
}

/**
 * The main finding in words: the clear differences, largest first (at most two per direction),
 * how many comparisons are no change or too noisy to tell, the sides that did not run.
 */
function shootoutFindings(
  /** @type {ReturnType<typeof shootoutPoints>['points']} */ points,
  /** @type {string[]} */ failed,
  /** @type {string} */ reference,
) {
  const size = (/** @type {{ change: number }} */ p) => Math.abs(Math.log(Math.max(0.01, 1 + p.change / 100)));
  const clear = (/** @type {string} */ verdict, /** @type {number} */ n) => {
    const xs = points.filter((p) => p.verdict === verdict).sort((a, b) => size(b) - size(a));
    return xs.length
      ? `${verdict}: ${xs
          .slice(0, n)
          .map((p) => `${p.who} ${p.op} ${signed(p.change)}`)
          .join(', ')}${xs.length > n ? ` and ${xs.length - n} more` : ''}`
      : '';
  };
  const count = (/** @type {string} */ verdict) => points.filter((p) => p.verdict === verdict).length;
  const say = (/** @type {number} */ n) =>
    [
      `Against ${reference}: ${[clear('slower', n), clear('faster', n)].filter(Boolean).join('; ') || 'no clear difference'}`,
      `${count('no change')} no change, ${count('too noisy to tell')} too noisy to tell of ${points.length}`,
      ...(failed.length ? [`${failed.join(', ')} did not run`] : []),
    ].join('; ') + '.';
  // the two largest each way, or the largest when that reads too long
  return say(2).length <= ALT ? say(2) : say(1);
}

/** The chart of a shootout: one spec for both pages (it is drawn once). */
function chartSpec(
  /** @type {any} */ doc,
  /** @type {ReturnType<typeof shootoutPoints>} */ data,
  /** @type {string[]} */ ops,
  /** @type {string} */ alt,
) {
  const quick = doc.run.mode === 'quick' ? ' (a quick run: a smoke test)' : '';
  return shootoutSpec({
    title: TITLE,
    subtitle: [
      `${machineText(doc)}, ${day(doc.run.finishedAt)}${quick}`,
      `Every Node in one interleaved run of ${whole(doc.run.budget.rounds)} rounds; ${PRODUCTION_DRIVER} with ${PRODUCTION_CIPHER} and the production PRAGMAs.`,
      `Change in ops/s (+ is faster) against ${referenceOf(doc)} with the same driver release; (driver): 13.x against 12.x on the same Node;`,
      '(other driver): the Node and the driver both differ. Bar: the change; line: its 95% interval; colour: the verdict.',
      ...(data.points.some((p) => p.instr !== undefined)
        ? [
            '◆: instructions per operation under valgrind against the same base, inverted (+ is fewer instructions, as + is faster).',
          ]
        : []),
    ],
    legend: `verdict (Holm over ${tested(doc)} comparisons; under ${Math.round(doc.run.threshold * 100)}% is no change):`,
    alt,
    points: data.points.map(({ who: _who, ...p }) => p),
    notes: data.notes,
    members: data.members,
    ops: ops.map(opLabel),
  });
}

/**
 * The README's form: the heading, one line, the chart, the caption, the table (a row per
 * operation, a column per compared side). The table follows the caption without a blank line (a
 * GFM table interrupts a paragraph, on GitHub as in micromark): the block has a line budget.
 * @param {import('./index.js').SectionContext} ctx
 * @param {{ doc: any, view: ReturnType<typeof shootoutView>, chart: string | null }} s
 */
function readmeLines(ctx, { doc, view, chart }) {
  const threshold = Math.round(doc.run.threshold * 100);
  const line = [
    `Run of ${day(doc.run.finishedAt)} on this machine, ${whole(doc.run.budget.rounds)} rounds${doc.run.mode === 'quick' ? ' (a quick run: a smoke test)' : ''}: each Node against **${inert(plain(referenceOf(doc) ?? '').split(' ')[0])}** with the same driver release, ${PRODUCTION_DRIVER}, ${PRODUCTION_CIPHER}; Holm over ${tested(doc)} comparisons.`,
    !view.columns.length && `Nothing of ${PRODUCTION_DRIVER} with ${PRODUCTION_CIPHER} was compared.`,
    ...(view.failed.length ? [`${view.failed.map((l) => inert(l)).join(', ')} did not run.`] : []),
    ...(doc.counting ? [countingSentence(doc.counting, view)] : []),
    `[${ctx.brief ? 'The table, every driver' : 'Every driver'}, Node and driver versions, the document](${ctx.brief ? classLink(ctx) : `${ctx.resultsLink}/README.md`}).`,
  ]
    .filter(Boolean)
    .join(' ');
  if (!chart || ctx.brief) return [`##### ${TITLE}`, line, ...(chart ? [chart] : [])];
  return [
    `##### ${TITLE}`,
    line,
    chart,
    // a brief machine class has its table on results/README.md
    comparisonTable(
      doc,
      Object.keys(GROUPS),
      (head, r) => inert(names({ comparison: r.id, reference: r.reference, member: head }).short),
      'Operation',
      {
        items: view.columns.flatMap((c) => c.rows),
        byOp: true,
        cell: (r) => shootoutCell(r, threshold),
        caption: `Each cell: the change in % ops/s ± the wider side of its 95% interval, its verdict; none: ≈ interval holds 0, (noisy) not significant, (<${threshold}%) under the ${threshold}% that counts.`,
      },
    ),
  ];
}

/**
 * The README's one sentence on the counts (the chart's diamonds): how many differences in
 * instructions per operation are beyond their tolerance (lib/costs.js), the sides not counted; or why
 * nothing was counted.
 */
function countingSentence(/** @type {any} */ counting, /** @type {ReturnType<typeof shootoutView>} */ view) {
  if (counting.status === 'unavailable') return `Instructions not counted: ${inert(counting.reason ?? '', 160)}.`;
  const diffs = view.columns.flatMap((c) =>
    c.rows
      .filter((/** @type {any} */ r) => r.instr)
      .map((/** @type {any} */ r) => ({ who: c.short, op: opLabel(r.op), d: r.instr })),
  );
  const beyond = diffs.filter((x) => beyondRepeat(x.d));
  const failed = (counting.sides ?? []).filter((/** @type {any} */ s) => s.status !== 'ok');
  // the README's byte budget: how many differ, the values in the chart
  return [
    `◆: instructions/op under valgrind, ${beyond.length}/${diffs.length} beyond their tolerance`,
    ...(failed.length ? [`; ${failed.map((/** @type {any} */ s) => inert(s.side)).join(', ')} not counted`] : []),
    '.',
  ].join('');
}

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const entry = best(ctx.entries);
  if (!entry) return [];
  const doc = ctx.load(entry);
  const view = shootoutView(doc);
  const data = shootoutPoints(view);
  const alt = shootoutFindings(data.points, view.failed, String(referenceOf(doc)));
  // one spec for both pages: the chart is drawn once
  const chart = view.columns.length ? ctx.chart('shootout', chartSpec(doc, data, view.ops, alt), alt) : null;
  if (ctx.page === 'readme') return readmeLines(ctx, { doc, view, chart });
  return [
    `##### ${TITLE}`,
    ...(chart ? [chart, ''] : []),
    ...shootoutLines(doc),
    `_From ${documentLink(inert(entry.file), ctx.resultsLink, entry)}${doc.run.mode === 'quick' ? ' (a quick run: a smoke test, few rounds)' : ''}; ${ctx.entries.length} shootout(s) of this machine class in \`${ctx.resultsLink}/index.json\`._`,
  ];
}
