// "Claims checked" (docs/pipeline.md#what-the-readme-shows, item 6): per claim of bench/data/production-claims.js
// what the newest full run of a machine class measured and the verdict (bench/claims/verdict.js).
// The claim and what is checked are the table's words; from the document only numbers, verdicts and
// reasons, the reasons shown inert. results/README.md: per machine class, a row per check (render);
// the README block: ONE table for the whole block (renderBlockClaims), a column per machine class.
import { claimCells, claimRows, perCheckText } from '../render/claims-table.js';
import { ratioText } from '../render/figure.js';
import { CLAIMS, MIN_PAIRS, SOURCE } from '../../bench/data/production-claims.js';
import { inert } from '../../lib/markdown.js';
import { day } from '../../lib/format.js';
import { CLAIM_VERDICTS, VERDICTS } from '../../lib/verdicts.js';
import { newestFirst, runName, readmeTable } from './common.js';
import { compactChange } from '../render/pair-table.js';

/**
 * The newest full run (the highest Node on a tie) of the machine class's newest runs per Node major
 * that carries claims.
 * @param {{ entries: import('../store.js').Entry[], load: (e: import('../store.js').Entry) => any }} ctx
 */
function claimsRun(ctx) {
  const docs = newestFirst(ctx.entries)
    .filter((e) => e.mode === 'full')
    .map((e) => ctx.load(e));
  return docs.find((d) => Array.isArray(d?.claims) && d.claims.length) ?? null;
}

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  // the README has one table for all machine classes (renderBlockClaims)
  if (ctx.page === 'readme') return [];
  const doc = claimsRun(ctx);
  if (!doc) return [];
  const rows = claimRows(doc);
  if (!rows.length) return [];
  return [
    '##### Claims checked',
    '',
    `The performance claims of ${SOURCE.publisher}'s [${SOURCE.title}](${SOURCE.url}), each measured in the newest full run (${runName(doc)}): the claim's variant against its reference, in the same blocks of the same rounds; the change with its paired 95% interval. ` +
      `Verdicts: holds (the interval meets the claimed change and excludes 0), smaller or larger than claimed, opposite, too noisy to tell (the interval holds 0 and the claim); a claim with no number is judged by its direction; fewer than ${MIN_PAIRS} pairs: too noisy to tell ([the rules](../docs/claims.md)). ${perCheckText(rows)}`,
    '',
    readmeTable(claimCells(rows, { text: (s, max) => inert(s, max), link: true }), ['r', 'l', 'l', 'r', 'r', 'l', 'l']),
  ];
}

/** The verdicts a README cell shows (a check not compared is left to results/README.md). */
const SHOWN = new Set(/** @type {string[]} */ ([...Object.values(CLAIM_VERDICTS), VERDICTS.unclear]));

/**
 * One claim on one machine class, as a README cell: its measured checks in the table's order, each
 * change by ratioText (compactChange, "≈" where its interval holds 0; a ratio from twice up), a run of checks with the same
 * verdict under one verdict: "larger than claimed: -12% ±2.6, -11% ±2.8; holds: -12% ±2.1".
 * Checks that could not be measured are left to results/README.md; a claim none of whose checks was
 * measured is "not compared", a claim the run did not check "not run".
 * @param {import('../../bench/data/production-claims.js').Claim} claim
 * @param {any} doc
 */
export function claimCell(claim, doc) {
  if (!doc.claims.some((/** @type {any} */ e) => e?.id === claim.id)) return 'not run';
  /** @type {{ word: string, figures: string[] }[]} */
  const runs = [];
  for (const r of claimRows(doc).filter((x) => x.claim === claim && x.change && SHOWN.has(x.verdict))) {
    const figure = ratioText(/** @type {NonNullable<typeof r.change>} */ (r.change), compactChange);
    const last = runs[runs.length - 1];
    if (last?.word === r.verdict) last.figures.push(figure);
    else runs.push({ word: r.verdict, figures: [figure] });
  }
  return runs.length ? runs.map((x) => `${x.word}: ${x.figures.join(', ')}`).join('; ') : VERDICTS.notCompared;
}

/**
 * A machine class's column header: its platform, with the machine class when the platform has several.
 * @param {{ platform: string, machine: string }[]} machines
 */
function headers(machines) {
  return machines.map((m) => {
    if (machines.filter((x) => x.platform === m.platform).length < 2) return inert(m.platform);
    const rest = m.machine.startsWith(m.platform)
      ? m.machine.slice(m.platform.length).replace(/^[\s·-]+/, '')
      : m.machine;
    return `${inert(m.platform)} (${inert(rest, 30)})`;
  });
}

/**
 * "Claims checked" for the README block: ONE table, a row per claim any machine class checked, a
 * column per machine class that has a full run with claims (each a separate machine, measured
 * on its own: the columns are not compared with each other); classes without one named once.
 * @param {{ machines: { platform: string, machine: string, entries: import('../store.js').Entry[], load: (e: import('../store.js').Entry) => any }[], resultsLink: string }} o
 * @returns {string[]} Markdown lines, none when no machine class checked a claim
 */
export function renderBlockClaims(o) {
  const all = o.machines.map((m) => ({ ...m, doc: claimsRun(m) }));
  const checked = all.filter((m) => m.doc);
  if (!checked.length) return [];
  const claims = CLAIMS.filter((x) => checked.some((m) => m.doc.claims.some((/** @type {any} */ e) => e?.id === x.id)));
  const without = all.filter((m) => !m.doc).map((m) => inert(m.machine));
  const runs = checked
    .map((m, i) => `${headers(checked)[i]}: ${inert(m.doc.environment.node)}, ${day(m.doc.run.finishedAt)}`)
    .join('; ');
  const link = `${o.resultsLink}/README.md`;
  return [
    '### Claims checked', // a level beside the platforms
    `${SOURCE.publisher}'s [production write-up](${SOURCE.url}) makes these claims; each is checked in its machine class's newest full run (${runs}). ` +
      'Columns are separate machines, each measured on its own: not compared with each other. ' +
      'A cell: the verdict ([rules](docs/claims.md)) and each check\'s change against the claim\'s reference, paired in the run, ± the wider side of its 95% interval, per check, not corrected over the checks ("≈ ±x": too noisy to tell), in ops/s (time for a claim about time). ' +
      `The quotes, the checks and what is not measured: [${link}](${link}).` +
      (without.length ? ` No claims checked yet on ${without.join(', ')}.` : ''),
    readmeTable(
      [
        ['#', 'Claim', ...headers(checked)],
        ...claims.map((x) => [String(x.n), x.short, ...checked.map((m) => claimCell(x, m.doc))]),
      ],
      ['r', 'l', ...checked.map(() => /** @type {'l'} */ ('l'))],
    ),
  ];
}
