#!/usr/bin/env node
// npm run meta:precision: how repeatable the figures are. The suite --runs times, each in its own
// process (or the runs of an earlier measurement again, --from DIR, re-analysed), then each case's
// CV of median ops/s across runs, each run's shift beside the machine probes around it (probe.js),
// and whether the ± means what it says (coverage.js). What each figure means and its targets:
// docs/checking.md. --interference runs interference.js on the other core throughout.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { table } from '../../lib/markdown.js';
import { checkedDir, writeNewPair } from '../../lib/files.js';
import { percent } from '../../lib/format.js';
import { ROOT } from '../../lib/root.js';
import { OPS } from '../data/ops.js';
import { caseKey } from '../data/suite.js';
import { calibrationOf, coverage, pairedWidths, selfChecks } from './coverage.js';
import { probeMachine } from './probe.js';
import { cv, mean, quantile } from '../../lib/stats/spread.js';
import { CommandError, command, numberFlag, parseStrict, switchFlag, valueFlag } from '../../lib/command.js';
import { BENCH_FLAGS, benchArgs, parseFlags } from '../engine/flags.js';
import { analyseRun } from '../result/analysis.js';

const HELP = {
  usage: 'npm run meta:precision -- [flags]',
  summary:
    "How repeatable the figures are: the suite --runs times, then each case's coefficient of variation across runs, per operation, with each run's wall time and what the probes saw.",
  options: /** @type {const} */ ({
    runs: valueFlag('N', 'suite runs, each in its own process, 2 to 1000', { default: '5' }),
    out: valueFlag('DIR', 'where the report (a new .md and .json) and a new precision-XXXXXX folder of the runs go', {
      default: 'out/meta',
    }),
    'probe-ms': valueFlag('MS', 'how long the machine is probed before each run and after the last', {
      default: '3000',
    }),
    quick: switchFlag("the bench's small budgets: a smoke test"),
    interference: switchFlag('meta:interference on the other core throughout'),
    from: valueFlag('DIR', "the figures again from an earlier precision-XXXXXX folder's run-N documents"),
    ...BENCH_FLAGS,
  }),
};

function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, HELP.options);
  const runs = numberFlag('runs', values.runs, 2, 1000);
  const probeMs = numberFlag('probe-ms', values['probe-ms'], 10, 60_000);
  // everything that is not ours goes to the bench, checked here before the first run
  const passthrough = benchArgs(values);
  parseFlags(passthrough);
  if (values.from) return summarise(fromRuns(path.resolve(values.from)), values, passthrough);
  // a new folder per call, so no earlier run's files are removed
  const base = fs.mkdtempSync(path.join(checkedDir('out', values.out), 'precision-'));
  const docs = /** @type {any[]} */ ([]);
  const walls = /** @type {number[]} */ ([]);
  console.error(
    `precision: the runs' documents go to ${path.relative(process.cwd(), base) || base} (--from reads them again)`,
  );
  const noise = values.interference
    ? spawn(process.execPath, [path.join(ROOT, 'bench/meta/interference.js'), '--seconds', '86400'], {
        stdio: 'ignore',
      })
    : null;
  process.on('exit', () => noise?.kill());
  const probes = [probeMachine({ ms: probeMs })];
  for (let i = 1; i <= runs; i++) {
    const out = path.join(base, `run-${i}`);
    console.error(`precision: run ${i} of ${runs}: npm run bench -- ${passthrough.join(' ')}`);
    const t0 = Date.now();
    // timing only: the counting pass would add minutes to every run and change no time
    const args = [path.join(ROOT, 'bench/cli.js'), '--out', out, '--no-counts', ...passthrough];
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    walls.push((Date.now() - t0) / 1000);
    if (r.status !== 0 && r.status !== 1) throw new CommandError(`run ${i} exited ${r.status}`);
    const [file] = fs.readdirSync(out);
    docs.push(JSON.parse(fs.readFileSync(path.join(out, file), 'utf8')));
    probes.push(probeMachine({ ms: probeMs }));
  }
  noise?.kill();
  return summarise({ docs, walls, probes }, values, passthrough);
}

/**
 * The run documents of an earlier measurement (its run-N folders), each analysed again by this
 * checkout's analysis from its stored rounds, so a change of the statistics can be measured on the
 * same runs. The wall time of each run is its document's; there are no probes.
 * @param {string} dir
 */
