// What a run's figures say, computed from its cases' rounds when the document is written:
// - the machine's movement per operation (lib/stats/levels.js), the between-run part of every
//   interval;
// - each timed case's 95% interval (lib/stats/interval.js) and its modes, if its rounds fall into
//   separated groups (lib/stats/modes.js);
// - the pairs of the plan (bench/data/run-plan.js), each judged once, paired by block (lib/judge.js
//   judgeRounds): the comparisons, with the A/A self-check and the claims' pairs among them;
// - the claims of bench/data/production-claims.js: each check of a claim names its judged pair among
//   the comparisons and adds its own verdict (bench/claims/verdict.js) on that pair's interval from
//   MIN_PAIRS pairs (bench/data/production-claims.js), else "too noisy to tell", or "not compared",
//   with the reason.
// A quick run has one round per case: no interval, no comparison.
import { CLAIMS, MIN_PAIRS, judgedPair } from '../data/production-claims.js';
import { runPlan } from '../data/run-plan.js';
import { verdictOf } from '../claims/verdict.js';
import { caseKey, setupKey } from '../data/suite.js';
import { journalPair } from '../data/workloads.js';
import { judgeRounds, roundsOf, storedJudgement } from '../../lib/judge.js';
import { intervalOf } from '../../lib/stats/interval.js';
import { machineLevels } from '../../lib/stats/levels.js';
import { sig } from '../../lib/format.js';
import { VERDICTS } from '../../lib/verdicts.js';

/** Used as the between-run term where the machine's movement could not be measured (fewer than 3 blocks). */
const UNMEASURED = 0;

/**
 * @param {any[]} cases the run's cases; timed ones have stats.rounds and stats.slots
 * @returns {{ cases: any[], machine: Record<string, number>, machineFast: Record<string, number>, comparisons: any[], selfCheck: any, claims: any[] }}
 */
export function analyseRun(cases) {
  const timed = cases.filter((c) => c.status === 'ok' && c.stats?.slots);
  /** Per operation, % (lib/stats/levels.js): how much one block's level moved, for one figure of the rounds. */
  const movement = (/** @type {(c: any) => number[] | undefined} */ figures) =>
    Object.fromEntries(
      Object.entries(
        machineLevels(
          timed.flatMap((c) => {
            const rounds = figures(c);
            return rounds ? [{ op: c.op, rounds, slots: c.stats.slots }] : [];
          }),
        ),
      )
        .filter(([, l]) => Number.isFinite(l.sd))
        .map(([op, l]) => [op, sig(l.sd)]),
    );
  /** @type {Record<string, number>} */
  const machine = movement((c) => c.stats.rounds);
  // the fastest typical figure (bench/engine/slices.js) moves between blocks by its own amount
  /** @type {Record<string, number>} */
  const machineFast = movement((c) => c.stats.fast?.rounds);
  const withIntervals = cases.map((c) => {
    if (!timed.includes(c)) return c;
    // the movement of one block is the between-run part: the standard error of the run's level
    // (× √2) covered 91–94% under interference but 75–81% on a quiet machine whose whole runs
    // shifted (docs/checking.md), so it is not used
    const i = intervalOf(c.stats.rounds, machine[c.op] ?? UNMEASURED);
    if (!i) return c;
    const opsPerSec = { ...c.stats.opsPerSec, low: sig(i.low), high: sig(i.high) };
    const modes = i.modes?.map((m) => ({ rate: sig(m.rate), share: sig(m.share), rounds: m.rounds }));
    const f = c.stats.fast && intervalOf(c.stats.fast.rounds, machineFast[c.op] ?? UNMEASURED);
    const fast = f ? { fast: { ...c.stats.fast, low: sig(f.low), high: sig(f.high) } } : {};
    return { ...c, stats: { ...c.stats, opsPerSec, ...fast, ...(modes ? { modes } : {}) } };
  });
  const byKey = new Map(withIntervals.map((c) => [caseKey(c), c]));
  const comparisons = compareAll(byKey);
  const selfCheck = selfCheckOf(comparisons);
  const claims = claimsOf(byKey, comparisons);
  return { cases: withIntervals, machine, machineFast, comparisons, selfCheck, claims };
}

