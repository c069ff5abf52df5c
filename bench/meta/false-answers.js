// The calibration registry's rows e: with no real effect, how often an answer of the README
// (aggregate/answers/, lib/judge.js with Holm over the family) says something changes, the
// reference shared by a round's questions, two modes and outlier rounds; beside it, the rule the
// answers replace (the family's largest uncorrected effect).
import { judge } from '../../lib/judge.js';
import { createRandom, normal } from '../../lib/prng.js';
import { VERDICTS } from '../../lib/verdicts.js';

/** The families the answers judge, with their sizes in a full run. */
export const FAMILIES = [
  { name: 'encryption: 7 ciphers × writes, reads, opening', questions: 21 },
  { name: 'PRAGMAs: 11 tunings × writes, reads, opening', questions: 33 },
  { name: 'driver: node:sqlite against 2 drivers × 8 operations', questions: 16 },
  { name: 'Node: 4 Nodes on the same driver', questions: 4 },
];

/** One side's log figure of a round: normal noise, a slow state in 20% of rounds (−6%), an outlier round (−30%) in 3%. */
const side = (/** @type {() => number} */ random, /** @type {number} */ sd) =>
  sd * normal(random) + (random() < 0.2 ? -0.06 : 0) + (random() < 0.03 ? -0.3 : 0);

/**
 * The false-alarm rate of one family: the share of simulated runs where any answer is decided,
 * and where the replaced rule printed an effect.
 * @param {number} questions
 * @param {number} runs
 * @param {number} seed
 * @param {number} [rounds] pairs per question (a full run: 8 to 25)
 */
export function falseAnswers(questions, runs, seed, rounds = 8) {
  const random = createRandom(seed);
  let answers = 0;
  let largest = 0;
  for (let r = 0; r < runs; r++) {
    const reference = Array.from({ length: rounds }, () => side(random, 0.02));
    const family = Array.from({ length: questions }, () =>
      reference.map((ref) => ({ reference: 1, member: 1, log: side(random, 0.02) - ref })),
    );
    const judged = judge(family);
    answers += Number(judged.some((j) => j && (j.verdict === VERDICTS.faster || j.verdict === VERDICTS.slower)));
    const excludes = (/** @type {any} */ j) => j !== null && (j.low > 0 || j.high < 0);
    largest += Number(family.some((pairs) => excludes(judge([pairs])[0])));
  }
  return { answers, largest, runs };
}
