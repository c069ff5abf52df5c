// `npm run compare -- --calibrate`: the noise floor of this runner.
//
// Each calibration run is two compares made from one sequence of engine processes of the same
// checkout: A, B and S, where S runs with the engine's --slowdown X (every timed task's throughput
// cut by exactly X%). Per round the three run back to back, their order rotating (ABS, BSA, SAB),
// all with the round's seed. A against B is an A/A compare (nothing changed: any regression is a
// false alarm); A against S is a compare with a known X% regression in every timed case.
//
// It reports the false-alarm rate, the detection rate of X, and from the A/A noise of each case
// (standard deviation of one pair's log ratio) the smallest slowdown the compare detects 95% of
// the time with these rounds, and the rounds it would need for 10% and for the goal (5% on
// I/O-bound operations, 3% on CPU-bound ones). A regression in one case alone must clear Holm's
// first step, α / N: the figures use that (Bonferroni) level, the worst case.
import path from 'node:path';
import { table as markdownTable } from '../../lib/markdown.js';
import { writeFileAtomic } from '../../lib/files.js';
import { percent } from '../../lib/format.js';
import { median } from '../../lib/stats/spread.js';
import { OPS } from '../data/ops.js';
import { analyse, collect } from './case-verdicts.js';
import { detectable, pairsNeeded } from '../../lib/stats/paired.js';
import { interleave } from './interleave.js';

const GOAL = { io: 0.05, cpu: 0.03 };

/** @type {(keyof import('./case-verdicts.js').Row)[]} what calibrate.json keeps of a row: what the summary reads */
const KEPT = ['key', 'op', 'change', 'p', 'pAdjusted', 'significant', 'low', 'high', 'sd', 'verdict'];
const compact = (/** @type {import('./case-verdicts.js').Row} */ r) => Object.fromEntries(KEPT.map((k) => [k, r[k]]));

/**
 * What a calibration is asked for (the compare's and the shootout's flags).
 * @typedef {object} CalibrationFlags
 * @property {number} runs calibration runs
 * @property {number} rounds rounds per run
 * @property {number} slowdown % of throughput the slowed side loses
 * @property {number} threshold smallest change that counts, as a fraction
 * @property {number} alpha
 * @property {number} [family] how many cases Holm's family holds
 * @property {string[]} engine engine flags
 * @property {number} seed
 * @property {string} out folder of calibrate.json
 * @property {(key: string) => boolean} [only] the cases to measure among those the servers list (the shootout's scope; default all)
 */

export async function calibrate(
  /** @type {CalibrationFlags} */ f,
  /** @type {(labels: string[]) => { sides: import('./interleave.js').Side[], cleanup: () => void }} */ prepare,
  /** @type {(line: string) => void} */ log,
) {
  const { sides, cleanup } = prepare(['base']);
  const [A] = sides;
  const file = path.join(f.out, 'calibrate.json');
  const t0 = Date.now();
  const runs = /** @type {any[]} */ ([]);
  let environment = /** @type {any} */ (null);
  const state = () => ({
    kind: 'sqlite-node-bench/calibration',
    version: 1,
    checkout: { given: A.given, commit: A.commit },
    runs: f.runs,
    rounds: f.rounds,
    slowdown: f.slowdown / 100,
    threshold: f.threshold,
    alpha: f.alpha,
    family: f.family,
    engine: f.engine,
    environment,
    seconds: (Date.now() - t0) / 1000,
    done: runs,
  });
  try {
    for (let r = 0; r < f.runs; r++) {
      const args = [...f.engine, '--seed', String(f.seed + r)];
      const res = await interleave(
        [
          { side: { ...A, label: 'A' }, args },
          { side: { ...A, label: 'B' }, args },
          { side: { ...A, label: 'S' }, args: [...args, '--slowdown', String(f.slowdown)] },
        ],
        { rounds: f.rounds, seed: f.seed + r, only: f.only },
      );
      environment ??= res.ready.A.environment;
      const opts = { threshold: f.threshold, alpha: f.alpha };
      const aa = analyse(collect(res.rounds.map((x) => ({ base: x.A, head: x.B }))), opts);
      const det = analyse(collect(res.rounds.map((x) => ({ base: x.A, head: x.S }))), opts);
      runs.push({ aa: aa.map(compact), slowed: det.map(compact) });
      writeFileAtomic(file, `${JSON.stringify(state(), null, 1)}\n`);
      const flagged = aa.filter((x) => x.verdict === 'slower').length;
      const found = det.filter((x) => x.verdict === 'slower').length;
      const timed = det.filter((x) => x.p !== null).length;
      log(
        `calibration run ${r + 1}/${f.runs}: A/A ${flagged} regression(s); ${f.slowdown}% slowdown flagged in ${found} of ${timed} timed cases; ${((Date.now() - t0) / 60000).toFixed(1)} min`,
      );
    }
  } finally {
    cleanup();
  }
  const summary = calibrationSummary(state());
  writeFileAtomic(path.join(f.out, 'calibrate.md'), summary.md);
  return summary;
}

/**
 * The calibration figures from the stored runs (also re-runnable on a calibrate.json).
 * @param {any} c a calibration state (calibrate.json)
 */
