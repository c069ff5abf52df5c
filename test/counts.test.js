// The counting pass (bench/counts/): where the tools are missing the pass records why instead of
// counting; how cases are laid out over processes; instructions per operation from the marks; the
// system calls between the marks from valgrind's log of them. The pass on real SQLite files under
// valgrind (two counts agree, one more statement adds what it costs, the system calls the PRAGMAs
// imply) is test/e2e/counts.test.js.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { syscallIntervals } from '../bench/counts/syscall-log.js';
import { jobsOf } from '../bench/counts/pass.js';
import { countingTools } from '../bench/counts/tools.js';
import { instructionsPerOp, repeatSpread, caseCounts } from '../bench/counts/counts.js';

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
    ['callgrind:0:abc', 'callgrind:1:abc'],
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
    100,
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

/** The intervals of a crafted valgrind log (--trace-syscalls=yes). */
async function intervalsOf(/** @type {string[]} */ lines) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-log-'));
  try {
    fs.writeFileSync(path.join(dir, 'vg.log'), lines.join('\n') + '\n');
    return await syscallIntervals(path.join(dir, 'vg.log'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("valgrind's system-call log gives the calls and bytes between marks, as the kernel names them", async () => {
  const log = [
    '==7== Callgrind, a call-graph generating cache profiler',
    'SYSCALL[7,1](0) sys_read ( 3, 0x1ffeffedf8, 832 ) --> [async] ... ',
    'SYSCALL[7,1](0) ... [async] --> Success(0x340) ',
    'SYSCALL[7,1](110) sys_getppid ()[sync] --> Success(0x3d9b) ',
    // interval 2: sync, async and resumed, a failure, the vDSO's clocks, both kinds of mmap
    'SYSCALL[7,1](18) sys_pwrite64 ( 19, 0x5906bf0, 4096, 0 ) --> [async] ... ',
    // another thread's blocking call, interleaved, resumed after the write
    'SYSCALL[7,2](202) sys_futex ( 0x60ea73c, 128, 0, 0x0, 0x0 ) --> [async] ... ',
    'SYSCALL[7,1](18) ... [async] --> Success(0x1000) ',
    'SYSCALL[7,1](17) sys_pread64 ( 19, 0x5906bf0, 4096, 4096 ) --> [async] ... ',
    'SYSCALL[7,1](17) ... [async] --> Success(0x200) ',
    'SYSCALL[7,1](5) sys_newfstat ( 19, 0x1ffefff810 )[sync] --> Success(0x0) ',
    "SYSCALL[7,1](72) sys_fcntl[ARG3=='lock'] ( 19, 6, 0x1ffefff6a0 )[sync] --> Success(0x0) ",
    "SYSCALL[7,1](72) sys_fcntl[ARG3=='arg'] ( 19, 1, 0x0 )[sync] --> Success(0x1) ",
    'SYSCALL[7,1](257) sys_openat ( 4294967196, 0x56bdbb0(/tmp/a (1).db-journal), 524288 ) --> [async] ... ',
    'SYSCALL[7,1](257) ... [async] --> Failure(0x2) ',
    'SYSCALL[7,1](0) sys_read ( 19, 0x5906bf0, 4096 ) --> [async] ... ',
    'SYSCALL[7,1](0) ... [async] --> Failure(0xb) ',
    'SYSCALL[7,1](228) sys_clock_gettime ( 1, 0x1ffefff6a0 )[sync] --> Success(0x0) ',
    'SYSCALL[7,1](96) sys_gettimeofday ( 0x1fff000630, 0x0 )[sync] --> Success(0x0) ',
    'SYSCALL[7,1](201) sys_time ( 0x0 )[sync] --> Success(0x6b073b09) ',
    'SYSCALL[7,1](309) sys_getcpu ( 0x1ffefff6a0, 0x0, 0x0 )[sync] --> Success(0x0) ',
    'SYSCALL[7,1](9) sys_mmap ( 0x0, 8192, 3, 34, 4294967295, 0 ) --> [pre-success] Success(0x5ebe000) ',
    'SYSCALL[7,1](9) sys_mmap ( 0x0, 16400, 1, 2050, 4, 0 ) --> [pre-success] Success(0x5ec0000) ',
    'SYSCALL[7,1](74) sys_fsync ( 19 ) --> [async] ... ',
    'SYSCALL[7,1](74) ... [async] --> Success(0x0) SYSCALL[7,2](202) ... [async] --> Success(0x0) ',
    'SYSCALL[7,1](110) sys_getppid ()[sync] --> Success(0x3d9b) ',
    // interval 3: a call valgrind does not know, its failure on the next line
    'SYSCALL[7,1](435) unimplemented (by the kernel) syscall: 435! (ni_syscall)',
    ' --> [pre-fail] Failure(0x26) ',
    'SYSCALL[7,1](1) sys_write ( 2, 0x590a540, 18 )[sync] --> Success(0x12) ',
    'SYSCALL[7,1](110) sys_getppid ()[sync] --> Success(0x3d9b) ',
    // after the last mark: left out
    'SYSCALL[7,1](1) sys_write ( 2, 0x590a540, 672 ) --> [async] ... ',
    'SYSCALL[7,1](1) ... [async] --> Success(0x2a0) ',
    'SYSCALL[7,1](231) exit_group( 0 ) --> [pre-success] Success(0x0) ',
  ];
  const [, first, second, third, ...rest] = await intervalsOf(log);
  assert.equal(rest.length, 0, 'nothing after the last mark');
  assert.deepEqual(first, { calls: { read: 1 }, bytesRead: 0x340, bytesWritten: 0 });
  assert.deepEqual(second, {
    calls: {
      pwrite64: 1,
      pread64: 1,
      fstat: 1,
      fcntl: 2,
      openat: 1,
      read: 1,
      mmap: 1,
      'mmap:anonymous': 1,
      fsync: 1,
      futex: 1,
    },
    bytesRead: 0x200,
    bytesWritten: 0x1000,
  });
  assert.deepEqual(third, { calls: { syscall_435: 1, write: 1 }, bytesRead: 0, bytesWritten: 18 });
});
