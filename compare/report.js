// The compare's report, in Markdown (terminal, job summary and PR comment alike), from the compare's
// run document (compare.json: bench/result/document.schema.json, two sides base and head): its
// sides, judged pairs, cases, counting and run.phases. The PR comment renders a pull request's
// compare.json with it, checked by the schema and document.js first, so every string that came
// from a run (the sides, the environment, the method, the engine's flags, case keys, reasons) goes
// through lib/markdown.js and renders as itself; numbers are written by this code, with the
// aggregate's renderers (aggregate/render/: a change, its interval, a count).
import { code, inert, table as markdownTable } from '../lib/markdown.js';
import { driverText, megabytes, rate } from '../lib/format.js';
import { COUNT_VERDICTS, RANKED, VERDICTS, tally } from '../lib/verdicts.js';
import { median } from '../lib/stats/spread.js';
import { OPS } from '../bench/data/ops.js';
import { countText } from '../aggregate/render/counts-text.js';
import { changePercent, changeText } from '../aggregate/render/figure.js';
import {
  COUNT_FLOOR,
  COMPONENT_FLOORS,
  IO,
  beyondRepeat,
  componentMoved,
  componentScale,
  storedCost,
} from '../lib/costs.js';
import { COMPONENT_LABELS } from '../bench/data/components.js';
/** @import { Verdict } from '../lib/verdicts.js' */

/** @typedef {any} CompareDocument a compare's run document (compare/cli.js), checked (compareProblem) */

/** The phases of a compare, in the order they run (compare/cli.js); `timed` twice where some cases get fewer rounds. */
export const PHASES = /** @type {const} */ (['prepare', 'count', 'timed', 'report']);

/**
 * @typedef {object} Phase one phase of a compare (the document's run.phases)
 * @property {typeof PHASES[number]} phase
 * @property {number} seconds
 * @property {number} [base] count: each side's own seconds
 * @property {number} [head]
 * @property {boolean} [together] count: both sides at once
 * @property {number} [rounds] timed: the rounds of this phase
 * @property {number} [cases] timed: the cases it timed
 */

/**
 * @typedef {object} Row one judged pair as the report shows it
 * @property {string} key config/driver/cipher/op
 * @property {'ops/s' | 'bytes'} unit
 * @property {number | null} base median over the rounds both sides ran
 * @property {number | null} head
 * @property {number | null} change
 * @property {number | null} low
 * @property {number | null} high
 * @property {number | null} pAdjusted
 * @property {boolean} significant pAdjusted < alpha
 * @property {Verdict} verdict
 * @property {string} [reason]
 */

/**
 * Why a schema-valid run document is not a compare this report renders (two sides, base the
 * reference and head, each with its checkout; the run's facts the report states), naming the
 * field; null when it is one.
 * @param {any} doc a document that passed bench/result/document.js documentProblems
 * @returns {string | null}
 */
export function compareProblem(doc) {
  const [base, head] = doc.sides;
  if (doc.sides.length !== 2 || base.label !== 'base' || head.label !== 'head' || !base.reference)
    return '/sides must be two sides, base (reference: true) and head';
  const i = doc.sides.findIndex((/** @type {any} */ s) => !s.checkout);
  if (i >= 0) return `/sides/${i}/checkout is missing: a compare's side says its checkout`;
  for (const f of ['threshold', 'alpha', 'engine', 'seconds', 'budget', 'phases'])
    if (doc.run[f] === undefined) return `/run/${f} is missing: a compare's run states it`;
  if (!doc.comparisons) return "/comparisons is missing: a compare's pairs are judged";
  const other = doc.comparisons.findIndex((/** @type {any} */ r) => r.reference !== 'base' || r.member !== 'head');
  if (other >= 0) return `/comparisons/${other} is not head against base`;
  return null;
}

const SIZES = new Set(OPS.filter((o) => o.kind === 'size').map((o) => o.name));

/**
 * The judged pairs as the report shows them: each with its sides' medians over the rounds both
 * ran (the document's cases).
 * @param {CompareDocument} doc
 * @returns {Row[]}
 */