function calibrationSummary(c) {
  /** @type {any[]} */
  const runs = c.done;
  const n = runs.length;
  const timedKeys = [
    ...new Set(
      runs.flatMap((r) => r.aa.filter((/** @type {any} */ x) => x.p !== null).map((/** @type {any} */ x) => x.key)),
    ),
  ];
  const N = timedKeys.length;
  const family = Math.max(N, c.family ?? N); // the timed cases of the PR check
  const lone = c.alpha / family; // what one regression among them must clear
  const opOf = new Map(runs.flatMap((r) => r.aa.map((/** @type {any} */ x) => [x.key, x.op])));
  const boundOf = (/** @type {string} */ key) => OPS.find((o) => o.name === opOf.get(key))?.bound ?? 'cpu';

  const aaAny = runs.filter((r) => r.aa.some((/** @type {any} */ x) => x.verdict === 'slower')).length;
  const aaSig = runs.filter((r) => r.aa.some((/** @type {any} */ x) => x.significant)).length;
  const ps = runs.flatMap((r) =>
    r.aa.filter((/** @type {any} */ x) => x.p !== null).map((/** @type {any} */ x) => x.p),
  );
  const below = (/** @type {number} */ a) => ps.filter((p) => p < a).length / ps.length;
  const detAny = runs.filter((r) => r.slowed.some((/** @type {any} */ x) => x.verdict === 'slower')).length;

  /** per case: detection rate (verdict slower), lone-detection rate, pooled A/A sd */
  const perCase = timedKeys.map((key) => {
    const det = runs.map((r) => r.slowed.find((/** @type {any} */ x) => x.key === key)).filter(Boolean);
    const aa = runs.map((r) => r.aa.find((/** @type {any} */ x) => x.key === key)).filter((x) => x && x.sd !== null);
    const sd = Math.sqrt(aa.reduce((s, x) => s + x.sd ** 2, 0) / aa.length);
    const bound = boundOf(key);
    return {
      key,
      op: opOf.get(key),
      bound,
      rate: det.filter((x) => x.verdict === 'slower').length / det.length,
      loneRate: det.filter((x) => x.p < lone && x.low <= -c.threshold && x.high < 0).length / det.length,
      sd,
      mde: detectable(sd, c.rounds, lone),
      need10: pairsNeeded(sd, 0.1, lone),
      needGoal: pairsNeeded(sd, GOAL[bound], lone),
    };
  });
  const at95 = perCase.filter((x) => x.rate >= 0.95).length;
  const lone95 = perCase.filter((x) => x.loneRate >= 0.95).length;
  const ops = OPS.filter((o) => perCase.some((x) => x.op === o.name));
  const fmtN = (/** @type {number} */ x) => (Number.isFinite(x) ? String(x) : '>1000');
  const byOp = ops.map((o) => {
    const xs = perCase.filter((x) => x.op === o.name);
    const mdes = xs.map((x) => x.mde);
    return [
      o.name,
      o.bound ?? '',
      String(xs.length),
      `${xs.filter((x) => x.rate >= 0.95).length} / ${xs.filter((x) => x.loneRate >= 0.95).length}`,
      `${percent(median(xs.map((x) => x.sd)))} (max ${percent(Math.max(...xs.map((x) => x.sd)))})`,
      `${percent(median(mdes))} (max ${percent(Math.max(...mdes))})`,
      `${fmtN(median(xs.map((x) => x.need10)))} (max ${fmtN(Math.max(...xs.map((x) => x.need10)))})`,
      `${percent(GOAL[o.bound ?? 'cpu'], 0)}: ${fmtN(median(xs.map((x) => x.needGoal)))} (max ${fmtN(Math.max(...xs.map((x) => x.needGoal)))})`,
    ];
  });
  const e = c.environment;
  const md = [
    `## Compare calibration: ${n} runs of ${c.rounds} rounds, this runner`,
    '',
    `${e ? `Node ${e.node}, ${e.platform} ${e.arch}, ${e.cpuModel} × ${e.cores}` : ''}; engine \`${c.engine.join(' ')}\`; ${N} timed cases; threshold ${percent(c.threshold, 0)}, Holm α = ${c.alpha}; ${(c.seconds / 60).toFixed(0)} min.`,
    '',
    `- **False alarms (A/A)**: ${aaAny} of ${n} compares flagged a regression; ${aaSig} of ${n} found any significant difference (any size). Uncorrected p < 0.05 in ${percent(below(0.05))} and p < 0.01 in ${percent(below(0.01))} of the ${ps.length} A/A tests (valid p-values give 5% and 1%).`,
    `- **Detection of a ${c.slowdown * 100}% slowdown** (every timed case slowed): ${detAny} of ${n} compares flagged; per case, ${at95} of ${N} cases were flagged in ≥ 95% of the compares (median rate ${percent(median(perCase.map((x) => x.rate)), 0)}). Counting a case only when it would be flagged alone (p < α/${family}): ${lone95} of ${N}.`,
    `- **Smallest slowdown detected 95% of the time** (alone, p < α/${family}, with ${c.rounds} rounds; from each case's A/A noise and the noncentral t): CPU-bound median ${percent(median(perCase.filter((x) => x.bound === 'cpu').map((x) => x.mde)))}, I/O-bound median ${percent(median(perCase.filter((x) => x.bound === 'io').map((x) => x.mde)))}; per operation below.`,
    '',
    markdownTable(
      [
        [
          'Op',
          'Bound',
          'Cases',
          `Flagged ≥95%: together / alone`,
          'Noise of one pair (sd)',
          `Smallest slowdown detected (95%, ${c.rounds} rounds)`,
          'Rounds needed for 10%',
          'Rounds needed for the goal',
        ],
        ...byOp,
      ],
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
  ].join('\n');
  return { md, aaAny, aaSig, detAny, at95, lone95, N, perCase, n };
}
