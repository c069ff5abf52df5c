// The flags of the engine servers a run starts (bench/engine/server.js parses them back).
import { filterArgs } from '../tables/suite.js';
import { BUDGET_KEYS } from '../engine/budgets.js';

/**
 * The flags of an engine server that measures exactly what this run measures, with the run's
 * shared templates.
 * @param {import('./run-suite.js').RunOptions} o
 * @param {string} templates
 */
export function serverArgs(o, templates) {
  const measuring = Object.fromEntries(
    Object.entries(o.budget ?? {}).filter(([k]) => /** @type {readonly string[]} */ (BUDGET_KEYS).includes(k)),
  );
  return [
    ...(o.mode === 'quick' ? ['--quick'] : []),
    '--seed',
    String(o.seed),
    ...filterArgs(o.filters),
    ...(o.time ? ['--time', String(o.time)] : []),
    ...(o.slowdown ? ['--slowdown', String(o.slowdown * 100)] : []),
    ...(o.keepDb ? ['--keep-db', o.keepDb] : []),
    '--templates',
    templates,
    ...(Object.keys(measuring).length ? ['--budget', JSON.stringify(measuring)] : []),
  ];
}