function rowsOf(doc) {
  /** @type {Map<string, (number | null)[]>} */
  const rounds = new Map();
  for (const c of doc.cases) rounds.set(`${c.side}|${c.config}/${c.driver}/${c.cipher}/${c.op}`, c.rounds ?? []);
  return doc.comparisons.map((/** @type {any} */ r) => {
    const key = `${r.setup}/${r.op}`;
    const b = rounds.get(`${r.reference}|${key}`) ?? [];
    const h = rounds.get(`${r.member}|${key}`) ?? [];
    const both = b.flatMap((x, i) =>
      x !== null && typeof h[i] === 'number' ? [[x, /** @type {number} */ (h[i])]] : [],
    );
    return {
      key,
      unit: SIZES.has(r.op) ? 'bytes' : 'ops/s',
      base: both.length ? median(both.map((x) => x[0])) : null,
      head: both.length ? median(both.map((x) => x[1])) : null,
      change: r.change,
      low: r.low,
      high: r.high,
      pAdjusted: r.pAdjusted ?? null,
      significant: typeof r.pAdjusted === 'number' && r.pAdjusted < doc.run.alpha,
      verdict: r.verdict,
      ...(r.reason ? { reason: r.reason } : {}),
    };
  });
}

/**
 * The A/A false-alarm rate of the time verdicts at the rounds it was measured at, and the smallest
 * slowdown of one case alone that 5 rounds find 95% of the time (docs/compare.md, Calibration).
 */
const CALIBRATED = {
  falseAlarms: '0 of 20',
  rounds: 10,
  fewer: { falseAlarms: '0 of 20', rounds: 5, finds: '67–88%' },
};

/** The longest case key, reason and environment line shown. */
const MAX = { key: 120, reason: 320, line: 800 };

const valueText = (/** @type {number | null} */ n, /** @type {string} */ unit) =>
  n === null ? '' : unit === 'bytes' ? megabytes(n) : rate(n);
const changeCell = (/** @type {number | null} */ x) => (x === null ? '' : changePercent(x));
const rank = (/** @type {string} */ verdict) => RANKED.indexOf(/** @type {any} */ (verdict));

/** One line describing where the compare ran (plain text: the report escapes it). */
function environmentLine(/** @type {CompareDocument} */ doc) {
  const e = doc.environment;
  const [base, head] = doc.sides.map((/** @type {{ drivers: any[] }} */ s) =>
    s.drivers
      .filter((d) => d.status === 'ok')
      .map((d) => driverText(d))
      .join(', '),
  );
  const ci = e.ci?.imageOs ? ` (${e.ci.imageOs} ${e.ci.imageVersion ?? ''})` : '';
  return `Node ${e.node}, ${e.platform} ${e.arch}, ${e.cpuModel} × ${e.cores}${ci}; drivers ${base === head ? base : `base ${base}; head ${head}`}`;
}

/** A side as the report names it: its label, what it was given as, its commit. */
const side = (/** @type {string} */ label, /** @type {{ given: string, commit: string | null }} */ s) =>
  `${label} ${s.given}${s.commit ? ` (${s.commit.slice(0, 12)})` : ''}`;

function table(/** @type {Row[]} */ rows) {
  const sorted = [...rows].sort(
    (a, b) => rank(a.verdict) - rank(b.verdict) || (a.change ?? 0) - (b.change ?? 0) || a.key.localeCompare(b.key),
  );
  return markdownTable(
    [
      ['Case (config/driver/cipher/op)', 'Base', 'Head', 'Change [interval]', 'Sig.', 'Verdict'],
      ...sorted.map((r) => [
        inert(r.key, MAX.key),
        valueText(r.base, r.unit),
        valueText(r.head, r.unit),
        r.unit === 'bytes' && r.change !== null
          ? `${changeCell(r.change)} exact`
          : r.low === null || r.high === null || r.change === null
            ? changeCell(r.change)
            : changeText({ change: r.change, low: r.low, high: r.high, verdict: r.verdict }),
        r.significant ? '*' : '',
        r.verdict === 'not compared' && r.reason ? `not compared: ${inert(r.reason, MAX.reason)}` : r.verdict,
      ]),
    ],
    ['l', 'r', 'r', 'r', 'c', 'l'],
  );
}

