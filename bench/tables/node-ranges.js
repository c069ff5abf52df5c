// The ranges of drivers.js applied to a Node version (semver): the driver generation it installs
// and loads, and whether a built-in driver is there.
import semver from 'semver';
import { GENERATIONS, GENERATION_LOADS } from './drivers.js';

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

/**
 * Why a built-in driver is unavailable on this Node, or null when it is available.
 * @param {import('./drivers.js').Driver} driver
 * @param {string} nodeVersion
 */
export function builtinUnavailable(driver, nodeVersion) {
  if (!driver.node || semver.satisfies(nodeVersion, driver.node)) return null;
  return `${driver.name} needs Node ${driver.node} without a flag; this is ${nodeVersion}`;
}
