// The compare's counts (lib/costs.js, bench/counts/cli.js): the rule that calls a change in
// cost, checked on crafted counts; the report and compare.json's counting (its cases and their
// differences); the counts
// command's flags. On real counts of real SQLite files (known work injected and found, a pull
// request that adds one statement per insert named) it is test/e2e/compare-costs.test.js.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { compareJsonProblem } from '../compare/comment.js';
import { costRows, COUNT_FLOOR, movedComponents } from '../lib/costs.js';
import { report } from '../compare/report.js';
import { countsCli, scratch } from './helpers.js';
import { compareDoc, countingOf, row as wallRow } from './compare-doc.js';

/** Every component (bench/data/components.js), none of the instructions. */
const NONE = { sqlite: 0, cipher: 0, runtime: 0, binding: 0, libc: 0, other: 0 };

/**
 * A case's counts as the counting pass writes them, all its instructions in one component
 * (`other`: its floor and scale the total's, so it is judged as the total is).
 * @param {number} instructions
 * @param {{ repeat?: number, fsync?: number, write?: number, written?: number, read?: number, same?: boolean }} [o]
 */
const counts = (instructions, o = {}) => ({
  status: 'ok',
  instructions,
  syscalls: { fsync: o.fsync ?? 0, write: o.write ?? 2, read: o.read ?? 0, other: 1, runtime: 0 },
  calls: {},
  bytes: { read: 0, written: o.written ?? 8192 },
  components: { ...NONE, other: instructions },
  repeat: {
    instructions: instructions * (1 + (o.repeat ?? 0)),
    difference: o.repeat ?? 0,
    syscallsSame: o.same ?? true,
    components: { ...NONE, other: instructions * (1 + (o.repeat ?? 0)) },
  },
});
const row = (/** @type {string} */ key, /** @type {any} */ c) => ({ key, op: key.split('/').at(-1) ?? '', counts: c });
const K = (/** @type {string} */ op, cipher = 'none') => `production/better-sqlite3/${cipher}/${op}`;

test('costs: the same counts are the same cost; a change beyond the tolerance is named, with its direction', () => {
  const base = [
    row(K('update'), counts(30000)),
    row(K('delete'), counts(60000)),
    row(K('insert'), counts(80000, { fsync: 0.01 })),
  ];
  const head = [
    row(K('update'), counts(30000 * 1.02)),
    row(K('delete'), counts(60000 * (1 - 0.005))),
    row(K('insert'), counts(80000, { fsync: 0.01 })),
  ];
  const rows = costRows(base, head);
  const by = new Map(rows.map((r) => [r.key, r]));
  const update = by.get(K('update'));
  assert.equal(update?.verdict, 'costs more');
  assert.ok(Math.abs((update?.change ?? 0) - 0.02) < 1e-9);
  assert.equal(update?.tolerance, COUNT_FLOOR);
  assert.equal(update?.fails, true, '2% more instructions fails the check');
  assert.equal(by.get(K('delete'))?.verdict, 'costs less');
  assert.equal(by.get(K('delete'))?.fails, false);
  assert.equal(by.get(K('insert'))?.verdict, 'same cost');
  assert.deepEqual(
    rows.map((r) => [r.verdict, r.fails]),
    [
      ['costs less', false],
      ['same cost', false],
      ['costs more', true],
    ],
  );
});

test("costs: a case's tolerance grows with its own repeat spread and with its operation's", () => {
  const base = [
    row(K('select'), counts(1e6)),
    row(K('select', 'chacha20'), counts(1.1e6, { repeat: 0.01 })), // one select whose layouts put it 1% apart
    row(K('update'), counts(30000, { repeat: 0.002 })),
  ];
  const head = [
    row(K('select'), counts(1e6 * 1.015)),
    row(K('select', 'chacha20'), counts(1.1e6)),
    row(K('update'), counts(30000 * 1.005)),
  ];
  const by = new Map(costRows(base, head).map((r) => [r.key, r]));
  // 2 × the largest spread of a select: 2%, so 1.5% on a select is within it
  assert.ok(Math.abs((by.get(K('select'))?.tolerance ?? 0) - 0.02) < 1e-12);
  assert.equal(by.get(K('select'))?.verdict, 'same cost');
  // 3 × its own 0.2%: 0.6%, so 0.5% is within it
  assert.ok(Math.abs((by.get(K('update'))?.tolerance ?? 0) - 0.006) < 1e-12);
  assert.equal(by.get(K('update'))?.verdict, 'same cost');
});

