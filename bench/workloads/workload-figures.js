// What a run's workload rounds say, as every case of the suite says it (bench/result/analysis.js):
// each figure the median of its rounds with a 95% interval (lib/stats/interval.js) whose
// between-run part is the machine's movement measured on the workloads' own rounds
// (lib/stats/levels.js); and WAL against DELETE paired by round (lib/judge.js judgeRounds). How a
// scale figure grows per 10× more messages is the pages' (aggregate/render/workload-rows.js growthOf).
import { judgeRounds, storedJudgement } from '../../lib/judge.js';
import { intervalOf } from '../../lib/stats/interval.js';
import { machineLevels } from '../../lib/stats/levels.js';
import { median } from '../../lib/stats/spread.js';
import { sig } from '../../lib/format.js';
import { JOURNAL } from '../data/workloads.js';
/** @import { Workload } from '../data/workloads.js' */

/**
 * The figures of each kind: the round value they are read from, and their unit. `rate` figures
 * are per second (more is better), the others cost (less is better).
 * @type {Record<'concurrency' | 'scale', { id: string, unit: 'per s' | 'ms' | 'bytes', of: (r: any) => number | null | undefined }[]>}
 */
const FIGURES = {
  concurrency: [
    { id: 'reads', unit: 'per s', of: (r) => r.readsPerSec },
    { id: 'readsPerReader', unit: 'per s', of: (r) => r.readsPerSec / r.readers },
    { id: 'writes', unit: 'per s', of: (r) => r.writesPerSec },
    { id: 'readP50', unit: 'ms', of: (r) => r.readP50Ms },
    { id: 'readP99', unit: 'ms', of: (r) => r.readP99Ms },
    { id: 'writeP50', unit: 'ms', of: (r) => r.writeP50Ms },
    { id: 'writeP99', unit: 'ms', of: (r) => r.writeP99Ms },
  ],
  scale: [
    ...['select', 'update', 'checkpoint', 'insert', 'delete'].map((op) => ({
      id: op,
      unit: /** @type {const} */ ('per s'),
      of: (/** @type {any} */ r) => r.rates?.[op],
    })),
    { id: 'vacuum', unit: 'ms', of: (r) => r.vacuumMs },
    { id: 'vacuumCheckpoint', unit: 'ms', of: (r) => r.checkpointMs },
    { id: 'vacuumPeakRss', unit: 'bytes', of: (r) => r.rssPeakBytes },
    { id: 'rssBeforeVacuum', unit: 'bytes', of: (r) => r.rssBeforeBytes },
  ],
};

/** Comparisons of WAL against DELETE, on these figures (rates: a paired change of a cost would read backwards). */
const PAIRED_FIGURES = ['reads', 'writes'];

/**
 * @typedef {object} Measured a workload's rounds as the run collected them
 * @property {Workload} w
 * @property {'ok' | 'skipped' | 'error'} status
 * @property {string} [reason]
 * @property {number} messages the database's size
 * @property {any[]} rounds each round's result (scale: ops and vacuum merged)
 * @property {string[]} slots each round's block
 */

/**
 * One figure: the median of its rounds, with its interval when there are 3 rounds or more, all
 * positive.
 * @param {number[]} values
 * @param {number} between
 */
function figureOf(values, between) {
  const i = values.every((x) => x > 0) ? intervalOf(values, between) : null;
  return { median: sig(median(values)), ...(i ? { low: sig(i.low), high: sig(i.high) } : {}), rounds: values.map(sig) };
}

/** A workload's rounds of one figure, those that have it, with their blocks. */
const series = (/** @type {Measured} */ m, /** @type {typeof FIGURES.scale[number]} */ f) => {
  const pairs = m.rounds
    .map((r, i) => ({ v: f.of(r), slot: m.slots[i] }))
    .filter((x) => typeof x.v === 'number' && Number.isFinite(x.v));
  return { values: pairs.map((x) => /** @type {number} */ (x.v)), slots: pairs.map((x) => x.slot) };
};

