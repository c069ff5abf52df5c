#!/usr/bin/env node
// npm run meta:calibration: the calibration registry (issue 38), a row per kind of claim the project
// prints: the claim and where, how it is measured, the measured rate with its own 95% interval, the
// target, pass or fail (docs/checking.md says what each row simulates or quotes). Seeded: the same
// seed, the same table. Writes calibration-<time>.md and .json to --out, never over another file.
import path from 'node:path';
import { SETTINGS, changePointsOf } from '../../lib/changepoints.js';
import { createRandom, normal } from '../../lib/prng.js';
import { checkedDir, writeNewPair } from '../../lib/files.js';
import { command, numberFlag, parseStrict, printMarkdown, switchFlag, valueFlag } from '../../lib/command.js';
import { table } from '../../lib/markdown.js';
import { BAND_CHANCE, BAND_SD, bandOf } from '../../aggregate/sections/history.js';
import { NEAR, WINDOW, outlier, seriesYear, slidingFalse } from './changepoints-year.js';
import { FAMILIES, falseAnswers } from './false-answers.js';
import { runClaimRows, wilsonRate } from './run-claims.js';
import { percent } from '../../lib/format.js';
import { falseDifferences, layoutRuns } from './layout-counts.js';
import { countRuleData, countRuleVerdict } from './count-rule.js';
import { Z, wilson } from '../../lib/stats/interval.js';

/** Below this many change points found, a row b cannot tell coverage from chance: it says so. */
const FEW = 30;
/**
 * A step found in under this share of its windows is found by the noise more than by itself: what
 * was measured of it is printed beside the change points (history.js CHANGE_COVERAGE), not held to
 * the target.
 */
const RARE = 0.01;

/**
 * A 95% interval of a Poisson count k (Byar's approximation; exact to a few % from k = 1).
 * @param {number} k
 * @returns {[number, number]}
 */
export function poisson(k) {
  const low = k ? k * (1 - 1 / (9 * k) - Z / (3 * Math.sqrt(k))) ** 3 : 0;
  const k1 = k + 1;
  return [low, k1 * (1 - 1 / (9 * k1) + Z / (3 * Math.sqrt(k1))) ** 3];
}

/**
 * How often printed intervals hold the truth, and how large the printed sizes are against it.
 * @param {{ size: number, low: number, high: number, truth: number }[]} claims
 */
export function coverageOf(claims) {
  const inside = claims.filter((c) => c.low <= c.truth && c.truth <= c.high).length;
  const ratios = claims.map((c) => c.size / c.truth);
  const mean = ratios.reduce((a, r) => a + r, 0) / (ratios.length || 1);
  const sd = Math.sqrt(ratios.reduce((a, r) => a + (r - mean) ** 2, 0) / Math.max(1, ratios.length - 1));
  const h = (Z * sd) / Math.sqrt(ratios.length || 1);
  return { n: claims.length, inside, interval: wilson(inside, claims.length), ratio: [mean, mean - h, mean + h] };
}

/**
 * The band's flags over a window of nights: per operation and night, and nights with any flag.
 * @param {number[][]} byOp each operation's figures, night by night (the same nights)
 * @param {(xs: number[]) => [number, number] | null} band
 */
export function flagsOf(byOp, band) {
  const flagged = byOp.map((xs) => {
    const b = band(xs);
    return xs.map((x) => Boolean(b && (x < b[0] || x > b[1])));
  });
  const nights = byOp[0].length;
  return {
    opNights: byOp.length * nights,
    flags: flagged.flat().filter(Boolean).length,
    nights,
    nightsFlagged: Array.from({ length: nights }, (_, i) => flagged.some((f) => f[i])).filter(Boolean).length,
    perOp: flagged.map((f) => f.filter(Boolean).length),
  };
}

const interval = (/** @type {number} */ k, /** @type {number} */ n) => `${wilsonRate(k, n)} (${k} of ${n})`;

/** Row a's noise: shared by a night's operations (an outlier VM and its speed, sd 2%) or each its own. */
const BAND_SCENARIOS = [
  { name: 'independent nights and operations', shared: false, phi: 0 },
  { name: 'a VM shared by the night’s operations', shared: true, phi: 0 },
  { name: 'shared VM, nights correlated φ = 0.5', shared: true, phi: 0.5 },
];

/**
 * Row a: the history band's flags by chance, 13 weeks of nights of the 8 timed operations (select
 * with two modes), per scenario.
 * @param {number} windows
 * @param {number} seed
 */
