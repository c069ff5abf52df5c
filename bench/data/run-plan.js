// The plan of a run: its sides, its cases and the pairs it compares, from the data, so that what
// the runner measures, what the analysis judges and what the pages show are one list.
// - A run of the suite (runPlan) has one side, this checkout under this Node; a pair is a
//   reference case and a member case of one operation, with the comparison that judges it
//   (comparisons.js; 'claims' for a claim's pair none of them has) and the claim's check it tests
//   (production-claims.js CLAIM_PAIRS), if any.
// - A shootout (planSides, planPairs) has a side per Node and driver generation; a pair is a
//   reference side and a member side, compared on every case both measure, with the comparison
//   (shootout-groups.js) that judges it; the driver held constant where it can be
//   (docs/shootout.md#how-to-read-it).
import semver from 'semver';
import { COMPARISONS } from './comparisons.js';
import { GENERATION_LOADS, PRODUCTION_DRIVER } from './drivers.js';
import { generationFor } from './node-ranges.js';
import { PRODUCTION_CIPHER } from './ciphers.js';
import { PRODUCTION_CONFIG } from './configs.js';
import { OPS } from './ops.js';
import { CLAIMS, CLAIM_PAIRS } from './production-claims.js';
import { caseKey, cases, setupKey, setups } from './suite.js';
/** @import { GROUPS } from './shootout-groups.js' */

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

/** The generation held constant across Nodes. */
export const CONSTANT_GENERATION = 'node20';

/** The release line each generation installs (drivers/<id>/package.json), for labels. */
const DRIVER_LINE = /** @type {Record<string, string>} */ ({ node18: '11.x', node20: '12.x', napi10: '13.x' });

/** The shootout's default scope: the production config with the production cipher, better-sqlite3 unencrypted, node:sqlite. */
const DEFAULT_SCOPE = [
  { config: PRODUCTION_CONFIG, driver: PRODUCTION_DRIVER, cipher: PRODUCTION_CIPHER },
  { config: PRODUCTION_CONFIG, driver: 'better-sqlite3', cipher: 'none' },
  { config: PRODUCTION_CONFIG, driver: 'node:sqlite', cipher: 'none' },
];

/**
 * @typedef {object} SidePlan
 * @property {string} label e.g. 'v24 12.x'
 * @property {number} major
 * @property {string} version exact, e.g. 24.21.0
 * @property {string} generation a GENERATIONS id
 * @property {string} line the driver's release line, e.g. '12.x'
 * @property {boolean} override the generation is not the Node's default (installed beside it)
 * @property {number} copy 1, or 2… for a Node given more than once (A/A)
 */

/**
 * The generations a Node is measured with: the constant one where it loads, and the Node's
 * default when that is another.
 * @param {string} version
 */
function generationsOf(version) {
  const def = generationFor(version);
  /** @type {string[]} */
  const out = [];
  if (semver.satisfies(version, GENERATION_LOADS[CONSTANT_GENERATION])) out.push(CONSTANT_GENERATION);
  if (def && !out.includes(def.id)) out.push(def.id);
  return out;
}

/**
 * The sides, in the order given (each Node's 12.x side first).
 * @param {string[]} versions exact versions, in the order of --node (a repeat is an A/A copy)
 * @returns {SidePlan[]}
 */
export function planSides(versions) {
  /** @type {SidePlan[]} */
  const sides = [];
  /** @type {Map<string, number>} */
  const copies = new Map();
  for (const version of versions) {
    const copy = (copies.get(version) ?? 0) + 1;
    copies.set(version, copy);
    const major = semver.major(version);
    const def = generationFor(version)?.id;
    // a repeated Node (A/A) is measured with its default generation only, every copy: the copies
    // are for noise, not drivers, and the default is the one that loads wherever the Node runs
    // (12.x aborts on Node 24.21.0)
    const repeated = versions.filter((v) => v === version).length > 1;
    const gens = repeated ? (def ? [def] : generationsOf(version).slice(0, 1)) : generationsOf(version);
    for (const generation of gens) {
      const line = DRIVER_LINE[generation] ?? generation;
      sides.push({
        label: `v${major} ${line}${copy > 1 ? ` (${copy})` : ''}`,
        major,
        version,
        generation,
        line,
        override: generation !== def,
        copy,
      });
    }
  }
  return sides;
}

