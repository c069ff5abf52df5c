#!/usr/bin/env node
// npm run meta:floor: how repeatable a figure can be on this machine at all. The probes of probe.js
// (no SQLite, no harness) timed window after window for --runs runs of --seconds, each window's
// typical rate kept as a round keeps its median; per probe, the spread of the windows in a run, the
// CV of the run medians, and the CV of the median of --rounds windows drawn at random times, the
// way a case's rounds fall (docs/checking.md).
import path from 'node:path';
import { table as markdownTable } from '../../lib/markdown.js';
import { writeNewPair } from '../../lib/files.js';
import { UsageError, command, numberFlag, parseStrict, valueFlag } from '../../lib/command.js';
import { sig, percent } from '../../lib/format.js';
import { createRandom, randomInt } from '../../lib/prng.js';
import { openProbes, typicalRate } from './probe.js';
import { cv, quantile, median, logSpread } from '../../lib/stats/spread.js';

/** @typedef {(typeof PROBES)[number]} Probe */
const PROBES = /** @type {const} */ (['fsync', 'checkpoint', 'cpu', 'memory']);

/** An empty list per probe. @template T @returns {Record<Probe, T[]>} */
const perProbe = () => ({ fsync: [], checkpoint: [], cpu: [], memory: [] });

const HELP = {
  usage: 'npm run meta:floor -- [flags]',
  summary:
    "How repeatable a figure can be on this machine at all: the probes (an fsync, a checkpoint's disk work, a CPU loop) timed window after window, without SQLite or the harness.",
  options: /** @type {const} */ ({
    runs: valueFlag('N', 'runs of the probes', { default: '5' }),
    seconds: valueFlag('N', 'length of each run (a full suite run)', { default: '570' }),
    window: valueFlag('MS', "each window's length, whose typical rate is kept", { default: '200' }),
    rounds: valueFlag('LIST', "windows drawn at random times per run, as a case's rounds fall, comma-separated", {
      default: '5,25,100',
    }),
    draws: valueFlag('N', 'random draws per number of rounds', { default: '2000' }),
    seed: valueFlag('N', 'seed of the draws', { default: '1' }),
    out: valueFlag('DIR', 'where the report goes, a new .md and .json per run', { default: 'out/meta' }),
  }),
};

export function parseFloorFlags(/** @type {string[]} */ argv) {
  const v = parseStrict(argv, HELP.options);
  const rounds = v.rounds.split(',').map((s) => s.trim());
  const bad = rounds.find((s) => !/^\d+$/.test(s) || Number(s) < 1 || Number(s) > 100_000);
  if (bad !== undefined)
    throw new UsageError(`bad --rounds '${v.rounds}'; valid: whole numbers from 1 to 100000, comma-separated`);
  return {
    runs: numberFlag('runs', v.runs, 2, 100),
    seconds: numberFlag('seconds', v.seconds, 0.1, 3600, false),
    window: numberFlag('window', v.window, 5, 10_000),
    rounds: [...new Set(rounds.map(Number))],
    draws: numberFlag('draws', v.draws, 10, 1_000_000),
    seed: numberFlag('seed', v.seed, 0, 4294967295),
    out: v.out,
  };
}

/**
 * One run: window after window of each probe, in turn, for `seconds` and at least `minWindows`
 * windows each (the most --rounds draws: a busy machine's windows run long).
 * @param {{ seconds: number, window: number, minWindows: number, probes: Record<Probe, () => void> }} o
 * @returns {Record<Probe, number[]>} each window's typical rate, per probe, in time order
 */
function sampleRun({ seconds, window, minWindows, probes }) {
  /** @type {Record<Probe, number[]>} */
  const rates = perProbe();
  const until = performance.now() + seconds * 1000;
  do {
    for (const p of PROBES) rates[p].push(typicalRate(probes[p], window));
  } while (performance.now() < until || rates[PROBES[0]].length < minWindows);
  return rates;
}

/**
 * The floor of one probe's repeatability, from its windows in each run.
 * @param {number[][]} runs each run's window rates
 * @param {{ rounds: number[], draws: number, random: () => number }} o
 */
