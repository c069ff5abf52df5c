#!/usr/bin/env node
// npm run compare -- --base <dir|ref> [--head <dir|ref>] [--merge-base] [--rounds N] [--threshold PCT]
//                    [--alpha A] [--quick] [--config NAME]… [--driver NAME]… [--cipher NAME]… [--op NAME]…
//                    [--time MS] [--seed N] [--out DIR] [--keep-worktrees]
// npm run compare -- --calibrate [--base <dir|ref>] [--runs N] [--slowdown PCT] [same options]
//
// Exit 0: no regression; 1: at least one regression; 2: bad flags or a run that failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../bench/load.js';
import { FILTER_OPTIONS, UsageError, flagsOrExit, numberFlag, parseStrict, tableFilters } from '../bench/cli.js';
import { isMain, writeFileAtomic } from '../bench/fsutil.js';
import { OPS } from '../bench/ops.js';
import { cases as selectCases, filterArgs } from '../bench/suite.js';
import { analyse, collect, tally } from './analyse.js';
import { calibrate } from './calibrate.js';
import { interleave, sideOrder } from './interleave.js';
import { report } from './report.js';
import { CompareError, checkoutAndInstall, commitOf, mergeBase, removeWorktree, resolveSide, runEngine } from './run.js';

export const OPTIONS = /** @type {const} */ ({
  base: { type: 'string' },
  head: { type: 'string' },
  'merge-base': { type: 'boolean', default: false },
  rounds: { type: 'string' },
  threshold: { type: 'string', default: '10' },
  alpha: { type: 'string', default: '0.05' },
  quick: { type: 'boolean', default: false },
  ...FILTER_OPTIONS,
  time: { type: 'string' },
  seed: { type: 'string', default: '1' },
  out: { type: 'string', default: 'out/compare' },
  'keep-worktrees': { type: 'boolean', default: false },
  calibrate: { type: 'boolean', default: false },
  runs: { type: 'string', default: '20' },
  slowdown: { type: 'string', default: '10' },
  family: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
});

/**
 * Rounds per side and ms per measurement: the PR check's budget (about 10 minutes for the whole
 * suite on 2 cores), sized by the calibration in the README; --quick is a smoke run.
 */
export const DEFAULTS = { full: { rounds: 10, time: 80 }, quick: { rounds: 3, time: 20 } };


/** Timed cases of an unfiltered run: the comparisons a full PR check corrects for (calibration). */
export const timedCases = () => selectCases({}).filter((c) => OPS.find((o) => o.name === c.op)?.kind === 'timed').length;

/**
 * @param {string[]} argv
 */
export function parseFlags(argv) {
  const v = parseStrict(argv, OPTIONS);
  const num = numberFlag;
  /** @type {string[]} */
  const engine = filterArgs(tableFilters(v));
  const quick = Boolean(v.quick);
  const time = num('time', v.time, 1, 600_000) ?? DEFAULTS[quick ? 'quick' : 'full'].time;
  if (!v.calibrate && !v.base) throw new UsageError('missing --base; valid: a checkout directory or a git ref (or --calibrate)');
  if (v.calibrate && v.head) throw new UsageError('--head does not go with --calibrate; valid: --calibrate [--base <dir|ref>] (it compares base with itself)');
  const rounds = num('rounds', v.rounds, 2, 1000) ?? DEFAULTS[quick ? 'quick' : 'full'].rounds;
  return {
    base: v.base ?? '.',
    head: v.head ?? '.',
    mergeBase: Boolean(v['merge-base']),
    rounds,
    threshold: /** @type {number} */ (num('threshold', v.threshold, 0, 100, false)) / 100,
    alpha: /** @type {number} */ (num('alpha', v.alpha, 0, 0.5, false)),
    quick,
    engine: ['--quick', ...engine, '--time', String(time)],
    seed: /** @type {number} */ (num('seed', v.seed, 0, 4294967295)),
    out: path.resolve(String(v.out)),
    keepWorktrees: Boolean(v['keep-worktrees']),
    calibrate: Boolean(v.calibrate),
    runs: /** @type {number} */ (num('runs', v.runs, 1, 1000)),
    slowdown: /** @type {number} */ (num('slowdown', v.slowdown, 0.1, 90, false)),
    family: num('family', v.family, 1, 100000) ?? (v.calibrate ? timedCases() : undefined),
    help: Boolean(v.help),
  };
}

