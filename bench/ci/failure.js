#!/usr/bin/env node
// npm run ci:failure — for a matrix cell that failed before it could benchmark (driver build,
// install): writes a schema-valid result document in which every driver and case says what failed,
// so the aggregate shows the reason instead of a missing cell. Does nothing when the bench already
// wrote a document.
//
// Environment: FAILED_STEP (what failed, shown to readers), BENCH_OUT (default out), BENCH_QUICK.
import fs from 'node:fs';
import path from 'node:path';
import { environment } from '../result/environment.js';
import { command, parseStrict } from '../../lib/command.js';
import { DRIVERS } from '../tables/drivers.js';
import {
  METHOD,
  SCHEMA_VERSION,
  TINYBENCH_VERSION,
  currentCommit,
  newRunId,
  resultFileName,
  writeResult,
} from '../result/document.js';
import { BUDGETS } from '../engine/budgets.js';
import { configNotes } from '../tables/configs.js';
import { cases } from '../tables/suite.js';

/**
 * @param {string} reason
 * @param {{ mode?: 'quick'|'full', now?: Date }} [o]
 */
export function failureDocument(reason, { mode = 'full', now = new Date() } = {}) {
  const at = now.toISOString();
  const why = `not measured: ${reason}`;
  const list = cases();
  return {
    schemaVersion: SCHEMA_VERSION,
    kind: 'sqlite-node-bench/result',
    run: {
      id: newRunId(),
      startedAt: at,
      finishedAt: at,
      status: 'complete',
      mode,
      commit: currentCommit(),
      seed: 1,
      budget: BUDGETS[mode],
      filters: {},
      order: [],
    },
    environment: environment(),
    harness: { tinybench: TINYBENCH_VERSION, method: METHOD },
    drivers: DRIVERS.map((d) => ({ name: d.name, status: 'error', reason: why })),
    configs: configNotes(),
    setups: [],
    cases: list.map((c) => ({ ...c, status: 'error', reason: why })),
    counting: { status: 'unavailable', reason: why },
  };
}

function main(/** @type {string[]} */ argv) {
  parseStrict(argv, {});
  const out = path.resolve(process.env.BENCH_OUT || 'out');
  const reason = (process.env.FAILED_STEP || 'the job failed before the benchmark ran')
    .replace(/\s+/g, ' ')
    .slice(0, 300);
  const doc = failureDocument(reason, { mode: process.env.BENCH_QUICK === 'true' ? 'quick' : 'full' });
  if (fs.existsSync(path.join(out, resultFileName(doc)))) {
    console.log(`ci:failure: ${path.join(out, resultFileName(doc))} exists; the bench wrote its own document`);
  } else {
    console.log(`ci:failure: wrote ${writeResult(doc, out)} (${reason})`);
  }
}

command('ci:failure', import.meta.url, main);
