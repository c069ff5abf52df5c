// Runs the suite: every case once per round, each round in its own shuffled order and measured by
// a new engine process (bench/engine/engine.js), on templates built once for the run (see
// bench/engine/templates.js); so no case inherits another's writes and no config is always the
// cold one.
//
// A full run gives every case `rounds` rounds, then extra rounds to the cases whose headline is not
// yet precise (`medianRse` of their round medians above `targetRse`), one extra round after another,
// each in a new shuffled order (extra-rounds.js), until each is precise, has `maxRounds`, or the run reaches
// `deadlineSeconds`. Fsync-bound cases swing from round to round with the disk; CPU-bound ones
// mostly do not, so the time goes where the uncertainty is. Every case's rounds are in its result
// (`stats.rounds`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUDGET_KEYS, budgetOf } from '../engine/budgets.js';
import { startEngine } from '../engine/start.js';
import { combine } from '../engine/measure.js';
import { KEY_ENV, sessionKey, shuffledCases } from '../engine/session.js';
import { removeStamps } from '../engine/templates.js';
import { caseKey, caseOf, setupKey } from '../data/suite.js';
import { medianRse } from '../../lib/stats/spread.js';
import { sig } from '../../lib/format.js';
import { referencesIn, runPlan } from '../data/run-plan.js';
import { roundOrder, slotOf } from './order.js';
import { nextExtraRound } from './extra-rounds.js';
import { pairedLog } from '../../lib/stats/slice-figures.js';
import { slowCounter } from '../result/noise.js';

/**
 * @typedef {import('../engine/session.js').SessionOptions & {
 *   state: { interrupted: string | null },
 *   onProgress?: (p: import('../../lib/progress.js').Progress) => void,
 * }} RunOptions state: set `interrupted` to stop after the current case
 */
/**
 * @typedef {{ rounds: import('../engine/measure.js').Round[], slots: string[], verified: Record<string, number>, pragmas: object, pairs: Record<string, Record<string, number>> }} Measuring
 *   a case's rounds so far, each with its block, what its engines verified, and per reference (its
 *   setup key) the paired log figure of each block both were measured in
 */

/**
 * The session options of the run's engines (their first message, bench/engine/start.js): exactly
 * what this run measures, on the run's shared templates; of the budget only what measures a round
 * (the run keeps the rounds and the deadline). A quick run (without --keep-db, whose files a user
 * opens with the key alone) keys its templates and their copies with the ciphers' cheap key
 * derivation, as the counting pass does: the derivation runs at each copy's open, outside every
 * timed call, and enciphering a page costs the same whatever it derived the key with; with the
 * real one it was most of the time the quick suite spent opening copies (a ChaCha20 open ~30-45
 * ms, a SQLCipher one ~130-200 ms, for ~170 copies). The setup operation, whose figure is the
 * open, keeps the real derivation.
 * @param {RunOptions} o
 * @param {string} templates
 */
export function sessionOptions(o, templates) {
  const budget = Object.entries(o.budget ?? {}).filter(([k]) =>
    /** @type {readonly string[]} */ (BUDGET_KEYS).includes(k),
  );
  return {
    mode: o.mode,
    filters: o.filters,
    seed: o.seed,
    time: o.time,
    slowdown: o.slowdown,
    keepDb: o.keepDb,
    budget: budget.length ? Object.fromEntries(budget) : undefined,
    templates,
    cheapKdf: o.mode === 'quick' && !o.keepDb,
  };
}

/**
 * Run the suite. Every round, and every extra round, is measured by a new engine process
 * (bench/engine/engine.js), on the templates built once for the run: two processes of the same code can
 * differ by a steady percent or two on a case (memory layout, code placement), and measured here that offset
 * was most of the run-to-run spread of CPU-bound cases. With a process per round it becomes
 * round-to-round spread, which the median of the rounds absorbs and `stats.opsPerSec.rse` shows.
 * @param {RunOptions} o
 * @returns {Promise<{ cases: any[], setups: object[], budget: import('../engine/budgets.js').RunBudget, order: string[], engines: number, slow: ReturnType<typeof slowCounter> }>}
 *   slow: the slices in the machine's slow state, per operation (bench/result/noise.js)
 */