/**
 * The reference side: the newest LTS line present (even majors), else the newest present, with
 * the constant generation. Among the sides that run: when the newest LTS cannot run the constant
 * generation (12.x aborts on Node 24.21.0), the newest LTS that can; only when none can, the
 * newest LTS's first side.
 * @param {SidePlan[]} sides the sides that run
 */
export function referenceSide(sides) {
  const firsts = sides.filter((s) => s.copy === 1);
  const newest = (/** @type {SidePlan[]} */ xs) => {
    const majors = [...new Set(xs.map((s) => s.major))];
    const lts = majors.filter((m) => m % 2 === 0);
    const major = Math.max(...(lts.length ? lts : majors));
    return xs.filter((s) => s.major === major);
  };
  const constant = firsts.filter((s) => s.generation === CONSTANT_GENERATION);
  return constant.length ? newest(constant)[0] : newest(firsts)[0];
}

/**
 * @typedef {object} SidePair
 * @property {keyof typeof GROUPS | 'compare'} comparison the comparison that judges it (shootout-groups.js; a compare's base → head pair: 'compare')
 * @property {string} reference label of the side it is measured against
 * @property {string} member label of the side it describes
 */

/**
 * Which pairs of sides the shootout compares (the member relative to the reference), on every
 * timed operation: the size is the same on every Node (seeded data, same SQLite).
 * @param {SidePlan[]} sides
 * @returns {SidePair[]}
 */
export function planPairs(sides) {
  const ref = referenceSide(sides);
  /** @type {SidePair[]} */
  const out = [];
  for (const s of sides) {
    if (s === ref) continue;
    if (s.copy > 1) {
      const first = sides.find((x) => x.version === s.version && x.copy === 1 && x.generation === s.generation);
      if (first) out.push({ comparison: 'same-node', reference: first.label, member: s.label });
      continue;
    }
    const constant = sides.find((x) => x.version === s.version && x.copy === 1 && x.generation === CONSTANT_GENERATION);
    // the reference Node with this side's driver: the Node effect with that driver held constant
    const refSame = sides.find((x) => x.version === ref.version && x.copy === 1 && x.generation === s.generation);
    if (refSame && refSame !== s) out.push({ comparison: 'same-driver', reference: refSame.label, member: s.label });
    if (s.generation !== CONSTANT_GENERATION && constant)
      out.push({ comparison: 'driver-upgrade', reference: constant.label, member: s.label });
    if (!refSame && !constant) out.push({ comparison: 'different-driver', reference: ref.label, member: s.label });
  }
  return out;
}

/** The drivers a second generation changes: node:sqlite is Node's own, measured on the 12.x side only. */
export const GENERATION_DRIVERS = ['better-sqlite3-multiple-ciphers', 'better-sqlite3'];

/**
 * The engine filters of a side (null: nothing of the filters is left for it to measure).
 * @param {SidePlan} side
 * @param {SidePlan[]} sides
 * @param {Record<string, string[]>} filters the run's filters (defaultFilters)
 * @returns {Record<string, string[]> | null}
 */
export function sideFilters(side, sides, filters) {
  const hasConstant = sides.some(
    (x) => x.version === side.version && x.copy === side.copy && x.generation === CONSTANT_GENERATION,
  );
  if (side.generation === CONSTANT_GENERATION || !hasConstant) return filters;
  const driver = filters.driver.filter((d) => GENERATION_DRIVERS.includes(d));
  return driver.length ? { ...filters, driver } : null;
}

/**
 * Whether a case is in scope: given filters narrow the engine's cases; without a --driver or
 * --cipher filter, only the default scope's (config, driver, cipher) triples, and timed ops only.
 * @param {{ config: string, driver: string, cipher: string, op: string }} c
 * @param {Record<string, string[]>} filters
 */
export function inScope(c, filters) {
  if (!TIMED.includes(c.op)) return false;
  if (filters.driver || filters.cipher) return true;
  return DEFAULT_SCOPE.some(
    (s) => s.driver === c.driver && s.cipher === c.cipher && (filters.config ? true : s.config === c.config),
  );
}

/** The default filters when none are given: the scope's configs, drivers and ciphers. */
export function defaultFilters(/** @type {Record<string, string[]>} */ filters) {
  const scope = (/** @type {'config' | 'driver' | 'cipher'} */ t) =>
    filters[t] ?? [...new Set(DEFAULT_SCOPE.map((s) => s[t]))];
  return { config: scope('config'), driver: scope('driver'), cipher: scope('cipher'), op: filters.op ?? TIMED };
}
