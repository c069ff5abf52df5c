// Measuring in slices and the figures made from them, on crafted inputs where the answer is known:
// two machine states, a slow tail, a quiet machine, and a machine that switches faster than a
// block. Plus the block measurement itself on real tasks: its cycles, its failures, its hooks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FAST_QUANTILE, MIN_CYCLES, pairedLog, sliceFigures } from '../lib/stats/slice-figures.js';
import { judgeRounds } from '../lib/judge.js';
import { measureBlock } from '../bench/engine/slices.js';
import { createRandom } from '../lib/prng.js';
import { median } from '../lib/stats/spread.js';

/** Slice rates: `n` slices of a code whose undisturbed rate is `rate`, each slowed by the machine's state. */
function slices(
  /** @type {number} */ n,
  /** @type {number} */ rate,
  /** @type {(i: number) => number} */ slowdown,
  seed = 1,
) {
  const random = createRandom(seed);
  // ±1% of honest jitter, and the machine's slowdown (a factor ≥ 1: interference only adds time)
  return Array.from({ length: n }, (_, i) => (rate * (1 + 0.02 * (random() - 0.5))) / slowdown(i));
}
const within = (/** @type {number} */ x, /** @type {number} */ want, /** @type {number} */ tol) =>
  Math.abs(x / want - 1) <= tol;

test('two states (30% fast at 10,000/s, 70% slow at 6,000/s): fastest typical lands on the fast state, the median on the slow one', () => {
  const r = createRandom(7);
  const states = Array.from({ length: 100 }, () => (r() < 0.3 ? 1 : 10000 / 6000));
  const f = sliceFigures(slices(100, 10000, (i) => states[i]));
  assert.ok(within(f.fast, 10000, 0.015), `fast ${f.fast}`);
  assert.ok(within(f.opsPerSec, 6000, 0.015), `median ${f.opsPerSec}`);
});

test('a slow tail (5% of slices 5× slower): both figures stay on the code’s rate', () => {
  const f = sliceFigures(slices(200, 10000, (i) => (i % 20 === 7 ? 5 : 1)));
  assert.ok(within(f.fast, 10000, 0.015), `fast ${f.fast}`);
  assert.ok(within(f.opsPerSec, 10000, 0.015), `median ${f.opsPerSec}`);
});

test('a quiet machine: the fastest typical figure is the median within the slices’ own jitter', () => {
  const f = sliceFigures(slices(100, 10000, () => 1));
  assert.ok(f.fast >= f.opsPerSec && f.fast / f.opsPerSec - 1 < 0.015, `${f.fast} against ${f.opsPerSec}`);
});

test('the fast end is a quantile, not the luckiest slice: one freak fast slice does not move it', () => {
  const rates = slices(100, 10000, () => 1);
  rates[40] = 30000;
  assert.ok(within(sliceFigures(rates).fast, 10000, 0.015));
  assert.equal(FAST_QUANTILE, 0.9);
});

test('a machine that switches faster than a block: paired slices recover the true ratio; back-to-back halves do not', () => {
  // the machine's state changes every few slices, and by chance it is slow 30% of the time in the
  // block's first half and 70% in its second; member costs 1.25× the reference (ratio 0.8)
  const state = Array.from({ length: 200 }, (_, i) => (i % 10 < 3 === i < 100 ? 1.7 : 1));
  const ref = slices(100, 10000, (i) => state[2 * i], 2);
  const member = slices(100, 8000, (i) => state[2 * i + 1] ?? state[2 * i], 3);
  const log = /** @type {number} */ (pairedLog(ref, member));
  assert.ok(Math.abs(Math.exp(log) - 0.8) < 0.02, `paired ratio ${Math.exp(log)}`);
  // the same machine measured the old way: the reference's 100 slices, then the member's 100
  const refFirst = slices(100, 10000, (i) => state[i], 4);
  const memberAfter = slices(100, 8000, (i) => state[100 + i], 5);
  const unpaired = median(memberAfter) / median(refFirst);
  assert.ok(Math.abs(unpaired - 0.8) > Math.abs(Math.exp(log) - 0.8), `back to back ${unpaired}`);
  assert.equal(pairedLog([1, 2], [1, 2]), null, `fewer than ${MIN_CYCLES} shared cycles: no figure`);
});

test('a comparison uses each round’s paired figure where there is one, not the ratio of the rounds’ medians', () => {
  // the rounds' medians swing with the machine (bimodal), their paired figures do not
  const reference = [10000, 6000, 10000, 6000, 10000].map((x, i) => ({ slot: `r${i}/select`, opsPerSec: x }));
  const member = [6000, 10000, 6100, 9900, 6050].map((x, i) => ({
    slot: `r${i}/select`,
    opsPerSec: x,
    log: Math.log(0.95) + [0.002, -0.001, 0.001, -0.002, 0][i],
  }));
  const c = /** @type {NonNullable<ReturnType<typeof judgeRounds>>} */ (judgeRounds(reference, member));
  assert.ok(Math.abs(c.change + 0.05) < 0.003 && c.high - c.low < 0.01, JSON.stringify(c));
  assert.equal(c.verdict, 'slower');
  const unpaired = /** @type {NonNullable<ReturnType<typeof judgeRounds>>} */ (
    judgeRounds(
      reference,
      member.map(({ log: _, ...m }) => m),
    )
  );
  assert.ok(unpaired.high - unpaired.low > 0.5, 'without the slices the same rounds decide nothing');
});