function fromRuns(dir) {
  const runDirs = fs
    .readdirSync(dir)
    .filter((d) => /^run-\d+$/.test(d))
    .sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)));
  if (runDirs.length < 2)
    throw new CommandError(
      `--from ${dir}: needs at least 2 run-N folders of result documents, found ${runDirs.length}`,
    );
  const docs = runDirs.map((d) => {
    const [file] = fs.readdirSync(path.join(dir, d)).filter((f) => f.endsWith('.json'));
    const doc = JSON.parse(fs.readFileSync(path.join(dir, d, file), 'utf8'));
    const bare = doc.cases.map((/** @type {any} */ c) => {
      if (!c.stats?.opsPerSec) return c;
      const { low: _l, high: _h, ...opsPerSec } = c.stats.opsPerSec;
      const { modes: _m, ...stats } = c.stats;
      const fast = stats.fast ? (({ low: _a, high: _b, ...f }) => f)(stats.fast) : undefined;
      return { ...c, stats: { ...stats, opsPerSec, ...(fast ? { fast } : {}) } };
    });
    const a = analyseRun(bare);
    const { cases, machine, comparisons, selfCheck } = a;
    return {
      ...doc,
      cases,
      machine,
      comparisons,
      selfCheck,
      ...(doc.noise ? { noise: { ...doc.noise, machineFast: a.machineFast } } : {}),
    };
  });
  const walls = docs.map((d) => (Date.parse(d.run.finishedAt) - Date.parse(d.run.startedAt)) / 1000);
  return { docs, walls, probes: null };
}

/**
 * The figures of a measurement, printed and written to precision-<time>.md and .json.
 * @param {{ docs: any[], walls: number[], probes: ReturnType<typeof probeMachine>[] | null }} m
 * @param {Record<string, any>} values the flags
 * @param {string[]} passthrough
 */
