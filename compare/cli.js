#!/usr/bin/env node
// npm run compare -- --base <dir|ref> [flags] | --calibrate | --calibrate-counts (--help lists the
// flags; docs/compare.md says what each mode does).
//
// compare.json is a run document (bench/result/document.schema.json, as the shootout's) of two
// sides, base (the reference) and head, each with its checkout (compare/sides.js); measured and
// judged by the one runner of several sides (bench/paired/run-sides.js), counted as the shootout's
// (bench/shootout/count-nodes.js countRun), with the compare's cost rows (lib/costs.js) in it.
//
// Phases, each timed in the document's `run.phases` and the report: prepare the sides (worktrees,
// installs), count both sides (at once where the cores allow: bench/paired/count-sides.js), time the cases
// (the cases the counts decide in fewer rounds: timed-rounds.js), the statistics and the report.
//
// Exit 0: no case slower and none that costs more (docs/compare.md); 1: a case slower, a case
// whose counts fail the check (lib/costs.js), or a run that failed; 2: bad flags.
import path from 'node:path';
import { FILTER_OPTIONS, tableFilters } from '../bench/engine/flags.js';
import { writeFileAtomic } from '../lib/files.js';
import {
  CommandError,
  UsageError,
  command,
  logger,
  numberFlag,
  parseStrict,
  printMarkdown,
  switchFlag,
  valueFlag,
} from '../lib/command.js';
import { OPS } from '../bench/data/ops.js';
import { cases as selectCases, filterArgs } from '../bench/data/suite.js';
import { calibrate } from '../bench/paired/calibrate.js';
import { roundsAndTime } from '../bench/paired/interleave.js';
import { endedNow, runDocument, runFields, runSides } from '../bench/paired/run-sides.js';
import { report } from './report.js';
import { countRun } from '../bench/shootout/count-nodes.js';
import { documentProblems } from '../bench/result/document.js';
import { calibrateCounts } from './calibrate-counts.js';
import { ROUNDS_RULE, fewerRounds } from './timed-rounds.js';
import { makeSides } from './sides.js';

const OPTIONS = /** @type {const} */ ({
  base: valueFlag('DIR|REF', 'the base side: a checkout folder or a git ref', {
    shown: 'none (required, but with --calibrate: .)',
  }),
  head: valueFlag('DIR|REF', 'the head side: a checkout folder or a git ref', { shown: '. (this checkout)' }),
  'merge-base': switchFlag("compare against the merge base of --base and head, as a PR's diff"),
  rounds: valueFlag('N', 'interleaved rounds, from 2 to 1000', { shown: '10 (quick: 3)' }),
  'cpu-rounds': valueFlag(
    'N',
    'rounds of a case whose counts decide its CPU cost (a CPU-bound operation counted exactly on both sides, no fsync per operation) and of a size, from 3 to 1000 (at most --rounds); --cpu-rounds as --rounds times every case alike',
    { shown: String(ROUNDS_RULE.cpuRounds) },
  ),
  threshold: valueFlag('PCT', 'the smallest slowdown that is a regression, in percent', { default: '10' }),
  alpha: valueFlag('A', 'the chance of any false alarm over all cases, 0 to 0.5', { default: '0.05' }),
  quick: switchFlag('small budgets: a smoke test'),
  ...FILTER_OPTIONS,
  time: valueFlag('MS', 'measuring time per case, side and round, in milliseconds', { shown: '80 (quick: 20)' }),
  seed: valueFlag('N', 'seed of the generated data and of the order', { default: '1' }),
  out: valueFlag('DIR', 'where compare.json and the report go', { default: 'out/compare' }),
  'keep-worktrees': switchFlag('keep the git worktrees of the sides, and say where'),
  'no-counts': switchFlag("skip counting each side's cases (docs/counting.md)"),
  calibrate: switchFlag('measure the noise floor: base against itself, and against a known --slowdown'),
  'calibrate-counts': switchFlag("calibrate the counts' tolerance: repeat counts and injected work"),
  runs: valueFlag('N', 'calibration runs, from 1 to 1000', { default: '20' }),
  slowdown: valueFlag('PCT', 'calibration: the slowdown every timed task gets, 0.1 to 90 percent', { default: '10' }),
  family: valueFlag('N', 'comparisons the correction counts, from 1 to 100000', {
    shown: "calibration: a full check's timed cases",
  }),
});

