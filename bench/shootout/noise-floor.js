#!/usr/bin/env node
// npm run meta:shootout -- [--node 24] [--runs N] [--rounds N] [--time MS] [--slowdown PCT]
//                          [--threshold PCT] [--alpha A] [--seed N] [--out DIR] [engine filters]
//
// The shootout's noise floor on this machine, as `npm run compare -- --calibrate` measures the
// compare's (bench/paired/calibrate.js does the work): per calibration run, one Node as three sides, A,
// B and S (S with the engine's --slowdown: every timed task's throughput cut by exactly that
// much), interleaved as the shootout interleaves its Nodes, over the shootout's scope. A against B
// is an A/A shootout (any flag, faster or slower, is a false alarm); A against S has a known
// slowdown in every case. It reports how many A/A runs flagged a difference, how often the
// slowdown is found, and per operation the smallest difference between Nodes a shootout of these
// rounds detects 95% of the time (alone among the family of a full shootout's comparisons).
import fs from 'node:fs';
import path from 'node:path';
import { FILTER_OPTIONS, tableFilters } from '../engine/flags.js';
import { UsageError, command, numberFlag, parseStrict, switchFlag, valueFlag } from '../../lib/command.js';
import { caseKey, filterArgs, parseCaseKey, cases as selectCases } from '../data/suite.js';
import { MATRIX_NODES } from '../data/drivers.js';
import { calibrate } from '../paired/calibrate.js';
import { writeFileAtomic } from '../../lib/files.js';
import { roundsAndTime } from '../paired/interleave.js';
import {
  CONSTANT_GENERATION,
  GENERATION_DRIVERS,
  defaultFilters,
  inScope,
  planPairs,
  planSides,
} from '../data/run-plan.js';
import { installSide, nodeSide, resolveNode } from './nodes.js';

const HELP = {
  usage: 'npm run meta:shootout -- [flags]',
  summary:
    "The shootout's noise floor on this machine: one Node as sides A, B and S (S slowed by --slowdown), interleaved; how often A/A flags a difference and how often the slowdown is found.",
  options: /** @type {const} */ ({
    node: valueFlag('VERSION', 'the one Node measured as three sides', { shown: 'the running Node' }),
    runs: valueFlag('N', 'calibration runs', { default: '20' }),
    rounds: valueFlag('N', 'interleaved rounds per run, from 2 to 1000', { shown: "the shootout's" }),
    time: valueFlag('MS', 'measuring time per case, side and round, in milliseconds', { shown: "the shootout's" }),
    slowdown: valueFlag('PCT', 'the known slowdown of side S, in percent', { default: '10' }),
    threshold: valueFlag('PCT', "the shootout's threshold, in percent", { default: '5' }),
    alpha: valueFlag('A', "the shootout's alpha, 0 to 0.5", { default: '0.05' }),
    seed: valueFlag('N', 'seed of the generated data and of the order', { default: '1' }),
    out: valueFlag('DIR', 'where the calibration document goes', { default: 'out/shootout-calibrate' }),
    family: valueFlag('N', 'comparisons the correction counts', { shown: "a full shootout's comparisons" }),
    quick: switchFlag('small budgets: a smoke test'),
    ...FILTER_OPTIONS,
  }),
};

/**
 * The paired tests of a full default shootout (every matrix Node): the family Holm corrects over,
 * so the smallest detectable difference is the one that clears its first step alone.
 * @param {Record<string, string[]>} filters
 */
function shootoutFamily(filters) {
  const sides = planSides(MATRIX_NODES.map((m) => `${m}.99.0`));
  const scoped = selectCases(defaultFilters(filters)).filter((c) => inScope(c, filters));
  const of = (/** @type {string} */ label) => {
    const s = /** @type {import('../data/run-plan.js').SidePlan} */ (sides.find((x) => x.label === label));
    return scoped
      .filter((c) =>
        c.driver === 'node:sqlite'
          ? s.major >= 22 && s.generation === CONSTANT_GENERATION
          : s.generation === CONSTANT_GENERATION || GENERATION_DRIVERS.includes(c.driver),
      )
      .map(caseKey);
  };
  return planPairs(sides).reduce((n, c) => n + of(c.member).filter((k) => of(c.reference).includes(k)).length, 0);
}

async function main(/** @type {string[]} */ argv) {
  const v = parseStrict(argv, HELP.options);
  const filters = tableFilters(v);
  if (v.node !== undefined && !/^v?\d{1,3}(\.\d{1,4}\.\d{1,4})?$/.test(v.node))
    throw new UsageError(`bad --node '${v.node}'; valid: one Node major or exact version, e.g. 24`);
  const { rounds, time } = roundsAndTime(v);
  const f = {
    out: path.resolve(String(v.out)),
    seed: numberFlag('seed', v.seed, 0, 4294967295),
    runs: numberFlag('runs', v.runs, 1, 1000),
    rounds,
    slowdown: numberFlag('slowdown', v.slowdown, 0.1, 90, false),
    threshold: numberFlag('threshold', v.threshold, 0, 100, false) / 100,
    alpha: numberFlag('alpha', v.alpha, 0, 0.5, false),
    family: numberFlag('family', v.family, 1, 100000) ?? shootoutFamily(filters),
    engine: ['--quick', ...filterArgs(defaultFilters(filters)), '--time', String(time)],
    only: (/** @type {string} */ key) => inScope(parseCaseKey(key), filters),
  };
  const log = (/** @type {string} */ line) => process.stderr.write(`meta:shootout: ${line}\n`);
  const build = resolveNode(v.node ?? process.version, log);
  const [plan] = planSides([build.version]);
  const inst = installSide(build, plan, { fromSource: false });
  if (!inst.ok) throw new Error(inst.reason);
  const A = nodeSide('base', `Node v${build.version} (${plan.line})`, build, plan);
  log(
    `${f.runs} run(s) of ${f.rounds} rounds, Node v${build.version} with ${plan.line} as A, B and S (${f.slowdown}% slowdown); family ${f.family} tests`,
  );
  const summary = await calibrate(f, () => ({ sides: [A], cleanup: () => {} }), log);
  // the shootout flags both directions: an A/A "faster" is as false an alarm as a "slower"
  const state = JSON.parse(fs.readFileSync(path.join(f.out, 'calibrate.json'), 'utf8'));
  const either = state.done.filter((/** @type {any} */ r) =>
    r.aa.some((/** @type {any} */ x) => x.verdict === 'slower' || x.verdict === 'faster'),
  ).length;
  const md = `${summary.md.replace('## Compare calibration', '## Shootout calibration')}\n- **A/A flagged either way** (faster or slower; the shootout's false alarms): ${either} of ${summary.n} runs. Target: at most 1 of 20.\n`;
  writeFileAtomic(path.join(f.out, 'calibrate.md'), md);
  console.log(md);
  return 0;
}

command('meta:shootout', import.meta.url, main, HELP);