function bandRows(windows, seed) {
  const ops = ['wall', 'wall', 'wall', 'wall', 'wall, bimodal', 'wall', 'wall', 'wall'];
  return BAND_SCENARIOS.map((sc, si) => {
    const t = { opNights: 0, flags: 0, nights: 0, nightsFlagged: 0, select: 0 };
    for (let w = 0; w < windows; w++) {
      const random = createRandom(seed * 7717 + si * 1e6 + w);
      const vm = sc.shared
        ? Array.from({ length: WINDOW }, () => outlier(random) * Math.exp(0.02 * normal(random)))
        : undefined;
      const [at, noise] = [seed * 104_729 + si * 1e7 + w * 16, { nights: WINDOW, phi: sc.phi, vm }];
      const byOp = ops.map((k, i) => seriesYear(/** @type {any} */ (k), 0, at + i, noise).values);
      const f = flagsOf(byOp, bandOf);
      for (const k of /** @type {const} */ (['opNights', 'flags', 'nights', 'nightsFlagged'])) t[k] += f[k];
      t.select += f.perOp[4];
    }
    const op = t.flags / t.opNights;
    const within = (/** @type {number} */ x, /** @type {number} */ printed) => x <= 1.5 * printed && x >= printed / 1.5;
    return {
      id: `a${si + 1}`,
      claim: `the band (median ± ${BAND_SD} robust sd): "${BAND_CHANCE.text}"`,
      where:
        'README and results/README.md, Nightly history (aggregate/sections/history.js); docs/pipeline.md "Nightly history"',
      how: `${windows} windows of ${WINDOW} nights × 8 operations (select with two modes), ${sc.name}; wall-time noise of meta:changepoints`,
      measured: `per operation-night ${interval(t.flags, t.opNights)}; nights with a red dot ${interval(t.nightsFlagged, t.nights)}; select's nights ${interval(t.select, windows * WINDOW)}`,
      target: `per operation within ×1.5 of the ${percent(BAND_CHANCE.op, 0)} printed; select (two modes) no more than ×1.5`,
      pass: within(op, BAND_CHANCE.op) && t.select / (windows * WINDOW) <= 1.5 * BAND_CHANCE.op,
    };
  });
}

/**
 * The change-point scenarios: the measure, the kinds of series, step sizes and noise measured
 * together, the scenario's name (and a shorter one for row c).
 * @type {{ measure: 'count' | 'wall', kinds: string[], sizes: number[], noise: import('./changepoints-year.js').Noise, name: string, short?: string }[]}
 */
const CP_SCENARIOS = /** @type {any[][]} */ ([
  [
    'count',
    ['instructions', 'fsync', 'writes', 'bytesWritten'],
    [0.01, 0.03],
    {},
    'counts (instructions, fsyncs, writes, bytes), independent nights',
    'counts, independent nights',
  ],
  ['count', ['instructions'], [0.03], { twoState: 0.2 }, 'instructions, ±1% in a fifth of the nights (Node 24)'],
  ['wall', ['wall', 'wall, bimodal'], [0.03, 0.1], {}, 'wall time (one mode, two modes), independent nights'],
  ['wall', ['wall', 'wall, bimodal'], [0.03, 0.1], { phi: 0.5 }, 'wall time, nights correlated φ = 0.5'],
]).map(([measure, kinds, sizes, noise, name, short]) => ({ measure, kinds, sizes, noise, name, short }));

/**
 * Row b: each change point as the history prints it, its size and 95% interval against the step
 * it found: one window of 13 weeks per step, the step at a random night of it (wall-time steps of a
 * few %, rarely found, in 16 times as many windows).
 * @param {number} perCell series per kind and size
 * @param {number} seed
 */
