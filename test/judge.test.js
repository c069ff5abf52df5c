// The judge (lib/judge.js) and the one rule on counts (lib/costs.js) on crafted inputs whose verdict
// is known: an interval wholly above or below 0, one within the threshold, Holm's correction
// turning a significant comparison into "too noisy to tell" (and its printed interval with it), a
// count difference under the floor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judge, judgeRounds, verdictOfInterval } from '../lib/judge.js';
import { COUNT_FLOOR, costRows, countTolerance } from '../lib/costs.js';
import { createRandom } from '../lib/prng.js';

/** Pairs whose log ratios are `center` plus these deviations. */
const pairs = (/** @type {number} */ center, /** @type {number[]} */ noise) =>
  noise.map((d) => ({ reference: 1000, member: 1000 * Math.exp(center + d) }));
const NOISE = [0.004, -0.003, 0.002, -0.004, 0.001, -0.002, 0.003, 0];

test('an interval wholly below or above 0 and reaching the threshold is slower or faster; within it, no change', () => {
  const [slow, fast, same] = judge([pairs(Math.log(0.8), NOISE), pairs(Math.log(1.25), NOISE), pairs(0.001, NOISE)], {
    threshold: 0.1,
  });
  assert.equal(slow?.verdict, 'slower');
  assert.ok(slow && slow.high < 0 && slow.low <= -0.1 && Math.abs(slow.change + 0.2) < 0.005, JSON.stringify(slow));
  assert.equal(fast?.verdict, 'faster');
  assert.ok(fast && fast.low > 0, JSON.stringify(fast));
  assert.equal(same?.verdict, 'no change');
  assert.ok(same && same.low > -0.1 && same.high < 0.1, JSON.stringify(same));
  // 3% slower, clearly: real, but within the 10% threshold
  const [small] = judge([pairs(Math.log(0.97), NOISE)], { threshold: 0.1 });
  assert.ok(small && small.high < 0, JSON.stringify(small));
  assert.equal(small.verdict, 'no change');
  // without a threshold: never "no change"; the same 3% is slower
  assert.equal(judge([pairs(Math.log(0.97), NOISE)])[0]?.verdict, 'slower');
  assert.equal(judge([pairs(0, NOISE)])[0]?.verdict, 'too noisy to tell');
});

test('the verdict is a rule of the interval alone', () => {
  assert.equal(verdictOfInterval({ low: -0.13, high: -0.08 }, 0.1), 'slower');
  assert.equal(verdictOfInterval({ low: -0.05, high: -0.02 }, 0.1), 'no change', 'real but within the threshold');
  assert.equal(verdictOfInterval({ low: 0.08, high: 0.12 }, 0.1), 'faster');
  assert.equal(verdictOfInterval({ low: -0.03, high: 0.04 }, 0.1), 'no change');
  assert.equal(verdictOfInterval({ low: -0.2, high: 0.15 }, 0.1), 'too noisy to tell');
  assert.equal(
    verdictOfInterval({ low: -0.04, high: -0.01 }, 0),
    'slower',
    'threshold 0: any slowdown that excludes 0',
  );
  assert.equal(verdictOfInterval({ low: -0.04, high: -0.01 }, null), 'slower');
  assert.equal(
    verdictOfInterval({ low: -0.01, high: 0.01 }, null),
    'too noisy to tell',
    'no threshold: no "no change"',
  );
});

test("Holm's correction turns one comparison non-significant, and widens the interval printed beside it to hold 0", () => {
  // 1.5% slower in 8 pairs: p ≈ 0.002 alone
  const shift = pairs(Math.log(0.985), [0.006, -0.006, 0.005, -0.005, 0.004, -0.004, 0.006, -0.006]);
  const [alone] = judge([shift]);
  assert.ok(alone && alone.p < 0.05 && alone.pAdjusted === alone.p && alone.high < 0, JSON.stringify(alone));
  assert.equal(alone.verdict, 'slower');
  const rnd = createRandom(3);
  const family = [
    shift,
    ...Array.from({ length: 39 }, () =>
      pairs(
        0,
        NOISE.map(() => (rnd() - 0.5) * 0.03),
      ),
    ),
  ];
  const [among] = judge(family);
  assert.ok(among && among.p === alone.p && among.pAdjusted >= 0.05, JSON.stringify(among));
  assert.equal(among.verdict, 'too noisy to tell');
  assert.ok(among.low < alone.low && among.high > 0, `[${among.low}, ${among.high}] holds 0`);
  assert.equal(among.change, alone.change, 'the estimate does not move, only its interval');
});

test('every interval excludes 0 exactly when its corrected p-value is below alpha', () => {
  const rnd = createRandom(11);
  for (let f = 0; f < 20; f++) {
    const family = Array.from({ length: 1 + Math.floor(rnd() * 30) }, () => {
      const n = 3 + Math.floor(rnd() * 10);
      return pairs(
        (rnd() - 0.5) * 0.04,
        Array.from({ length: n }, () => (rnd() - 0.5) * 0.04),
      );
    });
    for (const j of judge(family, { alpha: 0.05 })) {
      assert.ok(j);
      assert.equal(j.low > 0 || j.high < 0, j.pAdjusted < 0.05, JSON.stringify(j));
      assert.ok(j.pAdjusted >= j.p && j.pAdjusted <= Math.min(1, family.length * j.p) + 1e-15);
    }
  }
});

test('too few pairs are not judged; a paired figure from the slices is used before the ratio of the figures', () => {
  assert.deepEqual(judge([pairs(0, [0.01])]), [null]);
  assert.equal(judge([pairs(0, [0.01, -0.01])])[0]?.pairs, 2, 'two pairs are judged in a family');
  const ref = [0, 1, 2].map((i) => ({ slot: `${i}`, opsPerSec: 1000 }));
  assert.equal(judgeRounds(ref.slice(0, 2), ref.slice(0, 2)), null, 'within a run, two rounds are too few');
  const logged = judgeRounds(
    ref,
    ref.map((r, i) => ({ ...r, log: Math.log(0.5) + [0.001, -0.001, 0][i] })),
  );
  assert.ok(logged && Math.abs(logged.change + 0.5) < 0.002, JSON.stringify(logged));
});

test('a count: a change under the floor is none, even where both repeats agreed exactly', () => {
  assert.equal(countTolerance(0), COUNT_FLOOR);
  assert.equal(countTolerance(0.001), 0.003, '3 × the own repeat spread');
  assert.equal(countTolerance(0.001, 0.01), 0.02, '2 × the operation’s largest repeat spread');
  const counted = (/** @type {number} */ instructions) => ({
    status: 'ok',
    instructions,
    repeat: { instructions, syscallsSame: true },
    syscalls: { fsync: 0, write: 0, read: 0 },
    bytes: { written: 0, read: 0 },
  });
  const row = (/** @type {number} */ i) => [{ key: 'c/d/none/select', op: 'select', counts: counted(i) }];
  assert.equal(costRows(row(100_000), row(100_050))[0].verdict, 'same cost', '+0.05%, repeats exact');
  assert.equal(costRows(row(100_000), row(100_200))[0].verdict, 'costs more', '+0.2%');
});
