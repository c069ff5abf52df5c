// The PR check's time (issue 40): each phase of a compare timed in its output, both sides counted
// at once where the cores allow it (the counts unchanged), and fewer timed rounds for the cases
// whose counts decide their CPU cost. No timing is asserted: only what was timed, and how.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { countingTools } from '../bench/counts/tools.js';
import { compareProblem } from '../compare/check.js';
import { countSides, countingLayout } from '../compare/count-sides.js';
import { report } from '../compare/report.js';
import { ROUNDS_RULE, fewerRounds } from '../compare/timed-rounds.js';
import { INSTRUCTIONS_FLOOR, costRows } from '../lib/costs.js';
import { ROOT, childEnv, scratch } from './helpers.js';

const tools = countingTools();
const skip = tools.status === 'ok' ? false : `cannot count here: ${tools.reason}`;

/**
 * A case's counts as the counting pass writes them.
 * @param {{ fsync?: number, same?: boolean }} [o]
 */
const counts = (o = {}) => ({
  status: 'ok',
  instructions: 100_000,
  syscalls: { fsync: o.fsync ?? 0, write: 1, read: 0, other: 1, runtime: 0 },
  calls: {},
  bytes: { read: 0, written: 4096 },
  repeat: { instructions: 100_000, difference: 0, syscallsSame: o.same ?? true },
});
const FILTERS = ['--config', 'production', '--driver', 'better-sqlite3', '--cipher', 'none', '--op', 'insert,update'];
const K = (/** @type {string} */ op, config = 'production') => `${config}/better-sqlite3/none/${op}`;
const side = (/** @type {[string, any][]} */ list) =>
  list.map(([key, c]) => ({ key, op: key.split('/').at(-1) ?? '', counts: c }));

test('fewer rounds only where the counts decide the CPU cost: CPU-bound, counted exactly on both sides, no fsync per operation', () => {
  const base = side([
    [K('select'), counts()],
    [K('update'), counts({ fsync: 0.002 })], // a checkpoint's fsyncs, spread over hundreds of updates
    [K('update', 'synchronous-full'), counts({ fsync: 1.02 })], // every commit waits on the disk
    [K('delete'), counts({ same: false })], // its two counts made different system calls
    [K('delete', 'synchronous-off'), counts({ fsync: 0.05 })], // a checkpoint every 20 deletes: the disk decides
    [K('insert'), counts()], // I/O-bound: it grows the files
  ]);
  const head = side([
    [K('select'), counts()],
    [K('update'), counts({ fsync: 0.002 })],
    [K('update', 'synchronous-full'), counts({ fsync: 1.02 })],
    [K('delete'), counts()],
    [K('delete', 'synchronous-off'), counts({ fsync: 0.05 })],
    [K('insert'), counts()],
    [K('checkpoint'), counts()], // counted on one side only
  ]);
  const fewer = fewerRounds({ status: 'ok', rows: costRows(base, head) });
  assert.equal(fewer(K('select')), true);
  assert.equal(fewer(K('update')), true);
  assert.equal(fewer(K('size')), true, 'a size is exact: one round says it');
  assert.equal(fewer(K('update', 'synchronous-full')), false, 'an fsync per commit: wall time decides the wait');
  assert.equal(fewer(K('delete')), false, 'counts that are not exact decide nothing');
  assert.equal(fewer(K('delete', 'synchronous-off')), false, 'an fsync every 20 operations: the disk decides');
  assert.equal(fewer(K('insert')), false, 'I/O-bound operations keep every round');
  assert.equal(fewer(K('checkpoint')), false, 'not counted on both sides');
  assert.equal(fewer(K('vacuum')), false, 'not counted at all');
  // without counts, every timed case keeps every round
  const none = fewerRounds({ status: 'unavailable', reason: 'not asked for (--no-counts)' });
  assert.equal(none(K('select')), false);
  assert.equal(none(K('size')), true);
  assert.ok(ROUNDS_RULE.cpuRounds >= 5, 'enough pairs to trim one at each end (20% trimmed mean)');
});

test('counting layout: both sides at once with at least 2 cores each, else one after the other on every core', () => {
  assert.deepEqual(countingLayout(2), { together: false, jobs: 2 });
  assert.deepEqual(countingLayout(3), { together: false, jobs: 3 });
  assert.deepEqual(countingLayout(4), { together: true, jobs: 2 });
  assert.deepEqual(countingLayout(9), { together: true, jobs: 4 });
  assert.deepEqual(countingLayout(0), { together: false, jobs: 1 }, 'os.cpus() is empty on some machines');
});

/** A compare.json as compare/cli.js writes it, with its phases. */
const result = (/** @type {any} */ phases) => ({
  kind: 'sqlite-node-bench/compare',
  version: 1,
  base: { given: 'main', commit: 'a'.repeat(40) },
  head: { given: '.', commit: 'b'.repeat(40) },
  method: 'interleaved',
  rounds: 10,
  threshold: 0.1,
  alpha: 0.05,
  engine: ['--quick'],
  seconds: 600,
  environment: { node: 'v20.19.0', platform: 'linux', arch: 'x64', cpuModel: 'cpu', cores: 4 },
  drivers: { base: [], head: [] },
  rows: [],
  phases,
});
const PHASES = [
  { phase: 'prepare', seconds: 60 },
  { phase: 'count', seconds: 180, base: 170, head: 178, together: true },
  { phase: 'timed', seconds: 200, rounds: 5, cases: 226 },
  { phase: 'timed', seconds: 150, rounds: 5, cases: 140 },
  { phase: 'report', seconds: 0.2 },
];

