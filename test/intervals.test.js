// The interval of an absolute figure and the detection of separated groups of rounds, on inputs
// where the answer is known.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { intervalOf, lands } from '../lib/stats/interval.js';
import { modesOf } from '../lib/stats/modes.js';
import { medianRse } from '../lib/stats/spread.js';
import { createRandom } from '../lib/prng.js';

test('two tight groups far apart are two modes, with their rates and shares', () => {
  const modes = modesOf([6000, 10600, 6050, 5980, 10500, 6020, 10650]);
  assert.deepEqual(
    modes?.map((m) => [Math.round(m.rate), m.share.toFixed(3), m.rounds]),
    [
      [6010, '0.571', 4],
      [10600, '0.429', 3],
    ],
  );
});

test('one group, one wild round, or a gap small against the spread are not modes', () => {
  assert.equal(modesOf([1000, 1010, 990, 1005, 995]), null, 'one tight group');
  assert.equal(modesOf([1000, 1010, 990, 1005, 600]), null, 'a single low round is an outlier, not a group');
  assert.equal(modesOf([1000, 1100, 1200, 1300, 1400, 1500]), null, 'an even spread has no gap');
  assert.equal(modesOf([1000, 1010, 1200, 1210]), null, 'a 19% gap is below MIN_GAP');
  assert.equal(modesOf([900, 1000, 1300, 1500]), null, 'groups as wide as their gap are not separated');
  assert.equal(modesOf([1000, 2000, 1000]), null, 'too few rounds');
});

test('the interval: within-run and between-run parts combine in quadrature around the median', () => {
  const rounds = [100, 101, 99, 100.5, 99.5];
  const within = medianRse(rounds);
  const i = /** @type {NonNullable<ReturnType<typeof intervalOf>>} */ (intervalOf(rounds, 2));
  const half = 2.776445 * Math.hypot(Math.log1p(within / 100), Math.log1p(0.02));
  assert.ok(Math.abs(i.low - 100 * Math.exp(-half)) < 1e-6 && Math.abs(i.high - 100 * Math.exp(half)) < 1e-6);
  assert.equal(i.modes, null);
  const none = /** @type {NonNullable<ReturnType<typeof intervalOf>>} */ (intervalOf(rounds, 0));
  assert.ok(none.high - none.low < i.high - i.low, 'a machine that moves between runs widens the interval');
  assert.equal(intervalOf([100, 101], 2), null, 'two rounds give no spread to go by');
});

test("a bimodal case's interval spans both modes", () => {
  const i = /** @type {NonNullable<ReturnType<typeof intervalOf>>} */ (intervalOf([6000, 10600, 6050, 5980, 10500], 1));
  assert.ok(i.low < 5980 && i.high > 10600, `${i.low} … ${i.high}`);
  assert.equal(i.modes?.length, 2);
});

test('coverage: repeats drawn from the model the interval assumes land inside it about 95% of the time', () => {
  // each run: the machine shifts by N(0, between), each of 5 rounds is the run's level times N(0, 3%)
  const random = createRandom(7);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const run = (/** @type {number} */ between) => {
    const level = Math.exp(normal() * between);
    const rounds = Array.from({ length: 5 }, () => 1000 * level * Math.exp(normal() * 0.03));
    const i = /** @type {NonNullable<ReturnType<typeof intervalOf>>} */ (intervalOf(rounds, between * 100));
    return { median: [...rounds].sort((a, b) => a - b)[2], low: i.low, high: i.high };
  };
  for (const between of [0, 0.02]) {
    let hit = 0;
    const n = 2000;
    for (let k = 0; k < n; k++) if (lands(run(between), run(between))) hit++;
    assert.ok(hit / n > 0.92 && hit / n < 0.995, `between ${between}: ${hit / n}`);
  }
  // an interval that leaves out a between-run shift that is there covers far less
  const blind = (/** @type {number} */ between) => {
    const level = Math.exp(normal() * between);
    const rounds = Array.from({ length: 5 }, () => 1000 * level * Math.exp(normal() * 0.03));
    const i = /** @type {NonNullable<ReturnType<typeof intervalOf>>} */ (intervalOf(rounds, 0));
    return { median: [...rounds].sort((a, b) => a - b)[2], low: i.low, high: i.high };
  };
  let hit = 0;
  for (let k = 0; k < 2000; k++) if (lands(blind(0.05), blind(0.05))) hit++;
  assert.ok(hit / 2000 < 0.8, `${hit / 2000}`);
});

