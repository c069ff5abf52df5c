// The readable summary of a result document: one row per (config, driver, cipher), one column
// per operation, each figure with its ±; then every case that did not run, with why. Markdown
// (the job's step summary): every string of the document through lib/markdown.js inert().
import { REASON_MAX, inert, table as markdownTable } from '../../lib/markdown.js';
import { driverText, rate, whole } from '../../lib/format.js';
import { CONFIGS } from '../data/configs.js';
import { OPS, columnTitle } from '../data/ops.js';
import { caseKey, setupKey } from '../data/suite.js';
import {
  ABSOLUTE_COVERAGE,
  CATCHES,
  STEADY_OPS,
  changeText,
  comparisonCount,
  fastText,
  figureText,
  pText,
} from '../../aggregate/render/figure.js';
import { comparisonTable } from '../../aggregate/render/pair-table.js';
import { noiseLine } from './noise.js';

/** Which figure is which, one line each: the summary's, the README's and the docs' words. */
const MEDIAN_LINE =
  'typical under load: the median over the rounds of each round’s median slice, in ops/s (setup and VACUUM: ms)';
const FAST_LINE = `Fastest typical: the median over the rounds of each round’s 90th-percentile slice (the 10th-percentile time), what an operation costs when the machine’s interference, which only ever adds time, is least; ± its 95% interval. Shown only where the operation writes nothing (${STEADY_OPS.join(', ')}, or counted: no write, no fsync): the fastest slices of one that writes are those without a WAL checkpoint or sync`;
const PAIRED_LINE =
  'A comparison pairs slices milliseconds apart: per round, the median over its cycles of the log ratio of the two cases’ slices, then the paired test over the rounds';
import { COMPARISONS } from '../data/comparisons.js';
import { journalRows, latencyRows, notRunLines, scaleRows } from '../../aggregate/render/workload-rows.js';
import { componentLines, countCell, countChange, countingLine } from '../../aggregate/render/counts-text.js';
import { quickAnswers } from '../../aggregate/render/quick-answers.js';

/** One cell: the case's figure, or its status. */
const cell = (/** @type {any} */ c) => (c ? (figureText(c, rate).text ?? inert(c.status)) : '');

/**
 * @param {any} doc a result document
 * @returns {string}
 */
