#!/usr/bin/env node
// The engine as a measuring server, for `npm run compare`: one long-lived process per side of a
// compare, so the coordinator can interleave base and head case by case (the same case measured on
// one side, then at once on the other) without paying a process start and the templates per round.
//
//   node bench/serve.js [--quick] [--config NAME]… [--driver NAME]… [--cipher NAME]… [--op NAME]…
//                       [--time MS] [--seed N] [--slowdown PERCENT] [--keep-db DIR] [--budget JSON]
//                       [--templates DIR]
//
// Protocol: JSON lines. On start it writes {"ready":true,"protocol":1,"cases":[keys],"environment",
// "drivers"}; then for each line {"measure":"config/driver/cipher/op"} read on stdin it measures one
// round of that case (the engine's own budget, fresh copy of the template, full GC before) and
// writes {"key","status":"ok","opsPerSec"} (size: "bytes"), or {"key","status","reason"}. On
// {"quit":true} or the end of stdin it removes its databases and exits. Nothing else goes to stdout.
// Two requests of the run itself (run.js starts a server per round): {"measure":key,"full":true}
// answers with the raw round ({key,status,round,verified,pragmas}, or the size, or the reason),
// and {"setups":true} with the PRAGMA readings and encryption proofs of the setups used so far.
import readline from 'node:readline';
import { OPTIONS, flagsOrExit, parseFlags } from './cli.js';
import { environment } from './environment.js';
import { isMain } from './fsutil.js';
import { loadDrivers } from './load.js';
import { createSession } from './run.js';
import { caseKey } from './suite.js';

export const PROTOCOL = 1;

/**
 * The engine's flags, and two the run gives its servers: --budget (the measuring budget) and
 * --templates DIR (templates shared by the run's engines: see createSession).
 */
export const SERVE_OPTIONS = { ...OPTIONS, budget: { type: /** @type {const} */ ('string') }, templates: { type: /** @type {const} */ ('string') } };

async function main() {
  const flags = flagsOrExit('serve', (argv) => parseFlags(argv, SERVE_OPTIONS));
  const drivers = await loadDrivers();
  const session = createSession({ mode: flags.quick ? 'quick' : 'full', filters: flags.filters, seed: flags.seed, time: flags.time, slowdown: flags.slowdown, keepDb: flags.keepDb, budget: flags.budget, templates: flags.templates, drivers });
  const send = (/** @type {any} */ msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
  const byKey = new Map(session.list.map((c) => [caseKey(c), c]));
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    session.dispose();
  };
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(sig, () => { close(); process.exit(sig === 'SIGINT' ? 130 : 143); });
  try {
    session.warm();
    send({ ready: true, protocol: PROTOCOL, workdir: session.workdir, budget: session.budget, cases: [...byKey.keys()], environment: environment(), drivers: [...drivers.values()].map((d) => d.info) });
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
        send({ setups: session.setups() });
        continue;
      }
      const c = byKey.get(cmd.measure);
      if (!c) {
        send({ key: cmd.measure, status: 'error', reason: `no such case in this run; valid: the keys of the ready message` });
        continue;
      }
      const r = /** @type {any} */ (session.runCase(c, session.budget));
      if (cmd.full) send('round' in r ? { key: cmd.measure, status: 'ok', ...r } : { key: cmd.measure, ...r });
      else if ('round' in r) send({ key: cmd.measure, status: 'ok', opsPerSec: r.round.opsPerSec });
      else if (r.size) send({ key: cmd.measure, status: 'ok', bytes: r.size.mainBytes + r.size.walBytes });
      else send({ key: cmd.measure, status: r.status, reason: r.reason });
    }
  } finally {
    close();
  }
}

if (isMain(import.meta.url)) {
  main().catch((err) => {
    console.error(`serve: ${err?.stack ?? err}`);
    process.exit(1);
  });
}
