// The plan of a run: its sides, its cases and the pairs of cases it compares, from the data, so
// that what the runner measures in the same blocks, what the analysis judges and what the claims
// show are one list. A run of the suite has one side: this checkout under this Node. A pair is a
// reference case and a member case of one operation, with the comparison that judges it
// (comparisons.js; 'claims' for a claim's pair none of them has) and the claim's check it tests
// (production-claims.js CLAIM_PAIRS), if any.
import { COMPARISONS } from './comparisons.js';
import { OPS } from './ops.js';
import { CLAIMS, CLAIM_PAIRS } from './production-claims.js';
import { caseKey, cases, setupKey, setups } from './suite.js';

/**
 * @typedef {object} Pair
 * @property {import('./suite.js').Case} reference
 * @property {import('./suite.js').Case} member the same operation as the reference
 * @property {string} comparison the id of the comparison that judges it: comparisons.js's, or 'claims'
 * @property {{ id: string, check: number }} [claim] the claim and the index of the check it tests
 */

const TIMED = OPS.filter((o) => o.kind === 'timed').map((o) => o.name);
const picks = (/** @type {string[] | '*'} */ sel, /** @type {string} */ v) => sel === '*' || sel.includes(v);

/**
 * Every pair of the whole suite: each comparison's reference against each of its member setups
 * (the rules' setups: a claim-only variant is compared in its claims only) on every timed
 * operation, then the claims' checks, each judged as the comparison with its two cases, or in
 * 'claims' where none has them (bench/result/analysis.js judges each pair of cases once).
 * @type {Pair[]}
 */
const PAIRS = COMPARISONS.flatMap((cmp) =>
  setups()
    .filter(
      (s) =>
        setupKey(s) !== setupKey(cmp.reference) &&
        picks(cmp.members.configs, s.config) &&
        picks(cmp.members.drivers, s.driver) &&
        picks(cmp.members.ciphers, s.cipher),
    )
    .flatMap((s) =>
      TIMED.map((op) => ({ reference: { ...cmp.reference, op }, member: { ...s, op }, comparison: cmp.id })),
    ),
);
const sides = (/** @type {Omit<Pair, 'comparison'>} */ p) => `${caseKey(p.reference)}|${caseKey(p.member)}`;
const judgedBy = new Map(PAIRS.map((p) => [sides(p), p.comparison]));
PAIRS.push(...CLAIM_PAIRS.map((p) => ({ ...p, comparison: judgedBy.get(sides(p)) ?? 'claims' })));

/** The claims the suite's cases measure (one of their checks is a pair), in the claims' order, by id. */
export const SUITE_CLAIMS = CLAIMS.filter((e) => CLAIM_PAIRS.some((p) => p.claim?.id === e.id)).map((e) => e.id);

/**
 * What each case is compared with among these pairs: its references, as the member of a pair.
 * @param {Pair[]} pairs
 * @returns {(c: import('./suite.js').Case) => import('./suite.js').Case[]}
 */
export function referencesIn(pairs) {
  const by = new Map();
  for (const p of pairs) by.set(caseKey(p.member), [...(by.get(caseKey(p.member)) ?? []), p.reference]);
  return (c) => by.get(caseKey(c)) ?? [];
}

/**
 * The plan of a run of the suite with these filters (bench/engine/flags.js): its one side, its
 * cases (suite.js cases), and the pairs both of whose cases it has.
 * @param {Parameters<typeof cases>[0]} [filters]
 * @returns {{ sides: { node: string }[], cases: import('./suite.js').Case[], pairs: Pair[] }}
 */
export function runPlan(filters) {
  const list = cases(filters);
  const have = new Set(list.map(caseKey));
  const pairs = PAIRS.filter((p) => have.has(caseKey(p.reference)) && have.has(caseKey(p.member)));
  return { sides: [{ node: process.version }], cases: list, pairs };
}