export function summarize(doc) {
  const ops = OPS.filter((op) => doc.cases.some((/** @type {any} */ c) => c.op === op.name));
  const byKey = new Map(doc.cases.map((/** @type {any} */ c) => [caseKey(c), c]));
  const order = (/** @type {string} */ config) => CONFIGS.findIndex((x) => x.name === config);
  /** @type {import('../data/suite.js').Setup[]} a row per setup, in table order */
  const sorted = [...new Map(doc.cases.map((/** @type {any} */ c) => [setupKey(c), c])).values()].sort(
    (a, b) => order(a.config) - order(b.config) || a.driver.localeCompare(b.driver) || a.cipher.localeCompare(b.cipher),
  );
  const notes = new Map(doc.configs.map((/** @type {any} */ c) => [c.name, c]));
  /** A config as every table names it: its label (one name per config), marked where it equals SQLite's default. */
  const configName = (/** @type {string} */ config) => {
    const n = /** @type {any} */ (notes.get(config));
    return `${inert(n?.label ?? config)}${n?.equalsDefault ? ' (= default)' : ''}`;
  };
  /**
   * A table of a row per config, driver and cipher (each config by its label): a column per
   * operation, each cell from that case.
   * @param {typeof ops} columns
   * @param {(op: (typeof ops)[number]) => string} title
   * @param {(c: any) => string} cellOf
   */
  const sameRows = (columns, title, cellOf) =>
    markdownTable(
      [
        ['Config', 'Driver', 'Cipher', ...columns.map(title)],
        ...sorted.map((s) => [
          configName(s.config),
          inert(s.driver),
          inert(s.cipher),
          ...columns.map((op) => cellOf(byKey.get(`${setupKey(s)}/${op.name}`))),
        ]),
      ],
      ['l', 'l', 'l', ...columns.map(() => /** @type {const} */ ('r'))],
    );
  const lines = [
    // a quick run answers the README's questions first, from its one round, marked as a smoke test
    ...(doc.run.mode === 'quick' ? [...quickAnswers(doc), ''] : []),
    `Each case's figure: ${doc.run.mode === 'quick' ? 'typical under load over one round (ops/s; setup and VACUUM: ms), ± tinybench’s margin over its samples' : `${MEDIAN_LINE}, ± the wider side of its 95% interval`}; a row per config, driver and cipher:`,
    '',
    sameRows(ops, columnTitle, cell),
  ];
  const fastOps = ops.filter((op) => doc.cases.some((/** @type {any} */ c) => c.op === op.name && fastText(c, rate)));
  if (fastOps.length)
    lines.push(
      '',
      `${FAST_LINE} (rows as above):`,
      '',
      sameRows(fastOps, columnTitle, (c) => fastText(c, rate) ?? ''),
    );
  const noise = noiseLine(doc.noise);
  if (noise) lines.push('', noise);
  const counted = ops.filter(
    (op) => op.count && doc.cases.some((/** @type {any} */ c) => c.op === op.name && c.counts),
  );
  if (counted.length)
    lines.push(
      '',
      'What one operation costs, counted: instructions · fsyncs per operation (rows as above; docs/counting.md):',
      '',
      sameRows(counted, (op) => op.label, countCell),
    );
  lines.push(...componentLines(doc), '', countingLine(doc.counting, doc.cases));
  const drivers = doc.sides[0].drivers.map((/** @type {any} */ d) =>
    d.status === 'ok'
      ? `- ${inert(driverText(d))}, binary ${inert(d.binary?.origin)}`
      : `- ${inert(driverText(d), REASON_MAX)}`,
  );
  lines.push('', 'Drivers:', ...drivers);
  const defaults = doc.configs.filter((/** @type {any} */ c) => c.note);
  if (defaults.length)
    lines.push(
      '',
      'Configs:',
      ...defaults.map((/** @type {any} */ c) => `- ${inert(c.label)}: ${inert(c.note, REASON_MAX)}`),
    );
  const notOk = doc.cases.filter((/** @type {any} */ c) => c.status !== 'ok');
  if (notOk.length) {
    lines.push('', 'Not measured:');
    const byReason = /** @type {Map<string, string[]>} */ (new Map());
    for (const c of notOk) {
      const r = `${inert(c.status)}: ${inert(c.reason, REASON_MAX)}`;
      byReason.set(r, [...(byReason.get(r) ?? []), inert(caseKey(c))]);
    }
    for (const [reason, which] of byReason)
      lines.push(
        `- ${which.length} case(s), ${reason} (${which.slice(0, 3).join(', ')}${which.length > 3 ? ', …' : ''})`,
      );
  }
  lines.push('', ...comparisonLines(doc, byKey));
  if (doc.comparisons?.length && doc.counting?.status === 'ok')
    lines.push(
      'After each change in time, what the counts say changed per operation: instructions (instr), and the fsyncs, writes, reads and bytes written where they differ. A difference in instructions under about 1% can come from what ran before the case in its counting process rather than from the change (docs/counting.md).',
    );
  if (doc.workloads) lines.push('', ...workloadLines(doc.workloads, doc.comparisons));
  lines.push(
    '',
    doc.run.mode === 'quick'
      ? 'QUICK RUN: a smoke test of one round per case. Its ± is tinybench’s margin over one round’s samples, not where a repeat would land, and nothing is compared.'
      : `Figures: ${MEDIAN_LINE}, ± the wider side of its 95% interval: where a repeat run on this machine is expected to land (the spread of the rounds, the machine’s movement between rounds, t with n − 1 degrees of freedom); measured, it ${ABSOLUTE_COVERAGE}. "modes": the rounds fell into separated groups, shown with their shares instead of one median.${doc.noise ? ` ${PAIRED_LINE}.` : ''}`,
  );
  const slow = doc.run.budget?.slowdown;
  if (slow)
    lines.unshift(
      `CALIBRATION RUN: every timed task was slowed by ${+(slow * 100).toFixed(3)}% on purpose (--slowdown); these are not real figures.`,
      '',
    );
  return lines.join('\n');
}

/**
 * A setup key as the tables name it: the config's label, the driver, the cipher.
 * @param {string} key config/driver/cipher
 */