test('a block: every case one slice per cycle, at least MIN_CYCLES, its hooks untimed, a failing case out with its error', () => {
  let before = 0;
  let after = 0;
  let ran = 0;
  let boom = 0;
  const spin = (/** @type {number} */ us) => {
    const until = performance.now() + us / 1000;
    while (performance.now() < until);
  };
  const cases = [
    { task: { run: (/** @type {number} */ n) => ((ran += n), spin(20 * n)) } },
    {
      task: {
        run: (/** @type {number} */ n) => spin(50 * n),
        before: () => before++,
        after: () => after++,
      },
    },
    {
      task: {
        run: () => {
          if (++boom > 40) throw new Error('the fortieth operation failed');
          spin(30);
        },
        maxBatch: 1,
      },
    },
  ];
  const budget = { time: 20, warmupTime: 2, minSamples: 2, minSampleMs: 0.1, rounds: 1 };
  let gcs = 0;
  const out = measureBlock(cases, budget, createRandom(1), () => gcs++);
  assert.equal(gcs, 1, 'one untimed clean-up after the warm-ups');
  const [a, b, c] = out;
  assert.ok('round' in a && 'round' in b && 'error' in c, JSON.stringify(out.map((x) => Object.keys(x))));
  assert.match(String(/** @type {any} */ (c).error), /fortieth/);
  assert.equal(a.round.slices.length, b.round.slices.length, 'one slice each per cycle');
  assert.ok(a.round.slices.length >= MIN_CYCLES);
  assert.ok(before > 0 && before === after, `before ${before}, after ${after}: once per sample`);
  assert.ok(ran > 0 && a.round.opsPerSample >= 1);
  assert.ok(a.round.fast >= a.round.opsPerSec);
});

test('the noise line: slow-state share from the slices, steal from /proc/stat, threads per core from /sys', async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { scratch } = await import('./helpers.js');
  const { cpuTimes, noiseLine, noiseOf, slowCounter, stealBetween, topology } =
    await import('../bench/result/noise.js');
  const counter = slowCounter();
  counter.add('select', [10000, 9900, 6000, 5900], 10000); // two of four over 25% slower
  counter.add('insert', [1000, 100], 1000); // fsync-bound: its own share, not in the CPU-bound one
  const dir = scratch('noise-');
  const stat = (/** @type {string} */ name, /** @type {number[]} */ n) => {
    fs.writeFileSync(path.join(dir, name), `cpu  ${n.join(' ')} 0 0\ncpu0 1 2 3\n`);
    return cpuTimes(path.join(dir, name));
  };
  const a = stat('a', [100, 0, 50, 800, 10, 0, 0, 40]);
  const b = stat('b', [200, 0, 100, 1600, 20, 0, 0, 80]);
  assert.deepEqual(a, { steal: 40, total: 1000 });
  assert.equal(stealBetween(a, b), 0.04);
  assert.equal(stealBetween(null, b), null);
  assert.equal(cpuTimes(path.join(dir, 'none')), null);
  const sys = path.join(dir, 'sys');
  for (const [cpu, siblings] of [
    ['cpu0', '0-1'],
    ['cpu1', '0-1'],
    ['cpu2', '2,3'],
    ['cpu3', '2,3'],
  ]) {
    fs.mkdirSync(path.join(sys, cpu, 'topology'), { recursive: true });
    fs.writeFileSync(path.join(sys, cpu, 'topology', 'thread_siblings_list'), `${siblings}\n`);
    fs.writeFileSync(path.join(sys, cpu, 'topology', 'physical_package_id'), '0\n');
  }
  const topo = topology(sys);
  assert.deepEqual(topo, { cpus: 4, threadsPerCore: 2, sockets: 1 });
  const noise = noiseOf(counter, { select: 1.5 }, 0.04, topo);
  assert.equal(noise.slowShare, 0.5, 'select is CPU-bound; insert is not counted in the share');
  assert.deepEqual(noise.byOp, { select: 0.5, insert: 0.5 });
  assert.equal(
    noiseLine(noise),
    "Machine noise: 50% of the CPU-bound slices ran in the slow state (over 25% slower than their round's fastest typical); steal 4.0% of CPU time; 4 logical CPUs, 2 threads per core.",
  );
  assert.equal(noiseLine(undefined), null, 'a document without noise (it measured nothing) has no noise line');
});

test('the machines table says how noisy each run was, and "not recorded" where a document cannot say', async () => {
  const { noiseCell } = await import('../aggregate/sections/machines.js');
  assert.equal(
    noiseCell({ slowShare: 0.47, steal: 0.002, topology: { cpus: 2, threadsPerCore: 1 } }),
    'slow 47% · steal 0.2% · 1 thread(s)/core',
  );
  assert.equal(noiseCell(undefined), 'not recorded', 'a document that measured nothing (npm run ci:failure)');
  assert.equal(
    noiseCell({ slowShare: null, byOp: {}, steal: null, topology: null }),
    'not recorded',
    'a synthetic one',
  );
});
