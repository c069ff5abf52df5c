// The steps of `npm run bench` (bench/cli.js shows their order): get ready (--out and --keep-db
// checked, the signals that stop a run after its current case, the drivers), time the suite and
// the workloads, count the timed cases, make the result document, and say how it ended.
import path from 'node:path';
import { CommandError } from '../../lib/command.js';
import { checkedDir } from '../../lib/files.js';
import { ROOT } from '../../lib/root.js';
import { countPass } from '../counts/pass.js';
import { loadDrivers } from '../engine/load-drivers.js';
import { analyseRun, withWorkloadPairs } from '../result/analysis.js';
import { environment } from '../result/environment.js';
import { KIND, METHOD, SCHEMA_VERSION, TINYBENCH_VERSION, currentCommit, newRunId, oneSide } from '../result/header.js';
import { cpuTimes, noiseOf, stealBetween, topology } from '../result/noise.js';
import { configNotes } from '../data/configs.js';
import { DRIVERS } from '../data/drivers.js';
import { quickCountSelection } from '../data/quick-counts.js';
import { caseKey, cases as casesOf } from '../data/suite.js';
import { runWorkloads } from '../workloads/run-workloads.js';
import { countingProgress } from '../counts/count-progress.js';
import { createProgress } from '../../lib/progress.js';
import { runSuite } from './run-suite.js';

/** @typedef {ReturnType<typeof import('../engine/flags.js').parseFlags>} Flags */
/** @typedef {Awaited<ReturnType<typeof prepareRun>>} Ready */

/**
 * Stop before measuring when the run cannot measure anything worth a document: none of the drivers
 * its cases need loads, or none of the installable ones is installed for this Node.
 * @param {Map<string, { info: import('../engine/load-drivers.js').DriverInfo, open?: unknown }>} drivers
 * @param {Record<string, string[]>} filters
 */
