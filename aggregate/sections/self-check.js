// Which run the comparisons below come from, and whether its A/A self-check passed: production
// measured twice, as two cases, should show no difference (its operations' p-values combined,
// bench/result/analysis.js), with what the check catches (aggregate/render/figure.js CATCHES). One line
// in the README (a failed self-check in bold capitals); on results/README.md the twin's changes in full.
import { PRODUCTION_CONFIG } from '../../bench/data/configs.js';
import { CATCHES, SELF_CHECK_CATCHES, changeText, comparisonCount, pText } from '../render/figure.js';
import { comparisonRun, configLabel, runName } from './common.js';
import { opLabel } from '../render/pair-table.js';

/** What a failed self-check means for the comparisons: in full, and in the README's line. */
const FAILED = 'the comparisons are less certain than their intervals say';
const FAILED_SHORT = 'the intervals understate the uncertainty';

/** The README's line. */
function line(/** @type {any} */ doc) {
  const from = `Comparisons below: paired within one run (${runName(doc)}), each interval on its own.`;
  const sc = doc.selfCheck;
  if (!sc) return from;
  const twice = `catches ± 2× too narrow in ${100 * SELF_CHECK_CATCHES.twice}%+ of runs`;
  return sc.passed
    ? `${from} Self-check (Production measured twice): passed (p ${pText(sc.p)}; ${twice}).`
    : `${from} **Self-check FAILED** (Production measured twice): p ${pText(sc.p)}; ${FAILED_SHORT}.`;
}

/** results/README.md's paragraphs. */
function long(/** @type {any} */ doc) {
  const out = [
    `Comparisons within one run (${runName(doc)}): each case against its reference, measured in the same blocks of the same rounds, change in ops/s with its paired 95% interval; "≈": the interval holds 0. Each interval is its comparison's own, not corrected over the run's ${comparisonCount(doc.comparisons)}: read each on its own (with no real difference, about 3 in 100 exclude 0).`,
  ];
  const sc = doc.selfCheck;
  if (sc) {
    const aa = doc.comparisons.filter((/** @type {any} */ c) => c.id === 'self-check');
    out.push(
      '',
      `**Self-check** (${configLabel(PRODUCTION_CONFIG)} measured twice, as two cases): ${sc.passed ? 'passed' : '**FAILED**'} (its operations' p-values combined: ${pText(sc.p)}, failing below 0.05; it ${CATCHES}: [calibration](../docs/checking.md#the-calibration-registry-npm-run-metacalibration)); they differ by ${aa.map((/** @type {any} */ c) => `${opLabel(c.op)} ${changeText(c)}`).join(', ')}.${sc.passed ? '' : ` ${FAILED[0].toUpperCase()}${FAILED.slice(1)}.`}`,
    );
  }
  return out;
}

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const doc = comparisonRun(ctx);
  if (!doc) return ['_No comparisons: quick runs are smoke tests (one round per case)._'];
  if (!doc.comparisons?.length)
    return [`_No comparisons: the newest full run (${runName(doc)}) has none (too few rounds)._`];
  return ctx.page === 'readme' ? [line(doc)] : long(doc);
}
