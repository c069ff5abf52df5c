// The calibration registry's machinery (bench/meta/calibration.js) on crafted series: each estimator
// lands where it should. The registry itself is a benchmark (npm run meta:calibration), not a test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coverageOf, flagsOf, poisson, registryTable } from '../bench/meta/calibration.js';
import { wilson } from '../lib/stats/interval.js';
import { slidingFalse } from '../bench/meta/changepoints-year.js';
import { SETTINGS, changePointsOf, foundSize, lagCorrelation, selected } from '../lib/changepoints.js';
import { falseDifferences, layoutRuns } from '../bench/meta/layout-counts.js';
import { bandOf } from '../aggregate/sections/history.js';
import { createRandom } from '../lib/prng.js';

const normal = (/** @type {() => number} */ random) =>
  Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

test('Wilson and Poisson intervals match published values', () => {
  const [lo, hi] = wilson(8, 10);
  assert.ok(Math.abs(lo - 0.4902) < 1e-3 && Math.abs(hi - 0.9433) < 1e-3, `${lo} ${hi}`);
  assert.deepEqual(wilson(0, 0), [0, 1]);
  assert.ok(Math.abs(poisson(0)[1] - 3.689) < 0.03, String(poisson(0))); // exact 3.689; Byar 3.668
  const [plo, phi] = poisson(10);
  assert.ok(Math.abs(plo - 4.795) < 0.05 && Math.abs(phi - 18.39) < 0.1, `${plo} ${phi}`);
});

test('the coverage estimator says 80% of intervals made to cover 80%, and the size ratio 1 when unbiased', () => {
  const random = createRandom(5);
  const claims = Array.from({ length: 4000 }, () => {
    const truth = 0.03;
    const size = truth + 0.005 * normal(random);
    return { size, low: size - 1.2816 * 0.005, high: size + 1.2816 * 0.005, truth };
  });
  const c = coverageOf(claims);
  assert.ok(c.interval[0] <= 0.8 && 0.8 <= c.interval[1], JSON.stringify(c));
  assert.ok(Math.abs(c.inside / c.n - 0.8) < 0.03);
  assert.ok(c.ratio[1] <= 1 && 1 <= c.ratio[2], JSON.stringify(c.ratio));
  // sizes 1.2× the truth are found so
  const inflated = coverageOf(claims.map((x) => ({ ...x, size: 1.2 * x.truth })));
  assert.ok(Math.abs(inflated.ratio[0] - 1.2) < 1e-9);
});

test('the band counter counts the planted nights only, and the band keeps both of two modes', () => {
  const random = createRandom(9);
  const flat = Array.from({ length: 91 }, () => 1000 * Math.exp(0.01 * normal(random)));
  const planted = flat.map((v, i) => (i === 30 || i === 70 ? v * 0.7 : v));
  const other = flat.map((v, i) => (i === 70 ? v * 1.5 : v));
  const f = flagsOf([planted, other], bandOf);
  assert.deepEqual(f.perOp, [2, 1]);
  assert.equal(f.flags, 3);
  assert.equal(f.nightsFlagged, 2, 'night 70 is one night with two red dots');
  // two modes that alternate (select on two kinds of VM): neither is outside
  const modes = flat.map((v) => (random() < 0.3 ? 0.6 * v : v));
  assert.deepEqual(flagsOf([modes], bandOf).perOp, [0]);
});

test('the false change-point counter counts a planted step once over a year of windows, and none without', () => {
  const exact = Array.from({ length: 365 }, () => 123_400);
  assert.equal(slidingFalse(exact, SETTINGS.count), 0);
  assert.equal(
    slidingFalse(
      exact.map((v, i) => (i >= 200 ? 125_900 : v)),
      SETTINGS.count,
    ),
    1,
  );
});

test('the night-to-night correlation: an AR(1) series read within 0.1, a step is no correlation', () => {
  for (const [phi, seed] of [
    [0.3, 3],
    [0.5, 4],
    [0.7, 5],
  ]) {
    // the mean over 40 windows of 91 nights, as the history reads them
    const random = createRandom(seed);
    let sum = 0;
    for (let w = 0; w < 40; w++) {
      let e = normal(random);
      sum += lagCorrelation(
        Array.from({ length: 91 }, () => (e = phi * e + Math.sqrt(1 - phi * phi) * normal(random))),
      );
    }
    assert.ok(Math.abs(sum / 40 - phi) < 0.1, `φ ${phi} read ${sum / 40}`);
  }
  const random = createRandom(3);
  const iid = Array.from({ length: 400 }, () => normal(random));
  assert.ok(lagCorrelation(iid) < 0.12, String(lagCorrelation(iid)));
  // a step between two independent stretches: the running median keeps its edge
  assert.ok(lagCorrelation(iid.map((x, i) => x + (i >= 200 ? 10 : 0))) < 0.12);
});

test('an exact count stored at 4 significant figures: the interval holds the true step 93–97% of the time', () => {
  const random = createRandom(11);
  const sig4 = (/** @type {number} */ x) => Number(x.toPrecision(4));
  let inside = 0;
  const n = 1500;
  for (let i = 0; i < n; i++) {
    // a level of any 4th figure (writes per operation), a step of 3% up or down at night 30 of 60
    const level = 1 + 8 * random();
    const truth = random() < 0.5 ? 0.03 : -0.03;
    const values = Array.from({ length: 60 }, (_, night) => sig4(level * (night >= 30 ? 1 + truth : 1)));
    const [c] = changePointsOf(values, SETTINGS.count);
    assert.equal(c.index, 30);
    if (c.low <= truth && truth <= c.high) inside++;
  }
  // one uniform error per level, their sum's 95% point: 95%, within the count's ±1.1% (2 se)
  assert.ok(inside / n >= 0.93 && inside / n <= 0.97, `${inside} of ${n}`);
});