export async function runSuite(o) {
  const started = Date.now();
  const budget = budgetOf(o);
  const { random, list } = shuffledCases(o);
  const referencesOf = referencesIn(runPlan(o.filters).pairs);
  /** @type {Map<string, any>} final entries of cases that are not (or no longer) measured */
  const done = new Map();
  const measured = /** @type {Map<string, Measuring>} */ (new Map());
  /** @type {Map<string, object>} each setup's PRAGMA readings and proof, as its first engine found them */
  const setups = new Map();
  let total = list.length * budget.rounds;
  let step = 0;
  const deadline = started + (budget.deadlineSeconds ?? Infinity) * 1000;
  let engine = /** @type {import('../engine/start.js').Engine | null} */ (null);
  let engines = 0;
  const slow = slowCounter();
  // The templates, built and proven once for the whole run (see createSession), under one key.
  const templates = o.keepDb ? path.resolve(o.keepDb) : fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-run-'));
  fs.mkdirSync(templates, { recursive: true });
  removeStamps(templates); // --keep-db: an earlier run's
  const env = { ...process.env, [KEY_ENV]: sessionKey() };
  /** Stop the current engine, after asking it for the setups it proved. */
  const retire = async () => {
    const e = engine;
    engine = null;
    if (!e) return;
    try {
      const r = await e.request({ setups: true });
      for (const x of r.setups ?? []) {
        const id = setupKey(x);
        if (!setups.has(id)) setups.set(id, x);
      }
    } catch {
      // it died: what it proved died with it; the cases it measured say so
    } finally {
      await e.stop();
    }
  };
  /** The entry of a case whose engine failed while measuring it. */
  const failed = (/** @type {import('../data/suite.js').Case} */ c, /** @type {unknown} */ err) => ({
    ...caseOf(c),
    status: 'error',
    reason: `the engine process measuring it failed: ${/** @type {Error} */ (err).message.split('\n')[0]}`,
  });
  /**
   * One round of the cases of one block, measured together in slices by the current engine
   * (started if there is none; bench/engine/slices.js); false when interrupted. Each case's round
   * is kept with its block, and with the paired figure against each of its references measured in
   * the same block (lib/stats/slice-figures.js pairedLog).
   */
  const measureBlockOf = async (
    /** @type {import('../data/suite.js').Case[]} */ cs,
    /** @type {number} */ extraRound,
    /** @type {string} */ slot,
  ) => {
    await new Promise((r) => setImmediate(r)); // lets a pending SIGINT/SIGTERM be seen
    if (o.state.interrupted) return false;
    o.onProgress?.({
      done: step,
      total,
      current: cs[0],
      ...(extraRound ? { extra: { round: extraRound, deadline } } : {}),
    });
    /** @type {any[]} */
    let replies;
    try {
      if (!engine) {
        engine = await startEngine(sessionOptions(o, templates), { env });
        engines++;
      }
      const keys = cs.map(caseKey);
      const r = await engine.request({ block: keys, seed: Math.floor(random() * 2 ** 31) });
      if (!Array.isArray(r.block) || r.block.length !== keys.length)
        throw new Error(`answered ${JSON.stringify(r).slice(0, 120)} when asked for a block`);
      replies = r.block;
    } catch (err) {
      engine?.kill();
      engine = null;
      await new Promise((res) => setTimeout(res, 100)); // a Ctrl-C reaches the engine and this process alike
      if (o.state.interrupted) return false;
      replies = cs.map((c) => failed(c, err));
    }
    step += cs.length;
    /** @type {Map<string, number[]>} the slices of each case measured in this block */
    const slices = new Map();
    cs.forEach((c, i) => {
      const k = caseKey(c);
      const { key: _, ...entry } = replies[i];
      if (!entry.round) {
        done.set(k, entry);
        measured.delete(k);
        return;
      }
      const { slices: s, ...round } = entry.round;
      if (s) {
        slices.set(k, s);
        slow.add(c.op, s, round.fast);
      }
      /** @type {Measuring} */
      const m = measured.get(k) ?? { rounds: [], slots: [], verified: {}, pragmas: entry.pragmas, pairs: {} };
      m.rounds.push(round);
      m.slots.push(slot);
      for (const [name, n] of Object.entries(/** @type {Record<string, number>} */ (entry.verified)))
        m.verified[name] = (m.verified[name] ?? 0) + n;
      measured.set(k, m);
    });
    for (const c of cs) {
      const own = slices.get(caseKey(c));
      if (!own) continue;
      const m = /** @type {Measuring} */ (measured.get(caseKey(c)));
      for (const ref of referencesOf(c)) {
        const theirs = slices.get(caseKey(ref));
        const log = theirs && pairedLog(theirs, own);
        if (typeof log !== 'number') continue;
        const id = setupKey(ref);
        (m.pairs[id] ??= {})[slot] = log;
      }
    }
    return true;
  };
  /** The blocks of a round's order: its runs of cases of one operation, without the finished ones. */
  const blocksOf = (/** @type {import('../data/suite.js').Case[]} */ order) => {
    const blocks = /** @type {import('../data/suite.js').Case[][]} */ ([]);
    for (const c of order) {
      if (done.has(caseKey(c))) {
        step++;
        continue;
      }
      const last = blocks[blocks.length - 1];
      if (last && last[0].op === c.op) last.push(c);
      else blocks.push([c]);
    }
    return blocks;
  };
  try {
    // Rounds: every case once per round, each round in its own shuffled order of operation blocks
    // (order.js), so each case's samples are spread across the whole run, no case always follows
    // the same neighbour, and the cases a comparison pairs are measured in the same block.
    rounds: for (let round = 0; round < budget.rounds; round++) {
      for (const block of blocksOf(roundOrder(random, list))) {
        if (!(await measureBlockOf(block, 0, slotOf(`r${round}`, block[0])))) break rounds;
      }
      await retire();
    }
    // Extra rounds for the cases not yet precise, the least precise first, until the deadline.
    const maxRounds = budget.maxRounds ?? budget.rounds;
    /** A case's rse while it may get more rounds and is above the target; else null. */
    const imprecision = (/** @type {import('../data/suite.js').Case} */ c) => {
      const m = measured.get(caseKey(c));
      if (!m || m.rounds.length >= maxRounds) return null;
      const rse = medianRse(m.rounds.map((x) => x.opsPerSec));
      return rse <= (budget.targetRse ?? Infinity) ? null : Number.isNaN(rse) ? Infinity : rse;
    };
    extra: for (let n = 1; !o.state.interrupted && Date.now() < deadline; n++) {
      // the imprecise cases, least precise first, and the references they are compared with (in
      // the same block, so the extra rounds pair up too), in blocks as a round
      const chosen = nextExtraRound(
        list.flatMap((c) => {
          const rse = imprecision(c);
          return rse ? [{ c, rse }] : [];
        }),
      );
      if (!chosen.length) break;
      const keys = new Set(chosen.map(caseKey));
      for (const r of chosen.flatMap(referencesOf)) {
        const m = measured.get(caseKey(r));
        if (m && m.rounds.length < maxRounds) keys.add(caseKey(r));
      }
      const pending = roundOrder(
        random,
        list.filter((c) => keys.has(caseKey(c))),
      );
      total = step + pending.length;
      for (const block of blocksOf(pending)) {
        if (Date.now() >= deadline) break extra;
        if (!(await measureBlockOf(block, n, slotOf(`p${n}`, block[0])))) break extra;
      }
      await retire();
    }
    o.onProgress?.({ done: step, total: step, current: null });
  } finally {
    await retire();
    if (!o.keepDb) fs.rmSync(templates, { recursive: true, force: true });
  }
  // An interrupted run keeps the cases that finished at least one round (stats.rounds says how many).
  const out = list.flatMap((c) => {
    const k = caseKey(c);
    if (done.has(k)) return [done.get(k)];
    const m = measured.get(k);
    if (!m) return [];
    return [
      {
        ...caseOf(c),
        status: 'ok',
        stats: { ...rounded(combine(m.rounds)), slots: m.slots, ...pairedOf(m) },
        verified: m.verified,
        pragmas: m.pragmas,
      },
    ];
  });
  return { cases: out, setups: [...setups.values()], budget, order: list.map(caseKey), engines, slow };
}

