#!/usr/bin/env node
// npm run shootout -- [--node 18,20,22,24,25] [--rounds N] [--time MS] [--seed N] [--out DIR]
//                     [--quick] [--threshold PCT] [--alpha A] [--from-source]
//                     [--config NAME]… [--driver NAME]… [--cipher NAME]… [--op NAME]…
//
// Which Node is fastest, on this machine: every Node given is fetched (bench/tools/other-node.js),
// its drivers installed against its own headers (cached), and the same cases measured under every
// Node in one interleaved run (bench/paired/interleave.js: new engine servers every round, the cases in
// a new order each round, the Nodes of a case back to back in a rotating order). The driver is held
// constant where it can be (12.x on Node 20-25), and the Node's default 13.x is measured beside it
// where it loads (bench/shootout/plan.js). Statistics as the compare's (bench/shootout/analysis.js).
// Progress with an ETA on stderr, the tables on stdout, the document (bench/shootout/
// shootout.schema.json) written atomically to --out.
//
// Exit 0: measured and written; 1: the run failed (no two sides ran, a server died); 2: bad flags.
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { FILTER_OPTIONS, tableFilters } from '../engine/flags.js';
import { UsageError, command, numberFlag, parseStrict } from '../../lib/command.js';
import { filterArgs, parseCaseKey } from '../tables/suite.js';
import { MATRIX_NODES } from '../tables/drivers.js';
import { startEngine } from '../engine/client.js';
import { interleave } from '../paired/interleave.js';
import { currentCommit } from '../result/document.js';
import { ROOT } from '../../lib/root.js';
import { SideError } from '../paired/interleave.js';
import { defaultFilters, inScope, planComparisons, planSides, referenceSide, sideFilters } from './plan.js';
import { installSide, resolveNode, sideEnv } from './nodes.js';
import { analyseShootout, figures } from './analysis.js';
import { KIND, SCHEMA_VERSION, driverOf, machine, newRunId, writeShootout } from './document.js';
import { shootoutLines } from './report.js';

export const OPTIONS = /** @type {const} */ ({
  node: { type: 'string', multiple: true },
  rounds: { type: 'string' },
  time: { type: 'string' },
  seed: { type: 'string', default: '1' },
  out: { type: 'string', default: 'out/shootout' },
  quick: { type: 'boolean', default: false },
  threshold: { type: 'string', default: '5' },
  alpha: { type: 'string', default: '0.05' },
  'from-source': { type: 'boolean', default: false },
  ...FILTER_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false },
});

/** Rounds and ms per measurement (the compare's budget per case); --quick is a smoke run. */
export const DEFAULTS = { full: { rounds: 10, time: 80 }, quick: { rounds: 3, time: 20 } };

export const METHOD =
  'interleaved: new engine servers (one per Node and driver generation) every round, the cases in a new shuffled order each round, each case measured on every side back to back in an order rotating by round and case; per case the log ratio of a side to its base side in the same round, trimmed paired t-test, Holm over every comparison of the run, 95% intervals';

/**
 * A shootout document's `run`: what the flags asked for, and when and how long it ran. The nightly
 * document and the synthetic year's (bench/meta/synthetic.js) are built by this one function.
 * @param {ReturnType<typeof parseFlags>} f
 * @param {Record<string, string[]>} filters the engine's filters (defaultFilters)
 * @param {{ id: string, startedAt: string, finishedAt: string, seconds: number, commit: string | null }} r
 */
export function shootoutRun(f, filters, r) {
  return {
    id: r.id,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    status: 'complete',
    mode: f.quick ? 'quick' : 'full',
    rounds: f.rounds,
    timeMs: f.time,
    seed: f.seed,
    threshold: f.threshold,
    alpha: f.alpha,
    seconds: r.seconds,
    method: METHOD,
    engine: ['--quick', '--time', String(f.time), '--seed', String(f.seed), ...filterArgs(filters)],
    commit: r.commit,
  };
}

const NODE_SPEC = /^v?\d{1,3}(\.\d{1,4}\.\d{1,4})?$/;

/**
 * @param {string[]} argv
 */