test('a paired comparison pairs rounds by block, and a shift of the machine that falls on both cancels', async () => {
  const { judgeRounds } = await import('../lib/judge.js');
  // the machine drifts by ±20% from round to round; the member is 10% slower in every block
  const drift = [1, 1.2, 0.8, 1.1, 0.9, 1.15];
  const ref = drift.map((d, i) => ({ slot: `r${i}`, opsPerSec: 1000 * d * (1 + (i % 2 ? 0.005 : -0.005)) }));
  const slow = drift.map((d, i) => ({ slot: `r${i}`, opsPerSec: 900 * d }));
  const c = /** @type {NonNullable<ReturnType<typeof judgeRounds>>} */ (judgeRounds(ref, slow));
  assert.equal(c.verdict, 'slower');
  assert.ok(Math.abs(c.change + 0.1) < 0.01 && c.high < 0, JSON.stringify(c));
  // the same figures unpaired (each side's median ± its own spread) could not tell: the drift swamps 10%
  const same = drift.map((d, i) => ({ slot: `r${i}`, opsPerSec: 1000 * d * (1 + (i % 3 ? 0.004 : -0.006)) }));
  assert.equal(judgeRounds(ref, same)?.verdict, 'too noisy to tell');
  // only rounds measured in the same block pair up
  const elsewhere = slow.map((x) => ({ ...x, slot: `p${x.slot}` }));
  assert.equal(judgeRounds(ref, elsewhere), null);
  assert.equal(judgeRounds(ref.slice(0, 2), slow.slice(0, 2)), null, 'two pairs are too few');
});

test("a run's analysis: the machine's movement from its blocks, intervals and modes, paired comparisons and the self-check", async () => {
  const { analyseRun } = await import('../bench/result/analysis.js');
  const drift = [1, 1.1, 0.92, 1.05, 0.97]; // the machine's level in each round: every case moves with it
  const jitter = [1.002, 0.998, 1.001, 0.999, 1];
  const mk = (/** @type {string} */ config, /** @type {string} */ cipher, /** @type {number[]} */ rounds) => ({
    config,
    driver: 'better-sqlite3-multiple-ciphers',
    cipher,
    op: 'update',
    status: 'ok',
    stats: {
      opsPerSec: { median: [...rounds].sort((a, b) => a - b)[2], mean: 1, rme: 1, rse: 1 },
      rounds,
      slots: rounds.map((_, i) => `r${i}/update`),
    },
  });
  const cases = [
    mk(
      'production',
      'chacha20',
      drift.map((d, i) => 1000 * d * jitter[i]),
    ),
    mk(
      'production-twin',
      'chacha20',
      drift.map((d, i) => 1000 * d * jitter[(i + 1) % 5]),
    ),
    mk(
      'memory-temp-storage',
      'chacha20',
      drift.map((d, i) => 900 * d * jitter[(i + 2) % 5]),
    ),
    mk(
      'production',
      'none',
      drift.map((d, i) => 2000 * d * jitter[(i + 3) % 5]),
    ),
    mk('cache-size-64mb', 'chacha20', [6000, 10600, 6050, 5980, 10500]),
  ];
  const r = analyseRun(cases);
  assert.ok(r.machine.update > 3 && r.machine.update < 10, `the blocks moved by ${r.machine.update}%`);
  const find = (/** @type {string} */ id, /** @type {string} */ member) =>
    r.comparisons.find((c) => c.id === id && c.member === member);
  assert.equal(
    find('config', 'memory-temp-storage/better-sqlite3-multiple-ciphers/chacha20')?.verdict,
    'slower',
    'paired: the drift cancels and 10% shows',
  );
  assert.ok(
    Math.abs(
      /** @type {any} */ (find('config', 'memory-temp-storage/better-sqlite3-multiple-ciphers/chacha20')).change + 0.1,
    ) < 0.01,
  );
  assert.equal(find('cipher', 'production/better-sqlite3-multiple-ciphers/chacha20')?.verdict, 'slower');
  assert.deepEqual({ ...r.selfCheck, p: undefined }, { operations: 1, flagged: [], p: undefined, passed: true });
  assert.equal(r.selfCheck?.p, find('self-check', 'production-twin/better-sqlite3-multiple-ciphers/chacha20')?.p);
  const prod = r.cases[0].stats.opsPerSec;
  assert.ok(
    prod.low < 1000 * 0.92 && prod.high > 1000 * 1.05,
    `the interval holds the machine's movement: ${prod.low} … ${prod.high}`,
  );
  assert.equal(r.cases[4].stats.modes.length, 2, 'separated groups are modes');
  // unpaired, the same figures would say nothing: production's interval holds memory-temp-storage's median
  assert.ok(prod.low < r.cases[2].stats.opsPerSec.median);
  // a twin that differs fails the self-check; a quick run (one round) gives no comparison
  const broken = analyseRun([
    cases[0],
    mk(
      'production-twin',
      'chacha20',
      drift.map((d, i) => 800 * d * jitter[i]),
    ),
  ]);
  assert.equal(broken.selfCheck?.passed, false, "one operation's p below 0.05 is a combined p below 0.05");
  assert.deepEqual(broken.selfCheck?.flagged, ['update']);
  const quick = analyseRun(
    cases.map((c) => ({
      ...c,
      stats: { ...c.stats, rounds: c.stats.rounds.slice(0, 1), slots: c.stats.slots.slice(0, 1) },
    })),
  );
  assert.deepEqual([quick.comparisons.length, quick.selfCheck], [0, null]);
});

