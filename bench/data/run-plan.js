// The plan of a run: its sides, its cases and the pairs of cases it compares, built from the data
// tables, so that what the runner measures in the same block, what the analysis judges and what
// the summary and the claims show are one list. A run of the suite has one side (this checkout
// under this Node, with its drivers); a pair is a reference case and a member case of the same
// operation, with the comparison it belongs to (bench/data/comparisons.js) or the claim's check it
// tests (bench/data/production-claims.js CLAIM_PAIRS).
import { COMPARISONS } from './comparisons.js';
import { DEFAULT_CONFIGS } from './configs.js';
import { OPS } from './ops.js';
import { CLAIM_PAIRS } from './production-claims.js';
import { caseKey, cases, setupKey } from './suite.js';

/**
 * @typedef {object} Pair
 * @property {import('./suite.js').Case} reference
 * @property {import('./suite.js').Case} member the same operation as the reference
 * @property {string} [comparison] the comparison's id
 * @property {{ id: string, check: number }} [claim] the claim and the index of the check it tests
 */

/** Whether a name is among a comparison's members' names ('*': all). */
const picks = (/** @type {string[] | '*'} */ sel, /** @type {string} */ v) => sel === '*' || sel.includes(v);

/**
 * Every comparison's pairs among these cases: its reference against each member setup, on every
 * timed operation. The claim-only variants are compared in the claims, not in the comparisons.
 * @param {import('./suite.js').Case[]} list
 * @returns {Pair[]}
 */
function comparisonPairs(list) {
  const setups = [
    ...new Map(list.filter((c) => DEFAULT_CONFIGS.includes(c.config)).map((c) => [setupKey(c), c])).values(),
  ];
  const timed = OPS.filter((o) => o.kind === 'timed').map((o) => o.name);
  return COMPARISONS.flatMap((cmp) =>
    setups
      .filter(
        (s) =>
          setupKey(s) !== setupKey(cmp.reference) &&
          picks(cmp.members.configs, s.config) &&
          picks(cmp.members.drivers, s.driver) &&
          picks(cmp.members.ciphers, s.cipher),
      )
      .flatMap((s) =>
        timed.map((op) => ({
          reference: { ...cmp.reference, op },
          member: { config: s.config, driver: s.driver, cipher: s.cipher, op },
          comparison: cmp.id,
        })),
      ),
  );
}

/** Every pair of the whole suite: the comparisons', then the claims'. */
const PAIRS = [...comparisonPairs(cases()), ...CLAIM_PAIRS];

/**
 * The plan of a run of the suite with these filters (bench/engine/flags.js): its one side, its cases
 * (bench/data/suite.js cases), and the pairs both of whose cases it has.
 * @param {Parameters<typeof cases>[0]} [filters]
 * @returns {{ sides: { node: string }[], cases: import('./suite.js').Case[], pairs: Pair[] }}
 */
export function runPlan(filters) {
  const list = cases(filters);
  const have = new Set(list.map(caseKey));
  const pairs = PAIRS.filter((p) => have.has(caseKey(p.reference)) && have.has(caseKey(p.member)));
  return { sides: [{ node: process.version }], cases: list, pairs };
}
