// The shootout's run: the sides that prepared (bench/shootout/prepare-sides.js) measured and judged
// by the one runner of several sides (bench/paired/run-sides.js), progress with an ETA on stderr,
// each side counted under its own Node, and the document (bench/result/document.schema.json), not
// yet written. What is the shootout's own here: its sides' facts (Node, generation, line) and its pairs.
import { SideError } from '../paired/interleave.js';
import { parseCaseKey } from '../data/suite.js';
import { inScope, planPairs, referenceSide } from '../data/run-plan.js';
import { endedNow, runDocument, runFields, runSides } from '../paired/run-sides.js';
import { engineArgs } from './prepare-sides.js';
import { countShootout } from './count-nodes.js';

/** @typedef {import('./cli.js').ShootoutFlags} ShootoutFlags */

/** What one engine server of a shootout runs (the method sentence: run-sides.js runMethod). */
export const SHOOTOUT_SERVER = 'Node and driver generation';

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
  // after every timed figure is taken: each side's cases counted under its own Node (count-nodes.js);
  // the engine runs --quick databases, so the counts are of those
  const counting = f.counts
    ? await countShootout(
        ok.map((p) => ({ ...p.side, keys: m.listed[p.plan.label] ?? [] })).filter((s) => s.keys.length),
        pairs,
        { seed: f.seed, log },
      )
    : { status: 'unavailable', reason: 'not asked for (--no-counts)' };
  const sides = prepared.map((p) => {
    const ready = m.ready[p.plan.label] ?? p.ready;
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
  });
  const run = runFields(f, { ...endedNow(started), filters, engine: engineArgs(f, filters) });
  return runDocument(run, m, sides, counting);
}
