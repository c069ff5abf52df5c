// Where a difference in instructions per operation between two counts of a case goes: per
// component (bench/data/components.js: SQLite, the cipher, the runtime, the binding, libc, other),
// the head's instructions less the base's, and the smallest such difference that is one, in
// instructions per operation. The rule is the compare's, per component (lib/costs.js
// componentChanges: countTolerance of the component's own repeat spreads, with its floor); this
// module only reads it off a case's `counts` as they are stored. Used by the shootout's counted
// differences (bench/shootout/count-nodes.js) and by the claims' and the answers' mechanisms
// (aggregate/render/).
import { componentChanges as judged, componentDifference, componentScale } from './costs.js';

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
 * A case's counts as the rule reads one side: its instructions, its components (the mean of its
 * two counts) and each component's repeat spread; null without components.
 * @param {any} counts
 */
function side(counts) {
  const parts = components(counts);
  if (!parts) return null;
  const spreads = Object.fromEntries(Object.keys(parts).map((k) => [k, componentDifference(counts, k) ?? 0]));
  return { instructions: counts.instructions, components: parts, componentSpreads: spreads };
}

/**
 * What changed from base to head, component by component; null where either has no components.
 * @param {any} base a case's `counts`
 * @param {any} head
 * @param {Record<string, number>} [opSpread] componentSpreads of the operation's cases
 * @returns {Record<string, ComponentChange> | null}
 */
export function componentChanges(base, head, opSpread = {}) {
  const [b, h] = [side(base), side(head)];
  if (!b || !h) return null;
  return Object.fromEntries(
    judged(b, h, new Map(Object.entries(opSpread))).map((x) => [
      x.component,
      { delta: x.delta, tolerance: x.tolerance * componentScale(b.components[x.component] ?? 0, b.instructions) },
    ]),
  );
}

/** Whether a component's change is a difference: beyond its tolerance. */
export const componentMoved = (/** @type {ComponentChange} */ x) => Math.abs(x.delta) > x.tolerance;
