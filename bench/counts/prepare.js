// Build and prove the templates the counted processes copy, once, natively (seeding a database
// under valgrind would cost more than counting it), in the shared directory every counted process
// of the pass reads (templates.js: a stamp beside each says what its builder found).
import fs from 'node:fs';
import v8 from 'node:v8';
import { createSession, messagePool } from '../engine/session.js';

/**
 * The counting pass's session: the one that builds the templates (prepareTemplates) and the one
 * each counted process copies them with (worker.js) are opened here alike, so they agree on the
 * seed, the databases' size and the cheap key derivation (ciphers.js `countingKdf`).
 * @param {{ mode: 'quick'|'full', seed: number, seedMessages: number, templates: string }} plan
 * @param {import('../engine/session.js').SessionOptions['drivers']} drivers
 * @param {Partial<import('../engine/session.js').SessionOptions>} [more] the builder's key; a counted
 *   process's message pool and work directory
 */
export function countingSession(plan, drivers, more = {}) {
  return createSession({
    mode: plan.mode,
    filters: {},
    seed: plan.seed,
    budget: { seedMessages: plan.seedMessages },
    templates: plan.templates,
    cheapKdf: true,
    drivers,
    ...more,
  });
}

/**
 * Build the template of every setup of these cases in `dir`, with the pass's key and seed, and
 * write the message pool.
 * @param {object} o
 * @param {'quick'|'full'} o.mode
 * @param {number} o.seed
 * @param {number} o.seedMessages
 * @param {string} o.key the encryption key the counted processes get (SQLITE_BENCH_KEY)
 * @param {string} o.dir
 * @param {string} o.pool where to write the message pool (v8.serialize), for the counted processes
 * @param {import('../data/suite.js').Case[]} o.cases
 * @param {import('../engine/session.js').SessionOptions['drivers']} o.drivers
 */
export function prepareTemplates(o) {
  const session = countingSession({ ...o, templates: o.dir }, o.drivers, { key: o.key });
  fs.writeFileSync(o.pool, v8.serialize(messagePool(o.seed)));
  try {
    for (const c of o.cases) session.templates.get(c);
  } finally {
    session.dispose();
  }
}
