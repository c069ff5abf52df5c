// The suite's engine on real SQLite files, in this process and its engine processes: the case
// order, rounds and extra rounds, templates built once, a killed engine. `npm run bench` end to end
// (the quick suite's document, an interrupted run, --keep-db) is test/e2e/quick-suite.test.js.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { shuffledCases } from '../bench/engine/session.js';
import { caseKey, cases, setups, CASE_NAMES } from '../bench/data/suite.js';
import { ROOT, entries, scratch } from './helpers.js';

const KEY = 'never-print-me-7f3a9c';

test('the case order is shuffled by the seed, so no config is always first', () => {
  // the order a run measures in and records is this one (test/e2e/quick-suite.test.js)
  const firsts = new Set();
  for (let seed = 1; seed <= 8; seed++) {
    const { list } = shuffledCases({ seed, filters: { op: ['size'] } });
    firsts.add(caseKey(list[0]).split('/').slice(0, 3).join('/'));
  }
  assert.ok(firsts.size >= 4, [...firsts].join(' '));
});

test('a full run measures each round in a new engine process, gives imprecise cases extra rounds up to maxRounds, and none after the deadline', async () => {
  const { loadDrivers } = await import('../bench/engine/load-drivers.js');
  const { runSuite } = await import('../bench/run/run-suite.js');
  const drivers = await loadDrivers();
  const filters = { config: ['production'], driver: ['better-sqlite3'], op: ['select', 'update', 'size'] };
  const run = async (/** @type {object} */ budget) => {
    const r = await runSuite({
      mode: 'full',
      filters,
      seed: 3,
      drivers,
      state: { interrupted: null },
      budget: { time: 10, warmupTime: 2, ...budget },
    });
    return { engines: r.engines, ...Object.fromEntries(/** @type {any[]} */ (r.cases).map((c) => [c.op, c])) };
  };
  const rounds = (/** @type {any} */ c) => c.stats.rounds.length;
  // no case can reach a precision of 0: each gets extra rounds up to maxRounds
  const forced = await run({ rounds: 3, maxRounds: 6, targetRse: 1e-9, deadlineSeconds: 600 });
  assert.equal(rounds(forced.select), 6);
  assert.equal(rounds(forced.update), 6);
  assert.equal(forced.size.status, 'ok', 'the size is read once, never in rounds');
  assert.equal(forced.select.stats.opsPerSec.rse >= 0, true);
  assert.ok(
    forced.engines >= 6,
    `${forced.engines}: a new engine process for each of the 3 rounds and each extra round (3 at least)`,
  );
  // every case is precise enough at once
  const easy = await run({ rounds: 3, maxRounds: 6, targetRse: 1000, deadlineSeconds: 600 });
  assert.deepEqual([rounds(easy.select), rounds(easy.update)], [3, 3]);
  assert.equal(easy.engines, 3);
  // the deadline has passed before the extra rounds: none
  const late = await run({ rounds: 3, maxRounds: 6, targetRse: 1e-9, deadlineSeconds: 1e-6 });
  assert.deepEqual([rounds(late.select), rounds(late.update)], [3, 3]);
  // a quick run is one round, however imprecise, and no extra round
  const quick = await runSuite({
    mode: 'quick',
    filters,
    seed: 3,
    drivers,
    state: { interrupted: null },
    budget: { time: 10, warmupTime: 2, targetRse: 1e-9 },
  });
  assert.deepEqual(
    /** @type {any[]} */ (quick.cases).filter((c) => c.stats).map((c) => c.stats.rounds.length),
    [1, 1],
  );
  assert.equal(quick.engines, 1);
});

