// The shootout's plan: which sides (a Node version with a driver generation) it measures, which
// Node is the reference, and which pairs of sides it compares. Data and pure functions only.
//
// The driver is held constant where it can be: 12.x (generation node20) runs on every Node from
// 20 to 25, so each of those Nodes gets a 12.x side, and the Node effect is read between 12.x
// sides. Where the Node's default generation differs (13.x on 22.14+), it gets a second side with
// it, compared with the 12.x side of the same Node: the driver upgrade. Node 18 has only 11.x: it
// is compared with the reference as a different driver, and labelled so.
import semver from 'semver';
import { GENERATIONS, GENERATION_LOADS } from '../data/drivers.js';
import { generationFor } from '../data/node-ranges.js';
import { PRODUCTION_CIPHER } from '../data/ciphers.js';
import { PRODUCTION_CONFIG } from '../data/configs.js';
import { PRODUCTION_DRIVER } from '../data/drivers.js';
import { OPS } from '../data/ops.js';
/** @import { GROUPS } from '../data/shootout-groups.js' */

/** The generation held constant across Nodes. */
export const CONSTANT_GENERATION = 'node20';

/** The release line each generation installs (drivers/<id>/package.json), for labels. */
const DRIVER_LINE = /** @type {Record<string, string>} */ ({ node18: '11.x', node20: '12.x', napi10: '13.x' });

/** The default scope: the production config with the production cipher, better-sqlite3 unencrypted, node:sqlite. */
const DEFAULT_SCOPE = [
  { config: PRODUCTION_CONFIG, driver: PRODUCTION_DRIVER, cipher: PRODUCTION_CIPHER },
  { config: PRODUCTION_CONFIG, driver: 'better-sqlite3', cipher: 'none' },
  { config: PRODUCTION_CONFIG, driver: 'node:sqlite', cipher: 'none' },
];

/** Every timed operation (the size is the same on every Node: seeded data, same SQLite). */
const TIMED_OPS = OPS.filter((o) => o.kind === 'timed').map((o) => o.name);

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
 * @typedef {object} Comparison
 * @property {keyof typeof GROUPS} group
 * @property {string} base label of the side it is measured against
 * @property {string} head label of the side it describes
 */

/**
 * Which pairs of sides the shootout compares (the head relative to the base).
 * @param {SidePlan[]} sides
 * @returns {Comparison[]}
 */
export function planComparisons(sides) {
  const ref = referenceSide(sides);
  /** @type {Comparison[]} */
  const out = [];
  for (const s of sides) {
    if (s === ref) continue;
    if (s.copy > 1) {
      const first = sides.find((x) => x.version === s.version && x.copy === 1 && x.generation === s.generation);
      if (first) out.push({ group: 'same-node', base: first.label, head: s.label });
      continue;
    }
    const constant = sides.find((x) => x.version === s.version && x.copy === 1 && x.generation === CONSTANT_GENERATION);
    // the reference Node with this side's driver: the Node effect with that driver held constant
    const refSame = sides.find((x) => x.version === ref.version && x.copy === 1 && x.generation === s.generation);
    if (refSame && refSame !== s) out.push({ group: 'same-driver', base: refSame.label, head: s.label });
    if (s.generation !== CONSTANT_GENERATION && constant)
      out.push({ group: 'driver-upgrade', base: constant.label, head: s.label });
    if (!refSame && !constant) out.push({ group: 'different-driver', base: ref.label, head: s.label });
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
  if (!TIMED_OPS.includes(c.op)) return false;
  if (filters.driver || filters.cipher) return true;
  return DEFAULT_SCOPE.some(
    (s) => s.driver === c.driver && s.cipher === c.cipher && (filters.config ? true : s.config === c.config),
  );
}

/** The default filters when none are given: the scope's configs, drivers and ciphers. */
export function defaultFilters(/** @type {Record<string, string[]>} */ filters) {
  return {
    config: filters.config ?? [...new Set(DEFAULT_SCOPE.map((s) => s.config))],
    driver: filters.driver ?? [...new Set(DEFAULT_SCOPE.map((s) => s.driver))],
    cipher: filters.cipher ?? [...new Set(DEFAULT_SCOPE.map((s) => s.cipher))],
    op: filters.op ?? TIMED_OPS,
  };
}

export { GENERATIONS };