test("compare.json: the phases are checked and the report says where the minutes went and each case's rounds", () => {
  assert.equal(compareProblem(result(PHASES)), null);
  assert.equal(compareProblem(result(undefined)), null, 'a compare.json from before the phases');
  assert.equal(
    compareProblem(result([{ phase: '<img src=x>', seconds: 1 }])),
    "/phases/0/phase must be one of 'prepare', 'count', 'timed' or 'report'",
  );
  assert.match(String(compareProblem(result([{ phase: 'timed', seconds: -1 }]))), /^\/phases\/0\/seconds must be/);
  assert.match(
    String(compareProblem(result([{ phase: 'timed', seconds: 1, rounds: 1.5 }]))),
    /^\/phases\/0\/rounds must be a whole number/,
  );
  assert.match(String(compareProblem(result({}))), /^\/phases must be a list/);
  const md = report(/** @type {any} */ (result(PHASES)));
  const line = md.split('\n').find((l) => l.startsWith('**Where the time went**'));
  assert.ok(line, md);
  assert.match(line, /preparing the sides 1\.0 min/);
  assert.match(line, /counting 3\.0 min \(both sides at once: base 2\.8, head 3\.0\)/);
  assert.match(line, /timing 226 cases × 5 rounds 3\.3 min; 140 cases × 5 more rounds 2\.5 min/);
  assert.match(md, /140 case\(s\) were timed in all 10 rounds; the other 86 in 5/);
  assert.match(md, /false-alarm rate .* was measured at 10 rounds/);
});

test(
  'a compare of real checkouts times its phases; the CPU-bound case whose counts decide gets fewer rounds; both sides counted at once count what they count apart',
  { skip, timeout: 600_000 },
  async () => {
    const out = scratch('compare-phases-');
    const r = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'compare/cli.js'),
        '--base',
        ROOT,
        '--head',
        ROOT,
        '--quick',
        '--rounds',
        '4',
        '--cpu-rounds',
        '3',
        '--time',
        '5',
        ...FILTERS,
        '--out',
        out,
      ],
      { cwd: ROOT, encoding: 'utf8', env: childEnv(), maxBuffer: 64 * 1024 * 1024 },
    );
    assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${r.stderr.slice(-800)}`);
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'compare.json'), 'utf8'));
    assert.equal(compareProblem(doc), null, JSON.stringify(doc.rows));
    assert.equal(doc.costs.status, 'ok', doc.costs.reason);
    assert.deepEqual(
      doc.phases.map((/** @type {any} */ p) => p.phase),
      ['prepare', 'count', 'timed', 'timed', 'report'],
    );
    const total = doc.phases.reduce((/** @type {number} */ s, /** @type {any} */ p) => s + p.seconds, 0);
    assert.ok(total <= doc.seconds + 0.01, `the phases (${total} s) lie within the compare (${doc.seconds} s)`);
    const pairs = Object.fromEntries(doc.rows.map((/** @type {any} */ x) => [x.op, x.pairs]));
    assert.deepEqual(pairs, { insert: 4, update: 3 });
    assert.deepEqual(
      doc.phases
        .filter((/** @type {any} */ p) => p.phase === 'timed')
        .map((/** @type {any} */ p) => [p.cases, p.rounds]),
      [
        [2, 3],
        [1, 1],
      ],
    );
    assert.match(r.stderr, /phase count: .* s/);

    // the same sides counted at once (on any machine): what they count is what they counted apart
    // (this machine's layout) within the tolerance the compare allows a case (lib/costs.js)
    const together = await countSides(
      [
        { label: 'base', dir: ROOT },
        { label: 'head', dir: ROOT },
      ],
      ['--quick', ...FILTERS, '--seed', '1'],
      { log: () => {}, together: true, jobs: 2 },
    );
    assert.equal(together.status, 'ok', together.reason);
    assert.equal(together.together, true);
    const apart = new Map(doc.costs.rows.map((/** @type {any} */ x) => [x.key, x]));
    for (const row of together.rows ?? []) {
      assert.equal(row.verdict, 'same cost', `${row.key}: the same code counted at once on both sides`);
      const before = apart.get(row.key);
      for (const s of /** @type {const} */ (['base', 'head'])) {
        const [a, b] = [before[s], row[s]];
        assert.ok(a && b, `${row.key} ${s}: counted both times`);
        assert.ok(
          Math.abs(b.instructions / a.instructions - 1) <= Math.max(before.tolerance, INSTRUCTIONS_FLOOR),
          `${row.key} ${s}: ${b.instructions} at once, ${a.instructions} apart (tolerance ${before.tolerance})`,
        );
        assert.deepEqual(b.io, a.io, `${row.key} ${s}: the same system calls and bytes`);
      }
    }
  },
);