const HELP = {
  usage: 'npm run compare -- --base DIR|REF [flags]',
  summary:
    'Base against head on this machine: the same cases measured interleaved, paired statistics per case, and each side counted; exit 1 on a regression or a case that costs more.',
  options: OPTIONS,
};

/** Timed cases of an unfiltered run: the comparisons a full PR check corrects for (calibration). */
const timedCases = () => selectCases({}).filter((c) => OPS.find((o) => o.name === c.op)?.kind === 'timed').length;

function parseFlags(/** @type {string[]} */ argv) {
  const v = parseStrict(argv, OPTIONS);
  const filters = tableFilters(v);
  const engine = filterArgs(filters);
  const { rounds, time } = roundsAndTime(v);
  const calibrating = v.calibrate || v['calibrate-counts'];
  if (!calibrating && !v.base)
    throw new UsageError(
      'missing --base; valid: a checkout directory or a git ref (or --calibrate, --calibrate-counts)',
    );
  if (calibrating && v.head)
    throw new UsageError(
      '--head does not go with --calibrate; valid: --calibrate [--base <dir|ref>] (it compares base with itself)',
    );
  if (v.calibrate && v['calibrate-counts'])
    throw new UsageError('--calibrate and --calibrate-counts do not go together; valid: one of them');
  const cpuRounds = Math.min(rounds, numberFlag('cpu-rounds', v['cpu-rounds'], 3, 1000) ?? ROUNDS_RULE.cpuRounds);
  const seed = numberFlag('seed', v.seed, 0, 4294967295);
  return {
    base: v.base ?? '.',
    head: v.head ?? '.',
    mergeBase: Boolean(v['merge-base']),
    rounds,
    time,
    filters,
    cpuRounds,
    threshold: numberFlag('threshold', v.threshold, 0, 100, false) / 100,
    alpha: numberFlag('alpha', v.alpha, 0, 0.5, false),
    quick: Boolean(v.quick),
    engine: ['--quick', ...engine, '--time', String(time)],
    /** the counting pass's flags (bench/counts/cli.js): the timed run's cases, on its quick databases */
    countArgs: ['--quick', ...engine, '--seed', String(seed)],
    counts: !v['no-counts'],
    calibrateCounts: Boolean(v['calibrate-counts']),
    seed,
    out: path.resolve(String(v.out)),
    keepWorktrees: Boolean(v['keep-worktrees']),
    calibrate: Boolean(v.calibrate),
    runs: numberFlag('runs', v.runs, 1, 1000),
    slowdown: numberFlag('slowdown', v.slowdown, 0.1, 90, false),
    family: numberFlag('family', v.family, 1, 100000) ?? (v.calibrate ? timedCases() : undefined),
  };
}

/**
 * Measure and judge (bench/paired/run-sides.js): every case for the rounds the counts leave it
 * (--cpu-rounds), the cases where wall time decides for every round (--rounds). Each of the two is
 * a phase of its own.
 * @param {import('../bench/paired/interleave.js').Side[]} sides base, head
 * @param {ReturnType<typeof parseFlags>} f
 * @param {(key: string) => boolean} fewer the cases timed only --cpu-rounds (timed-rounds.js)
 * @param {(line: string) => void} log
 */
async function measureSides(sides, f, fewer, log) {
  const args = [...f.engine, '--seed', String(f.seed)];
  const only = (/** @type {string} */ key, /** @type {number} */ r) => r < f.cpuRounds || !fewer(key);
  // every case either side listed is judged: one a side lacks is 'not compared', saying which
  const m = await runSides(
    sides.map((side) => ({ side, args })),
    PAIRS,
    {
      rounds: f.rounds,
      seed: f.seed,
      threshold: f.threshold,
      alpha: f.alpha,
      reference: 'base',
      server: 'side',
      label: 'compare',
      only,
      either: true,
    },
  );
  const keys = m.listed.base;
  /** @type {import('./report.js').Phase[]} */
  const phases = [
    [0, f.cpuRounds],
    [f.cpuRounds, m.rounds.length],
  ]
    .filter(([a, b]) => b > a)
    .map(([a, b]) => {
      const seconds = m.seconds.slice(a, b).reduce((x, y) => x + y, 0);
      const cases = keys.filter((k) => only(k, a)).length;
      log(`phase timed: ${cases} cases × ${b - a} rounds, ${seconds.toFixed(0)} s`);
      return { phase: 'timed', seconds, rounds: b - a, cases };
    });
  if (phases.length > 1) log(`the cases the counts decide got ${f.cpuRounds} rounds; the others ${f.rounds}`);
  return { ...m, phases };
}