/**
 * The compare's counted cases, from its counting: every case either side lists in counting.cases
 * (key: config/driver/cipher/op), each side's case there (base, head) and their judgement (d: in
 * counting.differences, lib/costs.js countDifferences), null where not counted on both sides.
 * @param {{ cases: any[], differences: any[] }} k the document's counting (status ok)
 */
function countRows(k) {
  const cases = new Map(k.cases.map((c) => [`${c.side}|${c.key}`, c]));
  const diffs = new Map(
    k.differences.filter((d) => d.reference === 'base' && d.member === 'head').map((d) => [`${d.setup}/${d.op}`, d]),
  );
  return [...new Set(k.cases.map((c) => c.key))].sort().map((key) => ({
    key,
    base: cases.get(`base|${key}`),
    head: cases.get(`head|${key}`),
    d: diffs.get(key) ?? null,
  }));
}

/** @typedef {ReturnType<typeof countRows>[number]} CountRow */

/** A counted case's instructions per operation: the mean of its two counts (lib/costs.js storedCost). */
const meanOf = (/** @type {any} */ c) => storedCost(c).instructions;

/** How a count per operation reads in a cell: "2 → 3" when the sides differ, else the head's value. */
const ioCell = (/** @type {CountRow} */ r, /** @type {import('../lib/costs.js').IoField} */ field) => {
  const d = r.d.io.find((/** @type {{ field: string }} */ x) => x.field === field);
  if (d) return `**${countText(d.reference)} → ${countText(d.member)}**`;
  return typeof r.head?.[field] === 'number' ? countText(r.head[field]) : '';
};

/**
 * The components of a case that moved beyond their tolerance, largest first: "SQLite +1.02%
 * (+2.36k/op)", the change over the base's component (lib/costs.js componentScale).
 */
const componentCell = (/** @type {CountRow} */ r) =>
  Object.entries(/** @type {Record<string, { delta: number, tolerance: number }>} */ (r.d.components ?? {}))
    .filter(([, x]) => componentMoved(x))
    .sort(([, x], [, y]) => Math.abs(y.delta) - Math.abs(x.delta))
    .map(([name, x]) => {
      const base = storedCost(r.base);
      const change = x.delta / componentScale(base.components?.[name] ?? 0, base.instructions);
      return `${COMPONENT_LABELS[/** @type {keyof typeof COMPONENT_LABELS} */ (name)]} ${changePercent(change)} (${x.delta < 0 ? '−' : '+'}${countText(Math.abs(x.delta))}/op)`;
    })
    .join(', ');

/** The cases whose counts changed (each with its difference), with the wall time's verdict beside them. */
function costTable(/** @type {CountRow[]} */ rows, /** @type {Row[]} */ wall) {
  const byKey = new Map(wall.map((w) => [w.key, w]));
  const fields = IO.filter(
    ([f]) =>
      f === 'fsync' ||
      f === 'write' ||
      f === 'written' ||
      rows.some((r) => r.d.io.some((/** @type {{ field: string }} */ x) => x.field === f)),
  );
  const sorted = [...rows].sort(
    (a, b) =>
      Number(b.d.fails) - Number(a.d.fails) ||
      Math.abs(b.d.change) - Math.abs(a.d.change) ||
      a.key.localeCompare(b.key),
  );
  return markdownTable(
    [
      [
        'Case (config/driver/cipher/op)',
        'Instructions/op: base → head',
        'Change (tolerance)',
        'Components moved',
        ...fields.map(([, label]) => `${label}/op`),
        'Wall time',
        'Fails',
      ],
      ...sorted.map((r) => {
        const w = byKey.get(r.key);
        const moved = beyondRepeat(r.d);
        return [
          inert(r.key, MAX.key),
          `${countText(meanOf(r.base))} → ${countText(meanOf(r.head))}`,
          `${moved ? '**' : ''}${changeCell(r.d.change)}${moved ? '**' : ''} (±${(r.d.tolerance * 100).toFixed(2)}%)`,
          componentCell(r),
          ...fields.map(([f]) => ioCell(r, f)),
          w ? `${w.verdict}${w.change === null ? '' : ` ${changeCell(w.change)}`}` : '',
          r.d.fails ? 'yes' : '',
        ];
      }),
    ],
    ['l', 'r', 'r', 'l', ...fields.map(() => /** @type {const} */ ('r')), 'l', 'c'],
  );
}