test('a size found near the gate: median-unbiased among the steps found, its interval covering 95%', () => {
  const random = createRandom(13);
  const gate = 5;
  for (const mu of [4, 6]) {
    /** @type {number[]} */
    const sizes = [];
    let inside = 0;
    while (sizes.length < 1500) {
      const d = mu + normal(random);
      if (Math.abs(d) <= gate) continue; // not found
      sizes.push(selected(d, 1, gate, 0.5));
      if (selected(d, 1, gate, 0.975) <= mu && mu <= selected(d, 1, gate, 0.025)) inside++;
    }
    const below = sizes.filter((x) => x < mu).length / sizes.length;
    assert.ok(Math.abs(below - 0.5) < 0.05, `μ ${mu}: ${below} of the sizes below it`);
    assert.ok(Math.abs(inside / sizes.length - 0.95) < 0.02, `μ ${mu}: covered ${inside} of ${sizes.length}`);
  }
  // far above the gate, the change as measured and ± 1.96 sd
  assert.ok(Math.abs(selected(12, 1, 5, 0.5) - 12) < 1e-6);
  assert.ok(Math.abs(selected(-12, 1, 5, 0.975) + 12 + 1.96) < 1e-3);
});

test('a size found near the gate is printed unbiased within 10%, where the whole correction and none are not', () => {
  // steps of 0.8 to 1.7 times the gate, as 3% to 10% wall-time steps stand to theirs (gate ≈ 5.9 sd)
  const random = createRandom(17);
  const gate = 5.9;
  for (const mu of [4.7, 5.3, 6.5, 10]) {
    let [n, printed, whole, measured] = [0, 0, 0, 0];
    while (n < 4000) {
      const d = mu + normal(random);
      if (Math.abs(d) <= gate) continue; // not found
      n++;
      printed += foundSize(d, 1, gate) / mu;
      whole += selected(d, 1, gate, 0.5) / mu;
      measured += d / mu;
    }
    assert.ok(Math.abs(printed / n - 1) < 0.1, `μ ${mu}: printed ${printed / n} of the step`);
    if (mu < 6) assert.ok(whole / n < 0.9 && measured / n > 1.2, `μ ${mu}: ${whole / n}, ${measured / n}`);
  }
  assert.ok(Math.abs(foundSize(12, 1, 5) - 12) < 1e-6, 'far above the gate, as measured');
});

test("the shootout's count rule across heap layouts: equal counts are never a difference, a 5% one always is", () => {
  // one real run's counts three times over: an A/A shootout per pair of runs
  const [run] = layoutRuns()['v20.20.2'];
  const same = falseDifferences([run, run, run]);
  assert.deepEqual([same.shootouts, same.cases, same.called, same.moved], [3, 3 * run.cases.length, 0, 0]);
  // the third run's select 5% dearer in both counts and every component: called in the 2 shootouts
  // that hold that run, in no other case
  const key = run.cases.find((c) => c.key.endsWith('/select'))?.key;
  const times = (/** @type {Record<string, number>} */ o) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, 1.05 * v]));
  const dearer = {
    ...run,
    cases: run.cases.map((c) =>
      c.key === key
        ? {
            ...c,
            instructions: 1.05 * c.instructions,
            components: times(c.components),
            repeatComponents: times(c.repeatComponents),
          }
        : c,
    ),
  };
  const r = falseDifferences([run, run, dearer]);
  assert.deepEqual([r.called, r.any], [2, 2]);
  // the real runs, six layouts of each case: the registry's row d1 reads them
  for (const runs of Object.values(layoutRuns())) assert.equal(runs.length, 3);
});

test('the registry table marks a failing row and keeps a | inside a cell', () => {
  const md = registryTable([
    { id: 'x1', claim: 'a | b', where: 'w', how: 'h', measured: 'm', target: 't', pass: false },
    { id: 'x2', claim: 'c', where: 'w', how: 'h', measured: 'not measured yet', target: 't', pass: null },
  ]);
  assert.match(md, /\| x1 \| a \\\| b \|.*\| \*\*fail\*\* \|/);
  assert.match(md, /\| x2 \|.*not measured yet \| t \| – \|/);
});

test("a run's own claims (bench/meta/run-claims.js): a calibrated judge lands near 5%, narrowed intervals fail the self-check", async () => {
  const { falseExclusions, selfCheckFailures } = await import('../bench/meta/run-claims.js');
  // Gaussian pairs with no effect: a 95% interval excludes 0 in at most about 5% (the trimmed test is
  // conservative at 8 pairs), and more often at 5 pairs, where the trimmed test's df are 2
  const rate = (/** @type {{ k: number, n: number }[]} */ xs) => xs[0].k / xs[0].n;
  const [eight, five] = [falseExclusions(8, 1500, 3), falseExclusions(5, 1500, 3)];
  assert.ok(rate(eight) > 0.01 && rate(eight) < 0.06, `8 pairs: ${rate(eight)}`);
  assert.ok(rate(five) > rate(eight), `5 pairs ${rate(five)} against 8 pairs ${rate(eight)}`);
  // the self-check: calibrated twins rarely fail it, intervals 4× too narrow nearly always do
  const [calibrated, four] = [selfCheckFailures(1, 150, 3), selfCheckFailures(4, 150, 3)];
  for (const x of calibrated) assert.ok(x.k / x.n <= 0.06, `${x.name}: ${x.k} of ${x.n}`);
  for (const x of four) assert.ok(x.k / x.n >= 0.85, `${x.name}: ${x.k} of ${x.n}`);
});
