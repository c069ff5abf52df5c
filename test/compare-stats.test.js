// The compare's statistics against reference values (SciPy 1.17.1 scipy.stats.ttest_1samp on the
// log ratios, scipy.stats.nct; statsmodels 0.15.0 multipletests(method='holm')), and its verdicts
// on crafted samples.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyse, collect, tally } from '../bench/paired/case-verdicts.js';
import { detectable, holm, pairedLogTest, pairsNeeded, power } from '../lib/stats/paired.js';
import { createRandom } from '../lib/prng.js';

const close = (/** @type {number} */ a, /** @type {number} */ b, rel = 1e-9, what = '') =>
  assert.ok(Math.abs(a - b) <= rel * Math.max(Math.abs(b), 1e-300), `${what} ${a} != ${b}`);

test("untrimmed, the paired log-ratio test is Student's: matches SciPy ttest_1samp of ln(head/base)", () => {
  const slower = pairedLogTest(
    [1000, 1012, 995, 1003, 990, 1008, 1001, 997],
    [950, 970, 940, 961, 948, 955, 966, 949],
    { trim: 0 },
  );
  close(slower.p, 3.1025797039574716e-7, 1e-6, 'p');
  close(slower.change, -0.04586677876971676, 1e-12, 'change');
  close(slower.low, -0.051514071360556045, 1e-9, 'low');
  close(slower.high, -0.04018586215490034, 1e-9, 'high');
  close(slower.sd, 0.0071007226715018345, 1e-12, 'sd');
  const same = pairedLogTest([100, 103, 98, 101, 99, 102], [101, 102, 99, 100, 100, 103], { trim: 0 });
  close(same.p, 0.4572034061069395, 1e-9, 'p');
  close(same.low, -0.007353481031449312, 1e-9, 'low');
  close(same.high, 0.014214972284058684, 1e-9, 'high');
});

// Reference: the Tukey-McLaughlin trimmed t (Wilcox's trimci) computed with scipy.stats.trim_mean,
// scipy.stats.mstats.winsorize and scipy.stats.t, 20% trimming.
test('trimmed (20%) paired test matches the reference; one wild pair moves neither estimate nor interval', () => {
  const ten = pairedLogTest(
    [1000, 1012, 995, 1003, 990, 1008, 1001, 997, 1004, 999],
    [950, 970, 940, 961, 948, 955, 966, 949, 700, 958],
  );
  assert.deepEqual([ten.trimmed, ten.df], [2, 5]);
  close(ten.change, -0.04609735500960463, 1e-12, 'change');
  close(ten.low, -0.053056027254350976, 1e-9, 'low');
  close(ten.high, -0.039087546561657784, 1e-9, 'high');
  close(ten.p, 1.4621211308359178e-5, 1e-6, 'p');
  close(ten.sd, 0.00540419559305855, 1e-12, 'sd');
  const base = [7800, 7817, 7952, 8009, 7923, 7912, 8008, 7979];
  const head = [7850, 5243, 7970, 7872, 7977, 7856, 7990, 8001]; // one hiccup
  const t = pairedLogTest(base, head);
  assert.deepEqual([t.trimmed, t.df], [1, 5]);
  close(t.change, -0.0025305909768564153, 1e-12, 'change');
  close(t.low, -0.017097650596870125, 1e-9, 'low');
  close(t.high, 0.012252359088532557, 1e-9, 'high');
  close(t.p, 0.6764570234049585, 1e-9, 'p');
  const plain = pairedLogTest(base, head, { trim: 0 });
  assert.ok(plain.high - plain.low > 5 * (t.high - t.low), 'untrimmed, the hiccup widens the interval fivefold');
  assert.throws(
    () => pairedLogTest([1, 1, 1, 1, 1], [1, 1, 1, 1, 1], { trim: 0.4 }),
    /needs at least 6 pairs to trim 2 at each end, got 5/,
  );
});

test('identical samples: no change, p = 1, a zero-width interval', () => {
  const t = pairedLogTest([5, 6, 7], [5, 6, 7]);
  assert.deepEqual([t.change, t.low, t.high, t.p], [0, 0, 0, 1]);
});

