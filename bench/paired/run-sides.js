// A run of several sides, as the shootout (bench/shootout/run.js) and the compare (compare/cli.js)
// make it: they differ only in how they make their sides. The sides measured interleaved
// (interleave.js), their pairs judged (judge-sides.js), each side's cases per round, and the run
// document's parts (bench/result/document.schema.json) both write: header, run, environment,
// harness, comparisons, cases.
import { interleave } from './interleave.js';
import { judgeSidePairs, roundCases } from './judge-sides.js';
import { KIND, SCHEMA_VERSION, TINYBENCH_VERSION, currentCommit, newRunId } from '../result/header.js';
import { SLICE_MS } from '../engine/slices.js';
import { caseKey } from '../data/suite.js';
import { createProgress } from '../../lib/progress.js';
/** @import { Side } from './interleave.js' */
/** @import { SidePair } from '../data/run-plan.js' */

/**
 * The document's `harness.method` of a run of several sides: how it is measured and judged.
 * @param {string} server what one engine server runs: 'side', 'Node and driver generation'
 * @param {number} sides how many sides ran (two alternate ABBA)
 */
export function runMethod(server, sides) {
  const order = sides === 2 ? ' (ABBA)' : '';
  return `interleaved in slices: new engine servers (one per ${server}) every round, the cases in a new shuffled order each round; each case opened on every side, then ~${SLICE_MS} ms slices alternating between the sides in an order rotating by round, case and cycle${order}; per case and round the median over the cycles of the log ratio of a side’s slice to its base side’s, trimmed paired t-test over the rounds, Holm over every comparison of the run, each interval at the level Holm tested it at`;
}

/**
 * The when of a run that ends now: its id, start, end, seconds and this checkout's commit.
 * @param {{ startedAt: string, t0: number }} started
 */
export const endedNow = (started) => ({
  id: newRunId(),
  startedAt: started.startedAt,
  finishedAt: new Date().toISOString(),
  seconds: (Date.now() - started.t0) / 1000,
  commit: currentCommit(),
});

/**
 * A run document's `run` of several sides: what the flags asked for, and when and how long it ran.
 * @param {{ quick: boolean, rounds: number, time: number, seed: number, threshold: number, alpha: number }} f
 * @param {{ id: string, startedAt: string, finishedAt: string, seconds: number, commit: string | null,
 *   filters: Record<string, string[]>, engine: string[] }} r filters: the engine's; engine: its flags
 */
export function runFields(f, r) {
  return {
    id: r.id,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    status: /** @type {const} */ ('complete'),
    mode: f.quick ? 'quick' : 'full',
    budget: { rounds: f.rounds, time: f.time },
    seed: f.seed,
    filters: r.filters,
    threshold: f.threshold,
    alpha: f.alpha,
    seconds: r.seconds,
    engine: r.engine,
    commit: r.commit,
  };
}

/**
 * Measure the sides interleaved and judge their pairs. `measured`: when the last round ended (ms), so
 * the caller can time what follows it; `seconds`: each round's wall time.
 * @param {{ side: Side, args: string[] }[]} specs one per side, each with its engine's flags
 * @param {SidePair[]} pairs
 * @param {{ rounds: number, seed: number, threshold: number, alpha: number, reference: string, server: string,
 *   label: string, only?: (key: string, round: number) => boolean, either?: boolean }} o
 *   reference: the side whose environment is the run's; server: what one engine server runs (runMethod);
 *   label: of the progress on stderr; only: the cases round r measures (interleave.js);
 *   either: judge every case either side listed (one a side lacks: 'not compared', saying which),
 *   else the cases both sides listed in round 0's scope and did not skip in every round
 */
export async function runSides(specs, pairs, o) {
  const res = await interleave(specs, {
    rounds: o.rounds,
    seed: o.seed,
    only: o.only,
    onProgress: createProgress(process.stderr, { label: o.label }),
  });
  const measured = Date.now();
  const labels = specs.map((s) => s.side.label);
  const all = [...new Set(Object.values(res.ready).flatMap((x) => x.cases))];
  // a case a side skipped in every round (node:sqlite before Node 22.13) is not one of its cases:
  // the side's line says why; a case that errs stays, and its row says why it was not compared
  const skipped = (/** @type {string} */ label, /** @type {string} */ key) =>
    res.rounds.every((r) => r[label]?.cases.some((c) => caseKey(c) === key && c.status === 'skipped'));
  /** @type {Record<string, string[]>} */
  const listed = Object.fromEntries(
    Object.entries(res.ready).map(([label, r]) => [
      label,
      o.either ? all : r.cases.filter((/** @type {string} */ k) => (!o.only || o.only(k, 0)) && !skipped(label, k)),
    ]),
  );
  return {
    rounds: res.rounds,
    ready: res.ready,
    seconds: res.seconds,
    measured,
    listed,
    environment: res.ready[o.reference].environment,
    harness: { tinybench: TINYBENCH_VERSION, method: runMethod(o.server, specs.length) },
    comparisons: judgeSidePairs(res.rounds, pairs, listed, { threshold: o.threshold, alpha: o.alpha }),
    cases: roundCases(res.rounds, labels),
  };
}

/**
 * A run document of several sides, its keys in the schema's order.
 * @template {ReturnType<typeof runFields>} R
 * @template C
 * @param {R} run
 * @param {Pick<Awaited<ReturnType<typeof runSides>>, 'environment' | 'harness' | 'comparisons' | 'cases'>} m
 * @param {any[]} sides
 * @param {C} [counting]
 */
export const runDocument = (run, m, sides, counting) => ({
  schemaVersion: SCHEMA_VERSION,
  kind: KIND,
  run,
  environment: m.environment,
  harness: m.harness,
  sides,
  comparisons: m.comparisons,
  cases: m.cases,
  ...(counting === undefined ? {} : { counting }),
});
