// The PR check's time (issue 40): each phase of a compare timed in its output, both sides counted
// at once where the cores allow it, and fewer timed rounds for the cases whose counts decide their
// CPU cost, on crafted counts and documents. The real compare is test/e2e/compare-phases.test.js.
// No timing is asserted: only what was timed, and how.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { compareJsonProblem } from '../compare/comment.js';
import { countingLayout } from '../bench/paired/count-sides.js';
import { countRun } from '../bench/shootout/count-nodes.js';
import { report } from '../compare/report.js';
import { ROUNDS_RULE, fewerRounds } from '../compare/timed-rounds.js';
import { scratch } from './helpers.js';
import { compareDoc, countingOf } from './compare-doc.js';

/** Where a case's instructions go (bench/data/components.js). */
const PARTS = { sqlite: 60_000, cipher: 0, runtime: 30_000, binding: 2_000, libc: 8_000, other: 0 };

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
  components: PARTS,
  repeat: { instructions: 100_000, difference: 0, syscallsSame: o.same ?? true, components: PARTS },
});
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
  const fewer = fewerRounds(countingOf(base, head));
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

/** A compare's document with these phases (undefined: none). */
const result = (/** @type {any} */ phases) => {
  const doc = compareDoc({ phases });
  if (phases === undefined) delete doc.run.phases;
  return doc;
};
const PHASES = [
  { phase: 'prepare', seconds: 60 },
  { phase: 'count', seconds: 180, base: 170, head: 178, together: true },
  { phase: 'timed', seconds: 200, rounds: 5, cases: 226 },
  { phase: 'timed', seconds: 150, rounds: 5, cases: 140 },
  { phase: 'report', seconds: 0.2 },
];

test("compare.json: the phases are checked and the report says where the minutes went and each case's rounds", () => {
  assert.equal(compareJsonProblem(result(PHASES)), null);
  assert.equal(
    compareJsonProblem(result(undefined)),
    "compare.json is not a compare run: /run/phases is missing: a compare's run states it",
  );
  assert.equal(
    compareJsonProblem(result([{ phase: '<img src=x>', seconds: 1 }])),
    'compare.json is not a run document: /run/phases/0/phase must be equal to one of the allowed values (prepare, count, timed, report)',
  );
  assert.match(
    String(compareJsonProblem(result([{ phase: 'timed', seconds: -1 }]))),
    /: \/run\/phases\/0\/seconds must be >= 0$/,
  );
  assert.match(
    String(compareJsonProblem(result([{ phase: 'timed', seconds: 1, rounds: 1.5 }]))),
    /: \/run\/phases\/0\/rounds must be integer$/,
  );
  assert.match(String(compareJsonProblem(result({}))), /: \/run\/phases must be array$/);
  const md = report(/** @type {any} */ (result(PHASES)));
  const line = md.split('\n').find((l) => l.startsWith('**Where the time went**'));
  assert.ok(line, md);
  assert.match(line, /preparing the sides 1\.0 min/);
  assert.match(line, /counting 3\.0 min \(both sides at once: base 2\.8, head 3\.0\)/);
  assert.match(line, /timing 226 cases × 5 rounds 3\.3 min; 140 cases × 5 more rounds 2\.5 min/);
  assert.match(md, /140 case\(s\) were timed in all 10 rounds; the other 86 in 5/);
  assert.match(
    md,
    /false-alarm rate of the time verdicts was measured at 10 rounds for every case \(0 of 20\), and at 5/,
  );
});

test('a side without counts is unavailable or an error as its counting says, whatever the words of its reason', async () => {
  /** A checkout whose `npm run counts` (bench/counts/cli.js) does what `body` does; --out is its last flag. */
  const checkout = (/** @type {string | null} */ body) => {
    const dir = scratch('count-status-');
    fs.mkdirSync(path.join(dir, 'bench/counts'), { recursive: true });
    if (body !== null)
      fs.writeFileSync(path.join(dir, 'bench/counts/cli.js'), `const out = process.argv.at(-1);\n${body}\n`);
    return { label: path.basename(dir), dir };
  };
  const write = (/** @type {object} */ doc) =>
    `require('node:fs').writeFileSync(out, ${JSON.stringify(JSON.stringify(doc))});`;
  const status = async (/** @type {string | null} */ body) => {
    const ok = checkout(write({ counting: { status: 'ok' }, cases: [] }));
    const { counting } = await countRun([ok, checkout(body)], [], () => [], {
      log: () => {},
      together: false,
      jobs: 1,
    });
    return [counting.status, counting.reason];
  };
  const [none, why] = await status(null);
  assert.equal(none, 'unavailable', 'no counting script: older than the counts');
  assert.match(String(why), /has no bench\/counts\/cli\.js/);
  const words = 'counting unavailable: cannot count, older than the counts';
  assert.equal(
    (await status(`console.error(${JSON.stringify(words)}); process.exit(1);`))[0],
    'error',
    'a crash is an error',
  );
  assert.equal((await status(write({ counting: { status: 'unavailable', reason: 'no valgrind' } })))[0], 'unavailable');
  assert.equal((await status(write({ counting: { status: 'error', reason: words } })))[0], 'error');
});
