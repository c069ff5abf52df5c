// The engine: one process that measures rounds of cases on request, started by start.js with
// child_process.fork. The run starts a new one for every round (bench/run/run-suite.js); the
// compare one per side and round, of each side's checkout, so head's start.js talks to base's
// engine.js: these messages are the contract between checkouts (nothing else goes between them).
//   first, the session options {mode, filters, seed, time?, slowdown?, keepDb?, budget?, templates?,
//     cheapKdf?} (session.js); it answers {ready: true, workdir, budget, cases: [keys], environment, drivers}
//   {block: [keys], seed}: one round of those cases together, in slices (slices.js) →
//     {block: [{key, status: 'ok', round (with fast and slices), verified, pragmas} or the case's entry]}
//   {open: key}: a fresh copy, warmed up → {key, status: 'ok', batch} (or its entry, or bytes);
//     {slice: key, ms} → {key, status, opsPerSec, ops, ms}; {close: key} → {key, status, verified}
//   {setups: true} → {setups: [the PRAGMA readings and encryption proofs of the setups used so far]}
//   {quit: true}, the channel's disconnect (its parent died), SIGINT, SIGTERM, an error: it
//     removes its databases and its temp directory (start.js ownTempDir) and exits.
import fs from 'node:fs';
import { environment } from '../result/environment.js';
import { command } from '../../lib/command.js';
import { loadDrivers } from './load-drivers.js';
import { createSession } from './session.js';
import { SLICE_MS } from './slices.js';
import { ownTempDir } from './start.js';
import { createRandom } from '../../lib/prng.js';
import { caseKey } from '../data/suite.js';

/** The reason given for a key the ready message did not list. */
const NO_SUCH_CASE = 'no such case in this run; valid: the keys of the ready message';

async function main() {
  const own = ownTempDir();
  let session = /** @type {ReturnType<typeof createSession> | null} */ (null);
  process.on('exit', () => {
    session?.dispose();
    if (own) fs.rmSync(own, { recursive: true, force: true, maxRetries: 3 });
  });
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  process.on('disconnect', () => process.exit(0));
  if (!process.send) throw new Error('started by hand; valid: child_process.fork (bench/engine/start.js)');
  const send = /** @type {(msg: object) => void} */ (process.send.bind(process));
  const o = /** @type {any} */ (await new Promise((resolve) => process.once('message', resolve)));
  if (o?.mode !== 'quick' && o?.mode !== 'full')
    throw new Error(
      `first message ${JSON.stringify(o).slice(0, 80)}; valid: session options {mode: 'quick' | 'full', …}`,
    );
  const drivers = await loadDrivers();
  const s = (session = createSession({ ...o, drivers }));
  const byKey = new Map(s.list.map((c) => [caseKey(c), c]));
  s.warm();
  send({
    ready: true,
    workdir: s.workdir,
    budget: s.budget,
    cases: [...byKey.keys()],
    environment: environment(),
    drivers: [...drivers.values()].map((d) => d.info),
  });
  const answer = (/** @type {any} */ cmd) => {
    if (cmd.setups) return { setups: s.setups() };
    if (Array.isArray(cmd.block)) {
      const unknown = cmd.block.find((/** @type {string} */ k) => !byKey.has(k));
      if (unknown) return { error: `no such case in this run: ${unknown}; valid: the keys of the ready message` };
      const cs = cmd.block.map((/** @type {string} */ k) => /** @type {any} */ (byKey.get(k)));
      const rs = s.runBlock(cs, s.budget, createRandom(Number(cmd.seed) || 0));
      return {
        block: rs.map((r, i) =>
          'round' in r ? { key: cmd.block[i], status: 'ok', ...r } : { key: cmd.block[i], ...r },
        ),
      };
    }
    if (typeof cmd.slice === 'string') {
      try {
        const r = s.sliceCase(cmd.slice, Number(cmd.ms) || SLICE_MS);
        return { key: cmd.slice, status: 'ok', opsPerSec: (r.ops / r.ms) * 1000, ops: r.ops, ms: r.ms };
      } catch (err) {
        s.closeCase(cmd.slice);
        return { key: cmd.slice, status: 'error', reason: s.errorReason(err) };
      }
    }
    if (typeof cmd.close === 'string') {
      try {
        return { key: cmd.close, status: 'ok', verified: s.closeCase(cmd.close) ?? {} };
      } catch (err) {
        return { key: cmd.close, status: 'error', reason: s.errorReason(err) };
      }
    }
    const key = cmd.open;
    if (typeof key !== 'string') return { error: 'unknown request; valid: setups, block, open, slice, close, quit' };
    const c = byKey.get(key);
    if (!c) return { key, status: 'error', reason: NO_SUCH_CASE };
    const r = /** @type {any} */ (s.openCase(c, key, s.budget));
    if (r.size) return { key, status: 'ok', bytes: r.size.mainBytes + r.size.walBytes };
    return { key, ...r };
  };
  process.on('message', (/** @type {any} */ cmd) => {
    if (cmd?.quit) process.exit(0);
    try {
      send(answer(cmd ?? {}));
    } catch (err) {
      console.error(`engine: ${String(/** @type {Error} */ (err)?.message ?? err).split('\n')[0]}`);
      process.exit(1);
    }
  });
}

command('engine', import.meta.url, main);
