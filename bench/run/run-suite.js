// Runs the suite, a run of one side, through the round loop (runner.js): every case once per round,
// each round in its own shuffled order of blocks measured by a new engine process, on templates
// built once for the run (bench/engine/templates.js); so no case inherits another's writes and no
// config is always the cold one. Then extra rounds for the cases whose headline is not yet precise
// (extra-rounds.js), until each is precise, has `maxRounds`, or the run reaches `deadlineSeconds`
// (docs/methodology.md): fsync-bound cases swing from round to round with the disk, CPU-bound ones
// mostly do not, so the time goes where the uncertainty is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUDGET_KEYS, budgetOf } from '../engine/budgets.js';
import { startEngine } from '../engine/start.js';
import { combine } from '../engine/measure.js';
import { KEY_ENV, sessionKey, shuffledCases } from '../engine/session.js';
import { removeStamps } from '../engine/templates.js';
import { caseKey, caseFields, setupKey } from '../data/suite.js';
import { medianRse } from '../../lib/stats/spread.js';
import { sig } from '../../lib/format.js';
import { referencesIn, runPlan } from '../data/run-plan.js';
import { shuffle } from '../../lib/prng.js';
import { nextExtraRound } from './extra-rounds.js';
import { runRounds } from './runner.js';
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
 * @typedef {import('./runner.js').Unit & { cases: import('../data/suite.js').Case[], slot: string, size: number }} Block
 *   a round's cases of one operation, measured together by one engine in slices
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
 * Run the suite, every round by a new engine process: a steady offset of one process (memory
 * layout, code placement) becomes round-to-round spread, which the median of the rounds absorbs.
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
  const deadline = started + (budget.deadlineSeconds ?? Infinity) * 1000;
  const maxRounds = budget.maxRounds ?? budget.rounds;
  const slow = slowCounter();
  // The templates, built and proven once for the whole run (see createSession), under one key.
  const templates = o.keepDb ? path.resolve(o.keepDb) : fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-run-'));
  fs.mkdirSync(templates, { recursive: true });
  removeStamps(templates); // --keep-db: an earlier run's
  const env = { ...process.env, [KEY_ENV]: sessionKey() };
  /**
   * The cases of round r, before its order: every case in each of the `budget.rounds` rounds (less
   * those finished: skipped, failed); then, until the deadline, in each extra round the cases above
   * the target rse that may get more rounds, least precise first (extra-rounds.js), and the references
   * they are compared with (in the same block, so the extra rounds pair up too).
   */
  const casesOf = (/** @type {number} */ r) => {
    if (r < budget.rounds) return list;
    if (o.state.interrupted || Date.now() >= deadline) return [];
    const left = (/** @type {Measuring | undefined} */ m) => m && m.rounds.length < maxRounds;
    const chosen = nextExtraRound(
      list.flatMap((c) => {
        const m = measured.get(caseKey(c));
        if (!left(m)) return [];
        const rse = medianRse(/** @type {Measuring} */ (m).rounds.map((x) => x.opsPerSec));
        return rse <= (budget.targetRse ?? Infinity) ? [] : [{ c, rse: Number.isNaN(rse) ? Infinity : rse }];
      }),
    );
    const keys = new Set(chosen.map(caseKey));
    for (const ref of chosen.flatMap(referencesOf)) if (left(measured.get(caseKey(ref)))) keys.add(caseKey(ref));
    return list.filter((c) => keys.has(caseKey(c)));
  };
  let next = /** @type {import('../data/suite.js').Case[]} */ ([]);
  /**
   * Keep one block's replies: each case's round with its block, and with the paired figure against
   * each of its references measured in the same block (lib/stats/slice-figures.js pairedLog).
   */
  const keep = (/** @type {Block} */ b, /** @type {any[]} */ replies) => {
    /** @type {Map<string, number[]>} the slices of each case measured in this block */
    const slices = new Map();
    b.cases.forEach((c, i) => {
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
      m.slots.push(b.slot);
      for (const [name, n] of Object.entries(/** @type {Record<string, number>} */ (entry.verified)))
        m.verified[name] = (m.verified[name] ?? 0) + n;
      measured.set(k, m);
    });
    for (const c of b.cases) {
      const own = slices.get(caseKey(c));
      if (!own) continue;
      const m = /** @type {Measuring} */ (measured.get(caseKey(c)));
      for (const ref of referencesOf(c)) {
        const theirs = slices.get(caseKey(ref));
        const log = theirs && pairedLog(theirs, own);
        if (typeof log !== 'number') continue;
        const id = setupKey(ref);
        (m.pairs[id] ??= {})[b.slot] = log;
      }
    }
  };
  let engines = 0;
  try {
    ({ engines } = await runRounds([{ start: () => startEngine(sessionOptions(o, templates), { env }) }], {
      more: (r) => (next = casesOf(r)).some((c) => !done.has(caseKey(c))),
      units: (r) => {
        const n = r - budget.rounds + 1; // its extra round, if > 0
        return blocksOf(random, next)
          .map((cs) => cs.filter((c) => !done.has(caseKey(c)))) // skipped, or failed
          .filter((cs) => cs.length)
          .map((cs) => ({
            cases: cs,
            size: cs.length,
            current: cs[0],
            slot: `${n > 0 ? `p${n}` : `r${r}`}/${cs[0].op}`,
            ...(n > 0 ? { extra: { round: n, deadline } } : {}),
          }));
      },
      measure: async (b, [engine]) => {
        const keys = b.cases.map(caseKey);
        const r = await engine.request({ block: keys, seed: Math.floor(random() * 2 ** 31) });
        if (!Array.isArray(r.block) || r.block.length !== keys.length)
          throw new Error(`answered ${JSON.stringify(r).slice(0, 120)} when asked for a block`);
        keep(b, r.block);
      },
      // the block's cases are errors, and the run goes on in a new engine
      failed: (b, err) => {
        const reason = `the engine process measuring it failed: ${/** @type {Error} */ (err).message.split('\n')[0]}`;
        keep(
          b,
          b.cases.map((c) => ({ ...caseFields(c), status: 'error', reason })),
        );
      },
      // what an engine proved, asked before it stops; one that died took it with it (its cases say so)
      retire: async (e) => {
        const r = await e.request({ setups: true }).catch(() => ({}));
        for (const x of r.setups ?? []) if (!setups.has(setupKey(x))) setups.set(setupKey(x), x);
      },
      stop: (r) => Boolean(o.state.interrupted) || (r >= budget.rounds && Date.now() >= deadline),
      later: (r) => Math.max(0, budget.rounds - 1 - r) * (list.length - done.size),
      onProgress: o.onProgress,
    }));
  } finally {
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
        ...caseFields(c),
        status: 'ok',
        stats: { ...rounded(combine(m.rounds)), slots: m.slots, ...pairedOf(m) },
        verified: m.verified,
        pragmas: m.pragmas,
      },
    ];
  });
  return { cases: out, setups: [...setups.values()], budget, order: list.map(caseKey), engines, slow };
}