function sizeRows(perCell, seed, want = (/** @type {string} */ _id) => true) {
  const cells = CP_SCENARIOS.flatMap((sc, si) => sc.sizes.map((size) => ({ sc, si, size })));
  return cells.flatMap(({ sc, si, size }, i) => {
    if (!want(`b${i + 1}`)) return [];
    /** @type {{ size: number, measured: number, low: number, high: number, truth: number }[]} */
    const claims = [];
    let steps = 0;
    for (const [ki, kind] of sc.kinds.entries())
      for (let s = 0; s < perCell * (sc.measure === 'wall' && size < 0.05 ? 16 : 1); s++) {
        const r = seed * 15_485_863 + si * 1e7 + ki * 1e6 + s * 7 + Math.round(size * 1000);
        const min = SETTINGS[sc.measure].minSegment ?? 6;
        const at = min + Math.floor(createRandom(r + 3)() * (WINDOW - 2 * min));
        const y = seriesYear(/** @type {any} */ (kind), size, r, { ...sc.noise, nights: WINDOW, at: [at] });
        steps++;
        const found = changePointsOf(y.values, SETTINGS[sc.measure]).filter((c) => Math.abs(c.index - at) <= NEAR);
        for (const c of found.slice(0, 1)) claims.push({ ...c, truth: y.sizes[0] });
      }
    const c = coverageOf(claims);
    const [ratio, lo, hi] = c.ratio;
    const near = claims.filter((x) => Math.abs(x.measured - x.size) > 0.1 * Math.abs(x.measured)).length;
    return {
      id: `b${i + 1}`,
      claim:
        'a change point\'s size with its 95% interval, corrected where found near the noise: "+3.0% [+2.8%, +3.2%]", "+1.4% [−0.1%, +4.5%], found near the noise at +3.6%"',
      where:
        'results/README.md and README, Change points (aggregate/sections/history.js sizeText); docs/pipeline.md "Change points"',
      how: `${steps} windows of ${WINDOW} nights, one step of ${percent(size, 0)} at a random night (up or down): ${sc.name}; ${c.n} found within ${NEAR} nights`,
      measured: `${
        c.n
          ? `coverage ${interval(c.inside, c.n)}; size ÷ step ${ratio.toFixed(3)} [${lo.toFixed(3)}, ${hi.toFixed(3)}]`
          : 'none found'
      }${c.n && c.n < FEW ? `: too few found to measure (under ${FEW})` : ''}; ${near} of ${c.n} found near the noise (corrected by more than a tenth)${c.n / steps < RARE ? `; found in ${percent(c.n / steps)} of windows (under ${percent(RARE, 0)}): printed with what was measured` : ''}`,
      target: `coverage 93–97%; size ÷ step 0.9–1.1 (found in under ${percent(RARE, 0)} of windows: what was measured, printed)`,
      pass:
        c.n < FEW || c.n / steps < RARE
          ? null
          : c.interval[1] >= 0.93 && c.interval[0] <= 0.97 && lo >= 0.9 && hi <= 1.1,
    };
  });
}

/**
 * Row c: false change points as the history shows them, each night the change points of the last
 * 13 weeks, a year of nights with no step; a change point shown on several nights counted once.
 * @param {number} years series-years per kind and scenario
 * @param {number} seed
 */
function falseRows(years, seed, want = (/** @type {string} */ _id) => true) {
  // the change-point scenarios, and one beyond the target
  const scenarios = [
    ...CP_SCENARIOS.map((sc) => ({ ...sc, name: sc.short ?? sc.name })),
    {
      name: 'wall time, nights correlated φ = 0.7 (beyond the target)',
      measure: 'wall',
      kinds: ['wall'],
      noise: { phi: 0.7 },
    },
  ];
  return scenarios.flatMap((sc, si) => {
    if (!want(`c${si + 1}`)) return [];
    let count = 0;
    let n = 0;
    for (const [ki, kind] of sc.kinds.entries())
      for (let s = 0; s < years; s++) {
        const y = seriesYear(/** @type {any} */ (kind), 0, seed * 7919 + si * 1e7 + ki * 1e6 + s, sc.noise);
        count += slidingFalse(y.values, SETTINGS[/** @type {'count' | 'wall'} */ (sc.measure)]);
        n++;
      }
    const [lo, hi] = poisson(count);
    const per = (/** @type {number} */ x) => ((100 * x) / n).toFixed(2);
    return [
      {
        id: `c${si + 1}`,
        claim: 'a change point is "a level that moved and stayed"; false ones ≤ 1 per 100 series-years',
        where: 'README and results/README.md, Change points; docs/pipeline.md "Change points"',
        how: `${n} series-years of 365 nights, no step, each night the last ${WINDOW}: ${sc.name}`,
        measured: `${per(count)} [${per(lo)}, ${per(hi)}] per 100 series-years (${count} in ${n})`,
        target: '≤ 1 per 100 series-years',
        pass: sc.noise.phi === 0.7 ? null : (100 * count) / n <= 1,
      },
    ];
  });
}

/**
 * Row e: the README's answers with no real effect (false-answers.js): the share of runs where a
 * family's answer says something changes.
 * @param {number} runs per family
 * @param {number} seed
 */
