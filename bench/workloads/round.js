#!/usr/bin/env node
// One round of one workload in a fresh process (run-workloads.js starts one per round and part):
//
//   node bench/workloads/round.js SPEC_JSON      (the encryption key in SQLITE_BENCH_KEY)
//
// SPEC.kind: 'build' (a template: template.js), 'concurrency' (concurrency.js), 'scale-ops' or
// 'scale-vacuum' (scale.js). Every kind but build copies SPEC.template into SPEC.workdir, opens it
// keyed with the workload's PRAGMAs (read back), measures, verifies, and removes the copy. It
// writes one JSON line: {"status":"ok",...} or {"status":"error","reason"}. On SIGINT/SIGTERM it
// stops its workers, removes SPEC.workdir and exits 130/143, writing nothing; the run removes the
// directory too, however this process ends.
import fs from 'node:fs';
import path from 'node:path';
import { command } from '../../lib/command.js';
import { applyKey, applyPragmas, readPragma } from '../engine/database.js';
import { loadDrivers } from '../engine/load-drivers.js';
import { KEY_ENV, effective } from '../engine/session.js';
import { removeDb } from '../engine/templates.js';
import { CIPHERS } from '../data/ciphers.js';
import { runConcurrency } from './concurrency.js';
import { runScaleOps, runScaleVacuum } from './scale.js';
import { buildTemplate } from './template.js';
/** @import { Budget } from '../engine/measure.js' */

/**
 * @typedef {object} RoundSpec
 * @property {'build' | 'concurrency' | 'scale-ops' | 'scale-vacuum'} kind
 * @property {string} driver
 * @property {string} cipher
 * @property {[string, number | string][]} pragmas
 * @property {number} seed
 * @property {string} workdir this process's directory (removed when it ends)
 * @property {string} [template] the template to copy (all kinds but build); for build, the file to make
 * @property {number} [messages] build: how many
 * @property {number} [seeded] messages in the template
 * @property {number} [readers]
 * @property {boolean} [writer]
 * @property {number} [durationMs]
 * @property {Budget} [budget] scale-ops
 * @property {any} [fault] tests only (concurrency.js)
 * @property {number} [stopGraceMs] tests only
 */

/** The effective PRAGMA values, as the suite records them (bench/meta/synthetic.js reads them here too). */
export { effective };

async function runRound(/** @type {RoundSpec} */ spec, /** @type {string} */ key, /** @type {AbortSignal} */ signal) {
  const cipher = CIPHERS.find((c) => c.name === spec.cipher);
  if (!cipher) throw new Error(`unknown cipher ${spec.cipher}`);
  const loaded = (await loadDrivers()).get(spec.driver);
  if (!loaded?.open) throw new Error(`driver ${spec.driver} did not load: ${loaded?.info.reason}`);
  const tempdir = path.join(spec.workdir, 'tmp');
  fs.mkdirSync(tempdir, { recursive: true });
  if (spec.kind === 'build') {
    const file = /** @type {string} */ (spec.template);
    removeDb(file);
    return buildTemplate({ name: spec.driver, open: loaded.open }, file, {
      pragmas: spec.pragmas,
      cipher,
      key,
      tempdir,
      messages: /** @type {number} */ (spec.messages),
      seed: spec.seed,
    });
  }
  const file = path.join(spec.workdir, 'round.db');
  fs.copyFileSync(/** @type {string} */ (spec.template), file);
  try {
    if (spec.kind === 'concurrency') {
      // the spec's readers, durationMs, seeded, fault and stopGraceMs, with what this process made
      const given = /** @type {Required<RoundSpec>} */ (spec);
      return await runConcurrency({ ...given, file, cipher, key, tempdir, open: loaded.open, signal });
    }
    const conn = loaded.open(file);
    try {
      applyKey(conn, cipher, key);
      const pragmas = effective(applyPragmas(conn, spec.pragmas, { tempdir }));
      const seeded = /** @type {number} */ (spec.seeded);
      if (spec.kind === 'scale-ops') {
        const journalMode = String(readPragma(conn, 'journal_mode'));
        return {
          pragmas,
          ...runScaleOps({
            conn,
            file,
            seeded,
            seed: spec.seed,
            journalMode,
            budget: /** @type {any} */ (spec.budget),
          }),
        };
      }
      return { pragmas, ...runScaleVacuum({ conn, file, seeded }) };
    } finally {
      conn.close();
    }
  } finally {
    removeDb(file);
  }
}

async function main(/** @type {string[]} */ argv) {
  /** @type {RoundSpec} */
  const spec = JSON.parse(argv[0]);
  const key = process.env[KEY_ENV];
  if (!key) throw new Error(`${KEY_ENV} is not set`);
  const hide = (/** @type {string} */ s) => s.split(key).join('***');
  const cleanup = () => {
    try {
      fs.rmSync(spec.workdir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // the run removes it too (spawn.js), however this process ends
    }
  };
  // A signal stops the workers first (each at its next step), so nothing writes into the
  // directory while it is removed; exiting under a worker's driver call could abort the process.
  // A worker that never reaches a step (hung) gets 2 s; then the process exits anyway.
  const interrupt = new AbortController();
  let signalled = 0;
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM']))
    process.on(sig, () => {
      if (signalled) return;
      signalled = sig === 'SIGINT' ? 130 : 143;
      interrupt.abort();
      setTimeout(() => {
        cleanup();
        process.exit(signalled);
      }, 2000);
    });
  let out;
  try {
    out = { status: 'ok', ...(await runRound(spec, key, interrupt.signal)) };
  } catch (err) {
    out = { status: 'error', reason: hide(String(/** @type {any} */ (err)?.message ?? err).split('\n')[0]) };
  } finally {
    cleanup();
  }
  if (signalled) process.exit(signalled);
  // then exit: a terminated worker must not keep the process
  process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
}

command('workload round', import.meta.url, main);