/**
 * A round's blocks: its operations in a shuffled order, and each operation's cases in a shuffled
 * order. Every pair a run compares is of cases of the same operation (bench/data/run-plan.js), so
 * its two sides are measured in the same block, seconds apart, by the same engine process, and a
 * drift of the machine over minutes falls on both. A case's round is tagged with its block (`slot`:
 * the round, `r0` or extra `p1`, and the operation), by which the comparisons pair rounds.
 * @param {() => number} random
 * @param {import('../data/suite.js').Case[]} cases
 */
function blocksOf(random, cases) {
  const blocks = /** @type {Map<string, import('../data/suite.js').Case[]>} */ (new Map());
  for (const c of cases) blocks.set(c.op, [...(blocks.get(c.op) ?? []), c]);
  return shuffle(random, [...blocks.keys()]).map((op) => shuffle(random, blocks.get(op) ?? []));
}

/** Every number of a value to 6 significant figures; anything else (null, undefined) as it is. @returns {any} */
const sigAll = (/** @type {any} */ v) =>
  typeof v === 'number'
    ? sig(v)
    : Array.isArray(v)
      ? v.map(sigAll)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sigAll(x)]))
        : v;

/**
 * Round a case's statistics to 6 significant figures, as stored: every figure, not the counts of
 * samples.
 * @param {import('../engine/measure.js').Stats} s
 * @returns {import('../engine/measure.js').Stats}
 */
export const rounded = (s) =>
  /** @type {any} */ (
    Object.fromEntries(Object.entries(s).map(([k, v]) => [k, k === 'samples' || k === 'opsPerSample' ? v : sigAll(v)]))
  );

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