test('costs: any change in fsyncs, writes or bytes per operation is a change; an added fsync or write fails', () => {
  const base = [
    row(K('insert'), counts(80000, { fsync: 0 })),
    row(K('update'), counts(30000, { write: 2 })),
    row(K('delete'), counts(60000, { read: 1 })),
    row(K('select'), counts(1e6, { write: 0, same: false })),
  ];
  const head = [
    row(K('insert'), counts(80000, { fsync: 1 / 60 })),
    row(K('update'), counts(30000, { write: 2, written: 8192 * 1.001 })),
    row(K('delete'), counts(60000, { read: 2 })),
    row(K('select'), counts(1e6, { write: 1 })),
  ];
  const by = new Map(costRows(base, head).map((r) => [r.key, r]));
  assert.deepEqual(by.get(K('insert'))?.io, [{ field: 'fsync', base: 0, head: 1 / 60 }]);
  assert.equal(by.get(K('insert'))?.verdict, 'costs more');
  assert.equal(by.get(K('insert'))?.fails, true);
  assert.equal(by.get(K('update'))?.verdict, 'costs more', '0.1% more bytes written is a change');
  assert.equal(by.get(K('update'))?.fails, false, '...but under 1% more bytes does not fail');
  assert.equal(by.get(K('delete'))?.fails, false, 'a read more is reported, not failed');
  assert.equal(by.get(K('delete'))?.verdict, 'costs more');
  assert.deepEqual(by.get(K('select'))?.io, [], 'system calls that did not repeat on a side are not compared');
});

test('costs: a case counted on one side only is not counted, with the reason', () => {
  const rows = costRows(
    [row(K('update'), { status: 'error', reason: 'callgrind process (first count) exited 1: boom' })],
    [row(K('update'), counts(30000)), row(K('delete'), counts(60000))],
  );
  assert.deepEqual(
    rows.map((r) => [r.key, r.verdict, r.reason]),
    [
      [K('delete'), 'not counted', 'base: not in this side'],
      [K('update'), 'not counted', 'base: callgrind process (first count) exited 1: boom'],
    ],
  );
});

/** A compare's document with these counted cases, and the wall time of the first one's case. */
const compareJson = (/** @type {any[]} */ base, /** @type {any[]} */ head) =>
  compareDoc({
    counting: countingOf(base, head),
    rows: [
      wallRow(base[0].key, 'too noisy to tell', {
        base: 1000,
        head: 990,
        change: -0.01,
        low: -0.2,
        high: 0.2,
        pAdjusted: 0.5,
        rounds: 3,
      }),
    ],
  });

test('the report leads with the cases whose cost changed, beside their wall-time verdict, every string inert', () => {
  const key = 'production/better-sqlite3/none/update';
  const json = compareJson([row(key, counts(30000))], [row(key, counts(30600, { write: 3 }))]);
  assert.equal(compareJsonProblem(json), null);
  assert.deepEqual(
    json.counting.differences.map((/** @type {any} */ d) => [d.verdict, d.fails]),
    [['costs more', true]],
  );
  const md = report(/** @type {any} */ (json));
  const lines = md.split('\n');
  const countsAt = lines.findIndex((l) =>
    l.startsWith('**Counts**: **1 case(s) fail the check**; 1 case(s) cost more'),
  );
  const wallAt = lines.findIndex((l) => /^(0 slower|\*\*\d+ slower\*\*)/.test(l));
  assert.ok(countsAt > 0 && countsAt < wallAt, md);
  const cells = lines.find((l) => l.includes('30k → 30.6k'));
  assert.ok(cells, md);
  assert.match(cells, /\*\*\+2\.0%\*\* \(±0\.10%\)/);
  assert.match(cells, /\*\*2 → 3\*\*/, 'the writes per operation, base → head');
  assert.match(cells, /too noisy to tell −1\.0%/);
  // a string of the document: inert
  const bad = report({ ...json, counting: { ...json.counting, status: 'error', reason: 'x|<img src=x>' } });
  assert.match(bad, /\*\*Counts\*\*: not compared \(x\\\|/, bad);
  assert.doesNotMatch(bad, /[^\\]<img/, 'escaped: it renders as text');
});

test("the counts' tally: a case counted on one side only, or on neither, is not counted", () => {
  const broken = { status: 'error', reason: 'callgrind process (first count) exited 1: boom' };
  const json = compareJson(
    [row(K('update'), counts(30000)), row(K('delete'), broken), row(K('select'), broken)],
    [row(K('update'), counts(30000)), row(K('delete'), counts(60000)), row(K('select'), broken)],
  );
  assert.equal(compareJsonProblem(json), null);
  assert.match(
    report(json),
    /^\*\*Counts\*\*: 0 case\(s\) cost more, 0 cost less, 0 changed both ways, 1 the same, 2 not counted\. /m,
  );
});

/**
 * A select's counts with components, as the counting pass writes them: the repeat's components as
 * given (its heap laid out differently), the instructions their sum.
 * @param {Record<string, number>} first
 * @param {Record<string, number>} [again] the repeat's, default the same
 */
const split = (first, again = first) => {
  const sum = (/** @type {Record<string, number>} */ c) => Object.values(c).reduce((a, b) => a + b, 0);
  const c = counts(sum(first));
  return {
    ...c,
    components: first,
    repeat: { ...c.repeat, instructions: sum(again), components: again, difference: sum(again) / sum(first) - 1 },
  };
};
/** Production's select on Node 24, in round figures: SQLite 231k, the runtime 191k, the binding 29k, libc 41k. */
const SELECT = { sqlite: 231000, cipher: 16, runtime: 191000, binding: 29000, libc: 41000, other: 0 };
const plus = (/** @type {Record<string, number>} */ c, /** @type {Record<string, number>} */ d) =>
  Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v + (d[k] ?? 0)]));

