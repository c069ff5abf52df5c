#!/usr/bin/env node
// npm run bench -- [--quick] [--config NAME]… [--driver NAME]… [--cipher NAME]… [--op NAME]…
//                  [--time MS] [--seed N] [--out DIR] [--keep-db DIR] [--no-counts] [--list]
// Runs the suite on this machine, then (on Linux, unless --no-counts) counts what every timed case
// costs per operation (bench/counts/), and writes one result document (bench/result/) to --out.
import path from 'node:path';
import { command } from '../lib/command.js';
import { ROOT } from '../lib/root.js';
import { parseFlags } from './engine/flags.js';
import { loadDrivers } from './engine/load-drivers.js';
import { writeResult } from './result/document.js';
import { METHOD, SCHEMA_VERSION, TINYBENCH_VERSION, currentCommit, newRunId } from './result/header.js';
import { cpuTimes, noiseOf, stealBetween, topology } from './result/noise.js';
import { analyseRun, withWorkloadChecks } from './result/analysis.js';
import { environment } from './result/environment.js';
import { summarize } from './result/summary.js';
import { createProgress } from './run/progress.js';
import { runSuite } from './run/run-suite.js';
import { runWorkloads } from './workloads/run-workloads.js';
import { workloadListText } from './tables/workloads.js';
import { listText } from './tools/catalogue.js';
import { configNotes } from './tables/configs.js';
import { countPass } from './counts/pass.js';
import { caseKey } from './tables/suite.js';

async function main(/** @type {string[]} */ argv) {
  const flags = parseFlags(argv);
  if (flags.help) {
    console.log(
      'usage: npm run bench -- [--quick] [--config NAME]... [--driver NAME]... [--cipher NAME]... [--op NAME]... [--experiment NAME]... [--workload NAME]... [--time MS] [--rounds N] [--seed N] [--out DIR] [--keep-db DIR] [--no-counts] [--list] [--slowdown PERCENT (calibration only)]',
    );
    return;
  }
  if (flags.list) {
    console.log(`${listText()}\n${workloadListText()}`);
    return;
  }
  const state = { interrupted: /** @type {string | null} */ (null) };
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.on(sig, () => {
      state.interrupted = sig;
      process.stderr.write(`\nbench: ${sig}: stopping after the current case\n`);
    });
  }
  const startedAt = new Date().toISOString();
  const cpuAtStart = cpuTimes();
  const drivers = await loadDrivers();
  const run = await runSuite({
    mode: flags.quick ? 'quick' : 'full',
    filters: flags.filters,
    seed: flags.seed,
    time: flags.time,
    ...(flags.rounds ? { budget: { rounds: flags.rounds, maxRounds: flags.rounds } } : {}), // --rounds N: exactly N rounds per case
    slowdown: flags.slowdown,
    keepDb: flags.keepDb,
    drivers,
    state,
    onProgress: createProgress(),
  });
  const { setups, budget, order, engines } = run;
  const { cases, machine, machineFast, comparisons, selfCheck, experiments } = analyseRun(run.cases);
  const noise = noiseOf(run.slow, machineFast, stealBetween(cpuAtStart, cpuTimes()), topology());
  // the workloads (bench/workloads/), after the suite: --workload NAME selects them, none skips them
  const workloadRun = state.interrupted
    ? null
    : await runWorkloads({
        mode: flags.quick ? 'quick' : 'full',
        names: flags.workloads,
        filters: flags.filters,
        seed: flags.seed,
        drivers,
        state,
        onProgress: createProgress(),
        ...(flags.rounds ? { budget: { rounds: flags.rounds } } : {}),
      });
  const workloads = workloadRun?.cases.length ? workloadRun : null;
  // the counting pass, after every timed figure is taken (bench/counts/, docs/counting.md)
  const counted =
    flags.counts && !state.interrupted
      ? await countPass({
          mode: flags.quick ? 'quick' : 'full',
          seed: flags.seed,
          cases: cases.filter((c) => c.status === 'ok' && c.stats),
          drivers,
          log: (line) => process.stderr.write(`${line}\n`),
        })
      : null;
  const counting = counted?.counting ?? {
    status: 'unavailable',
    reason: state.interrupted ? 'the run was interrupted before counting' : 'not asked for (--no-counts)',
  };
  for (const c of cases) {
    const k = counted?.counts.get(caseKey(c));
    if (k) c.counts = k;
  }
  const doc = {
    schemaVersion: SCHEMA_VERSION,
    kind: 'sqlite-node-bench/result',
    run: {
      id: newRunId(),
      startedAt,
      finishedAt: new Date().toISOString(),
      status: state.interrupted ? 'interrupted' : 'complete',
      ...(state.interrupted ? { interruptedBy: state.interrupted } : {}),
      mode: flags.quick ? 'quick' : 'full',
      commit: currentCommit(),
      seed: flags.seed,
      budget,
      filters: flags.filters,
      order,
      engines,
    },
    environment: environment(),
    harness: { tinybench: TINYBENCH_VERSION, method: METHOD },
    drivers: [...drivers.values()].map((d) => d.info),
    configs: configNotes(),
    setups,
    cases,
    machine,
    noise,
    comparisons,
    selfCheck,
    experiments: withWorkloadChecks(experiments, workloads),
    ...(workloads ? { workloads } : {}),
    counting,
  };
  const file = writeResult(doc, flags.out);
  console.log(summarize(doc));
  console.log(
    `\nwrote ${path.relative(process.cwd(), file) || file}${flags.keepDb ? `; databases kept in ${flags.keepDb}` : ''}`,
  );
  const errors =
    cases.filter((c) => c.status === 'error').length +
    (workloads?.cases.filter((c) => c.status === 'error').length ?? 0);
  if (state.interrupted) return state.interrupted === 'SIGINT' ? 130 : 143;
  if (errors) {
    console.error(
      `bench: ${errors} case(s) failed; see "Not measured" above and the reason fields in ${path.relative(ROOT, file)}`,
    );
    return 1;
  }
  return 0;
}

command('bench', import.meta.url, main);