test('bad input is refused with a message', () => {
  assert.throws(() => pairedLogTest([1, 2], [1]), /2 base figures but 1 head/);
  assert.throws(() => pairedLogTest([1], [1]), /at least 2 pairs/);
  assert.throws(() => pairedLogTest([1, 0], [1, 1]), /pair 1 is not two positive figures/);
});

test('Holm adjustment matches statsmodels multipletests(method="holm")', () => {
  const got = holm([0.01, 0.04, 0.03, 0.005, 0.2, 0.0001, 0.04]);
  const want = [0.05, 0.12, 0.12, 0.03, 0.2, 0.0007, 0.12];
  got.forEach((g, i) => close(g, want[i], 1e-12, `p[${i}]`));
  assert.deepEqual(holm([]), []);
  assert.deepEqual(holm([0.9, 0.8]), [1, 1], 'capped at 1');
  assert.deepEqual(holm([0.04, 0.001, 0.3]), [0.08, 0.003, 0.3], 'step-down: m, m-1, ... times the sorted p');
});

test('power of the paired test matches the noncentral t (scipy.stats.nct)', () => {
  close(power(0.03 / Math.sqrt(8), 7, -Math.log(0.9), 0.05 / 189), 0.9482660132611173, 1e-6);
  close(power(0.05 / Math.sqrt(14), 13, -Math.log(0.9), 0.05 / 189), 0.98390069996928, 1e-6);
  // the smallest n with power >= 0.95, from scipy.stats.nct
  const want = [
    [0.03, 0.1, 0.05 / 189, 9],
    [0.01, 0.03, 0.05 / 189, 9],
    [0.05, 0.1, 0.05 / 189, 13],
    [0.02, 0.05, 0.05 / 40, 9],
    [0.08, 0.1, 0.05, 10],
  ];
  for (const [sd, effect, alpha, n] of want)
    assert.equal(pairsNeeded(sd, effect, alpha, { trim: 0 }), n, `sd ${sd} effect ${effect}`);
  const mde = detectable(0.03, 9, 0.05 / 189, { trim: 0 });
  close(power(0.03 / 3, 8, -Math.log(1 - mde), 0.05 / 189), 0.95, 1e-6);
  assert.ok(mde > 0.08 && mde < 0.1, `${mde}`);
  // trimmed: the same noise needs more pairs (fewer degrees of freedom, a larger standard error)
  assert.ok(pairsNeeded(0.03, 0.1, 0.05 / 189) > pairsNeeded(0.03, 0.1, 0.05 / 189, { trim: 0 }));
});

/** Result-document-shaped rounds from crafted per-case figures. */
function rounds(/** @type {Record<string, [number[], number[]]>} */ cases) {
  const n = Object.values(cases)[0][0].length;
  return Array.from({ length: n }, (_, i) => {
    const doc = (/** @type {0|1} */ side) => ({
      cases: Object.entries(cases).map(([key, v]) => {
        const [config, driver, cipher, op] = key.split('/');
        const x = v[side][i];
        if (Number.isNaN(x)) return { config, driver, cipher, op, status: 'error', reason: 'boom' };
        return op === 'size'
          ? { config, driver, cipher, op, status: 'ok', size: { mainBytes: x, walBytes: 0 } }
          : { config, driver, cipher, op, status: 'ok', stats: { opsPerSec: { median: x } } };
      }),
    });
    return { base: doc(0), head: doc(1) };
  });
}

/**
 * n figures around `center` with relative noise `cv`, from a seeded generator.
 * @param {() => number} rnd
 * @param {number} center
 * @param {number} cv
 * @param {number} n
 */
function noisy(rnd, center, cv, n) {
  return Array.from({ length: n }, () => {
    const u = rnd() || 1e-12; // Box-Muller
    return center * Math.exp(cv * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd()));
  });
}