test("an engine process that dies while it measures makes that case an error with the reason, the run goes on in a new one, and the dead engine's files are removed", async () => {
  const { loadDrivers } = await import('../bench/engine/load-drivers.js');
  const { runSuite } = await import('../bench/run/run-suite.js');
  const drivers = await loadDrivers();
  let killed = '';
  // the run and its engines make their temp files in a directory of their own, counted before and after
  const tmp = scratch('bench-tmp-');
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  /** @type {string[][]} */
  const seen = [];
  let r;
  try {
    assert.deepEqual(entries(tmp), []);
    r = await runSuite({
      mode: 'full',
      filters: { config: ['production'], driver: ['better-sqlite3'], op: ['select', 'update', 'insert'] },
      seed: 5,
      drivers,
      state: { interrupted: null },
      budget: { time: 10, warmupTime: 2, rounds: 2, maxRounds: 2 },
      onProgress: (p) => {
        if (p.done !== 1 || !p.current || typeof p.current === 'string') return;
        // the engine that measured the first case is about to get the second: kill it
        killed = `${p.current.config}/${p.current.driver}/${p.current.cipher}/${p.current.op}`;
        seen.push(entries(tmp));
        spawnSync('pkill', ['-KILL', '-P', String(process.pid), '-f', 'bench/engine/engine.js']);
      },
    });
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  assert.equal(seen.length, 1);
  assert.ok(
    seen[0].some((d) => d.startsWith('sqlite-bench-engine-')) && seen[0].some((d) => d.startsWith('sqlite-bench-run-')),
    `the engine and the run work in the temp dir: ${seen[0]}`,
  );
  assert.deepEqual(entries(tmp), [], "the killed engine's directory (and the run's) are removed");
  const cs = /** @type {any[]} */ (r.cases);
  const byKey = Object.fromEntries(cs.map((c) => [`${c.config}/${c.driver}/${c.cipher}/${c.op}`, c]));
  assert.equal(byKey[killed].status, 'error');
  assert.match(byKey[killed].reason, /engine process measuring it failed: engine stopped \(signal SIGKILL\)/);
  const others = cs.filter((c) => c !== byKey[killed]);
  assert.equal(others.length, 2);
  for (const c of others) assert.equal(c.stats.rounds.length, 2, `${c.op} was measured in both rounds`);
  assert.equal(r.engines, 3, 'round 1 in two engines (one killed), round 2 in one');
});

test('the engines of a run build and prove each template once: a later engine copies it, with the proof, and still reads every PRAGMA back', async () => {
  const { loadDrivers } = await import('../bench/engine/load-drivers.js');
  const { createSession } = await import('../bench/engine/session.js');
  const drivers = await loadDrivers();
  const templates = scratch('bench-templates-');
  const saved = process.env.SQLITE_BENCH_KEY;
  process.env.SQLITE_BENCH_KEY = KEY; // a run gives all its engines one key
  try {
    const engine = () =>
      createSession({
        mode: 'full',
        filters: {
          config: ['production'],
          driver: ['better-sqlite3-multiple-ciphers'],
          cipher: ['chacha20'],
          op: ['update'],
        },
        seed: 3,
        drivers,
        templates,
        budget: { time: 10, warmupTime: 2, seedMessages: 300 },
      });
    const first = engine();
    const [c] = first.list;
    const [a] = /** @type {any[]} */ (first.runBlock([c], first.budget, Math.random));
    assert.ok(a.round, a.reason);
    const [dir] = fs.readdirSync(templates);
    const file = path.join(templates, dir, 'template.db');
    const built = fs.statSync(file);
    assert.ok(fs.existsSync(path.join(templates, dir, 'template.json')), 'the builder stamps its template');
    first.dispose();
    assert.ok(fs.existsSync(file), 'the template outlives the engine that built it');
    const second = engine();
    const [b] = /** @type {any[]} */ (second.runBlock([c], second.budget, Math.random));
    assert.ok(b.round, b.reason);
    const reused = fs.statSync(file);
    assert.deepEqual(
      [reused.ino, reused.mtimeMs],
      [built.ino, built.mtimeMs],
      'the second engine rebuilt the template',
    );
    assert.deepEqual(second.setups(), first.setups(), 'the proof and PRAGMA readings travel with the template');
    assert.equal(second.setups()[0].encryption.keylessOpen, 'SQLITE_NOTADB');
    const { temp_store_directory: tempdir, ...rest } = b.pragmas;
    assert.ok(tempdir.startsWith(second.workdir), `${tempdir}: each engine's temp files go to its own directory`);
    const { temp_store_directory: _, ...before } = a.pragmas;
    assert.deepEqual(rest, before, 'every round reads its PRAGMAs back on its own copy');
    assert.ok(b.verified.updated > 0);
    second.dispose();
  } finally {
    if (saved === undefined) delete process.env.SQLITE_BENCH_KEY;
    else process.env.SQLITE_BENCH_KEY = saved;
  }
});

test('setups() runs every config but the claim-only ones on the production cipher, every cipher on production, every driver unencrypted', async () => {
  const { DEFAULT_CONFIGS } = await import('../bench/data/configs.js');
  const s = setups().map((x) => `${x.config}/${x.driver}/${x.cipher}`);
  assert.equal(new Set(s).size, s.length);
  for (const c of DEFAULT_CONFIGS) assert.ok(s.includes(`${c}/better-sqlite3-multiple-ciphers/chacha20`));
  // the claim-only configs run in their claims' cases only (test/production-claims.test.js)
  for (const c of CASE_NAMES.config.filter((x) => !DEFAULT_CONFIGS.includes(x)))
    assert.ok(cases().some((k) => k.config === c) && !s.some((x) => x.startsWith(`${c}/`)), c);
  for (const c of CASE_NAMES.cipher) assert.ok(s.includes(`production/better-sqlite3-multiple-ciphers/${c}`));
  for (const d of CASE_NAMES.driver) assert.ok(s.includes(`production/${d}/none`));
  assert.ok(
    !s.some((x) => /better-sqlite3\/(?!none)|node:sqlite\/(?!none)/.test(x)),
    'a driver without encryption got a cipher',
  );
});

test('an engine removes only the temp directory start.js made for it, never one a user points at', async () => {
  const { ENGINE_TMP_ENV, ownTempDir } = await import('../bench/engine/start.js');
  const made = scratch('sqlite-bench-engine-');
  const other = scratch('not-an-engine-');
  const saved = process.env.TMPDIR;
  try {
    process.env.TMPDIR = made;
    assert.equal(ownTempDir({ [ENGINE_TMP_ENV]: made }), made);
    assert.equal(ownTempDir({}), null);
    assert.equal(ownTempDir({ [ENGINE_TMP_ENV]: ROOT }), null, 'not its temp dir');
    process.env.TMPDIR = other;
    assert.equal(ownTempDir({ [ENGINE_TMP_ENV]: other }), null, 'not named as start.js names it');
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});
