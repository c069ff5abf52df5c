// The counting pass (bench/counts/): where the tools are missing the pass records why instead of
// counting; how cases are laid out over processes; instructions per operation from the marks. The
// pass on real SQLite files under valgrind and strace (two counts agree, one more statement adds
// what it costs, the system calls the PRAGMAs imply) is test/e2e/counts.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jobsOf } from '../bench/counts/pass.js';
import { countingTools } from '../bench/counts/tools.js';
import { instructionsPerOp, repeatSpread, caseCounts } from '../bench/counts/counts.js';
import { componentsOfDump } from '../bench/counts/callgrind.js';
import { COMPONENTS } from '../bench/data/components.js';

test('a machine without the tools gets a reason, naming what is missing, and no counts', () => {
  const mac = countingTools('darwin');
  assert.equal(mac.status, 'unavailable');
  assert.match(/** @type {any} */ (mac).reason, /Linux only; this machine is darwin/);
});

test('every process counts its cases in the order of their keys, the repeat the same cases again', () => {
  const plans = ['b/x/y/select', 'a/x/y/insert', 'c/x/y/update'].map((key) => ({ key, k: 4, warmup: 1 }));
  const jobs = jobsOf(plans, 1);
  assert.deepEqual(
    jobs.map((j) => `${j.tool}:${j.repeat}:${j.cases.map((c) => c.key[0]).join('')}`),
    ['callgrind:0:abc', 'callgrind:1:abc', 'strace:0:abc', 'strace:1:abc'],
  );
  const two = jobsOf(plans, 2).filter((j) => j.tool === 'callgrind');
  assert.deepEqual(
    two.map((j) => `${j.repeat}:${j.cases.map((c) => c.key[0]).join('')}`),
    ['0:ac', '0:b', '1:ac', '1:b'],
  );
});

test('instructions per operation take the marks off and say how the halves differ', () => {
  // marks 2 and 4 end the halves; each mark costs 100
  const costs = [0, 7, 1100, 9, 2100];
  const r = instructionsPerOp(
    [
      { ops: 10, ends: [2] },
      { ops: 10, ends: [4] },
    ],
    costs,
    { instructions: 100 },
  );
  assert.equal(r.perOp, 150);
  assert.equal(r.drift, 1);
  const spread = repeatSpread([
    { key: 'a', counts: caseCounts(cnt(100), cnt(100.05)) },
    { key: 'b', counts: caseCounts(cnt(100), cnt(102)) },
  ]);
  assert.equal(spread.cases, 2);
  assert.equal(spread.within['0.1%'], 1);
  assert.equal(spread.worst?.key, 'b');
});

/** A count of a case with these instructions per operation and one fsync per operation. */
function cnt(/** @type {number} */ instructions) {
  return {
    ops: 10,
    warmup: 1,
    instructions: { perOp: instructions },
    syscalls: {
      syscalls: { fsync: 1, write: 1, read: 0, other: 0, runtime: 0 },
      calls: { fsync: 1 },
      bytes: { read: 0, written: 4096 },
    },
  };
}

test("a dump's instructions by component: each function's own, names resolved, a call's inclusive cost left out", () => {
  const dump = [
    'events: Ir',
    'summary: 1111',
    'ob=(1) /x/better_sqlite3.node',
    'fn=(1) sqlite3VdbeExec',
    '0 100',
    'cob=(2) /usr/lib/x86_64-linux-gnu/libc.so.6',
    'cfn=(2) malloc',
    'calls=3 0',
    '0 5000',
    'fn=(3) Statement::JS_all(v8::FunctionCallbackInfo<v8::Value> const&)',
    '0 10',
    'fn=(4) chacha20_block',
    '0 1000',
    'ob=(2)',
    'fn=(2)',
    '0 1',
    'fn=(1)',
    '0 0',
  ].join('\n');
  const byName = Object.fromEntries(COMPONENTS.map((c, i) => [c, componentsOfDump(dump)[i]]));
  assert.deepEqual(byName, { sqlite: 100, cipher: 1000, runtime: 0, binding: 10, libc: 1, other: 0 });
  // the prebuilt binary 13.x bundles (what Node 24 loads in CI) is the same addon under another name
  const prebuilt = dump.replace(
    '/x/better_sqlite3.node',
    '/x/better-sqlite3-multiple-ciphers/prebuilds/linux-x64.node',
  );
  assert.deepEqual(componentsOfDump(prebuilt), componentsOfDump(dump));
});

test("the runtime's calls into the C library are the runtime's, whole, unless the C library calls out of it", () => {
  const libc = '/usr/lib/x86_64-linux-gnu/libc.so.6';
  const dump = [
    'events: Ir',
    'ob=(1) /opt/node/bin/node',
    'fn=(1) v8::internal::StringTable::Data::FindEntry(int)',
    '0 50',
    `cob=(2) ${libc}`,
    'cfn=(2) __memcmp_avx2_movbe',
    'calls=2 0',
    '0 30',
    'cob=(2)',
    'cfn=(3) qsort',
    'calls=1 0',
    '0 25',
    'fn=(4) compare(void const*, void const*)',
    '0 5',
    'ob=(3) /x/better_sqlite3.node',
    'fn=(5) sqlite3VdbeExec',
    '0 100',
    'cob=(2)',
    'cfn=(2)',
    'calls=1 0',
    '0 12',
    'ob=(2)',
    'fn=(2)',
    '0 42',
    'fn=(3)',
    '0 20',
    'cob=(1)',
    'cfn=(4)',
    'calls=1 0',
    '0 5',
  ].join('\n');
  const byName = (/** @type {number[]} */ x) => Object.fromEntries(COMPONENTS.map((c, i) => [c, x[i]]));
  // memcmp: 42 instructions, 30 in the string table's calls (the runtime's), 12 in SQLite's (libc's);
  // qsort called its comparator back in the runtime, so its call stays where it ran
  assert.deepEqual(byName(componentsOfDump(dump, [])), {
    sqlite: 100,
    cipher: 0,
    runtime: 55,
    binding: 0,
    libc: 62,
    other: 0,
  });
  assert.deepEqual(byName(componentsOfDump(dump)), {
    sqlite: 100,
    cipher: 0,
    runtime: 85,
    binding: 0,
    libc: 32,
    other: 0,
  });
});
