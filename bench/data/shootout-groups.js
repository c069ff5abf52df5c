// The shootout's comparisons (groups of pairs of sides), in the order its tables show them
// (bench/data/run-plan.js planPairs makes the pairs of each; aggregate/sections/shootout-report.js
// heads a table with each name).
// same-driver: a Node against the reference Node, both with the same generation (12.x; 13.x too
//   where the reference Node runs it);
// driver-upgrade: the Node's default generation (13.x) against 12.x on the same Node;
// different-driver: a side whose driver the reference Node does not run, and whose Node has no
//   12.x side (18: 11.x; or a Node whose 12.x side failed to prepare), against the reference,
//   labelled so (the heading names both reasons: it heads whichever pairs the plan put there);
// same-node: a Node given twice (A/A), the second against the first.
export const GROUPS = /** @type {const} */ ({
  'same-driver': 'Same driver: each Node against the reference Node with the same driver release',
  'driver-upgrade': 'Driver upgrade on the same Node: 13.x against 12.x',
  'different-driver':
    "Different driver: a Node without a 12.x side (Node 18 runs 11.x; or its 12.x side failed) against the reference's; not the Node effect alone",
  'same-node': 'Same Node twice (A/A): any difference is noise',
});