test('a machine that switches between blocks: the interval, with one block’s movement between runs, holds a repeat', () => {
  // each round in its own block, the machine's level there N(0, 15%) on the log scale, the case's
  // own noise 2%; the run measures that movement (here: as it is)
  const random = createRandom(11);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const run = () => {
    const rounds = Array.from({ length: 8 }, () => 1000 * Math.exp(normal() * 0.15 + normal() * 0.02));
    const i = /** @type {NonNullable<ReturnType<typeof intervalOf>>} */ (intervalOf(rounds, 15));
    const sorted = [...rounds].sort((a, b) => a - b);
    return { median: (sorted[3] + sorted[4]) / 2, i };
  };
  let inside = 0;
  const n = 2000;
  for (let k = 0; k < n; k++) {
    const [a, b] = [run(), run()];
    inside += Number(b.median >= a.i.low && b.median <= a.i.high);
  }
  assert.ok(inside / n > 0.995, `single block: ${inside / n}`);
});

test("the self-check's combined p: Fisher's method, in closed form (χ² with 2k degrees of freedom)", async () => {
  const { combinedP } = await import('../bench/result/analysis.js');
  // one p-value combines to itself; two of 0.05: P(χ²₄ > 11.98) = 0.0175 (tables)
  assert.ok(Math.abs(combinedP([0.3]) - 0.3) < 1e-12);
  assert.ok(Math.abs(combinedP([0.05, 0.05]) - 0.01747) < 1e-4, String(combinedP([0.05, 0.05])));
  // eight operations each at p 0.15, none excluding 0 on its own: together they fail
  assert.ok(combinedP(Array(8).fill(0.15)) < 0.05);
  // calibrated: eight middling p-values pass; a p of 0 fails without a NaN
  assert.ok(combinedP([0.9, 0.5, 0.3, 0.7, 0.6, 0.2, 0.8, 0.4]) > 0.5);
  assert.ok(combinedP([0, 0.5]) < 1e-100);
});

test('fastest typical is shown only where the operation writes nothing: counted, or select uncounted', async () => {
  const { fastText } = await import('../aggregate/render/figure.js');
  const c = (/** @type {string} */ op, /** @type {any} */ counts) => ({
    op,
    status: 'ok',
    stats: { fast: { opsPerSec: 2000, low: 1900, high: 2100 } },
    ...(counts ? { counts } : {}),
  });
  const syscalls = (/** @type {number} */ write, /** @type {number} */ fsync) => ({
    status: 'ok',
    syscalls: { fsync, write, read: 0, other: 2, runtime: 0 },
  });
  const num = String;
  assert.equal(fastText(c('select', null), num), '2000 ±5.0%');
  assert.equal(
    fastText(c('insert', null), num),
    null,
    'insert writes: its fastest slices are those without a checkpoint',
  );
  assert.equal(fastText(c('select', syscalls(0, 0)), num), '2000 ±5.0%');
  assert.equal(fastText(c('select', syscalls(1, 0)), num), null, 'counted writing: not shown');
  assert.equal(fastText(c('update', syscalls(0, 0)), num), '2000 ±5.0%', 'counted writing nothing: shown');
  assert.equal(fastText(c('delete', syscalls(17.6, 0.05)), num), null);
});