test('crafted samples: a known slowdown is found, identical cases are not flagged', () => {
  const rnd = createRandom(42);
  /** @type {Record<string, [number[], number[]]>} base and head figures per case */
  const cases = {};
  for (let i = 0; i < 30; i++) cases[`c${i}/d/none/select`] = [noisy(rnd, 1000, 0.02, 12), noisy(rnd, 1000, 0.02, 12)];
  cases['slow/d/none/update'] = [noisy(rnd, 1000, 0.02, 12), noisy(rnd, 850, 0.02, 12)];
  cases['fast/d/none/insert'] = [noisy(rnd, 1000, 0.02, 12), noisy(rnd, 1200, 0.02, 12)];
  const same = [500, 510, 490, 505];
  cases['same/d/none/delete'] = [
    [...same, ...same, ...same],
    [...same, ...same, ...same],
  ];
  const rows = analyse(collect(rounds(cases)), { threshold: 0.1, alpha: 0.05 });
  const by = Object.fromEntries(rows.map((r) => [r.key, r]));
  assert.equal(by['slow/d/none/update'].verdict, 'slower');
  const slower = by['slow/d/none/update'].change;
  assert.ok(slower !== null && slower < -0.1 && slower > -0.2, String(slower));
  assert.equal(by['fast/d/none/insert'].verdict, 'faster');
  assert.equal(by['same/d/none/delete'].verdict, 'no change');
  assert.equal(by['same/d/none/delete'].p, 1);
  assert.equal(tally(rows).slower, 1, 'none of the 30 unchanged cases is flagged');
});

test('multiple-comparison correction: p < 0.05 alone is significant, among 40 tests it is not', () => {
  // a small, consistent shift: significant on its own
  const base = [1000, 1010, 990, 1005, 995, 1002];
  const head = base.map((x, i) => x * (0.985 + (i % 2 ? 0.006 : -0.006)));
  const alone = analyse(collect(rounds({ 'a/d/none/select': [base, head] })), { threshold: 0, alpha: 0.05 });
  assert.ok(alone[0].p !== null && alone[0].p < 0.05 && alone[0].significant, `alone p=${alone[0].p}`);
  assert.equal(alone[0].pAdjusted, alone[0].p);
  const rnd = createRandom(7);
  /** @type {Record<string, [number[], number[]]>} */
  const many = { 'a/d/none/select': [base, head] };
  for (let i = 0; i < 39; i++) many[`n${i}/d/none/select`] = [noisy(rnd, 1000, 0.01, 6), noisy(rnd, 1000, 0.01, 6)];
  const rows = analyse(collect(rounds(many)), { threshold: 0, alpha: 0.05 });
  const a = rows.find((r) => r.key === 'a/d/none/select');
  assert.equal(a?.p, alone[0].p, 'the same uncorrected p');
  assert.ok(a && a.p !== null && a.pAdjusted && a.pAdjusted > a.p && !a.significant, `adjusted ${a?.pAdjusted}`);
  // the interval printed beside the verdict is the corrected one: alone it excludes 0, in the family it holds it
  assert.ok(/** @type {number} */ (alone[0].high) < 0, `alone [${alone[0].low}, ${alone[0].high}]`);
  assert.ok(/** @type {number} */ (a.low) < 0 && /** @type {number} */ (a.high) > 0, `among 40 [${a.low}, ${a.high}]`);
  assert.equal(a.verdict, 'too noisy to tell');
});

test('size is compared exactly; a case missing or failing on a side is not compared, with the reason', () => {
  const rows = analyse(
    collect(
      rounds({
        'p/d/none/size': [
          [1000, 1000],
          [1200, 1200],
        ],
        'q/d/none/size': [
          [1000, 1000],
          [1050, 1050],
        ],
        'p/d/none/select': [
          [1, 2],
          [NaN, 2],
        ],
      }),
    ),
    { threshold: 0.1, alpha: 0.05 },
  );
  const by = Object.fromEntries(rows.map((r) => [r.key, r]));
  assert.equal(by['p/d/none/size'].verdict, 'slower');
  close(/** @type {number} */ (by['p/d/none/size'].change), 0.2, 1e-12);
  assert.equal(by['q/d/none/size'].verdict, 'no change');
  assert.equal(by['p/d/none/select'].verdict, 'not compared');
  assert.match(String(by['p/d/none/select'].reason), /head error: boom/);
  const r2 = collect([{ base: { cases: [] }, head: rounds({ 'x/d/none/select': [[1], [1]] })[0].head }]);
  assert.deepEqual(r2[0].problems, ['base has no such case']);
});
