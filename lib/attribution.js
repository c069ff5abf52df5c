// Where a difference in instructions per operation between two counts of a case goes: per
// component (bench/data/components.js: SQLite, the cipher, the runtime, the binding, libc, other),
// the head's instructions less the base's, and the smallest such difference that is one. A
// component's difference counts only beyond its own repeat spread, by the compare's rule on a
// count (lib/costs.js countTolerance) applied to that component's spreads (componentDifference),
// in instructions per operation. Used by the shootout's counted differences
// (bench/shootout/count-nodes.js) and by the claims' and the answers' mechanisms (aggregate/render/).
import { componentDifference, countTolerance } from './costs.js';

/**
 * @typedef {object} ComponentChange
 * @property {number} delta the head's instructions per operation in this component less the base's
 * @property {number} tolerance the smallest |delta| that is a difference, in instructions per operation
 */

/**
 * A case's components per operation: the mean of its two counts where the repeat has them.
 * @param {any} counts a case's `counts` ({ instructions, components, repeat?: { components } })
 * @returns {Record<string, number> | null}
 */
function components(counts) {
  const a = counts?.components;
  if (!a) return null;
  const b = counts.repeat?.components ?? a;
  return Object.fromEntries(Object.keys(a).map((k) => [k, ((a[k] ?? 0) + (b[k] ?? 0)) / 2]));
}

/**
 * Per component, the largest repeat spread over these counts (countTolerance's opSpread, the
 * component's own: give it the counts of the operation's cases on both sides).
 * @param {any[]} counts
 * @returns {Record<string, number>}
 */
export function componentSpreads(counts) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const k of counts)
    for (const c of Object.keys(k?.components ?? {})) out[c] = Math.max(out[c] ?? 0, componentDifference(k, c) ?? 0);
  return out;
}

/**
 * What changed from base to head, component by component; null where either has no components.
 * The tolerance of a component is countTolerance of the larger of the two counts' repeat spreads in
 * it (and of its operation's, where given), taken of the base's component, or of 1% of the base's
 * instructions where the component is smaller (as componentDifference measures the spread).
 * @param {any} base a case's `counts`
 * @param {any} head
 * @param {Record<string, number>} [opSpread] componentSpreads of the operation's cases
 * @returns {Record<string, ComponentChange> | null}
 */
export function componentChanges(base, head, opSpread = {}) {
  const [a, b] = [components(base), components(head)];
  if (!a || !b) return null;
  return Object.fromEntries(
    Object.keys(a).map((c) => {
      const spread = Math.max(componentDifference(base, c) ?? 0, componentDifference(head, c) ?? 0);
      const scale = Math.max(Math.abs(a[c]), 0.01 * base.instructions, 1);
      return [c, { delta: (b[c] ?? 0) - a[c], tolerance: countTolerance(spread, opSpread[c]) * scale }];
    }),
  );
}

/** Whether a component's change is a difference: beyond its tolerance. */
export const componentMoved = (/** @type {ComponentChange} */ x) => Math.abs(x.delta) > x.tolerance;