/** The fastest typical figure rounded as stored. */
const roundedFast = (/** @type {NonNullable<import('../engine/measure.js').Stats['fast']>} */ f) => ({
  opsPerSec: sig(f.opsPerSec),
  rounds: f.rounds.map(sig),
  ...(f.rse === undefined ? {} : { rse: sig(f.rse) }),
});

/**
 * Round a case's statistics to 6 significant figures, as stored.
 * @param {import('../engine/measure.js').Stats} s
 * @returns {import('../engine/measure.js').Stats}
 */
export function rounded(s) {
  const map = (/** @type {Record<string, number>} */ o) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, sig(v)]));
  return {
    ...s,
    opsPerSec: /** @type {any} */ (map(s.opsPerSec)),
    latencyMs: /** @type {any} */ (map(s.latencyMs)),
    rme: sig(s.rme),
    rounds: s.rounds.map(sig),
    totalMs: sig(s.totalMs),
    ...(s.fast ? { fast: roundedFast(s.fast) } : {}),
  };
}

/**
 * A case's paired figures as stored: per reference, the paired log figure of each of its rounds
 * (null where the reference was not measured in that block), 6 significant digits.
 * @param {Measuring} m
 * @returns {{ paired?: Record<string, (number | null)[]> }}
 */
function pairedOf(m) {
  const refs = Object.keys(m.pairs);
  if (!refs.length) return {};
  return {
    paired: Object.fromEntries(
      refs.sort().map((ref) => [ref, m.slots.map((slot) => (slot in m.pairs[ref] ? sig(m.pairs[ref][slot]) : null))]),
    ),
  };
}
