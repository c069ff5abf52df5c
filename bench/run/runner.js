// The one round loop of every run: the suite's (one side, this checkout under this Node:
// run-suite.js), and the compare's, the shootout's and the calibrations' (several sides: a checkout,
// a Node and an environment each: bench/paired/interleave.js). Every round starts one engine per
// side (bench/engine/start.js), in an order rotating by round, measures the round's units in the
// order its caller gives (a block of one side's cases, or a case alternated in slices across the
// sides), reports progress, and stops the engines: what differs from one process to the next
// (memory layout, JIT, where the files land) becomes round-to-round noise, not a constant offset.
// The callers differ only in their units, how a unit is measured, which units the next round
// measures, and what an engine failure means (the suite: the unit's cases are errors and a new
// engine goes on; the sides: the run fails).

/**
 * @typedef {{ current: import('../../lib/progress.js').Progress['current'], size?: number,
 *   extra?: import('../../lib/progress.js').Progress['extra'] }} Unit
 *   what a unit reports as running (size: its case-rounds, default 1; extra: an extra round's)
 */

/**
 * The order of the sides for unit j of round r: rotated by r + j, so each side goes first equally
 * often across units and across rounds (two sides: ABBA).
 * @template T
 * @param {T[]} sides
 * @param {number} r
 * @param {number} j
 */
export function sideOrder(sides, r, j) {
  const k = (r + j) % sides.length;
  return [...sides.slice(k), ...sides.slice(0, k)];
}

/**
 * Measure round after round until the caller has no units left, or `stop` says so.
 * @template {{ stop: () => Promise<unknown>, kill: () => void }} E an engine
 * @template {Unit} U
 * @param {{ start: () => Promise<E> }[]} sides one engine each per round, started in sideOrder
 * @param {object} o
 * @param {(r: number) => boolean} o.more whether round r measures anything (asked before its engines start)
 * @param {(r: number, engines: E[] | null) => U[]} o.units round r's units in the order measured
 *   (engines: the round's, in the order of `sides`; null if they could not start and `failed` goes on)
 * @param {(unit: U, engines: E[], at: { r: number, j: number }) => Promise<void>} o.measure
 * @param {(unit: U, err: unknown) => void} [o.failed] an engine failed while measuring `unit`
 *   (or starting): the unit's result, and the run goes on with new engines; without it the
 *   run fails with `err`, every engine killed
 * @param {(engine: E) => Promise<void>} [o.retire] before an engine stops (the suite asks it for its setups)
 * @param {(r: number) => boolean} [o.stop] checked before each unit: stop the run (interrupted, past a deadline)
 * @param {(r: number) => number} [o.later] the case-rounds planned after round r, for the ETA
 * @param {(p: import('../../lib/progress.js').Progress) => void} [o.onProgress] before each unit, and once at the end
 * @returns {Promise<{ seconds: number[], engines: number }>} each round's wall time; the engines started
 */
export async function runRounds(sides, o) {
  let engines = /** @type {E[] | null} */ (null);
  let started = 0;
  let done = 0;
  const seconds = /** @type {number[]} */ ([]);
  const start = async (/** @type {number} */ r) => {
    const es = /** @type {E[]} */ ([]);
    engines = es; // those started before one fails are killed with the rest
    for (const i of sideOrder([...sides.keys()], r, 0)) {
      es[i] = await sides[i].start();
      started++;
    }
    return es;
  };
  const kill = () => {
    for (const e of engines ?? []) e?.kill();
    engines = null;
  };
  const retire = async () => {
    const es = engines ?? [];
    engines = null;
    await Promise.all(es.map(async (e) => (await o.retire?.(e), e.stop())));
  };
  try {
    rounds: for (let r = 0; o.more(r); r++) {
      const t0 = Date.now();
      const units = o.units(r, await start(r).catch((err) => (o.failed ? (kill(), null) : Promise.reject(err))));
      let left = units.reduce((n, u) => n + (u.size ?? 1), 0);
      for (let j = 0; j < units.length; j++) {
        const u = units[j];
        await new Promise((res) => setImmediate(res)); // lets a pending SIGINT/SIGTERM be seen
        if (o.stop?.(r)) break rounds;
        o.onProgress?.({ done, total: done + left + (o.later?.(r) ?? 0), current: u.current, extra: u.extra });
        try {
          await o.measure(u, engines ?? (await start(r)), { r, j });
        } catch (err) {
          kill();
          if (!o.failed) throw err;
          await new Promise((res) => setTimeout(res, 100)); // a Ctrl-C reaches the engines and this process alike
          if (o.stop?.(r)) break rounds;
          o.failed(u, err);
        }
        done += u.size ?? 1;
        left -= u.size ?? 1;
      }
      await retire();
      seconds.push((Date.now() - t0) / 1000);
    }
    o.onProgress?.({ done, total: done, current: null });
  } catch (err) {
    kill();
    throw err;
  } finally {
    await retire();
  }
  return { seconds, engines: started };
}
