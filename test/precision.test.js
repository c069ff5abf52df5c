import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { floorOf, parseFloorFlags } from '../bench/meta/floor.js';
import { probeMachine } from '../bench/meta/probe.js';
import { cv } from '../lib/stats/spread.js';
import { createRandom } from '../lib/prng.js';
import { ROOT, childEnv, scratch } from './helpers.js';

test('the machine probe times real fsyncs and CPU work, and leaves nothing behind', () => {
  const dir = scratch('bench-probe-');
  const p = probeMachine({ ms: 150, dir });
  assert.ok(Number.isFinite(p.fsyncPerSec) && p.fsyncPerSec > 0, String(p.fsyncPerSec));
  assert.ok(Number.isFinite(p.cpuPerSec) && p.cpuPerSec > 0, String(p.cpuPerSec));
  assert.ok(Number.isFinite(p.memoryPerSec) && p.memoryPerSec > 0, String(p.memoryPerSec));
  assert.deepEqual(fs.readdirSync(dir), []);
});

test("meta:precision reports the CV across runs and each run's shift beside the machine probes around it", () => {
  const out = scratch('bench-precision-');
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'bench/meta/precision.js'),
      '--runs',
      '2',
      '--out',
      out,
      '--probe-ms',
      '50',
      '--quick',
      '--config',
      'production',
      '--driver',
      'better-sqlite3',
      '--op',
      'select,insert',
    ],
    { encoding: 'utf8', env: childEnv() },
  );
  assert.equal(r.status, 0, r.stderr);
  // the runs' documents in a new folder, the report a new pair beside it: nothing written over
  const entries = fs.readdirSync(out);
  assert.equal(entries.length, 3, entries.join(', '));
  const json = /** @type {string} */ (entries.find((f) => /^precision-.+\.json$/.test(f)));
  assert.ok(entries.includes(json.replace(/\.json$/, '.md')), entries.join(', '));
  const s = JSON.parse(fs.readFileSync(path.join(out, json), 'utf8'));
  assert.equal(s.runs, 2);
  assert.equal(s.cases, 2);
  assert.equal(s.machine.length, 2);
  for (const m of s.machine) {
    assert.ok(Number.isFinite(m.io) && Number.isFinite(m.cpu), JSON.stringify(m));
    for (const x of [...m.fsyncPerSec, ...m.cpuPerSec]) assert.ok(x > 0, JSON.stringify(m));
  }
  // the run after run 1's probe is run 2's "before": the probes are shared between neighbours
  assert.equal(s.machine[0].fsyncPerSec[1], s.machine[1].fsyncPerSec[0]);
  // two runs: each case's two figures sit either side of their mean, so the shifts are opposite
  assert.ok(Math.abs(s.machine[0].io + s.machine[1].io) < 1e-9, JSON.stringify(s.machine));
  assert.match(r.stdout, /\| Run \| Shift, fsync-bound \|/);
  assert.match(r.stdout, /CV across runs of the probes: fsync \d+\.\d\d%, CPU \d+\.\d\d%/);
  const bad = spawnSync(process.execPath, [path.join(ROOT, 'bench/meta/precision.js'), '--probe-ms', 'soon'], {
    encoding: 'utf8',
    env: childEnv(),
  });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr.trim(), /^precision: bad --probe-ms 'soon'; valid: a whole number from 10 to 60000$/);
});

