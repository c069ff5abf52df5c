// The round loop of every run (bench/run/runner.js): what it does with engines (started per side
// and round in a rotating order, stopped, killed on a failure) and its two failure policies. The
// engines here are stand-ins that record what the loop asks of them; the real engines, measuring
// real SQLite files through this loop, are in test/suite.test.js (the suite) and
// test/shootout.test.js (several sides).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runRounds } from '../bench/run/runner.js';

/** Sides whose engines log their starts, stops and kills. */
function sides(/** @type {string[]} */ labels, /** @type {string[]} */ log) {
  return labels.map((label) => ({
    start: async () => {
      log.push(`start ${label}`);
      return {
        label,
        stop: async () => void log.push(`stop ${label}`),
        kill: () => void log.push(`kill ${label}`),
      };
    },
  }));
}

test('each round starts one engine per side in a rotating order, measures its units, and stops them; progress counts case-rounds', async () => {
  const log = /** @type {string[]} */ ([]);
  const progress = /** @type {string[]} */ ([]);
  const r = await runRounds(sides(['a', 'b'], log), {
    more: (r) => r < 2,
    units: (r) => [
      { current: `x${r}`, size: 2 },
      { current: `y${r}`, size: 1 },
    ],
    measure: async (u, engines) => void log.push(`${u.current} on ${engines.map((e) => e.label).join('')}`),
    later: (r) => (1 - r) * 3,
    onProgress: (p) => void progress.push(`${p.done}/${p.total} ${p.current}`),
  });
  assert.deepEqual(log, [
    'start a',
    'start b',
    'x0 on ab',
    'y0 on ab',
    'stop a',
    'stop b',
    'start b',
    'start a',
    'x1 on ab',
    'y1 on ab',
    'stop a',
    'stop b',
  ]);
  assert.deepEqual(progress, ['0/6 x0', '2/6 y0', '3/6 x1', '5/6 y1', '6/6 null']);
  assert.equal(r.engines, 4);
  assert.equal(r.seconds.length, 2);
});

test('an engine failure fails a run of several sides, every engine killed; with `failed` the unit gets its result and new engines go on', async () => {
  const log = /** @type {string[]} */ ([]);
  const o = {
    more: (/** @type {number} */ r) => r < 1,
    units: () => [{ current: 'x' }, { current: 'y' }],
    measure: async (/** @type {{ current: any }} */ u) => {
      if (u.current === 'x') throw new Error('engine stopped (signal SIGKILL)');
      log.push(`measured ${u.current}`);
    },
  };
  await assert.rejects(runRounds(sides(['a', 'b'], log), o), /signal SIGKILL/);
  assert.deepEqual(log, ['start a', 'start b', 'kill a', 'kill b']);
  log.length = 0;
  const failed = /** @type {string[]} */ ([]);
  const r = await runRounds(sides(['a'], log), { ...o, failed: (u, err) => void failed.push(`${u.current}: ${err}`) });
  assert.deepEqual(failed, ['x: Error: engine stopped (signal SIGKILL)']);
  assert.deepEqual(log, ['start a', 'kill a', 'start a', 'measured y', 'stop a']);
  assert.equal(r.engines, 2);
});

test('stop ends the run before the next unit, and its engines are stopped', async () => {
  const log = /** @type {string[]} */ ([]);
  const state = { interrupted: /** @type {string | null} */ (null) };
  await runRounds(sides(['a'], log), {
    more: () => true,
    units: () => [{ current: 'x' }, { current: 'y' }],
    measure: async (u) => {
      log.push(`measured ${u.current}`);
      state.interrupted = 'SIGINT';
    },
    stop: () => state.interrupted !== null,
  });
  assert.deepEqual(log, ['start a', 'measured x', 'stop a']);
});
