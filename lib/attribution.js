// Where a difference in instructions per operation between two counts of a case goes: per
// component (bench/data/components.js: SQLite, the cipher, the runtime, the binding, libc, other),
// the head's instructions less the base's, and the smallest such difference that is one, in
// instructions per operation. The rule is the compare's, per component (lib/costs.js
// componentChanges: countTolerance of the component's own repeat spreads, with its floor); this
// module only reads it off a case's `counts` as they are stored. Used by the shootout's counted
// differences (bench/shootout/count-nodes.js) and by the claims' and the answers' mechanisms
// (aggregate/render/).
import { componentChanges as judged, componentScale, componentsOf } from './costs.js';

/**
 * @typedef {object} ComponentChange
 * @property {number} delta the head's instructions per operation in this component less the base's
 * @property {number} tolerance the smallest |delta| that is a difference, in instructions per operation
 */

/**
 * A case's counts as the rule reads one side: its instructions and componentsOf; null without
 * components.
 * @param {any} counts
 */
function side(counts) {
  const parts = componentsOf(counts);
  return parts.components && parts.componentSpreads
    ? { instructions: counts.instructions, components: parts.components, componentSpreads: parts.componentSpreads }
    : null;
}

/**
 * What changed from base to head, component by component; null where either has no components.
 * @param {any} base a case's `counts`
 * @param {any} head
 * @param {Record<string, number>} [opSpread] lib/costs.js componentSpreads of the operation's cases
 * @returns {Record<string, ComponentChange> | null}
 */
export function componentChanges(base, head, opSpread = {}) {
  const [b, h] = [side(base), side(head)];
  if (!b || !h) return null;
  return Object.fromEntries(
    judged(b, h, opSpread).map((x) => [
      x.component,
      { delta: x.delta, tolerance: x.tolerance * componentScale(b.components[x.component] ?? 0, b.instructions) },
    ]),
  );
}

/** Whether a component's change is a difference: beyond its tolerance. */
export const componentMoved = (/** @type {ComponentChange} */ x) => Math.abs(x.delta) > x.tolerance;