test("costs: +1% in SQLite's component of a select is found where its runtime's heap layout hides it in the total", () => {
  // each side's repeat moves the runtime by 1% (the layout pad) and SQLite by 0.01%, libc by 0.3%
  const noisy = (/** @type {Record<string, number>} */ c) =>
    split(c, plus(c, { runtime: 1910, sqlite: 23, libc: 123 }));
  const base = [row(K('select'), noisy(SELECT)), row(K('select', 'chacha20'), noisy(SELECT))];
  const head = [
    row(K('select'), noisy(plus(SELECT, { sqlite: 2310 }))), // +1% of SQLite: +0.45% of the select
    row(K('select', 'chacha20'), noisy(plus(SELECT, { runtime: 1910 }))), // another layout: runtime +1%
  ];
  const by = new Map(costRows(base, head).map((r) => [r.key, r]));
  const found = /** @type {import('../lib/costs.js').CostRow} */ (by.get(K('select')));
  assert.ok(Math.abs(found.change ?? 0) < (found.tolerance ?? 0), 'the total is within its tolerance');
  assert.equal(found.verdict, 'costs more');
  assert.equal(found.fails, false, "a component's change alone is reported, not failed");
  const [sqlite, ...others] = movedComponents(found);
  assert.deepEqual(others, [], 'SQLite alone moved');
  assert.equal(sqlite.component, 'sqlite');
  assert.ok(Math.abs(sqlite.change - 0.01) < 1e-4 && Math.abs(sqlite.delta - 2310) < 1e-6, String(sqlite.change));
  // SQLite's tolerance: its floor, 0.05% of the select (0.107% of SQLite), over 3 × its 0.01% spread
  assert.ok(Math.abs(sqlite.tolerance - 0.00107) < 1e-5, String(sqlite.tolerance));
  // a runtime moved by a layout, as far as each side's own repeat moved it: within 3 × that spread
  assert.equal(by.get(K('select', 'chacha20'))?.verdict, 'same cost');
  const md = report(compareJson(base, head));
  assert.match(md, /\| SQLite \+1\.0% \(\+2310\/op\) \|/, md);
});

test("costs: libc moved between A/A sides as on Node 24 is no change; the same instructions in SQLite's part are", () => {
  // calibration run 8 (seed 13) of docs/compare.md: libc +715 instructions per select between A and
  // B, 1.7% of its part, beyond 3 × its repeat spreads (0.5% on each side), the total within its own
  // (0.50%: its repeats 0.17% apart, the runtime's part)
  const again = (/** @type {Record<string, number>} */ c) => plus(c, { libc: 197, runtime: 650 });
  const base = [row(K('select'), split(SELECT, again(SELECT)))];
  const moved = (/** @type {Record<string, number>} */ d) => [
    row(K('select'), split(plus(SELECT, d), again(plus(SELECT, d)))),
  ];
  const libc = costRows(base, moved({ libc: 715 }))[0];
  assert.ok(Math.abs(libc.change ?? 0) < (libc.tolerance ?? 0), 'the total is within its tolerance');
  assert.equal(libc.verdict, 'same cost', JSON.stringify(movedComponents(libc)));
  const sqlite = costRows(base, moved({ sqlite: 715 }))[0];
  assert.equal(sqlite.verdict, 'costs more');
  assert.deepEqual(
    movedComponents(sqlite).map((c) => c.component),
    ['sqlite'],
  );
});

