// The compare's report, in Markdown (terminal, job summary and PR comment alike), from the compare's
// result: what compare.json holds. The PR comment renders a pull request's compare.json with it, so
// every string that came from a run (the sides, the environment, the method, the engine's flags,
// case keys, reasons) goes through lib/markdown.js and renders as itself; numbers are written by
// this code, with the aggregate's renderers (aggregate/render/: a change, its interval, a count).
// Built-ins only (the comment job installs nothing).
import { code, inert, table as markdownTable } from '../lib/markdown.js';
import { driverText, megabytes, rate } from '../lib/format.js';
import { RANKED, tally } from '../lib/verdicts.js';
import { countText } from '../aggregate/render/counts-text.js';
import { changePercent, changeText } from '../aggregate/render/figure.js';
import { COUNT_FLOOR, COMPONENT_FLOORS, IO, beyondRepeat, movedComponents } from '../lib/costs.js';
import { COMPONENT_LABELS } from '../bench/data/components.js';
/** @import { Row } from '../bench/paired/case-verdicts.js' */
/** @import { CostsSection } from '../bench/paired/count-sides.js' */

/**
 * @typedef {object} CompareResult what compare.json holds (compare/cli.js writes it)
 * @property {{ given: string, commit: string | null }} base
 * @property {{ given: string, commit: string | null }} head
 * @property {string} method
 * @property {number} rounds
 * @property {number} threshold
 * @property {number} alpha
 * @property {string[]} engine the engine's flags
 * @property {number} seconds
 * @property {any} environment a result document's
 * @property {{ base: any[], head: any[] }} drivers each side's, from its result documents
 * @property {Row[]} rows
 * @property {CostsSection} costs each side's counts compared (lib/costs.js)
 * @property {Phase[]} phases how long each phase took, in order
 */

/**
 * @typedef {object} Phase one phase of a compare (compare/check.js PHASES)
 * @property {typeof import('./check.js').PHASES[number]} phase
 * @property {number} seconds
 * @property {number} [base] count: each side's own seconds
 * @property {number} [head]
 * @property {boolean} [together] count: both sides at once
 * @property {number} [rounds] timed: the rounds of this phase
 * @property {number} [cases] timed: the cases it timed
 */

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
function environmentLine(/** @type {{ environment: any, drivers: { base: any[], head: any[] } }} */ m) {
  const e = m.environment;
  const [base, head] = [m.drivers.base, m.drivers.head].map((ds) =>
    ds
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

/** How a count per operation reads in a cell: "2 → 3" when the sides differ, else the one value. */
const ioCell = (
  /** @type {import('../lib/costs.js').CostRow} */ r,
  /** @type {import('../lib/costs.js').IoField} */ field,
) => {
  const d = r.io.find((x) => x.field === field);
  if (d) return `**${countText(d.base)} → ${countText(d.head)}**`;
  return r.head ? countText(r.head.io[field]) : '';
};

/** The components of a case that moved beyond their tolerance: "SQLite +1.02% (+2.36k/op)". */
const componentCell = (/** @type {import('../lib/costs.js').CostRow} */ r) =>
  movedComponents(r)
    .map(
      (c) =>
        `${COMPONENT_LABELS[/** @type {keyof typeof COMPONENT_LABELS} */ (c.component)]} ${changePercent(c.change)} (${c.delta < 0 ? '−' : '+'}${countText(Math.abs(c.delta))}/op)`,
    )
    .join(', ');

/** The cases whose counts changed, with the wall time's verdict beside them. */
export function costTable(/** @type {import('../lib/costs.js').CostRow[]} */ rows, /** @type {Row[]} */ wall) {
  const byKey = new Map(wall.map((w) => [w.key, w]));
  const fields = IO.filter(
    ([f]) => f === 'fsync' || f === 'write' || f === 'written' || rows.some((r) => r.io.some((x) => x.field === f)),
  );
  const sorted = [...rows].sort(
    (a, b) =>
      Number(b.fails) - Number(a.fails) ||
      Math.abs(b.change ?? 0) - Math.abs(a.change ?? 0) ||
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
        const moved = beyondRepeat(r);
        return [
          inert(r.key, MAX.key),
          r.base && r.head ? `${countText(r.base.instructions)} → ${countText(r.head.instructions)}` : '',
          r.change === null
            ? ''
            : `${moved ? '**' : ''}${changeCell(r.change)}${moved ? '**' : ''} (±${((r.tolerance ?? 0) * 100).toFixed(2)}%)`,
          componentCell(r),
          ...fields.map(([f]) => ioCell(r, f)),
          w ? `${w.verdict}${w.change === null ? '' : ` ${changeCell(w.change)}`}` : '',
          r.fails ? 'yes' : '',
        ];
      }),
    ],
    ['l', 'r', 'r', 'l', ...fields.map(() => /** @type {const} */ ('r')), 'l', 'c'],
  );
}