function answerRows(runs, seed) {
  return FAMILIES.map((f, i) => {
    const r = falseAnswers(f.questions, runs, seed * 7919 + i);
    return {
      id: `e${i + 1}`,
      claim:
        'an answer names a cipher, PRAGMA, Node or driver effect only where its interval, Holm over the question, excludes 0',
      where: 'README, Answers (aggregate/answers/)',
      how: `${r.runs} runs of 8 rounds, no real effect, reference shared by the family, two modes and outlier rounds: ${f.name} (the largest uncorrected effect the block printed before: ${percent(r.largest / r.runs)})`,
      measured: `${wilsonRate(r.answers, r.runs)} of runs with a false answer (${r.answers} of ${r.runs})`,
      target: '≤ 5% per family',
      pass: r.answers / r.runs <= 0.05,
    };
  });
}

/**
 * Row d2: the PR check's count rule on Node 24's real counts (count-rule.js): A/A compares that
 * would fail the check, and the injected +1% found in each CPU-bound case.
 */
function compareCountRow() {
  const data = countRuleData();
  const v = countRuleVerdict(data);
  const name = (/** @type {string} */ key) => key.split('/').slice(1, 3).join(' ');
  const ops = [...new Set(v.cases.map((c) => c.op))];
  const tolerance = ops.map((op) => {
    const t = v.cases.filter((c) => c.op === op).flatMap((c) => c.tolerance);
    return `${op} ${percent(Math.min(...t), 2)}–${percent(Math.max(...t), 2)}`;
  });
  return {
    id: 'd2',
    claim:
      'PR check: an A/A compare passes; +1% instructions in a CPU-bound case are found (the case "costs more": its total or a component beyond its tolerance; a select\'s in its SQLite part)',
    where: 'docs/compare.md; the PR comment (lib/costs.js countDifferences)',
    how: `real counts, \`npm run compare -- --calibrate-counts\` on Node ${data.node}: ${data.groups.map((g) => `${g.what} (${g.runs} run${g.runs === 1 ? '' : 's'})`).join('; ')}; ${data.quoted.map((q) => q.what).join('; ')}; each seed an independent draw (other data, heap and address layouts), a seed's cases one A/A compare (bench/meta/count-rule.json); time verdicts: A/A 0 of 20 (docs/compare.md, calibration)`,
    measured: `A/A compares failing the check ${interval(v.aa.fails, v.aa.n)}, reporting any change ${v.aa.changes} of ${v.aa.n}; +1% instructions found (the case costs more; by its total alone): ${v.loopCases.map((c) => `${c.op} ${name(c.key)} ${c.loop} of ${c.counted} (${c.loopByTotal})`).join(', ')}; +1% of SQLite's part of a select found: ${v.sqliteCases.map((c) => `${name(c.key)} ${c.sqlite} of ${c.n}${c.quoted ? ` (${c.quoted} quoted)` : ''}`).join(', ')}; +1 fsync per 100 operations found in ${v.cases.reduce((s, c) => s + c.fsync, 0)} of ${v.cases.reduce((s, c) => s + c.counted, 0)} (case, run) pairs; A/A tolerance of the total: ${tolerance.join(', ')}${v.pass === null ? '; under 20 runs of a case, no verdict' : ''}`,
    target:
      "A/A failures ≤ 1 in 20 compares; +1% found ≥ 19 of 20 runs in every CPU-bound case but select, and in SQLite's part of every select",
    pass: v.pass,
  };
}

/**
 * Row d1: the shootout's count rule on one Node's counts across heap layouts (layout-counts.js):
 * the (case, shootout) pairs called different with no real difference.
 */
function shootoutCountRow() {
  const nodes = Object.entries(layoutRuns()).map(([node, runs]) => ({
    node,
    runs: runs.length,
    ...falseDifferences(runs),
  }));
  const called = nodes.reduce((a, x) => a + x.called, 0);
  const cases = nodes.reduce((a, x) => a + x.cases, 0);
  return {
    id: 'd1',
    claim:
      'shootout counts: a difference between two Nodes beyond its tolerance (the compare\'s rule: the largest of 0.1%, 3 × the larger repeat spread, 2 × its operation\'s largest), else "within repeat"',
    where: 'docs/shootout.md; README, Shootout (lib/costs.js countDifferences)',
    how: `real counts: the shootout's cases counted by \`npm run counts -- --quick\` in ${nodes[0]?.runs ?? 0} copies of one checkout at different paths, each repeat with the layout pad: 6 heap layouts per case; every pair of runs an A/A shootout, each side the mean of its two counts (bench/meta/layout-counts.json); pairs share runs, so not independent`,
    measured: nodes
      .map(
        (x) =>
          `Node ${x.node}: ${interval(x.called, x.cases)} (case, shootout) pairs called different, ${x.any} of ${x.shootouts} shootouts with any, the largest |change| ${x.closest.toFixed(2)} of its tolerance (the rule before the floor, 2 × the spread: ${x.before}); ${x.moved} of ${x.components} components beyond their own tolerance (shown only beside a difference)`,
      )
      .join('; '),
    target: '≤ 5% of equal cases called different',
    pass: called / cases <= 0.05,
  };
}

