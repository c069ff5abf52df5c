// Registry row d2's judgement (bench/meta/count-rule.js) on crafted calibration data: the targets
// of issues 38 and 41 (A/A failures ≤ 1 in 20 compares; +1% found ≥ 19 of 20 in every CPU-bound
// case but select, and in SQLite's part of every select), and the committed Node 24 data it reads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countRuleData, countRuleVerdict, meets } from '../bench/meta/count-rule.js';

test('at most 1 in 20: decided from 20 runs, failed as soon as the misses are too many', () => {
  assert.equal(meets(0, 20), true);
  assert.equal(meets(1, 20), true);
  assert.equal(meets(2, 20), false);
  assert.equal(meets(0, 14), null, 'too few runs to say');
  assert.equal(meets(2, 14), false, 'already more than 1 of 20');
  assert.equal(meets(2, 40), true);
  assert.equal(meets(3, 40), false);
});

/** A crafted run-case: everything found, the A/A compare the same, unless told. */
const row = (/** @type {number} */ seed, /** @type {string} */ op, /** @type {any} */ o = {}) => ({
  seed,
  key: `production/d/none/${op}`,
  op,
  aa: { verdict: 'same cost', fails: false, change: 0, tolerance: 0.001, moved: [], ...o.aa },
  loop: {
    found: o.loop ?? true,
    verdict: o.verdict ?? (o.loop === false ? 'same cost' : 'costs more'),
    change: 0.01,
    tolerance: 0.001,
  },
  fsync: true,
  sqlite: op === 'select' ? { found: o.sqlite ?? true, change: 0.01, tolerance: 0.005 } : null,
});
const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
/** 20 seeds of update, delete, insert and select; `o(seed, op)` changes one row. */
const data = (/** @type {(seed: number, op: string) => any} */ o = () => ({})) => ({
  what: '',
  node: 'v24',
  groups: [
    {
      what: '',
      node: 'v24',
      commit: '',
      countArgs: '',
      runs: 20,
      cases: SEEDS.flatMap((s) => ['update', 'delete', 'insert', 'select'].map((op) => row(s, op, o(s, op)))),
    },
  ],
  quoted: [],
});
const fail = { aa: { verdict: 'costs more', fails: true, change: 0.02, moved: ['runtime'] } };

test('row d2 passes at 1 of 20, fails at 2 of 20, per compare and per CPU-bound case', () => {
  assert.equal(countRuleVerdict(data()).pass, true);
  // one seed failing in two of its cases is one failing compare
  const one = countRuleVerdict(data((s, op) => (s === 3 && op !== 'select' ? fail : {})));
  assert.deepEqual([one.aa.fails, one.aa.changes, one.aa.n, one.pass], [1, 1, 20, true]);
  assert.equal(countRuleVerdict(data((s, op) => (s <= 2 && op === 'delete' ? fail : {}))).pass, false);
  // a reported change that does not fail the check is counted, not failed
  const moved = countRuleVerdict(data((s) => ({ aa: { moved: s <= 5 ? ['libc'] : [] } })));
  assert.deepEqual([moved.aa.changes, moved.aa.fails, moved.pass], [5, 0, true]);
  // the loop missed twice: fails for update, not for insert (I/O-bound) or select (its SQLite part decides)
  const missed = (/** @type {string} */ which) => (/** @type {number} */ s, /** @type {string} */ op) =>
    op === which && s <= 2 ? { loop: false } : {};
  assert.equal(countRuleVerdict(data(missed('update'))).pass, false);
  // found by a component (the loop's work in the runtime's part) where the total's tolerance hides it
  const byPart = countRuleVerdict(
    data((s, op) => (op === 'update' && s <= 5 ? { loop: false, verdict: 'costs more' } : {})),
  );
  const update = byPart.loopCases.find((c) => c.op === 'update');
  assert.deepEqual([update?.loop, update?.loopByTotal, byPart.pass], [20, 15, true]);
  assert.equal(countRuleVerdict(data(missed('insert'))).pass, true);
  assert.equal(countRuleVerdict(data(missed('select'))).pass, true);
  assert.equal(countRuleVerdict(data((s, op) => (op === 'select' && s <= 2 ? { sqlite: false } : {}))).pass, false);
  assert.equal(countRuleVerdict(data((s, op) => (op === 'select' && s === 7 ? { sqlite: false } : {}))).pass, true);
});

test('row d2 counts quoted runs with the data, a seed once, and says nothing from too few runs', () => {
  const d = data();
  const few = { ...d, groups: [{ ...d.groups[0], cases: d.groups[0].cases.filter((r) => r.seed <= 6) }] };
  assert.equal(countRuleVerdict(few).pass, null);
  const key = 'production/d/none/select';
  const quoted = (/** @type {number[]} */ failed, /** @type {number} */ sqlite) => ({
    ...few,
    groups: [{ ...few.groups[0], cases: few.groups[0].cases.filter((r) => r.op === 'select') }],
    quoted: [{ what: '', seeds: SEEDS.slice(6), aaFailed: failed, aaChanged: failed, cases: { [key]: { sqlite } } }],
  });
  // 6 select runs in the data and 14 quoted: 20, but no update or delete measured: not passed
  const v = countRuleVerdict(quoted([], 14));
  assert.deepEqual([v.aa.n, v.sqliteCases[0].n, v.sqliteCases[0].sqlite, v.pass], [20, 20, 20, null]);
  assert.equal(countRuleVerdict(quoted([], 12)).pass, false);
  assert.equal(countRuleVerdict(quoted([8, 9], 14)).pass, false);
  // with the CPU-bound cases measured in 20 seeds, quoted selects of the same seeds are one compare each
  const all = {
    ...d,
    groups: [{ ...d.groups[0], cases: d.groups[0].cases.filter((r) => r.op !== 'select' || r.seed <= 6) }],
  };
  const both = countRuleVerdict({
    ...all,
    groups: all.groups.map((g) => ({
      ...g,
      cases: g.cases.map((r) => (r.seed === 8 && r.op === 'update' ? { ...r, ...fail } : r)),
    })),
    quoted: quoted([8], 14).quoted,
  });
  assert.deepEqual([both.aa.n, both.aa.fails, both.pass], [20, 1, true]);
});

test('the committed Node 24 calibration: every case of every group, one row per seed', () => {
  const d = countRuleData();
  assert.match(d.node, /^v24\./);
  for (const g of d.groups) {
    const seeds = new Set(g.cases.map((r) => r.seed));
    const keys = new Set(g.cases.map((r) => r.key));
    assert.equal(g.cases.length, seeds.size * keys.size, g.what);
  }
  const v = countRuleVerdict(d);
  assert.ok(v.sqliteCases.length >= 3 && v.aa.n >= 20, JSON.stringify(v.aa));
});