export function floorOf(runs, { rounds, draws, random }) {
  const spreads = runs.map((xs) => Math.expm1(logSpread(xs)));
  const fewest = Math.min(...runs.map((xs) => xs.length));
  const byRounds = rounds
    .filter((r) => r <= fewest)
    .map((r) => {
      const cvs = Array.from({ length: draws }, () => cv(runs.map((xs) => median(pick(random, xs, r)))));
      const over = (/** @type {number} */ t) => cvs.filter((x) => x > t).length / draws;
      return {
        rounds: r,
        cvMedian: quantile(cvs, 0.5),
        cvP90: quantile(cvs, 0.9),
        over1: over(0.01),
        over3: over(0.03),
      };
    });
  const runMedians = runs.map(median);
  return { windowsPerRun: fewest, windowSpread: median(spreads), runMedians, runCv: cv(runMedians), byRounds };
}

/** `k` of `xs` at random, without replacement (a partial Fisher–Yates on a copy). */
function pick(/** @type {() => number} */ random, /** @type {number[]} */ xs, /** @type {number} */ k) {
  const a = [...xs];
  for (let i = 0; i < k; i++) {
    const j = i + randomInt(random, a.length - i);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, k);
}

function main(/** @type {string[]} */ argv) {
  const o = parseFloorFlags(argv);
  const started = new Date();
  /** @type {Record<Probe, number[][]>} */
  const series = perProbe();
  const probes = openProbes();
  try {
    for (let i = 1; i <= o.runs; i++) {
      console.error(
        `floor: run ${i} of ${o.runs}, ${o.seconds} s of ${o.window} ms windows (fsync, checkpoint, CPU, in turn)`,
      );
      const r = sampleRun({ seconds: o.seconds, window: o.window, minWindows: Math.max(...o.rounds), probes });
      for (const p of PROBES) series[p].push(r[p].map(sig));
    }
  } finally {
    probes.close();
  }
  const random = createRandom(o.seed);
  const floors = Object.fromEntries(
    PROBES.map((p) => [p, floorOf(series[p], { rounds: o.rounds, draws: o.draws, random })]),
  );
  const label = {
    fsync: 'fsync (4 KiB rewrite + fdatasync)',
    checkpoint: 'checkpoint (log append, 2 fdatasync, truncate)',
    cpu: 'CPU (SHA-256 of 64 KiB)',
    memory: 'memory (dependent random reads over 128 MiB)',
  };
  const shown = floors.fsync.byRounds.map((b) => b.rounds);
  const HEAD = ['Probe', 'Windows per run', 'Spread of the windows in a run', 'CV of the run medians (all windows)'];
  const pc2 = (/** @type {number} */ x) => percent(x, 2);
  const text = [
    `Floor: the machine alone, ${o.runs} runs of ${o.seconds} s, ${o.window} ms windows, ${process.version}\n`,
    markdownTable(
      [
        [...HEAD, ...shown.map((r) => `CV, ${r} rounds: median, p90 (share of draws > 1%, > 3%)`)],
        ...PROBES.map((p) => {
          const f = floors[p];
          const drawn = f.byRounds.map((b) => `${pc2(b.cvMedian)}, ${pc2(b.cvP90)} (${pc2(b.over1)}, ${pc2(b.over3)})`);
          return [label[p], f.windowsPerRun, pc2(f.windowSpread), pc2(f.runCv), ...drawn];
        }),
      ],
      ['l', 'r', 'r', 'r', ...shown.map(() => /** @type {const} */ ('r'))],
    ),
    ...PROBES.map(
      (p) => `\n${p}: each run's median window: ${floors[p].runMedians.map((x) => x.toFixed(0)).join(', ')} per second`,
    ),
  ].join('\n');
  const when = { started: started.toISOString(), ended: new Date().toISOString() };
  const json = `${JSON.stringify({ node: process.version, ...when, ...o, probes: floors, series })}\n`;
  const name = writeNewPair(o.out, 'floor', `${text}\n`, json);
  console.log(`${text}\n\nwrote ${path.relative(process.cwd(), name)}.md and .json`);
}

command('floor', import.meta.url, main, HELP);
