// What a run's figures say, computed from its cases' rounds when the document is written:
// - the machine's movement per operation (lib/stats/levels.js), the between-run part of every
//   interval;
// - each timed case's 95% interval (lib/stats/interval.js) and its modes, if its rounds fall into
//   separated groups (lib/stats/modes.js);
// - the comparisons of bench/tables/comparisons.js, paired by block (lib/stats/comparison.js),
//   with the A/A self-check among them.
// A quick run has one round per case: no interval, no comparison.
import { COMPARISONS, membersOf } from '../tables/comparisons.js';
import { OPS } from '../tables/ops.js';
import { caseKey, setupKey } from '../tables/suite.js';
import { pairedChange } from '../../lib/stats/comparison.js';
import { intervalOf } from '../../lib/stats/interval.js';
import { machineLevels } from '../../lib/stats/levels.js';
import { sig } from '../../lib/format.js';

/** Used as the between-run term where the machine's movement could not be measured (fewer than 3 blocks). */
const UNMEASURED = 0;

/**
 * @param {any[]} cases the run's cases; timed ones have stats.rounds and stats.slots
 * @returns {{ cases: any[], machine: Record<string, number>, comparisons: any[], selfCheck: any }}
 */
export function analyseRun(cases) {
  const timed = cases.filter((c) => c.status === 'ok' && c.stats?.slots);
  const levels = machineLevels(timed.map((c) => ({ op: c.op, rounds: c.stats.rounds, slots: c.stats.slots })));
  /** @type {Record<string, number>} */
  const machine = Object.fromEntries(Object.entries(levels).filter(([, l]) => Number.isFinite(l.sd)).map(([op, l]) => [op, sig(l.sd)]));
  const withIntervals = cases.map((c) => {
    if (!timed.includes(c)) return c;
    const i = intervalOf(c.stats.rounds, machine[c.op] ?? UNMEASURED);
    if (!i) return c;
    const opsPerSec = { ...c.stats.opsPerSec, low: sig(i.low), high: sig(i.high) };
    const modes = i.modes?.map((m) => ({ rate: sig(m.rate), share: sig(m.share), rounds: m.rounds }));
    return { ...c, stats: { ...c.stats, opsPerSec, ...(modes ? { modes } : {}) } };
  });
  const comparisons = compareAll(withIntervals);
  const selfCheck = selfCheckOf(comparisons);
  return { cases: withIntervals, machine, comparisons, selfCheck };
}

/**
 * Every comparison of the table, on every timed operation, where both cases have paired rounds.
 * @param {any[]} cases
 */
function compareAll(cases) {
  const byKey = new Map(cases.map((c) => [caseKey(c), c]));
  const setups = [...new Map(cases.map((c) => [setupKey(c), { config: c.config, driver: c.driver, cipher: c.cipher }])).values()];
  const rounds = (/** @type {any} */ c) => (c?.status === 'ok' && c.stats?.slots ? c.stats.rounds.map((/** @type {number} */ x, /** @type {number} */ i) => ({ slot: c.stats.slots[i], opsPerSec: x })) : null);
  const out = [];
  for (const cmp of COMPARISONS) {
    for (const member of membersOf(cmp, setups)) {
      for (const op of OPS.filter((o) => o.kind === 'timed')) {
        const [a, b] = [rounds(byKey.get(caseKey({ ...cmp.reference, op: op.name }))), rounds(byKey.get(caseKey({ ...member, op: op.name })))];
        const change = a && b ? pairedChange(a, b) : null;
        if (!change) continue;
        out.push({ id: cmp.id, reference: setupKey(cmp.reference), member: setupKey(member), op: op.name, pairs: change.pairs, change: sig(change.change), low: sig(change.low), high: sig(change.high), p: sig(change.p), verdict: change.verdict });
      }
    }
  }
  return out;
}

/**
 * How many of k comparisons of identical things may show a difference by chance, each at the 95%
 * level, before that is itself unlikely (below 5%): the smallest m with P(Binomial(k, 0.05) > m) ≤ 5%.
 * 1 operation: 0; 8 operations: 2.
 * @param {number} k
 */
export function allowedByChance(k) {
  let below = 0;
  for (let m = 0; m <= k; m++) {
    below += binomial(k, m) * 0.05 ** m * 0.95 ** (k - m);
    if (1 - below <= 0.05 + 1e-12) return m;
  }
  return k;
}

const binomial = (/** @type {number} */ n, /** @type {number} */ m) => { let r = 1; for (let i = 1; i <= m; i++) r = (r * (n - m + i)) / i; return r; };

/**
 * The A/A self-check: identical configs measured as two cases must not differ. It fails when
 * more of its operations show a difference than chance allows (allowedByChance).
 * @param {any[]} comparisons
 */
function selfCheckOf(comparisons) {
  const aa = comparisons.filter((c) => c.id === 'self-check');
  if (!aa.length) return null;
  const flagged = aa.filter((c) => c.verdict !== 'within noise').map((c) => c.op);
  return { operations: aa.length, flagged, passed: flagged.length <= allowedByChance(aa.length) };
}
