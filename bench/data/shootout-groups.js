// The shootout's comparisons (groups of pairs of sides), in the order its tables show them
// (bench/data/run-plan.js planPairs makes the pairs of each; aggregate/sections/shootout-report.js
// heads a table with each name; docs/shootout.md#how-to-read-it). A different-driver heading names
// both reasons: it heads whichever pairs the plan put there.
export const GROUPS = /** @type {const} */ ({
  'same-driver': 'Same driver: each Node against the reference Node with the same driver release',
  'driver-upgrade': 'Driver upgrade on the same Node: 13.x against 12.x',
  'different-driver':
    "Different driver: a Node without a 12.x side (Node 18 runs 11.x; or its 12.x side failed) against the reference's; not the Node effect alone",
  'same-node': 'Same Node twice (A/A): any difference is noise',
});