/** The pairs of the whole suite (bench/data/run-plan.js): a run's are those both of whose cases it has. */
const PAIRS = runPlan().pairs;

/**
 * Every pair of the plan the run has both cases of, judged once (a claim's pair that a comparison
 * has is that comparison's), where their rounds pair up (paired by block; too few pairs: none).
 */
function compareAll(/** @type {Map<string, any>} */ byKey) {
  const seen = new Set();
  return PAIRS.flatMap((p) => {
    const [reference, member] = [setupKey(p.reference), setupKey(p.member)];
    const key = `${p.comparison}|${reference}|${member}|${p.member.op}`;
    const [a, b] = [roundsOf(byKey.get(caseKey(p.reference))), roundsOf(byKey.get(caseKey(p.member)), reference)];
    const change = !seen.has(key) && a && b && judgeRounds(a, b);
    seen.add(key);
    return change ? [{ id: p.comparison, reference, member, op: p.member.op, ...storedJudgement(change) }] : [];
  });
}

/** The self-check fails when its operations' combined p-value is below this. */
const SELF_CHECK_ALPHA = 0.05;

/**
 * Fisher's combination of independent p-values: P(χ² with 2k degrees of freedom > −2 Σ ln p),
 * in closed form for an even number of degrees of freedom. Uniform p-values (calibrated
 * intervals) give a uniform result; intervals too narrow give small p-values on every operation,
 * which this sums where a count of intervals excluding 0 waits for several to cross 95%.
 * @param {number[]} ps
 */
export function combinedP(ps) {
  const half = -ps.reduce((a, p) => a + Math.log(Math.max(p, 1e-300)), 0);
  let term = 1;
  let sum = 1;
  for (let i = 1; i < ps.length; i++) sum += term *= half / i;
  return Math.min(1, Math.exp(-half) * sum);
}

/**
 * The A/A self-check: identical configs measured as two cases must not differ. It fails when the
 * operations' p-values combined (combinedP) fall below SELF_CHECK_ALPHA; `flagged` lists the
 * operations whose own interval excludes 0. What it catches and how often it fails by chance:
 * npm run meta:calibration (aggregate/sections/self-check.js prints it).
 * @param {any[]} comparisons
 */
function selfCheckOf(comparisons) {
  const aa = comparisons.filter((c) => c.id === 'self-check');
  if (!aa.length) return null;
  const p = combinedP(aa.map((c) => c.p));
  const flagged = aa.filter((c) => c.verdict !== VERDICTS.unclear).map((c) => c.op);
  return { operations: aa.length, flagged, p: sig(p), passed: p >= SELF_CHECK_ALPHA };
}

/**
 * A check of a claim the run does not measure, with the table's reason why.
 * @param {import('../data/production-claims.js').Check} check
 * @param {number} index
 */
const notMeasured = (check, index) => ({
  index,
  metric: check.metric,
  verdict: VERDICTS.notCompared,
  reason: String(check.notMeasured),
});

/** A claim's verdict on its judged pair's interval; "too noisy to tell" with the reason below MIN_PAIRS pairs. */
const claimVerdict = (
  /** @type {import('../claims/verdict.js').ClaimedChange} */ claim,
  /** @type {{ pairs: number, low: number, high: number }} */ j,
) =>
  j.pairs < MIN_PAIRS
    ? { verdict: VERDICTS.unclear, reason: `${j.pairs} pairs: a claim's verdict needs ${MIN_PAIRS}` }
    : { verdict: verdictOf(claim, j) };