/** One line describing where the compare ran, from a result document. */
export function environmentLine(/** @type {{ environment: any, drivers: { base: any[], head: any[] } }} */ m) {
  const e = m.environment;
  const list = (/** @type {any[]} */ ds) => ds.filter((d) => d.status === 'ok').map((d) => `${d.name} ${d.version} (SQLite ${d.sqlite}${d.sqlite3mc ? `, ${d.sqlite3mc}` : ''})`).join(', ');
  const base = list(m.drivers.base);
  const head = list(m.drivers.head);
  const ci = e.ci?.imageOs ? ` (${e.ci.imageOs} ${e.ci.imageVersion ?? ''})` : '';
  return `Node ${e.node}, ${e.platform} ${e.arch}, ${e.cpuModel} × ${e.cores}${ci}; drivers ${base === head ? base : `base ${base}; head ${head}`}`;
}

/**
 * Make the sides ready: directories as given, refs checked out and installed in temp worktrees.
 * @param {ReturnType<typeof parseFlags>} f
 * @param {string[]} labels
 * @param {(line: string) => void} log
 */
function prepare(f, labels, log) {
  const repo = ROOT;
  const given = labels.map((l) => (l === 'head' ? f.head : f.base));
  const resolved = given.map((g, i) => resolveSide(labels[i], g, repo));
  if (f.mergeBase) {
    const headCommit = 'commit' in resolved[1] ? resolved[1].commit : commitOf(resolved[1].dir);
    const baseCommit = 'commit' in resolved[0] ? resolved[0].commit : commitOf(resolved[0].dir);
    if (!headCommit || !baseCommit) throw new CompareError('--merge-base needs both sides in git');
    const mb = mergeBase(repo, baseCommit, headCommit);
    log(`merge-base of ${given[0]} and ${given[1]}: ${mb.slice(0, 12)}`);
    resolved[0] = { ref: `merge-base(${given[0]}, ${given[1]})`, commit: mb };
  }
  /** @type {string[]} */
  const made = [];
  const cleanup = () => {
    if (!f.keepWorktrees) for (const d of made) removeWorktree(repo, d);
  };
  /** @type {import('./run.js').Side[]} */
  const sides = [];
  try {
    resolved.forEach((r, i) => {
      if ('dir' in r) {
        sides.push({ label: labels[i], dir: r.dir, given: given[i], commit: commitOf(r.dir), worktree: false });
        return;
      }
      const same = sides.find((s) => s.worktree && s.commit === r.commit);
      if (same) {
        sides.push({ ...same, label: labels[i], given: given[i] });
        return;
      }
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sqlite-bench-${labels[i]}-`));
      fs.rmdirSync(dir);
      made.push(dir);
      const installed = resolved.find((x) => 'dir' in x);
      checkoutAndInstall(repo, r.commit, dir, log, installed && 'dir' in installed ? installed.dir : undefined);
      sides.push({ label: labels[i], dir, given: given[i], commit: r.commit, worktree: true });
    });
  } catch (err) {
    cleanup();
    throw err;
  }
  return { sides, cleanup };
}

const describe = (/** @type {import('./run.js').Side} */ s) => `${s.label} ${s.given}${s.commit ? ` (${s.commit.slice(0, 12)})` : ''}`;

/**
 * Measure: interleaved case by case when both checkouts have the engine server (bench/serve.js),
 * else (a base from before it existed) whole engine runs alternating per round.
 * @param {import('./run.js').Side[]} sides
 * @param {ReturnType<typeof parseFlags>} f
 * @param {(line: string) => void} log
 */
async function measureSides(sides, f, log) {
  if (sides.every((s) => fs.existsSync(path.join(s.dir, 'bench', 'serve.js')))) {
    const args = [...f.engine, '--seed', String(f.seed)];
    const res = await interleave(sides.map((side) => ({ side, args })), { rounds: f.rounds, seed: f.seed, log });
    return {
      method: 'interleaved: new engine servers (one per side) every round, each case measured on both sides back to back, the side that goes first alternating (ABBA)',
      rounds: res.rounds.map((r) => ({ base: r.base, head: r.head })),
      environment: res.ready.base.environment,
      drivers: { base: res.ready.base.drivers, head: res.ready.head.drivers },
    };
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-compare-'));
  /** @type {{ base: any, head: any }[]} */
  const rounds = [];
  try {
    const total = f.rounds * 2;
    let k = 0;
    for (let i = 0; i < f.rounds; i++) {
      /** @type {Record<string, any>} */
      const docs = {};
      for (const side of sideOrder(sides, i, 0)) {
        const args = [...f.engine, '--seed', String(f.seed + i)];
        const { doc, seconds } = runEngine(side, args, path.join(work, `${side.label}-${i}`));
        docs[side.label] = doc;
        log(`[${++k}/${total}] round ${i + 1} ${side.label}: ${seconds.toFixed(1)} s`);
      }
      rounds.push({ base: docs.base, head: docs.head });
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return {
    method: 'process rounds (the base has no engine server): one whole engine run per side and round, the side that goes first alternating (ABBA)',
    rounds,
    environment: rounds[0].base.environment,
    drivers: { base: rounds[0].base.drivers, head: rounds[0].head.drivers },
  };
}

/**
 * Run a compare and write compare.json and compare.md to f.out.
 * @param {ReturnType<typeof parseFlags>} f
 * @param {(line: string) => void} log
 */
export async function compare(f, log) {
  const { sides, cleanup } = prepare(f, ['base', 'head'], log);
  const t0 = Date.now();
  try {
    const m = await measureSides(sides, f, log);
    const rows = analyse(collect(m.rounds), { threshold: f.threshold, alpha: f.alpha });
    const seconds = (Date.now() - t0) / 1000;
    const md = report({ rows, base: describe(sides[0]), head: describe(sides[1]), rounds: f.rounds, threshold: f.threshold, alpha: f.alpha, engineArgs: f.engine, environment: environmentLine(m), method: m.method, seconds });
    const result = {
      kind: 'sqlite-node-bench/compare',
      version: 1,
      base: { given: sides[0].given, commit: sides[0].commit },
      head: { given: sides[1].given, commit: sides[1].commit },
      method: m.method,
      rounds: f.rounds,
      threshold: f.threshold,
      alpha: f.alpha,
      engine: f.engine,
      seconds,
      environment: m.environment,
      drivers: m.drivers,
      tally: tally(rows),
      rows,
    };
    writeFileAtomic(path.join(f.out, 'compare.json'), `${JSON.stringify(result, null, 2)}\n`);
    writeFileAtomic(path.join(f.out, 'compare.md'), md);
    return { rows, md, result };
  } finally {
    cleanup();
  }
}

async function main() {
  const f = flagsOrExit('compare', parseFlags);
  if (f.help) {
    console.log('usage: npm run compare -- --base <dir|ref> [--head <dir|ref>] [--merge-base] [--rounds N] [--threshold PCT] [--alpha A] [--quick] [engine filters] [--time MS] [--seed N] [--out DIR]\n       npm run compare -- --calibrate [--base <dir|ref>] [--runs N] [--slowdown PCT] [--rounds N] [engine filters]');
    return;
  }
  const log = (/** @type {string} */ line) => process.stderr.write(`compare: ${line}\n`);
  try {
    if (f.calibrate) {
      const { md } = await calibrate(f, (labels) => prepare(f, labels, log), log);
      console.log(md);
      if (process.env.GITHUB_STEP_SUMMARY) fs.appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${md}\n`);
      return;
    }
    const { rows, md } = await compare(f, log);
    console.log(md);
    if (process.env.GITHUB_STEP_SUMMARY) fs.appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${md}\n`);
    console.error(`compare: wrote ${path.relative(process.cwd(), path.join(f.out, 'compare.md'))} and compare.json`);
    if (rows.some((r) => r.verdict === 'regression')) process.exitCode = 1;
  } catch (err) {
    if (!(err instanceof CompareError)) throw err;
    console.error(`compare: ${err.message}`);
    process.exit(2);
  }
}

if (isMain(import.meta.url)) {
  main().catch((err) => {
    console.error(`compare: ${err?.stack ?? err}`);
    process.exit(2);
  });
}
