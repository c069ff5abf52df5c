// The calibration registry's row d1: the shootout's count rule with no real difference. One Node's
// counts across heap layouts (layout-counts.json, real: docs/counting.md "The heap's layout, across
// code") paired as A/A shootouts, judged by the shootout's own code (lib/costs.js countDifferences).
import fs from 'node:fs';
import { beyondRepeat, componentMoved, countDifferences } from '../../lib/costs.js';

/**
 * @typedef {{ key: string, instructions: number, difference: number, components: Record<string, number>, repeatComponents: Record<string, number> }} LayoutCase
 * @typedef {{ node: string, cases: LayoutCase[] }} LayoutRun one `npm run counts` in one copy
 */

/** The runs, per Node (layout-counts.json). @returns {Record<string, LayoutRun[]>} */
export const layoutRuns = () =>
  JSON.parse(fs.readFileSync(new URL('layout-counts.json', import.meta.url), 'utf8')).nodes;

/**
 * A run's cases as one side of a shootout.
 * @param {LayoutRun} run
 * @param {string} side
 */
const sideOf = (run, side) => run.cases.map((c) => ({ side, status: 'ok', ...c }));

/**
 * Every A/A shootout the runs make, one per pair of runs (the rule takes each side's mean of its two
 * counts, so which count is first does not matter: swapping them made the same shootout again): the
 * (case, shootout) pairs called different (|change| beyond the tolerance) and the components that
 * moved (beyond their own tolerance), the largest |change| ÷ tolerance, and the pairs the rule before
 * the floor (beyond 2 × the larger repeat spread) called different.
 * @param {LayoutRun[]} runs one Node's
 */
export function falseDifferences(runs) {
  const r = { shootouts: 0, any: 0, cases: 0, called: 0, components: 0, moved: 0, closest: 0, before: 0 };
  for (let i = 0; i < runs.length; i++)
    for (let j = i + 1; j < runs.length; j++) {
      const cases = [...sideOf(runs[i], 'A'), ...sideOf(runs[j], 'B')];
      const diffs = countDifferences(/** @type {any} */ (cases), [
        { comparison: 'same-node', reference: 'A', member: 'B' },
      ]);
      const called = diffs.filter(beyondRepeat).length;
      const parts = diffs.flatMap((d) => Object.values(d.components));
      r.shootouts++;
      r.any += called ? 1 : 0;
      r.cases += diffs.length;
      r.called += called;
      r.components += parts.length;
      r.moved += parts.filter(componentMoved).length;
      r.closest = Math.max(r.closest, ...diffs.map((d) => Math.abs(d.change) / d.tolerance));
      // the rule before the floor: beyond twice the larger repeat spread
      r.before += diffs.filter((d) => Math.abs(d.change) > 2 * d.spread).length;
    }
  return r;
}
