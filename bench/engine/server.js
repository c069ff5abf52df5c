#!/usr/bin/env node
// The engine server: one process that measures rounds of cases on request. The run starts a new
// one for every round (bench/run/run-suite.js); the compare one per side and round, so it can
// interleave base and head case by case. Its client is client.js.
//
//   node bench/engine/server.js [engine flags, see flags.js] [--budget JSON] [--templates DIR]
//
// Protocol (protocol.js): JSON lines. On start it writes {"ready":true,"protocol":2,"cases":[keys],
// "environment","drivers"}; then for each line {"measure":"config/driver/cipher/op"} read on stdin
// it measures one round of that case (the session's budget, a fresh copy of the template, a full
// GC before) and writes {"key","status":"ok","opsPerSec"} (size: "bytes"), or
// {"key","status","reason"}. {"setups":true} answers with the PRAGMA readings and encryption
// proofs of the setups used so far. In slices (slices.js): {"block":[keys],"seed":n} measures one
// round of those cases together, in slices, and answers {"block":[{key,status,round (with fast and
// slices),verified,pragmas} or the entry]}; {"open":key} opens one case on a fresh copy and warms
// it up ({key,status,batch}, or its entry, or its bytes), {"slice":key,"ms":n} runs one slice of it
// ({key,status,opsPerSec,ops,ms}) and {"close":key} closes it ({key,status,verified}): the compare
// alternates slices of one case between the engine processes of its sides. On {"quit":true}, the
// end of stdin, an error, SIGINT or SIGTERM it removes its databases, and the temp directory its
// client made for it (client.js), and exits. Nothing else goes to stdout.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { OPTIONS, parseFlags } from './flags.js';
import { environment } from '../result/environment.js';
import { command } from '../../lib/command.js';
import { loadDrivers } from './load-drivers.js';
import { ENGINE_TMP_ENV, PROTOCOL } from './protocol.js';
import { createSession } from './session.js';
import { SLICE_MS } from './slices.js';
import { createRandom } from '../../lib/prng.js';
import { caseKey } from '../tables/suite.js';

/**
 * The engine's flags, and three the run gives its servers: --budget (the measuring budget),
 * --templates DIR (templates shared by the run's engines: see templates.js) and --cheap-kdf (a
 * quick run: templates and their copies keyed with the ciphers' cheap key derivation; the setup
 * operation, which times the open, keeps the real one; bench/run/server-args.js).
 */
export const SERVE_OPTIONS = {
  ...OPTIONS,
  budget: { type: /** @type {const} */ ('string') },
  templates: { type: /** @type {const} */ ('string') },
  'cheap-kdf': { type: /** @type {const} */ ('boolean') },
};

/** The reason given for a key the ready message did not list. */
const NO_SUCH_CASE = 'no such case in this run; valid: the keys of the ready message';

/**
 * The temp directory the client made for this server (its TMPDIR), or null: only a directory that
 * is this process's temp dir and named as the client names it, never one a user could point at.
 */
export function ownTempDir(env = process.env) {
  const dir = env[ENGINE_TMP_ENV];
  if (!dir || path.resolve(dir) !== path.resolve(os.tmpdir()) || !path.basename(dir).startsWith('sqlite-bench-engine-'))
    return null;
  return path.resolve(dir);
}

async function main(/** @type {string[]} */ argv) {
  const flags = parseFlags(argv, SERVE_OPTIONS);
  const own = ownTempDir();
  /** @type {ReturnType<typeof createSession> | null} */
  let session = null;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    session?.dispose();
    if (own) fs.rmSync(own, { recursive: true, force: true, maxRetries: 3 });
  };
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM']))
    process.on(sig, () => {
      close();
      process.exit(sig === 'SIGINT' ? 130 : 143);
    });
  try {
    const drivers = await loadDrivers();
    const s = createSession({
      mode: flags.quick ? 'quick' : 'full',
      filters: flags.filters,
      seed: flags.seed,
      time: flags.time,
      slowdown: flags.slowdown,
      keepDb: flags.keepDb,
      budget: flags.budget,
      templates: flags.templates,
      cheapKdf: flags.cheapKdf,
      drivers,
    });
    session = s;
    const send = (/** @type {any} */ msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
    const byKey = new Map(s.list.map((c) => [caseKey(c), c]));
    s.warm();
    send({
      ready: true,
      protocol: PROTOCOL,
      workdir: s.workdir,
      budget: s.budget,
      cases: [...byKey.keys()],
      environment: environment(),
      drivers: [...drivers.values()].map((d) => d.info),
    });
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line.trim()) continue;
      let cmd;
      try {
        cmd = JSON.parse(line);
      } catch {
        send({ error: `not JSON: ${line.slice(0, 80)}` });
        continue;
      }
      if (cmd.quit) break;
      if (cmd.setups) {
        send({ setups: s.setups() });
        continue;
      }
      if (Array.isArray(cmd.block)) {
        const unknown = cmd.block.find((/** @type {string} */ k) => !byKey.has(k));
        if (unknown) {
          send({ error: `no such case in this run: ${unknown}; valid: the keys of the ready message` });
          continue;
        }
        const cs = cmd.block.map((/** @type {string} */ k) => /** @type {any} */ (byKey.get(k)));
        const rs = s.runBlock(cs, s.budget, createRandom(Number(cmd.seed) || 0));
        send({
          block: rs.map((r, i) =>
            'round' in r ? { key: cmd.block[i], status: 'ok', ...r } : { key: cmd.block[i], ...r },
          ),
        });
        continue;
      }
      if (typeof cmd.slice === 'string') {
        try {
          const r = s.sliceCase(cmd.slice, Number(cmd.ms) || SLICE_MS);
          send({ key: cmd.slice, status: 'ok', opsPerSec: (r.ops / r.ms) * 1000, ops: r.ops, ms: r.ms });
        } catch (err) {
          s.closeCase(cmd.slice);
          send({ key: cmd.slice, status: 'error', reason: s.errorReason(err) });
        }
        continue;
      }
      if (typeof cmd.close === 'string') {
        try {
          send({ key: cmd.close, status: 'ok', verified: s.closeCase(cmd.close) ?? {} });
        } catch (err) {
          send({ key: cmd.close, status: 'error', reason: s.errorReason(err) });
        }
        continue;
      }
      if (typeof cmd.open === 'string') {
        const c = byKey.get(cmd.open);
        if (!c) send({ key: cmd.open, status: 'error', reason: NO_SUCH_CASE });
        else {
          const r = /** @type {any} */ (s.openCase(c, cmd.open, s.budget));
          send(
            r.size
              ? { key: cmd.open, status: 'ok', bytes: r.size.mainBytes + r.size.walBytes }
              : { key: cmd.open, ...r },
          );
        }
        continue;
      }
      const c = byKey.get(cmd.measure);
      if (!c) {
        send({
          key: cmd.measure,
          status: 'error',
          reason: NO_SUCH_CASE,
        });
        continue;
      }
      const r = /** @type {any} */ (s.runCase(c, s.budget));
      if ('round' in r) send({ key: cmd.measure, status: 'ok', opsPerSec: r.round.opsPerSec });
      else if (r.size) send({ key: cmd.measure, status: 'ok', bytes: r.size.mainBytes + r.size.walBytes });
      else send({ key: cmd.measure, status: r.status, reason: r.reason });
    }
  } finally {
    close();
  }
}

command('engine server', import.meta.url, main);
