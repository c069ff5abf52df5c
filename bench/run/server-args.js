// The flags of the engine servers a run starts (bench/engine/server.js parses them back).
import { filterArgs } from '../tables/suite.js';
import { BUDGET_KEYS } from '../engine/budgets.js';

/**
 * The flags of an engine server that measures exactly what this run measures, with the run's
 * shared templates. A quick run (without --keep-db, whose files a user opens with the key alone)
 * keys its templates and their copies with the ciphers' cheap key derivation, as the counting
 * pass does: the derivation runs at each copy's open, outside every timed call, and enciphering a
 * page costs the same whatever it derived the key with; with the real one it was most of the time
 * the quick suite spent opening copies (a ChaCha20 open ~30-45 ms, a SQLCipher one ~130-200 ms,
 * for ~170 copies). The setup operation, whose figure is the open, keeps the real derivation.
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
    ...(o.keepDb ? ['--keep-db', o.keepDb] : o.mode === 'quick' ? ['--cheap-kdf'] : []),
    '--templates',
    templates,
    ...(Object.keys(measuring).length ? ['--budget', JSON.stringify(measuring)] : []),
  ];
}