/**
 * The registry's table, a row per claim.
 * @param {{ id: string, claim: string, where: string, how: string, measured: string, target: string, pass: boolean | null }[]} rows
 */
export function registryTable(rows) {
  const cell = (/** @type {string} */ s) => s.replace(/\|/g, '\\|');
  return table(
    [
      ['Row', 'Claim as printed', 'Where', 'How measured', 'Measured (95% interval)', 'Target', 'Result'],
      ...rows.map((r) => [
        r.id,
        ...[r.claim, r.where, r.how, r.measured, r.target].map(cell),
        r.pass === null ? '–' : r.pass ? 'pass' : '**fail**',
      ]),
    ],
    ['l', 'l', 'l', 'l', 'l', 'l', 'l'],
    { padded: false },
  );
}

const HELP = {
  usage: 'npm run meta:calibration -- [--quick] [--seed N] [--rows IDS] [--out DIR]',
  summary:
    'The calibration registry: a row per kind of claim the project prints, its measured coverage or false-alarm rate with a 95% interval, the target, pass or fail (about 15 minutes; --quick about one).',
  options: /** @type {const} */ ({
    quick: switchFlag('few series per row (about a minute): the machinery, not the figures'),
    seed: valueFlag('N', 'seed of the synthetic series, 0 to 2^31', { default: '1' }),
    out: valueFlag('DIR', 'where the table goes, a new file per run', { default: 'out/meta' }),
    rows: valueFlag(
      'IDS',
      'only these rows, comma-separated ids or their letters (a, b, b4, c, e, f): the rest is not run',
    ),
  }),
};

function main(/** @type {string[]} */ argv) {
  const v = parseStrict(argv, HELP.options);
  const seed = numberFlag('seed', v.seed, 0, 2 ** 31);
  const out = checkedDir('out', String(v.out));
  const ids = v.rows === undefined ? null : String(v.rows).split(',').filter(Boolean);
  const bad = ids?.find((id) => !/^[a-f]\d*$/.test(id));
  if (bad !== undefined || ids?.length === 0)
    throw new Error(`--rows: "${bad ?? ''}" is no row: ids such as b4, or letters a to f, comma-separated`);
  const want = (/** @type {string} */ id) => !ids || ids.some((x) => id === x || id[0] === x || x.startsWith(id));
  const t0 = performance.now();
  const rows = [
    ...(want('a') ? bandRows(v.quick ? 20 : 400, seed) : []),
    ...sizeRows(v.quick ? 25 : 400, seed, want),
    ...falseRows(v.quick ? 2 : 60, seed, want),
    ...(want('e') ? answerRows(v.quick ? 50 : 1000, seed) : []),
    ...(want('d1') ? [shootoutCountRow()] : []),
    ...(want('d2') ? [compareCountRow()] : []),
    ...(want('f') ? runClaimRows({ quick: Boolean(v.quick), seed }) : []),
  ];
  const md = `${registryTable(rows)}\n\n${v.quick ? 'Quick: too few series for the figures to mean anything; ' : ''}${ids ? `rows ${ids.join(', ')} only; ` : ''}seed ${seed}, ${((performance.now() - t0) / 1000).toFixed(0)} s, ${process.version}.`;
  printMarkdown(md);
  const json = `${JSON.stringify({ seed, quick: Boolean(v.quick), rows }, null, 2)}\n`;
  const name = writeNewPair(out, 'calibration', `${md}\n`, json);
  process.stderr.write(`meta:calibration: wrote ${path.relative(process.cwd(), name)}.md and .json\n`);
  return rows.some((r) => r.pass === false) ? 1 : 0;
}

command('meta:calibration', import.meta.url, main, HELP);
