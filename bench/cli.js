#!/usr/bin/env node
// npm run bench -- [--quick] [--config NAME]… [--driver NAME]… [--cipher NAME]… [--op NAME]…
//                  [--time MS] [--seed N] [--out DIR] [--keep-db DIR] [--no-counts] [--list]
// Runs the suite on this machine, then (on Linux, unless --no-counts) counts what every timed case
// costs per operation (bench/counts/; a quick run only the few of bench/tables/quick-counts.js),
// and writes one result document (bench/result/) to --out, a new file per run. Progress on stderr,
// a line at least every 10 s in each phase (bench/run/progress.js). Before anything is measured: --out and --keep-db made and written to, and at
// least one driver the run needs loaded, so a mistake costs seconds, not a whole run.
import path from 'node:path';
import { CommandError, command } from '../lib/command.js';
import { checkedDir } from '../lib/files.js';
import { ROOT } from '../lib/root.js';
import { OPTIONS, parseFlags } from './engine/flags.js';
import { DRIVERS } from './tables/drivers.js';
import { cases as casesOf } from './tables/suite.js';
import { loadDrivers } from './engine/load-drivers.js';
import { writeResult } from './result/document.js';
import { METHOD, SCHEMA_VERSION, TINYBENCH_VERSION, currentCommit, newRunId } from './result/header.js';
import { cpuTimes, noiseOf, stealBetween, topology } from './result/noise.js';
import { analyseRun, withWorkloadChecks } from './result/analysis.js';
import { environment } from './result/environment.js';
import { summarize } from './result/summary.js';
import { createProgress } from './run/progress.js';
import { countingProgress } from './run/count-progress.js';
import { quickCountSelection } from './tables/quick-counts.js';
import { runSuite } from './run/run-suite.js';
import { runWorkloads } from './workloads/run-workloads.js';
import { workloadListText } from './tables/workloads.js';
import { listText } from './tools/catalogue.js';
import { configNotes } from './tables/configs.js';
import { countPass } from './counts/pass.js';
import { caseKey } from './tables/suite.js';

export const HELP = {
  usage: 'npm run bench -- [flags]',
  summary:
    'Runs the suite and the workloads on this machine, then (on Linux, unless --no-counts) counts what one operation of every case costs (a quick run: of a few representative cases), and writes one result document to --out.',
  options: OPTIONS,
};

/**
 * Stop before measuring when the run cannot measure anything worth a document: none of the drivers
 * its cases need loads, or none of the installable ones is installed for this Node.
 * @param {Map<string, { info: import('./engine/load-drivers.js').DriverInfo, open?: unknown }>} drivers
 * @param {Record<string, string[]>} filters
 */
export function checkDrivers(drivers, filters) {
  const needed = [...new Set(casesOf(filters).map((c) => c.driver))];
  const ok = needed.filter((n) => drivers.get(n)?.open);
  const packaged = needed.filter((n) => DRIVERS.find((d) => d.name === n)?.package);
  const installed = packaged.filter((n) => drivers.get(n)?.info.status !== 'error');
  if (ok.length && (installed.length || !packaged.length)) return;
  const first = needed.map((n) => drivers.get(n)?.info).find((i) => i && i.status !== 'ok');
  const other = ok.length ? `, or limit the run to what loads: --driver ${ok.join(',')}` : '';
  const why = first?.reason ?? 'did not load';
  throw new CommandError(
    `no driver for Node ${process.version} among ${needed.join(', ')}: ${why.startsWith(`${first?.name} `) ? why : `${first?.name} ${why}`}${other}`,
  );
}

/**
 * The counting pass over these cases, with its progress on stderr.
 * @param {ReturnType<typeof parseFlags>} flags
 * @param {import('./tables/suite.js').Case[]} cases
 * @param {Awaited<ReturnType<typeof loadDrivers>>} drivers
 */
function countCases(flags, cases, drivers) {
  const progress = countingProgress(createProgress(process.stderr, { label: 'counting' }));
  if (cases.length) progress({ step: 'begin', cases: cases.length });
  return countPass({
    mode: flags.quick ? 'quick' : 'full',
    seed: flags.seed,
    cases,
    drivers,
    log: (line) => process.stderr.write(`${line}\n`),
    onProgress: progress,
  });
}

/**
 * The counting section with what a quick run left uncounted: its reason, after the pass's own
 * (a failure, or why nothing was counted) where there is one.
 * @param {import('./counts/pass.js').CountingSection} counting
 * @param {string | null} selected quickCountSelection's reason
 * @returns {import('./counts/pass.js').CountingSection}
 */
export function withSelection(counting, selected) {
  if (!selected || counting.status === 'unavailable') return counting;
  // within the schema's 2,000 characters of counting.reason: the pass's own reason is cut, never the selection's
  const own = counting.reason?.slice(0, Math.max(0, 2000 - selected.length - 2));
  return { ...counting, reason: own ? `${own}; ${selected}` : selected };
}

async function main(/** @type {string[]} */ argv) {
  const flags = parseFlags(argv);
  if (flags.list) {
    console.log(`${listText()}\n${workloadListText()}`);
    return;
  }
  checkedDir('out', flags.out);
  if (flags.keepDb) checkedDir('keep-db', flags.keepDb);
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
  checkDrivers(drivers, flags.filters);
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
    onProgress: createProgress(process.stderr, { label: 'suite' }),
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
        onProgress: createProgress(process.stderr, { label: 'workloads' }),
        ...(flags.rounds ? { budget: { rounds: flags.rounds } } : {}),
      });
  const workloads = workloadRun?.cases.length ? workloadRun : null;
  // the counting pass, after every timed figure is taken (bench/counts/, docs/counting.md); a quick
  // run counts only the few cases of bench/tables/quick-counts.js, and says so
  const timed = cases.filter((c) => c.status === 'ok' && c.stats);
  const selection = flags.quick ? quickCountSelection(timed) : { counted: timed, reason: null };
  const toCount = flags.counts && !state.interrupted && (selection.counted.length > 0 || !timed.length);
  const counted = toCount ? await countCases(flags, selection.counted, drivers) : null;
  const counting = withSelection(
    counted?.counting ?? {
      status: 'unavailable',
      reason: state.interrupted
        ? 'the run was interrupted before counting'
        : flags.counts
          ? `${selection.reason}; none of them ran in this run`
          : 'not asked for (--no-counts)',
    },
    selection.reason,
  );
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
  if (state.interrupted) {
    // the last line: how much of the run there is (a case counts once it has a round)
    console.error(
      `bench: ${state.interrupted}: stopped after ${cases.length} of ${order.length} cases; ${path.relative(process.cwd(), file) || file} is marked interrupted`,
    );
    return state.interrupted === 'SIGINT' ? 130 : 143;
  }
  if (errors) {
    console.error(
      `bench: ${errors} case(s) failed; see "Not measured" above and the reason fields in ${path.relative(ROOT, file)}`,
    );
    return 1;
  }
  return 0;
}

command('bench', import.meta.url, main, HELP);
