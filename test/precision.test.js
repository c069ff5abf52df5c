import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { probeMachine } from '../bench/meta/probe.js';
import { ROOT, scratch } from './helpers.js';

test('the machine probe times real fsyncs and CPU work, and leaves nothing behind', () => {
  const dir = scratch('bench-probe-');
  const p = probeMachine({ ms: 150, dir });
  assert.ok(Number.isFinite(p.fsyncPerSec) && p.fsyncPerSec > 0, String(p.fsyncPerSec));
  assert.ok(Number.isFinite(p.cpuPerSec) && p.cpuPerSec > 0, String(p.cpuPerSec));
  assert.deepEqual(fs.readdirSync(dir), []);
});

test('bench:precision reports the CV across runs and each run\'s shift beside the machine probes around it', () => {
  const out = scratch('bench-precision-');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bench/meta/precision.js'), '--runs', '2', '--out', out, '--probe-ms', '50', '--quick', '--config', 'production', '--driver', 'better-sqlite3', '--op', 'select,insert'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const s = JSON.parse(fs.readFileSync(path.join(out, 'precision.json'), 'utf8'));
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
  const bad = spawnSync(process.execPath, [path.join(ROOT, 'bench/meta/precision.js'), '--probe-ms', 'soon'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr.trim(), /^precision: bad --probe-ms 'soon'; valid: a whole number of ms from 10 to 60000$/);
});
