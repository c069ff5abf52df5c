// The ranges of drivers.js applied to a Node version (semver): the driver generation it installs
// and loads, and whether a built-in driver is there.
import semver from 'semver';
import { GENERATIONS, GENERATION_LOADS, MATRIX_NODES } from './drivers.js';

/**
 * @param {string} nodeVersion e.g. process.version
 * @returns {{ id: string, node: string, why: string } | undefined}
 */
export function generationFor(nodeVersion) {
  return GENERATIONS.find((g) => semver.satisfies(nodeVersion, g.node));
}

/**
 * The generation the running process installs and loads: `id` when given (it must exist and its
 * range must include the Node), else the default for the Node.
 * @param {string} nodeVersion
 * @param {string | undefined} [id] e.g. process.env.SQLITE_BENCH_GENERATION
 * @returns {{ gen: { id: string, node: string, why: string }, override: boolean } | { error: string }}
 */
export function chosenGeneration(nodeVersion, id) {
  const def = generationFor(nodeVersion);
  if (!id)
    return def
      ? { gen: def, override: false }
      : {
          error: `no driver generation supports Node ${nodeVersion}; supported: ${GENERATIONS.map((g) => g.node).join(' | ')}`,
        };
  const gen = GENERATIONS.find((g) => g.id === id);
  if (!gen) return { error: `unknown driver generation '${id}'; valid: ${GENERATIONS.map((g) => g.id).join(', ')}` };
  if (!semver.satisfies(nodeVersion, GENERATION_LOADS[gen.id], { includePrerelease: true }))
    return {
      error: `driver generation ${id} does not run on Node ${nodeVersion}; it needs ${GENERATION_LOADS[gen.id]}`,
    };
  return { gen, override: gen.id !== def?.id };
}

/** Why a built-in driver is unavailable on this Node, or null when it is available. */
export function builtinUnavailable(
  /** @type {import('./drivers.js').Driver} */ driver,
  /** @type {string} */ nodeVersion,
) {
  if (!driver.node || semver.satisfies(nodeVersion, driver.node)) return null;
  return `${driver.name} needs Node ${driver.node} without a flag; this is ${nodeVersion}`;
}

/** The newest Node major the project runs on: the matrix's newest. */
const NEWEST_MAJOR = Math.max(...MATRIX_NODES);

/** The Node versions the project supports: package.json's engines floor (18.18) to the matrix's newest major. */
const SUPPORTED_NODE = `>=18.18.0 <${NEWEST_MAJOR + 1}.0.0`;

/** The supported range in words, for one-line errors. */
export const SUPPORTED_NODE_TEXT = `18.18 to ${NEWEST_MAJOR}.x`;

/**
 * Whether a Node version or major given on a command line (18, v22, 18.20.8) is supported: a
 * major when its releases reach into the range, a version when it is inside it.
 * @param {string} spec
 */
export function supportedNode(spec) {
  const want = spec.replace(/^v/, '');
  if (/^\d+$/.test(want)) return Number(want) >= 18 && Number(want) <= NEWEST_MAJOR;
  return semver.valid(want) !== null && semver.satisfies(want, SUPPORTED_NODE);
}