test('the floor: a steady machine has none, a run-level shift is the floor whatever the rounds, and more rounds narrow in-run noise', () => {
  const random = createRandom(7);
  const o = { rounds: [5, 25], draws: 300, random };
  // the same rate everywhere: nothing to see
  const steady = floorOf(
    [
      [100, 100, 100, 100, 100],
      [100, 100, 100, 100, 100],
    ],
    { ...o, rounds: [5] },
  );
  assert.equal(steady.windowSpread, 0);
  assert.equal(steady.runCv, 0);
  assert.deepEqual(steady.byRounds, [{ rounds: 5, cvMedian: 0, cvP90: 0, over1: 0, over3: 0 }]);
  // each run steady, at its own level (95, 100, 105): every draw sees exactly the runs' CV
  const shifted = floorOf(
    [95, 100, 105].map((x) => Array(40).fill(x)),
    o,
  );
  assert.equal(shifted.windowSpread, 0);
  assert.deepEqual(shifted.runMedians, [95, 100, 105]);
  assert.ok(Math.abs(shifted.runCv - cv([95, 100, 105])) < 1e-12);
  for (const b of shifted.byRounds) {
    assert.ok(Math.abs(b.cvMedian - shifted.runCv) < 1e-12, JSON.stringify(b));
    assert.equal(b.over3, 1); // a 5% CV is above 3% in every draw
  }
  // windows alternating 90 and 110 within each run: the robust spread is half the log distance, scaled
  const alternating = floorOf(
    [0, 1].map(() => Array.from({ length: 40 }, (_, i) => (i % 2 ? 110 : 90))),
    o,
  );
  assert.ok(
    Math.abs(alternating.windowSpread - Math.expm1((1.4826 * Math.log(110 / 90)) / 2)) < 1e-12,
    String(alternating.windowSpread),
  );
  // independent noise around one level: 25 rounds pin the median down better than 5, and the
  // median of all windows is better still
  const noisy = floorOf(
    Array.from({ length: 5 }, () => Array.from({ length: 400 }, () => 100 * (1 + 0.1 * (random() - 0.5)))),
    o,
  );
  const [five, twentyFive] = noisy.byRounds;
  assert.ok(twentyFive.cvMedian < five.cvMedian * 0.7, JSON.stringify(noisy.byRounds));
  assert.ok(noisy.runCv < twentyFive.cvMedian, JSON.stringify(noisy));
  // rounds beyond the windows a run has are not drawn
  assert.deepEqual(
    floorOf(
      [
        [1, 2, 3],
        [1, 2, 3, 4],
      ],
      { ...o, rounds: [3, 4] },
    ).byRounds.map((b) => b.rounds),
    [3],
  );
});

test('meta:floor times each probe window after window, writes the series and the floor, and refuses bad flags', () => {
  const out = scratch('bench-floor-');
  const tmp = scratch('bench-floor-tmp-');
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'bench/meta/floor.js'),
      '--runs',
      '2',
      '--seconds',
      '0.4',
      '--window',
      '20',
      '--rounds',
      '3',
      '--draws',
      '20',
      '--out',
      out,
    ],
    { encoding: 'utf8', env: childEnv({ TMPDIR: tmp }) },
  );
  assert.equal(r.status, 0, r.stderr);
  const [json, md] = fs.readdirSync(out).sort();
  assert.match(json, /^floor-.+\.json$/);
  assert.equal(md, json.replace(/\.json$/, '.md'));
  const f = JSON.parse(fs.readFileSync(path.join(out, json), 'utf8'));
  assert.equal(f.runs, 2);
  for (const p of ['fsync', 'checkpoint', 'cpu', 'memory']) {
    assert.equal(f.series[p].length, 2);
    for (const run of f.series[p]) {
      assert.ok(run.length >= 3, `${p}: ${run.length} windows`);
      for (const x of run) assert.ok(Number.isFinite(x) && x > 0, `${p}: ${x}`);
    }
    assert.deepEqual(
      f.probes[p].byRounds.map((/** @type {any} */ b) => b.rounds),
      [3],
    );
    assert.ok(f.probes[p].runCv >= 0);
  }
  // the probe's file (in the temp dir, as the suite's databases) is gone
  assert.deepEqual(fs.readdirSync(tmp), []);
  assert.equal(fs.readdirSync(out).length, 2, 'the report pair and nothing else');
  assert.match(fs.readFileSync(path.join(out, md), 'utf8'), /\| fsync \(4 KiB rewrite \+ fdatasync\) +\| +\d+ \|/);
  assert.match(r.stdout, /\| fsync \(4 KiB rewrite \+ fdatasync\) +\| +\d+ \|/);
  assert.match(r.stdout, /\| checkpoint \(log append, 2 fdatasync, truncate\) +\| +\d+ \|/);
  assert.deepEqual(parseFloorFlags([]), {
    runs: 5,
    seconds: 570,
    window: 200,
    rounds: [5, 25, 100],
    draws: 2000,
    seed: 1,
    out: 'out/meta',
  });
  /** @type {[string[], string | RegExp][]} the flags, and the one line they must be refused with */
  const refusals = [
    [['--rounds', '5,x'], "floor: bad --rounds '5,x'; valid: whole numbers from 1 to 100000, comma-separated"],
    [['--runs', '1'], "floor: bad --runs '1'; valid: a whole number from 2 to 100"],
    [
      ['--minutes', '3'],
      /^floor: Unknown option '--minutes'.*; valid flags: --runs, --seconds, --window, --rounds, --draws, --seed, --out, --help$/,
    ],
  ];
  for (const [args, message] of refusals) {
    const bad = spawnSync(process.execPath, [path.join(ROOT, 'bench/meta/floor.js'), ...args], {
      encoding: 'utf8',
      env: childEnv(),
    });
    assert.equal(bad.status, 2, bad.stderr);
    if (typeof message === 'string') assert.equal(bad.stderr.trim(), message);
    else assert.match(bad.stderr.trim(), message);
  }
});