export function parseFlags(argv) {
  const v = parseStrict(argv, OPTIONS);
  const filters = tableFilters(v);
  const quick = Boolean(v.quick);
  const nodes = (v.node ?? [MATRIX_NODES.join(',')])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of nodes) {
    if (!NODE_SPEC.test(n))
      throw new UsageError(
        `bad --node '${n}'; valid: comma-separated Node majors or exact versions, e.g. 18,20,22,24,25 or 22.14.0`,
      );
    const version = /^\d+$/.test(n.replace(/^v/, '')) ? `${n.replace(/^v/, '')}.99.99` : n.replace(/^v/, '');
    if (semver.lt(version, '18.0.0'))
      throw new UsageError(`bad --node '${n}'; valid: Node 18 or newer (the drivers support 18-25)`);
  }
  if (!nodes.length)
    throw new UsageError('--node is empty; valid: comma-separated Node majors or exact versions, e.g. 18,20,22,24,25');
  const time = numberFlag('time', v.time, 1, 600_000) ?? DEFAULTS[quick ? 'quick' : 'full'].time;
  return {
    nodes,
    filters,
    rounds: numberFlag('rounds', v.rounds, 2, 1000) ?? DEFAULTS[quick ? 'quick' : 'full'].rounds,
    time,
    seed: /** @type {number} */ (numberFlag('seed', v.seed, 0, 4294967295)),
    out: path.resolve(String(v.out)),
    quick,
    threshold: /** @type {number} */ (numberFlag('threshold', v.threshold, 0, 100, false)) / 100,
    alpha: /** @type {number} */ (numberFlag('alpha', v.alpha, 0, 0.5, false)),
    fromSource: Boolean(v['from-source']),
    help: Boolean(v.help),
  };
}

/**
 * What a server's stderr says about why it stopped: Node's fatal-error lines (a failed assertion)
 * and the frames in a native driver, else its last two lines.
 * @param {string} stderr
 */
