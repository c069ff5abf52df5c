// The shootout's sides, from its flags: every Node given fetched (bench/shootout/nodes.js), the sides
// planned (bench/data/run-plan.js: a Node's constant driver generation, and its default beside it),
// each side's drivers installed against its own Node's headers (cached), and each side's engine
// started once to see it loads. A side that cannot run is kept with its reason and left out
// of the measuring (bench/shootout/run.js).
import { startSide } from '../paired/interleave.js';
/** @import { Side } from '../paired/interleave.js' */
/** @import { SidePlan } from '../data/run-plan.js' */
import { filterArgs } from '../data/suite.js';
import { defaultFilters, planSides, sideFilters } from '../data/run-plan.js';
import { installSide, nodeSide, resolveNode } from './nodes.js';

/**
 * @typedef {object} PreparedSide
 * @property {SidePlan} plan
 * @property {Side} side its Node and environment (the driver generation)
 * @property {string[]} args its engine's flags; empty when the filters leave it nothing
 * @property {'ok' | 'failed'} status
 * @property {string | undefined} reason why it failed
 * @property {any} ready its engine's ready message, from the probe (null when it did not start)
 */

/**
 * The engine flags every side's engine runs with, for the given filters: the same for every side
 * but for its filters (sideFilters), and recorded in the document with the run's (defaultFilters).
 * @param {{ time: number, seed: number }} f
 * @param {Record<string, string[]>} filters
 */
export const engineArgs = (f, filters) => [
  '--quick',
  '--time',
  String(f.time),
  '--seed',
  String(f.seed),
  ...filterArgs(filters),
];

/**
 * Fetch the Nodes, install each side's drivers, start each side's engine once to see it loads.
 * A side whose install or engine fails is kept with its reason and left out of the measuring.
 * @param {{ nodes: string[], filters: Record<string, string[]>, time: number, seed: number, fromSource: boolean }} f
 *   the shootout's flags (bench/shootout/cli.js shootoutFlags)
 * @param {(line: string) => void} log
 * @returns {Promise<{ prepared: PreparedSide[], filters: Record<string, string[]> }>} filters: the engine's (defaultFilters)
 */
export async function prepareSides(f, log) {
  const builds = f.nodes.map((n) => ({ spec: n, build: resolveNode(n, log) }));
  const sides = planSides(builds.map((b) => b.build.version));
  const filters = defaultFilters(f.filters);
  /** @type {PreparedSide[]} */
  const prepared = [];
  for (const side of sides) {
    const build = /** @type {import('./nodes.js').NodeBuild} */ (
      builds.find((b) => b.build.version === side.version)?.build
    );
    const sf = sideFilters(side, sides, filters);
    /** @type {PreparedSide} */
    const entry = {
      plan: side,
      side: nodeSide(side.label, `Node v${side.version}`, build, side),
      args: sf ? engineArgs(f, sf) : [],
      status: 'ok',
      reason: undefined,
      ready: null,
    };
    prepared.push(entry);
    if (!sf) {
      Object.assign(entry, {
        status: 'failed',
        reason: `the filters leave no driver that ${side.line} changes (${side.line} runs better-sqlite3-multiple-ciphers and better-sqlite3)`,
      });
      continue;
    }
    log(
      `${side.label}: Node v${side.version}, driver generation ${side.generation}${side.override ? ' (beside the default)' : ''}: installing drivers (cached after the first time)`,
    );
    const inst = installSide(build, side, { fromSource: f.fromSource });
    if (!inst.ok) {
      Object.assign(entry, { status: 'failed', reason: inst.reason });
      log(`${side.label}: ${inst.reason}; the run goes on without it`);
      continue;
    }
    try {
      const e = await startSide(entry.side, entry.args);
      entry.ready = e.ready;
      await e.stop();
      const bad = e.ready.drivers.filter((/** @type {any} */ d) => d.status === 'error');
      for (const d of bad) log(`${side.label}: ${d.name} does not load: ${d.reason}`);
    } catch (err) {
      Object.assign(entry, { status: 'failed', reason: String(/** @type {Error} */ (err).message).slice(0, 900) });
      log(`${side.label}: ${entry.reason}; the run goes on without it`);
    }
  }
  return { prepared, filters };
}