const setupName = (key) => {
  const [config, ...rest] = key.split('/');
  return [inert(CONFIGS.find((c) => c.name === config)?.label ?? config), ...rest.map((x) => inert(x))].join(', ');
};

/**
 * The paired comparisons of a run, one table per comparison as the README writes it
 * (aggregate/render/pair-table.js comparisonTable: a row per compared setup, a column per operation,
 * each cell the change with its 95% interval, "≈": the interval holds 0), padded for the terminal,
 * each cell followed by what the counts say changed.
 * @param {any} doc
 * @param {Map<string, any>} byKey its cases by caseKey
 */
function comparisonLines(doc, byKey) {
  const all = doc.comparisons ?? [];
  if (!all.length)
    return [
      doc.run.mode === 'quick'
        ? 'Comparisons: none in a quick run (one round); the answers at the top are its figures’ ratios.'
        : 'Comparisons: none (fewer than 3 paired rounds).',
    ];
  const lines = [];
  /** A judged pair's change in time, then what its counts say changed (countChange), after `join`. */
  const withCounts = (/** @type {any} */ c, /** @type {(t: string) => string} */ join) => {
    const t = c && countChange(byKey.get(`${c.reference}/${c.op}`), byKey.get(`${c.member}/${c.op}`));
    return `${changeText(c)}${t ? join(t) : ''}`;
  };
  if (doc.selfCheck) {
    const aa = all.filter((/** @type {any} */ c) => c.id === 'self-check');
    lines.push(
      `Self-check (A/A: production measured twice; it ${CATCHES}): ${doc.selfCheck.passed ? 'passed' : 'FAILED: the comparisons below are less certain than their intervals say'}, combined p ${pText(doc.selfCheck.p)}; ${aa.map((/** @type {any} */ c) => `${inert(c.op)} ${withCounts(c, (t) => ` (${t})`)}`).join(', ')}`,
      '',
    );
  }
  lines.push(
    `Each interval below is its comparison's own 95% interval, not corrected over the run's ${comparisonCount(all)}: read each on its own (with no real difference, about 3 in 100 at 8 pairs exclude 0).`,
    '',
  );
  for (const cmp of COMPARISONS.filter((x) => x.id !== 'self-check')) {
    const first = all.find((/** @type {any} */ c) => c.id === cmp.id);
    if (!first) continue;
    const caption = `${cmp.title} (${setupName(first.reference)}); each cell the change in ops/s with its 95% interval:`;
    const cell = (/** @type {any} */ c) => withCounts(c, (t) => `; ${t}`);
    lines.push(comparisonTable(doc, cmp.id, setupName, 'Compared', { caption, cell, padded: true }), '');
  }
  return lines;
}

/**
 * The workloads (bench/workloads/): concurrency as WAL against DELETE, latencies, scale and its
 * growth, and what did not run.
 * @param {any} w the document's `workloads`
 * @param {any[]} comparisons the document's, its workloads' pairs among them
 */
function workloadLines(w, comparisons) {
  const same = (/** @type {string} */ x) => inert(x);
  const lines = [
    `Workloads (${whole(w.seconds)} s; ${whole(w.budget.rounds)} round${w.budget.rounds === 1 ? '' : 's'} of ${whole(w.budget.durationMs)} ms per concurrency workload, each in fresh processes):`,
    '',
  ];
  const journal = journalRows(w, comparisons, same);
  if (journal.length > 1) {
    lines.push(
      'Concurrency, each connection its own worker thread on one database: WAL against DELETE (rollback journal), other PRAGMAs production\'s; "WAL vs DELETE" is the paired change in the same rounds.',
      '',
      markdownTable(journal, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']),
      '',
    );
    lines.push(markdownTable(latencyRows(w, same), ['l', 'r', 'r', 'r', 'r']), '');
  }
  const scale = scaleRows(w, same);
  if (scale.length > 1)
    lines.push(
      'Scale, production config, each size its own template; cost per 10× messages: how the time per operation (or ms, MB) grows, from the fit over the sizes.',
      '',
      markdownTable(scale, ['l', ...scale[0].slice(1).map(() => /** @type {const} */ ('r'))]),
      '',
    );
  const notRun = notRunLines(w, same);
  if (notRun.length) lines.push('Workloads not measured:', ...notRun);
  return lines;
}
