// Which run the comparisons below come from, and whether its A/A self-check passed: production
// measured twice, as two cases, should show no difference.
import { PRODUCTION_CONFIG } from '../../bench/tables/configs.js';
import { changeText } from '../../bench/result/figure.js';
import { comparisonRun, configLabel, opLabel, runName } from './common.js';

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const doc = comparisonRun(ctx);
  if (!doc) return ['_No comparisons: quick runs are smoke tests (one round per case)._'];
  if (!doc.comparisons?.length) return [`_No comparisons: the newest full run (${runName(doc)}) has none (documents from before paired comparisons, or too few rounds)._`];
  const out = [`Comparisons within one run (${runName(doc)}): each case against its reference, measured in the same blocks of the same rounds, change in ops/s with its paired 95% interval; "≈": the interval holds 0.`];
  const sc = doc.selfCheck;
  if (sc) {
    const aa = doc.comparisons.filter((/** @type {any} */ c) => c.id === 'self-check');
    const detail = ctx.page === 'readme' ? `${sc.flagged.length} of ${sc.operations} operations show a difference (the A/A twin row of the table below)` : `they differ by ${aa.map((/** @type {any} */ c) => `${opLabel(c.op)} ${changeText(c)}`).join(', ')}`;
    out.push('', `**Self-check** (${configLabel(PRODUCTION_CONFIG)} measured twice, as two cases): ${sc.passed ? 'passed' : '**failed**'}; ${detail}.${sc.passed ? '' : ' This run\'s comparisons are less certain than their intervals say.'}`);
  }
  return out;
}