/**
 * Every claim's checks (bench/data/production-claims.js) in a run: each measured check names its
 * judged pair, the comparison of its reference, member and op, and adds the claim's verdict on
 * that pair's interval; a check the run could not measure has the reason (the table's, a case's
 * own, or too few paired rounds). A claim is in a run when both sides of one of its checks are;
 * one none of whose checks the suite measures is listed beside them, with why.
 * @param {Map<string, any>} byKey the run's cases by caseKey
 * @param {any[]} comparisons the run's (compareAll)
 */
function claimsOf(byKey, comparisons) {
  const why = (/** @type {import('../data/run-plan.js').Pair} */ p) => {
    const s = [p.reference, p.member].find((x) => byKey.get(caseKey(x))?.status !== 'ok');
    const c = s && byKey.get(caseKey(s));
    if (!s) return 'fewer than 3 rounds measured in the same blocks (a quick run has one round per case)';
    return (c ? `${caseKey(s)} ${c.status}: ${c.reason}` : `${caseKey(s)} is not in this run`).slice(0, 400);
  };
  const mine = (/** @type {{ id: string }} */ e) => PAIRS.filter((p) => p.claim?.id === e.id);
  const inRun = CLAIMS.filter((e) =>
    mine(e).some((p) => byKey.has(caseKey(p.reference)) && byKey.has(caseKey(p.member))),
  );
  if (!inRun.length) return [];
  return CLAIMS.filter((e) => inRun.includes(e) || !mine(e).length).map((e) => ({
    id: e.id,
    checks: e.checks.map((check, index) => {
      const p = mine(e).find((x) => x.claim?.check === index);
      if (!p) return notMeasured(check, index);
      const claim = /** @type {import('../claims/verdict.js').ClaimedChange} */ (check.claim);
      const [reference, member, op] = [setupKey(p.reference), setupKey(p.member), p.member.op];
      const named = { index, metric: check.metric, reference, member, op, claim };
      const judged = judgedPair({ comparisons }, named);
      return {
        ...named,
        ...(judged ? claimVerdict(claim, judged) : { verdict: VERDICTS.notCompared, reason: why(p) }),
      };
    }),
  }));
}

/**
 * The run's one list of judged pairs and its claims: the suite's pairs (analyseRun), then the
 * workloads' WAL against DELETE (bench/workloads/workload-figures.js, id JOURNAL: their reference
 * and member workloads, their op the figure), each judged on its own as it was; the workloads
 * without them; the claims with the checks a workload measures (bench/data/production-claims.js
 * `workload`), each naming its judged pair as a suite check does and adding the claim's verdict
 * on its interval where the run has it (a claim with such a check joins the claims then).
 * @template {{ comparisons?: any[] }} W
 * @param {{ comparisons: any[], claims: any[] }} suite analyseRun's
 * @param {W | null | undefined} workloads the run's, as bench/workloads/ measured them
 */
export function withWorkloadPairs(suite, workloads) {
  const { comparisons: journal = [], ...rest } = /** @type {W} */ (workloads ?? {});
  const comparisons = [...suite.comparisons, ...journal];
  const out = suite.claims.map((e) => ({ ...e, checks: [...e.checks] }));
  for (const e of CLAIMS)
    e.checks.forEach((check, index) => {
      if (!check.workload || !check.claim) return;
      const pair = { ...journalPair(check.workload.pair), op: check.workload.figure };
      const named = { index, metric: check.metric, ...pair, claim: check.claim };
      const c = judgedPair({ comparisons }, named);
      if (!c) return;
      let row = out.find((x) => x.id === e.id);
      if (!row) out.push((row = { id: e.id, checks: e.checks.map(notMeasured) }));
      row.checks[index] = { ...named, ...claimVerdict(check.claim, c) };
    });
  out.sort((a, b) => CLAIMS.findIndex((e) => e.id === a.id) - CLAIMS.findIndex((e) => e.id === b.id));
  return { comparisons, claims: out, ...(workloads ? { workloads: rest } : {}) };
}