function checkDrivers(drivers, filters) {
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
 * Before anything is measured: --out and --keep-db made and written to, SIGINT/SIGTERM stop the run
 * after its current case, and at least one driver the run needs loaded, so a mistake costs seconds.
 * @param {Flags} flags
 */
export async function prepareRun(flags) {
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
  return {
    state,
    startedAt,
    cpuAtStart,
    drivers,
    mode: /** @type {'quick'|'full'} */ (flags.quick ? 'quick' : 'full'),
  };
}

/** The suite's timed rounds, their analysis and how noisy the machine was meanwhile. */
export async function timeSuite(/** @type {Flags} */ flags, /** @type {Ready} */ ready) {
  const run = await runSuite({
    mode: ready.mode,
    filters: flags.filters,
    seed: flags.seed,
    time: flags.time,
    ...(flags.rounds ? { budget: { rounds: flags.rounds, maxRounds: flags.rounds } } : {}), // --rounds N: exactly N rounds per case
    slowdown: flags.slowdown,
    keepDb: flags.keepDb,
    drivers: ready.drivers,
    state: ready.state,
    onProgress: createProgress(process.stderr, { label: 'suite' }),
  });
  const analysed = analyseRun(run.cases);
  const noise = noiseOf(run.slow, analysed.machineFast, stealBetween(ready.cpuAtStart, cpuTimes()), topology());
  return { run, ...analysed, noise };
}

/**
 * The workloads (bench/workloads/), after the suite: --workload NAME selects them, none skips them;
 * null when none ran.
 * @param {Flags} flags
 * @param {Ready} ready
 */
export async function timeWorkloads(flags, ready) {
  if (ready.state.interrupted) return null;
  const workloads = await runWorkloads({
    mode: ready.mode,
    names: flags.workloads,
    filters: flags.filters,
    seed: flags.seed,
    drivers: ready.drivers,
    state: ready.state,
    onProgress: createProgress(process.stderr, { label: 'workloads' }),
    ...(flags.rounds ? { budget: { rounds: flags.rounds } } : {}),
  });
  return workloads.cases.length ? workloads : null;
}

/**
 * The counting section with what a quick run left uncounted: its reason, after the pass's own
 * (a failure, or why nothing was counted) where there is one.
 * @param {import('../counts/pass.js').CountingSection} counting
 * @param {string | null} selected quickCountSelection's reason
 * @returns {import('../counts/pass.js').CountingSection}
 */
export function withSelection(counting, selected) {
  if (!selected || counting.status === 'unavailable') return counting;
  // within the schema's 2,000 characters of counting.reason: the pass's own reason is cut, never the selection's
  const own = counting.reason?.slice(0, Math.max(0, 2000 - selected.length - 2));
  return { ...counting, reason: own ? `${own}; ${selected}` : selected };
}

/**
 * The counting pass, after every timed figure is taken (bench/counts/, docs/counting.md), with its
 * progress on stderr: a quick run counts only the few cases of bench/data/quick-counts.js, and
 * says so. Each counted case gets its `counts`; returns the document's counting section.
 * @param {Flags} flags
 * @param {Ready} ready
 * @param {any[]} cases the analysed cases
 * @returns {Promise<import('../counts/pass.js').CountingSection>}
 */
export async function countTimed(flags, ready, cases) {
  const timed = cases.filter((c) => c.status === 'ok' && c.stats);
  const selection = flags.quick ? quickCountSelection(timed) : { counted: timed, reason: null };
  const toCount = flags.counts && !ready.state.interrupted && (selection.counted.length > 0 || !timed.length);
  let counted = null;
  if (toCount) {
    const progress = countingProgress(createProgress(process.stderr, { label: 'counting' }));
    if (selection.counted.length) progress({ step: 'begin', cases: selection.counted.length });
    counted = await countPass({
      mode: ready.mode,
      seed: flags.seed,
      cases: selection.counted,
      drivers: ready.drivers,
      log: (line) => process.stderr.write(`${line}\n`),
      onProgress: progress,
    });
  }
  for (const c of cases) {
    const k = counted?.counts.get(caseKey(c));
    if (k) c.counts = k;
  }
  const reason = ready.state.interrupted
    ? 'the run was interrupted before counting'
    : flags.counts
      ? `${selection.reason}; none of them ran in this run`
      : 'not asked for (--no-counts)';
  return withSelection(counted?.counting ?? { status: 'unavailable', reason }, selection.reason);
}

/** The result document of a run (bench/result/document.schema.json, kind result). */
export function resultDocument(
  /** @type {Flags} */ flags,
  /** @type {Ready} */ ready,
  /** @type {Awaited<ReturnType<typeof timeSuite>>} */ suite,
  /** @type {Awaited<ReturnType<typeof timeWorkloads>>} */ workloads,
  /** @type {import('../counts/pass.js').CountingSection} */ counting,
) {
  const { setups, budget, order, engines } = suite.run;
  const interrupted = ready.state.interrupted;
  const env = environment();
  return {
    schemaVersion: SCHEMA_VERSION,
    kind: KIND,
    run: {
      id: newRunId(),
      startedAt: ready.startedAt,
      finishedAt: new Date().toISOString(),
      status: interrupted ? 'interrupted' : 'complete',
      ...(interrupted ? { interruptedBy: interrupted } : {}),
      mode: ready.mode,
      commit: currentCommit(),
      seed: flags.seed,
      budget,
      filters: flags.filters,
      order,
      engines,
    },
    environment: env,
    harness: { tinybench: TINYBENCH_VERSION, method: METHOD },
    sides: oneSide(
      env.node,
      [...ready.drivers.values()].map((d) => d.info),
    ),
    configs: configNotes(),
    setups,
    cases: suite.cases,
    machine: suite.machine,
    noise: suite.noise,
    selfCheck: suite.selfCheck,
    ...withWorkloadPairs(suite, workloads),
    counting,
  };
}

/**
 * Where the document went, and the exit code: 130/143 for an interrupted run (its last line says
 * how much of the run there is: a case counts once it has a round), 1 when a case failed, else 0.
 * @param {ReturnType<typeof resultDocument>} doc
 * @param {string} file
 * @param {Flags} flags
 * @param {Ready} ready
 */
export function exitOf(doc, file, flags, ready) {
  const shown = path.relative(process.cwd(), file) || file;
  console.log(`\nwrote ${shown}${flags.keepDb ? `; databases kept in ${flags.keepDb}` : ''}`);
  const interrupted = ready.state.interrupted;
  const errors =
    doc.cases.filter((/** @type {any} */ c) => c.status === 'error').length +
    (doc.workloads?.cases.filter((/** @type {any} */ c) => c.status === 'error').length ?? 0);
  if (interrupted) {
    console.error(
      `bench: ${interrupted}: stopped after ${doc.cases.length} of ${doc.run.order.length} cases; ${shown} is marked interrupted`,
    );
    return interrupted === 'SIGINT' ? 130 : 143;
  }
  if (errors) {
    console.error(
      `bench: ${errors} case(s) failed; see "Not measured" above and the reason fields in ${path.relative(ROOT, file)}`,
    );
    return 1;
  }
  return 0;
}
