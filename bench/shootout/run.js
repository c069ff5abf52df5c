// The shootout's measuring and its document: the sides that prepared (bench/shootout/prepare-sides.js)
// measured in one interleaved run (bench/paired/interleave.js: new engine servers every round, the
// cases in a new order each round, the Nodes of a case in alternating slices in a rotating order), progress
// with an ETA on stderr, and the document (bench/result/document.schema.json: a run of several sides,
// its pairs judged in `comparisons` by bench/shootout/verdict-rows.js), not yet written.
import { interleave, SideError } from '../paired/interleave.js';
import { KIND, SCHEMA_VERSION, TINYBENCH_VERSION, currentCommit, newRunId } from '../result/header.js';
import { caseKey, parseCaseKey } from '../data/suite.js';
import { inScope, planPairs, referenceSide } from '../data/run-plan.js';
import { analyseShootout, roundCases } from './verdict-rows.js';
import { engineArgs } from './prepare-sides.js';
import { countShootout } from './count-nodes.js';
import { createProgress } from '../../lib/progress.js';

/** @typedef {import('./cli.js').ShootoutFlags} ShootoutFlags */

export const SHOOTOUT_METHOD =
  'interleaved in slices: new engine servers (one per Node and driver generation) every round, the cases in a new shuffled order each round; each case opened on every side, then ~2 ms slices alternating between the sides in an order rotating by round, case and cycle; per case and round the median over the cycles of the log ratio of a side’s slice to its base side’s, trimmed paired t-test over the rounds, Holm over every comparison of the run, each interval at the level Holm tested it at';

/**
 * A shootout document's `run`: what the flags asked for, and when and how long it ran. The nightly
 * document and the synthetic year's (bench/meta/synthetic.js) are built by this one function.
 * @param {ShootoutFlags} f
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
    budget: { rounds: f.rounds, time: f.time },
    seed: f.seed,
    filters,
    threshold: f.threshold,
    alpha: f.alpha,
    seconds: r.seconds,
    engine: engineArgs(f, filters),
    commit: r.commit,
  };
}

/**
 * Measure the sides that prepared, interleaved, and make the document (not yet written). Fewer than
 * two sides that can run is a failed run (SideError).
 * @param {ShootoutFlags} f
 * @param {{ prepared: import('./prepare-sides.js').PreparedSide[], filters: Record<string, string[]> }} p prepareSides
 * @param {{ startedAt: string, t0: number }} started when the shootout started (before preparing)
 * @param {(line: string) => void} log
 */
export async function runShootout(f, { prepared, filters }, started, log) {
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
  const pairs = planPairs(okPlans);
  const ref = referenceSide(okPlans);
  const only = (/** @type {string} */ key) => inScope(parseCaseKey(key), f.filters);
  const res = await interleave(
    ok.map((p) => ({ side: p.side, args: p.args })),
    { rounds: f.rounds, seed: f.seed, only, onProgress: createProgress(process.stderr, { label: 'shootout' }) },
  );
  // a case a side skipped in every round (node:sqlite before Node 22.13) is not one of its cases:
  // the side's line says why; a case that errs stays, and its row says why it was not compared
  const skipped = (/** @type {string} */ label, /** @type {string} */ key) =>
    res.rounds.every((r) => r[label]?.cases.some((c) => caseKey(c) === key && c.status === 'skipped'));
  /** @type {Record<string, string[]>} */
  const listed = Object.fromEntries(
    Object.entries(res.ready).map(([label, r]) => [
      label,
      r.cases.filter((/** @type {string} */ k) => only(k) && !skipped(label, k)),
    ]),
  );
  const judged = analyseShootout(res.rounds, pairs, listed, { threshold: f.threshold, alpha: f.alpha });
  const refReady = res.ready[ref.label];
  // after every timed figure is taken: each side's cases counted under its own Node (count-nodes.js);
  // the engine runs --quick databases, so the counts are of those
  const counting = f.counts
    ? await countShootout(
        ok.map((p) => ({ ...p.side, keys: listed[p.plan.label] ?? [] })).filter((s) => s.keys.length),
        pairs,
        { seed: f.seed, log },
      )
    : { status: 'unavailable', reason: 'not asked for (--no-counts)' };
  return {
    schemaVersion: SCHEMA_VERSION,
    kind: KIND,
    run: shootoutRun(f, filters, {
      id: newRunId(),
      startedAt: started.startedAt,
      finishedAt: new Date().toISOString(),
      seconds: (Date.now() - started.t0) / 1000,
      commit: currentCommit(),
    }),
    environment: refReady.environment,
    harness: { tinybench: TINYBENCH_VERSION, method: SHOOTOUT_METHOD },
    sides: prepared.map((p) => {
      const ready = res.ready[p.plan.label] ?? p.ready;
      /** @type {any} */
      const s = {
        label: p.plan.label,
        node: `v${p.plan.version}`,
        generation: p.plan.generation,
        line: p.plan.line,
        override: p.plan.override,
        ...(p.plan === ref ? { reference: true } : {}),
        status: p.status,
        drivers: ready?.drivers ?? [],
      };
      if (p.reason) s.reason = p.reason;
      if (ready?.environment?.v8) s.v8 = ready.environment.v8;
      return s;
    }),
    comparisons: judged,
    cases: roundCases(
      res.rounds,
      ok.map((p) => p.plan.label),
    ),
    counting,
  };
}