/**
 * The counts' part of the report: a line of what they found (a case counted on one side only, or
 * on neither, is not counted), then the cases whose cost changed.
 * @param {CompareDocument} doc
 * @param {Row[]} rows
 * @returns {string[]}
 */
function costLines(doc, rows) {
  const k = doc.counting ?? { status: 'unavailable', reason: 'no counting section' };
  if (k.status !== 'ok' || !k.cases || !k.differences)
    return [`**Counts**: not compared (${inert(k.reason ?? k.status, MAX.reason)}); wall time alone decides.`, ''];
  const counted = countRows(k);
  const t = tally(
    counted.map((r) => ({ verdict: r.d ? r.d.verdict : COUNT_VERDICTS.notCounted })),
    Object.values(COUNT_VERDICTS),
  );
  const fails = counted.filter((r) => r.d?.fails).length;
  const changed = counted.filter((r) => r.d && r.d.verdict !== COUNT_VERDICTS.same);
  const lines = [
    `**Counts**: ${fails ? `**${fails} case(s) fail the check**; ` : ''}${t['costs more']} case(s) cost more, ${t['costs less']} cost less, ${t['cost changed']} changed both ways, ${t['same cost']} the same, ${t['not counted']} not counted. Instructions/op (callgrind) and system calls and bytes per operation (strace), counted twice on each side in new processes, the repeat with its heap laid out differently; instructions changed when the change exceeds its tolerance (the larger of ${pct(COUNT_FLOOR)}, 3 × the case's own repeat spread, 2 × the largest of its operation's), in total or in a component (the same rule on each component's own spreads, its floor ${pct(COMPONENT_FLOORS.sqlite ?? COUNT_FLOOR)} of the operation for SQLite, the cipher and the binding, ${pct(COMPONENT_FLOORS.libc ?? COUNT_FLOOR)} for libc, ${pct(COUNT_FLOOR)} for the others: SQLite's part of a select repeats where the runtime's does not); system calls and bytes when they differ at all. Fails: instructions up by 1% or more in total beyond the tolerance, or an added fsync or write per operation, or 1% more bytes written; a component that moved while the total did not is reported, not failed.`,
    '',
  ];
  if (changed.length) lines.push(costTable(changed, rows), '');
  return lines;
}

const pct = (/** @type {number} */ x) => `${+(x * 100).toFixed(3)}%`;
const minutes = (/** @type {number} */ s) => `${(s / 60).toFixed(1)} min`;

/**
 * Where a compare's minutes went, and which cases got fewer timed rounds (compare/timed-rounds.js).
 * @param {Phase[]} phases
 * @returns {string[]}
 */
