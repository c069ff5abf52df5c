// The shootout's run: the sides that prepared (bench/shootout/prepare-sides.js) measured and judged
// by the one runner of several sides (bench/paired/run-sides.js), progress with an ETA on stderr,
// each side counted under its own Node, and the document (bench/result/document.schema.json), not
// yet written. What is the shootout's own here: its sides' facts (Node, generation, line) and its pairs.
import { SideError } from '../paired/interleave.js';
import { parseCaseKey } from '../data/suite.js';
import { inScope, planPairs, referenceSide } from '../data/run-plan.js';
import { endedNow, runDocument, runFields, runSides } from '../paired/run-sides.js';
import { engineArgs } from './prepare-sides.js';
import { countRun } from './count-nodes.js';

/** @typedef {import('./cli.js').ShootoutFlags} ShootoutFlags */
/** @import { SidePlan } from '../data/run-plan.js' */

/** What one engine server of a shootout runs (the method sentence: run-sides.js runMethod). */
export const SHOOTOUT_SERVER = 'Node and driver generation';

/**
 * A side as the document lists it: its plan's facts, whether it is the reference, how it went, the
 * drivers it loaded and its V8 (the synthetic shootout's sides are made here too).
 * @param {SidePlan} plan
 * @param {SidePlan} ref
 * @param {{ status: string, drivers: any[], reason?: string, v8?: string }} o
 */
export const documentSide = (plan, ref, { status, drivers, reason, v8 }) => ({
  label: plan.label,
  node: `v${plan.version}`,
  generation: plan.generation,
  line: plan.line,
  override: plan.override,
  ...(plan === ref ? { reference: true } : {}),
  status,
  drivers,
  ...(reason ? { reason } : {}),
  ...(v8 ? { v8 } : {}),
});

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
  const m = await runSides(
    ok.map((p) => ({ side: p.side, args: p.args })),
    pairs,
    {
      rounds: f.rounds,
      seed: f.seed,
      threshold: f.threshold,
      alpha: f.alpha,
      reference: ref.label,
      server: SHOOTOUT_SERVER,
      label: 'shootout',
      only: (key) => inScope(parseCaseKey(key), f.filters),
    },
  );
  // after every timed figure is taken: each side's measured cases counted under its own Node
  // (count-nodes.js); the engine runs --quick databases, so the counts are of those
  const counted = ok.flatMap((p) => {
    const keys = m.listed[p.plan.label] ?? [];
    const args = ['--quick', '--seed', String(f.seed), ...keys.flatMap((k) => ['--case', k])];
    return keys.length ? [{ ...p.side, args }] : [];
  });
  const counting = f.counts
    ? (await countRun(counted, pairs, (s) => s.args, { log })).counting
    : { status: 'unavailable', reason: 'not asked for (--no-counts)' };
  const sides = prepared.map((p) => {
    const ready = m.ready[p.plan.label] ?? p.ready;
    const { status, reason } = p;
    return documentSide(p.plan, ref, { status, drivers: ready?.drivers ?? [], reason, v8: ready?.environment?.v8 });
  });
  const run = runFields(f, { ...endedNow(started), filters, engine: engineArgs(f, filters) });
  return runDocument(run, m, sides, counting);
}