/** The compare's one pair of sides: head against base (bench/data/run-plan.js SidePair). */
const PAIRS = [{ comparison: /** @type {const} */ ('compare'), reference: 'base', member: 'head' }];

/** Run a compare and write compare.json (its run document) and compare.md to f.out. */
async function compare(/** @type {ReturnType<typeof parseFlags>} */ f, /** @type {(line: string) => void} */ log) {
  const t0 = Date.now();
  const startedAt = new Date(t0).toISOString();
  const { sides, cleanup } = makeSides(f, ['base', 'head'], log);
  const since = (/** @type {number} */ t) => (Date.now() - t) / 1000;
  /** @type {import('./report.js').Phase[]} */
  const phases = [{ phase: 'prepare', seconds: since(t0) }];
  log(`phase prepare: ${phases[0].seconds.toFixed(0)} s`);
  try {
    // the counts first: they say which cases need every timed round (timed-rounds.js); the shootout's
    // `counting` (bench/shootout/count-nodes.js countRun), its differences judged by the one count
    // rule (lib/costs.js countDifferences): the report's and the exit status's
    const t1 = Date.now();
    const { counting, together } = f.counts
      ? await countRun(sides, PAIRS, () => f.countArgs, { log })
      : { counting: { status: /** @type {const} */ ('unavailable'), reason: 'not asked for (--no-counts)' } };
    if (counting.status !== 'ok') log(`counts: ${counting.status}: ${counting.reason}`);
    const own = (/** @type {string} */ label) =>
      'sides' in counting ? counting.sides.find((s) => s.side === label && s.status === 'ok') : undefined;
    const [b, h] = [own('base'), own('head')];
    phases.push({
      phase: 'count',
      seconds: since(t1),
      ...(b && h && 'seconds' in b && 'seconds' in h ? { base: b.seconds, head: h.seconds } : {}),
      ...(together === undefined ? {} : { together }),
    });
    log(`phase count: ${since(t1).toFixed(0)} s`);
    const m = await measureSides(sides, f, fewerRounds(counting), log);
    phases.push(...m.phases);
    // the statistics (in runSides, after the last round) and the document: the report phase
    phases.push({ phase: 'report', seconds: since(m.measured) });
    const run = { ...runFields(f, { ...endedNow({ startedAt, t0 }), filters: f.filters, engine: f.engine }), phases };
    const doc = runDocument(
      run,
      m,
      sides.map((s) => ({
        label: s.label,
        node: m.ready[s.label].environment.node,
        ...(s.label === 'base' ? { reference: true } : {}),
        status: 'ok',
        drivers: m.ready[s.label].drivers,
        checkout: { given: s.given, commit: s.commit },
      })),
      counting,
    );
    const problems = documentProblems(doc, { names: false });
    if (problems.length)
      throw new CommandError(`the compare's document does not match its schema: ${problems.slice(0, 3).join('; ')}`);
    const md = report(doc);
    writeFileAtomic(path.join(f.out, 'compare.json'), `${JSON.stringify(doc, null, 2)}\n`);
    writeFileAtomic(path.join(f.out, 'compare.md'), md);
    return { md, doc };
  } finally {
    cleanup();
  }
}

async function main(/** @type {string[]} */ argv) {
  const f = parseFlags(argv);
  const log = logger('compare');
  const calibration = f.calibrateCounts ? calibrateCounts : f.calibrate ? calibrate : null;
  if (calibration) {
    printMarkdown((await calibration(f, (labels) => makeSides(f, labels, log), log)).md);
    return 0;
  }
  const { md, doc } = await compare(f, log);
  printMarkdown(md);
  console.error(`compare: wrote ${path.relative(process.cwd(), path.join(f.out, 'compare.md'))} and compare.json`);
  const counted = doc.counting?.status === 'ok' ? (doc.counting.differences ?? []) : [];
  return doc.comparisons.some((r) => r.verdict === 'slower') || counted.some((d) => d.fails) ? 1 : 0;
}

command('compare', import.meta.url, main, HELP);