function phaseLines(phases) {
  if (!phases.length) return [];
  const timed = phases.filter((p) => p.phase === 'timed');
  const words = phases.map((p) => {
    if (p.phase === 'prepare') return `preparing the sides ${minutes(p.seconds)}`;
    if (p.phase === 'report') return `the statistics and the report ${minutes(p.seconds)}`;
    if (p.phase === 'count') {
      const each =
        p.base === undefined || p.head === undefined
          ? ''
          : `base ${(p.base / 60).toFixed(1)}, head ${(p.head / 60).toFixed(1)}`;
      const how = p.together ? 'both sides at once' : 'one side after the other';
      return `counting ${minutes(p.seconds)} (${how}${each ? `: ${each}` : ''})`;
    }
    const more = p !== timed[0] ? ' more' : '';
    return `${p === timed[0] ? 'timing ' : ''}${p.cases ?? '?'} cases × ${p.rounds ?? '?'}${more} rounds ${minutes(p.seconds)}`;
  });
  const total = phases.reduce((s, p) => s + p.seconds, 0);
  const lines = [`**Where the time went** (${minutes(total)}): ${words.join('; ')}.`];
  const [all, rest] = timed;
  if (rest && all?.cases !== undefined && rest.cases !== undefined && all.rounds && rest.rounds) {
    const full = all.rounds + rest.rounds;
    lines.push(
      `${rest.cases} case(s) were timed in all ${full} rounds; the other ${all.cases - rest.cases} in ${all.rounds}: their counts decide their CPU cost (CPU-bound operations counted exactly on both sides, without an fsync per operation; sizes are exact), and wall time decides the waits of the others. The A/A false-alarm rate of the time verdicts was measured at ${CALIBRATED.rounds} rounds for every case (${CALIBRATED.falseAlarms}), and at ${CALIBRATED.fewer.rounds} for CPU-bound cases alone (${CALIBRATED.fewer.falseAlarms}); in ${CALIBRATED.fewer.rounds} rounds a case's time alone finds only a slowdown of ${CALIBRATED.fewer.finds}, its counts a change of 0.1–5%.`,
    );
  }
  return [...lines, ''];
}

/**
 * The whole report, from a compare's run document (compareProblem says whether one is).
 * @param {CompareDocument} doc
 */
export function report(doc) {
  const rows = rowsOf(doc);
  const n = tally(rows);
  const timed = rows.filter((r) => r.pAdjusted !== null).length;
  const [base, head] = doc.sides;
  const { run } = doc;
  const rounds = run.budget.rounds;
  const lines = [
    `## Benchmark compare: ${inert(side('head', head.checkout))} against ${inert(side('base', base.checkout))}`,
    '',
    ...costLines(doc, rows),
    `${n.slower ? `**${n.slower} slower**` : '0 slower'}, ${n.faster} faster, ${n['no change']} no change, ${n['too noisy to tell']} too noisy to tell, ${n['not compared']} not compared.`,
    '',
    `${inert(environmentLine(doc), MAX.line)}. ${rounds} rounds per side; ${inert(doc.harness.method, MAX.line)}; engine ${code(run.engine.join(' '), MAX.line)}; ${(run.seconds / 60).toFixed(1)} min.`,
    `Base, Head: median ops/s over the rounds (size: bytes, exact). Change: head over base, from the 20%-trimmed mean of the ${rounds} round pairs' log ratios, with its interval at the level Holm's correction tested it at (95% for one case alone, wider among many; it excludes 0 exactly when Sig.). Sig. (*): the trimmed-mean paired t-test, Holm-corrected over the ${timed} timed cases, α = ${run.alpha}. Slower, faster: significant, and the interval reaches a change of ${(run.threshold * 100).toFixed(0)}% or more (size: bigger, smaller by more than it); no change: the whole interval lies within ±${(run.threshold * 100).toFixed(0)}%; too noisy to tell: neither (more rounds would tell).`,
    '',
    ...phaseLines(run.phases),
  ];
  const worth = rows.filter((r) => r.verdict !== 'no change' && r.verdict !== 'not compared');
  if (worth.length) lines.push(table(worth), '');
  for (const [what, verdict] of [
    ['with no change', VERDICTS.same],
    ['not compared', VERDICTS.notCompared],
  ]) {
    const folded = rows.filter((r) => r.verdict === verdict);
    if (folded.length)
      lines.push(
        `<details><summary>${folded.length} case(s) ${what}</summary>`,
        '',
        table(folded),
        '',
        '</details>',
        '',
      );
  }
  return lines.join('\n');
}