export function analyseWorkloads(/** @type {Measured[]} */ measured) {
  const ok = measured.filter((m) => m.status === 'ok' && m.rounds.length);
  const machine = /** @type {Record<string, number>} */ ({});
  for (const kind of /** @type {const} */ (['concurrency', 'scale'])) {
    for (const f of FIGURES[kind]) {
      const cases = ok
        .filter((m) => m.w.kind === kind)
        .map((m) => {
          const s = series(m, f);
          return { op: f.id, rounds: s.values, slots: s.slots };
        })
        .filter((c) => c.rounds.every((x) => x > 0));
      const sd = machineLevels(cases)[f.id]?.sd;
      if (Number.isFinite(sd)) machine[`${kind}:${f.id}`] = sig(sd);
    }
  }
  const cases = measured.map((m) => caseOf(m, machine));
  return { cases, machine, comparisons: journalComparisons(measured) };
}

function caseOf(/** @type {Measured} */ m, /** @type {Record<string, number>} */ machine) {
  const w = m.w;
  const setup =
    w.kind === 'concurrency'
      ? {
          journal: w.journal,
          readers: w.readers,
          writer: w.writer,
          driver: w.driver,
          cipher: w.cipher,
          busyTimeout: w.busy === 0 ? 0 : 'configured',
        }
      : { messages: m.messages, config: w.config, driver: w.driver, cipher: w.cipher };
  const base = { name: w.name, kind: w.kind, setup, status: m.status, ...(m.reason ? { reason: m.reason } : {}) };
  if (m.status !== 'ok' || !m.rounds.length)
    return { ...base, ...(m.status === 'ok' ? { status: 'error', reason: 'no round finished' } : {}) };
  const figures = /** @type {Record<string, any>} */ ({});
  for (const f of FIGURES[w.kind]) {
    const s = series(m, f);
    if (s.values.length) figures[f.id] = figureOf(s.values, machine[`${w.kind}:${f.id}`] ?? 0);
  }
  const verified = /** @type {Record<string, number>} */ ({});
  for (const r of m.rounds)
    for (const [k, v] of Object.entries(r.verified ?? {})) verified[k] = (verified[k] ?? 0) + Number(v);
  const last = m.rounds[m.rounds.length - 1];
  const extra =
    w.kind === 'concurrency'
      ? {
          perReader: Array.from({ length: w.readers }, (_, i) => sig(median(m.rounds.map((r) => r.perReader[i])))),
          busy: {
            reads: m.rounds.reduce((a, r) => a + r.busy.reads, 0),
            writes: m.rounds.reduce((a, r) => a + r.busy.writes, 0),
          },
        }
      : { files: last.files };
  return { ...base, rounds: m.rounds.length, slots: m.slots, figures, ...extra, verified, pragmas: last.pragmas };
}

/**
 * WAL against DELETE: each pair of rows (same shape and setup) measured back to back in each
 * round, compared paired, each on its own as the suite's pairs are. Reference DELETE, member WAL:
 * the change is what WAL buys. Each judged pair joins the suite's in the run's `comparisons`
 * (bench/result/analysis.js withWorkloadPairs), id JOURNAL, the workload figure its `op`.
 * @param {Measured[]} measured
 */
function journalComparisons(measured) {
  const out = [];
  const conc = measured.filter((m) => m.status === 'ok' && m.w.kind === 'concurrency');
  for (const wal of conc) {
    const w = /** @type {import('../data/workloads.js').ConcurrencyWorkload} */ (wal.w);
    if (w.journal !== 'WAL') continue;
    const del = conc.find((m) => m.w.kind === 'concurrency' && m.w.pair === w.pair && m.w.journal === 'DELETE');
    if (!del) continue;
    for (const id of PAIRED_FIGURES) {
      const f = /** @type {any} */ (FIGURES.concurrency.find((x) => x.id === id));
      const rounds = (/** @type {Measured} */ m) => {
        const s = series(m, f);
        return s.values.flatMap((v, i) => (v > 0 ? [{ slot: s.slots[i], opsPerSec: v }] : []));
      };
      const change = judgeRounds(rounds(del), rounds(wal));
      if (!change) continue;
      out.push({ id: JOURNAL, reference: del.w.name, member: wal.w.name, op: id, ...storedJudgement(change) });
    }
  }
  return out;
}