test('costs: components that move opposite ways are a changed cost; one that moves within its spread is not', () => {
  const base = [row(K('select'), split(SELECT)), row(K('update'), split({ sqlite: 14700, runtime: 8100, libc: 6200 }))];
  const head = [
    row(K('select'), split(plus(SELECT, { sqlite: 5000, binding: -5000 }))), // work moved from the binding into SQLite
    // libc's repeat moved by 2% on this side: 3% on head is within 3 × that
    row(K('update'), split({ sqlite: 14700, runtime: 8100, libc: 6386 }, { sqlite: 14700, runtime: 8100, libc: 6510 })),
  ];
  const by = new Map(costRows(base, head).map((r) => [r.key, r]));
  const select = /** @type {import('../lib/costs.js').CostRow} */ (by.get(K('select')));
  assert.equal(select.change, 0);
  assert.equal(select.verdict, 'cost changed');
  assert.deepEqual(
    movedComponents(select).map((c) => c.component),
    ['sqlite', 'binding'],
  );
  assert.equal(by.get(K('update'))?.verdict, 'same cost');
});

test('compare.json: a counting that is not what the report reads is refused, naming the field', () => {
  const same = () => compareJson([row(K('update'), counts(30000))], [row(K('update'), counts(30000))]);
  const bad = same();
  bad.counting.differences[0].verdict = 'cheaper';
  assert.match(
    String(compareJsonProblem(bad)),
    /^compare\.json is not a run document: \/counting\/differences\/0\/verdict must be equal to one of the allowed values \(costs more, /,
  );
  const io = same();
  io.counting.differences[0].io = [{ field: 'rm -rf', reference: 1, member: 2 }];
  assert.match(
    String(compareJsonProblem(io)),
    /: \/counting\/differences\/0\/io\/0\/field must be equal to one of the allowed values \(fsync, /,
  );
  const part = compareJson([row(K('update'), split(SELECT))], [row(K('update'), split(SELECT))]);
  assert.equal(compareJsonProblem(part), null);
  part.counting.differences[0].components.kernel = { delta: 1, tolerance: 0 };
  assert.match(
    String(compareJsonProblem(part)),
    /: \/counting\/differences\/0\/components must NOT have additional properties$/,
  );
  const none = same();
  delete none.counting;
  assert.equal(compareJsonProblem(none), null, 'a compare without counts: wall time alone decides');
  assert.match(report(none), /\*\*Counts\*\*: not compared \(no counting section\); wall time alone decides\./);
});

test('npm run counts: bad flags and a bad --inject file get one line naming them', () => {
  const dir = scratch('counts-flags-');
  const file = path.join(dir, 'inject.json');
  fs.writeFileSync(file, JSON.stringify({ [K('update')]: { loop: -1 } }));
  for (const [args, pattern] of /** @type {[string[], RegExp][]} */ ([
    [['--quick'], /^counts: missing --out FILE/],
    [['--op', 'drop', '--out', 'x'], /^counts: unknown --op 'drop'; valid: setup, /],
    // a case the shootout gives must be one of the selected cases, named config/driver/cipher/op
    [
      ['--case', 'production/better-sqlite3/none', '--out', 'x'],
      /^counts: --case 'production\/better-sqlite3\/none' is not a selected case; valid: config\/driver\/cipher\/op/,
    ],
    [
      ['--op', 'insert', '--case', K('update'), '--out', 'x'],
      /^counts: --case 'production\/better-sqlite3\/none\/update' is not a selected case/,
    ],
    [
      ['--out', 'x', '--inject', file],
      /^counts: --inject .*: production\/better-sqlite3\/none\/update\.loop is -1; valid/,
    ],
    [['--out', 'x', '--inject', file, '--probe-loop', '10'], /^counts: --inject and --probe-loop do not go together/],
  ])) {
    const r = countsCli(args);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr.trim(), pattern);
  }
});