export function crashReason(stderr) {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = lines
    .filter((l) => /Assertion failed|FATAL ERROR|Error:|Segmentation fault/.test(l) || /^#\s+\S/.test(l))
    .map((l) => l.replace(/^#\s+/, ''));
  const driverFrames = lines
    .filter((l) => /\.node\]$/.test(l))
    .map((l) => l.replace(/^\d+:\s+0x[0-9a-f]+\s+/, '').replace(/\[\S*\/node_modules\/([^/]+)\/\S*\]$/, '[$1]'))
    .slice(0, 1);
  const picked = [...new Set([...fatal, ...driverFrames])];
  return (picked.length ? picked : lines.slice(-2)).join(' | ').slice(0, 800) || 'no message';
}

/**
 * Fetch the Nodes, install each side's drivers, start each side's server once to see it loads.
 * A side whose install or server fails is kept with its reason and left out of the measuring.
 * @param {ReturnType<typeof parseFlags>} f
 * @param {(line: string) => void} log
 */
export async function prepareSides(f, log) {
  const builds = f.nodes.map((n) => ({ spec: n, build: resolveNode(n, log) }));
  const sides = planSides(builds.map((b) => b.build.version));
  const filters = defaultFilters(f.filters);
  const base = ['--quick', '--time', String(f.time), '--seed', String(f.seed)];
  /** @type {any[]} */
  const prepared = [];
  for (const side of sides) {
    const build = /** @type {import('./nodes.js').NodeBuild} */ (
      builds.find((b) => b.build.version === side.version)?.build
    );
    const sf = sideFilters(side, sides, filters);
    const entry = {
      plan: side,
      build,
      env: sideEnv(build, side),
      args: sf ? [...base, ...filterArgs(sf)] : [],
      status: 'ok',
      reason: /** @type {string | undefined} */ (undefined),
      ready: /** @type {any} */ (null),
    };
    prepared.push(entry);
    if (!sf) {
      Object.assign(entry, {
        status: 'failed',
        reason: `the filters leave no driver that ${side.line} changes (${side.line} runs better-sqlite3-multiple-ciphers and better-sqlite3)`,
      });
      continue;
    }
    log(
      `${side.label}: Node v${side.version}, driver generation ${side.generation}${side.override ? ' (beside the default)' : ''}: installing drivers (cached after the first time)`,
    );
    const inst = installSide(build, side, { fromSource: f.fromSource });
    if (!inst.ok) {
      Object.assign(entry, { status: 'failed', reason: inst.reason });
      log(`${side.label}: ${inst.reason}; the run goes on without it`);
      continue;
    }
    try {
      const fail = (/** @type {string} */ what, /** @type {string} */ stderr) =>
        new SideError(`engine server under Node v${side.version} (${side.generation}) ${what}: ${crashReason(stderr)}`);
      const e = await startEngine(entry.args, { dir: ROOT, node: build.exec, env: entry.env, fail });
      entry.ready = e.ready;
      await e.stop();
      const bad = e.ready.drivers.filter((/** @type {any} */ d) => d.status === 'error');
      for (const d of bad) log(`${side.label}: ${d.name} does not load: ${d.reason}`);
    } catch (err) {
      Object.assign(entry, { status: 'failed', reason: String(/** @type {Error} */ (err).message).slice(0, 900) });
      log(`${side.label}: ${entry.reason}; the run goes on without it`);
    }
  }
  return { prepared, filters };
}

/**
 * Run the shootout; return the document (not yet written).
 * @param {ReturnType<typeof parseFlags>} f
 * @param {(line: string) => void} log
 */
export async function shootout(f, log) {
  const startedAt = new Date().toISOString();
  const t0 = Date.now();
  const { prepared, filters } = await prepareSides(f, log);
  const ok = prepared.filter((p) => p.status === 'ok');
  if (ok.length < 2)
    throw new SideError(
      `only ${ok.length} side(s) could run; a shootout needs two: ${
        prepared
          .filter((p) => p.status !== 'ok')
          .map((p) => `${p.plan.label}: ${p.reason}`)
          .join('; ') || 'give at least two Nodes, or one Node twice'
      }`,
    );
  const okPlans = ok.map((p) => p.plan);
  const comparisons = planComparisons(okPlans);
  const ref = referenceSide(okPlans);
  const only = (/** @type {string} */ key) => inScope(parseCaseKey(key), f.filters);
  const t1 = Date.now();
  let last = 0;
  const res = await interleave(
    ok.map((p) => ({
      side: {
        label: p.plan.label,
        dir: ROOT,
        given: `Node v${p.plan.version}`,
        commit: null,
        worktree: false,
        node: p.build.exec,
        env: p.env,
      },
      args: p.args,
    })),
    {
      rounds: f.rounds,
      seed: f.seed,
      only,
      log,
      progress: ({ round, cases, of }) => {
        if (Date.now() - last < 15_000) return;
        last = Date.now();
        const done = (round + cases / of) / f.rounds;
        const elapsed = (Date.now() - t1) / 1000;
        log(
          `round ${round + 1}/${f.rounds}, case ${cases}/${of}: ${(elapsed / 60).toFixed(1)} min, ETA ${((elapsed / done - elapsed) / 60).toFixed(1)} min`,
        );
      },
    },
  );
  /** @type {Record<string, string[]>} */
  // a case a side skipped in every round (node:sqlite before Node 22.13) is not one of its cases:
  // the side's line says why; a case that errs stays, and its row says why it was not compared
  const skipped = (/** @type {string} */ label, /** @type {string} */ key) =>
    res.rounds.every((r) =>
      r[label]?.cases.some((c) => `${c.config}/${c.driver}/${c.cipher}/${c.op}` === key && c.status === 'skipped'),
    );
  const listed = Object.fromEntries(
    Object.entries(res.ready).map(([label, r]) => [
      label,
      r.cases.filter((/** @type {string} */ k) => only(k) && !skipped(label, k)),
    ]),
  );
  const rows = analyseShootout(res.rounds, comparisons, listed, { threshold: f.threshold, alpha: f.alpha });
  const refReady = res.ready[ref.label];
  return {
    schemaVersion: SCHEMA_VERSION,
    kind: KIND,
    run: shootoutRun(f, filters, {
      id: newRunId(),
      startedAt,
      finishedAt: new Date().toISOString(),
      seconds: (Date.now() - t0) / 1000,
      commit: currentCommit(),
    }),
    environment: machine(refReady.environment),
    reference: ref.label,
    sides: prepared.map((p) => {
      const ready = res.ready[p.plan.label] ?? p.ready;
      /** @type {any} */
      const s = {
        label: p.plan.label,
        node: `v${p.plan.version}`,
        generation: p.plan.generation,
        line: p.plan.line,
        override: p.plan.override,
        status: p.status,
        drivers: (ready?.drivers ?? []).map(driverOf),
      };
      if (p.reason) s.reason = p.reason;
      if (ready?.environment?.v8) s.v8 = ready.environment.v8;
      return s;
    }),
    comparisons,
    rows,
    figures: figures(
      res.rounds,
      ok.map((p) => p.plan.label),
    ),
  };
}

/**
 * Parse, run, write, print: `npm run shootout` and the nightly job (ci.js) alike.
 * @param {string[]} argv
 */
export async function main(argv) {
  const f = parseFlags(argv);
  if (f.help) {
    console.log(
      'usage: npm run shootout -- [--node 18,20,22,24,25] [--rounds N] [--time MS] [--seed N] [--out DIR] [--quick] [--threshold PCT] [--alpha A] [--from-source] [--config NAME]… [--driver NAME]… [--cipher NAME]… [--op NAME]…',
    );
    return 0;
  }
  const log = (/** @type {string} */ line) => process.stderr.write(`shootout: ${line}\n`);
  const doc = await shootout(f, log);
  const file = writeShootout(doc, f.out);
  const md = shootoutLines(doc, { heading: '## Node versions on one machine' }).join('\n');
  console.log(md);
  if (process.env.GITHUB_STEP_SUMMARY) fs.appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${md}\n`);
  log(`wrote ${path.relative(process.cwd(), file)} in ${(doc.run.seconds / 60).toFixed(1)} min`);
  return 0;
}

command('shootout', import.meta.url, main);