/**
 * The counts' part of the report: a line of what they found, then the cases whose cost changed.
 * @param {CompareResult} c
 * @returns {string[]}
 */
function costLines(c) {
  const k = c.costs;
  if (k.status !== 'ok' || !k.rows || !k.tally)
    return [`**Counts**: not compared (${inert(k.reason ?? k.status, MAX.reason)}); wall time alone decides.`, ''];
  const t = k.tally;
  const changed = k.rows.filter((r) => r.verdict !== 'same cost' && r.verdict !== 'not counted');
  const lines = [
    `**Counts**: ${t.fails ? `**${t.fails} case(s) fail the check**; ` : ''}${t['costs more']} case(s) cost more, ${t['costs less']} cost less, ${t['cost changed']} changed both ways, ${t['same cost']} the same, ${t['not counted']} not counted. Instructions/op (callgrind) and system calls and bytes per operation (strace), counted twice on each side in new processes, the repeat with its heap laid out differently; instructions changed when the change exceeds its tolerance (the larger of ${pct(COUNT_FLOOR)}, 3 × the case's own repeat spread, 2 × the largest of its operation's), in total or in a component (the same rule on each component's own spreads, its floor ${pct(COMPONENT_FLOORS.sqlite ?? COUNT_FLOOR)} of the operation for SQLite, the cipher and the binding, ${pct(COMPONENT_FLOORS.libc ?? COUNT_FLOOR)} for libc, ${pct(COUNT_FLOOR)} for the others: SQLite's part of a select repeats where the runtime's does not); system calls and bytes when they differ at all. Fails: instructions up by 1% or more in total beyond the tolerance, or an added fsync or write per operation, or 1% more bytes written; a component that moved while the total did not is reported, not failed.`,
    '',
  ];
  if (changed.length) lines.push(costTable(changed, c.rows), '');
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

/** The whole report. */
export function report(/** @type {CompareResult} */ c) {
  const n = tally(c.rows);
  const timed = c.rows.filter((r) => r.pAdjusted !== null).length;
  const lines = [
    `## Benchmark compare: ${inert(side('head', c.head))} against ${inert(side('base', c.base))}`,
    '',
    ...costLines(c),
    `${n.slower ? `**${n.slower} slower**` : '0 slower'}, ${n.faster} faster, ${n['no change']} no change, ${n['too noisy to tell']} too noisy to tell, ${n['not compared']} not compared.`,
    '',
    `${inert(environmentLine(c), MAX.line)}. ${c.rounds} rounds per side; ${inert(c.method, MAX.line)}; engine ${code(c.engine.join(' '), MAX.line)}; ${(c.seconds / 60).toFixed(1)} min.`,
    `Base, Head: median ops/s over the rounds (size: bytes, exact). Change: head over base, from the 20%-trimmed mean of the ${c.rounds} round pairs' log ratios, with its interval at the level Holm's correction tested it at (95% for one case alone, wider among many; it excludes 0 exactly when Sig.). Sig. (*): the trimmed-mean paired t-test, Holm-corrected over the ${timed} timed cases, α = ${c.alpha}. Slower, faster: significant, and the interval reaches a change of ${(c.threshold * 100).toFixed(0)}% or more (size: bigger, smaller by more than it); no change: the whole interval lies within ±${(c.threshold * 100).toFixed(0)}%; too noisy to tell: neither (more rounds would tell).`,
    '',
    ...phaseLines(c.phases),
  ];
  const worth = c.rows.filter((r) => r.verdict !== 'no change' && r.verdict !== 'not compared');
  if (worth.length) lines.push(table(worth), '');
  const fold = (/** @type {string} */ what, /** @type {Row[]} */ rows) => {
    if (rows.length)
      lines.push(`<details><summary>${rows.length} case(s) ${what}</summary>`, '', table(rows), '', '</details>', '');
  };
  fold(
    'with no change',
    c.rows.filter((r) => r.verdict === 'no change'),
  );
  fold(
    'not compared',
    c.rows.filter((r) => r.verdict === 'not compared'),
  );
  return lines.join('\n');
}