function summarise({ docs, walls, probes }, values, passthrough) {
  const pc2 = (/** @type {number} */ x) => percent(x, 2);
  const pc = (/** @type {number} */ x) => percent(x);
  const runs = docs.length;
  const byCase = /** @type {Map<string, number[]>} */ (new Map());
  for (const doc of docs)
    for (const c of doc.cases)
      if (c.status === 'ok' && c.stats)
        byCase.set(caseKey(c), [...(byCase.get(caseKey(c)) ?? []), c.stats.opsPerSec.median]);
  // how the rounds were spent: per run, rounds per case and the cases the deadline left short of the target
  const spent = docs.map((doc) => {
    const ok = doc.cases.filter((/** @type {any} */ c) => c.status === 'ok' && c.stats);
    const rounds = ok.map((/** @type {any} */ c) => c.stats.rounds.length);
    const target = doc.run.budget.targetRse;
    return {
      roundsMedian: quantile(rounds, 0.5),
      roundsMax: Math.max(...rounds),
      shortOfTarget: target ? ok.filter((/** @type {any} */ c) => c.stats.opsPerSec.rse > target).length : 0,
    };
  });
  // the cases measured ok in every run
  const complete = [...byCase].filter(([, xs]) => xs.length === runs);
  const cvs = complete.map(([k, xs]) => ({ case: k, op: k.split('/')[3], cv: cv(xs) }));
  const cvList = cvs.map((c) => c.cv);
  // each run's shift, fsync-bound and CPU-bound cases apart, and the machine probes around it
  const bound = Object.fromEntries(OPS.map((o) => [o.name, o.bound]));
  const shiftOf = (/** @type {number} */ i, /** @type {string} */ kind) => {
    const shifts = complete.filter(([k]) => bound[k.split('/')[3]] === kind).map(([, xs]) => xs[i] / mean(xs) - 1);
    return complete.length ? quantile(shifts, 0.5) : NaN;
  };
  const probed = (/** @type {number} */ i, /** @type {'fsyncPerSec' | 'cpuPerSec'} */ k) =>
    probes ? [probes[i][k], probes[i + 1][k]] : [NaN, NaN];
  const machine = docs.map((_, i) => ({
    io: shiftOf(i, 'io'),
    cpu: shiftOf(i, 'cpu'),
    fsyncPerSec: probed(i, 'fsyncPerSec'),
    cpuPerSec: probed(i, 'cpuPerSec'),
  }));
  const probeCv = (/** @type {'fsyncPerSec' | 'cpuPerSec'} */ k) => cv(machine.map((m) => mean(m[k])));
  const summary = {
    node: process.version,
    runs,
    flags: passthrough,
    cases: cvs.length,
    wallSeconds: walls,
    spent,
    machine,
    probeCv: { fsync: probeCv('fsyncPerSec'), cpu: probeCv('cpuPerSec') },
    cvMedian: quantile(cvList, 0.5),
    cvP90: quantile(cvList, 0.9),
    byOp: Object.fromEntries(
      [...new Set(cvs.map((c) => c.op))].map((op) => {
        const xs = cvs.filter((c) => c.op === op).map((c) => c.cv);
        return [op, { cases: xs.length, median: quantile(xs, 0.5), p90: quantile(xs, 0.9), max: Math.max(...xs) }];
      }),
    ),
    worst: [...cvs].sort((a, b) => b.cv - a.cv).slice(0, 10),
    coverage: coverage(docs),
    selfCheck: selfChecks(docs),
    interference: Boolean(values.interference),
    calibration: { median: calibrationOf(docs, 'median'), fast: calibrationOf(docs, 'fast') },
    paired: pairedWidths(docs),
    noise: docs.map((d) => d.noise ?? null),
    ...(values.from ? { from: path.resolve(values.from) } : {}),
  };
  const { coverage: cov, selfCheck: aa } = summary;
  const beforeAfter = (/** @type {number[]} */ xs) => xs.map((x) => x.toFixed(0)).join(' → ');
  const right = (/** @type {number} */ n) => /** @type {('l' | 'r')[]} */ (['l', ...Array(n - 1).fill('r')]);
  const parts = [
    `Precision: CV of median ops/s across ${runs} runs of the same seed, ${cvs.length} cases, ${process.version}\n`,
    table(
      [
        ['Operation', 'Cases', 'CV median', 'CV p90', 'CV max'],
        ...Object.entries(summary.byOp).map(([op, s]) => [op, s.cases, ...[s.median, s.p90, s.max].map(pc2)]),
        ['**all**', cvs.length, ...[summary.cvMedian, summary.cvP90, Math.max(...cvList)].map(pc2)],
      ],
      right(5),
    ),
    `\nwall time per run: ${walls.map((w) => `${w.toFixed(0)} s`).join(', ')}`,
    `rounds per case (median, max), cases short of the precision target: ${spent.map((x) => `${x.roundsMedian}, ${x.roundsMax}, ${x.shortOfTarget}`).join('; ')}`,
    `\nEach run against the machine (shift: median over the run's cases of their distance from their mean over the runs; probes before → after the run):\n`,
    table(
      [
        ['Run', 'Shift, fsync-bound', 'Shift, CPU-bound', 'fsync/s probe', 'SHA-256 64 KiB/s probe'],
        ...machine.map((m, i) => [i + 1, ...[m.io, m.cpu].map(pc2), ...[m.fsyncPerSec, m.cpuPerSec].map(beforeAfter)]),
      ],
      ['r', 'r', 'r', 'r', 'r'],
    ),
    `CV across runs of the probes: fsync ${pc2(summary.probeCv.fsync)}, CPU ${pc2(summary.probeCv.cpu)}\n`,
    `worst cases: ${summary.worst
      .slice(0, 5)
      .map((w) => `${w.case} ${pc2(w.cv)}`)
      .join('; ')}`,
    `\nCoverage: for each pair of runs, the later median within the two figures' combined 95% intervals (target ≥ 93%); the earlier ± was 1.96 × rse:\n`,
    table(
      [
        ['Operation', 'Pairs', 'Coverage', 'Coverage, earlier ±', 'Median ±', 'Median earlier ±', 'Figures with modes'],
        ...cov.byOp.map((r) => [
          r.op,
          r.pairs,
          ...[r.coverage, r.coverageEarlier, r.widthMedian, r.widthMedianEarlier].map(pc),
          `${r.withModes} of ${r.figures}`,
        ]),
        ['**all**', cov.all.pairs, percent(cov.all.coverage), percent(cov.all.coverageEarlier), '', '', ''],
      ],
      right(7),
    ),
    `\nA/A self-check: ${aa.flagged.length} of ${aa.comparisons} comparisons flagged (target ≤ 1 in 20)${aa.flagged.length ? `: ${aa.flagged.join('; ')}` : ''}; ${aa.runsFailed} of ${runs} runs failed it\n`,
  ];
  for (const [name, cal] of Object.entries(summary.calibration))
    if (cal.byOp.length)
      parts.push(
        `\nCalibration of the ${name === 'median' ? 'median (typical under load)' : 'fastest typical'} figure: the later run inside the first run's own 95% interval (target 93–98%), and the median ± against the 95th percentile of the actual |difference| between runs (target ≤ 1.5×):\n`,
        table(
          [
            ['Operation', 'Pairs', 'Own-interval coverage', 'Median ±', 'p95 |difference|', '± / p95'],
            ...cal.byOp.map((r) => [r.op, r.pairs, ...[r.coverage, r.width, r.move95].map(pc), r.ratio.toFixed(2)]),
            ['**all**', cal.all.pairs, percent(cal.all.coverage), '', '', ''],
          ],
          right(6),
        ),
      );
  const na = (/** @type {number | null} */ x) => (x === null ? 'n/a' : percent(x));
  parts.push(
    `\nPaired comparisons in the runs (the A/A twin apart): median half-width of the 95% interval per operation (targets under interference: ≤ 3% CPU-bound, ≤ 6% I/O-bound):\n`,
    table(
      [
        ['Operation', 'Bound', 'Comparisons', 'Median half-width', 'Decided'],
        ...summary.paired.map((r) => [
          r.op,
          r.bound,
          r.comparisons,
          percent(r.halfWidth),
          `${r.decided} of ${r.comparisons}`,
        ]),
      ],
      ['l', 'l', 'r', 'r', 'r'],
    ),
    `\nMachine noise per run (share of CPU-bound slices in the slow state; steal): ${summary.noise
      .map((n) => (n ? `${na(n.slowShare)}, ${na(n.steal)}` : 'n/a'))
      .join('; ')}${summary.interference ? ' (with --interference)' : ''}`,
  );
  const text = parts.join('\n');
  const name = writeNewPair(values.out, 'precision', `${text}\n`, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`${text}\nwrote ${path.relative(process.cwd(), name)}.md and .json`);
}

command('precision', import.meta.url, main, HELP);
