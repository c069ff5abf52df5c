// System calls between marks, from valgrind's own log of them (--trace-syscalls=yes --log-file=FILE,
// in the callgrind processes that count the instructions): how many of each kind each interval
// made, and the bytes its reads and writes moved. Nothing here is timed.
import fs from 'node:fs';
import readline from 'node:readline';
import { MARK_SYSCALL } from './marks.js';

/** The calls whose result is a count of bytes read, or written. */
const READS = new Set(['read', 'pread64', 'readv', 'preadv', 'preadv2']);
const WRITES = new Set(['write', 'pwrite64', 'writev', 'pwritev', 'pwritev2']);
/** The calls that make data durable. */
const SYNCS = new Set(['fsync', 'fdatasync', 'sync_file_range', 'msync', 'syncfs']);
/**
 * The calls the process makes for itself, not for the operation's data: memory (an anonymous
 * mmap is recorded as `mmap:anonymous`; one of a file, as SQLite's mmap_size makes, stays `mmap`)
 * and waking threads. They fall where the heap happens to grow or a helper thread happens to wake,
 * so the repeat is not expected to match them (counts.js leaves them out of `syscallsSame`).
 */
export const RUNTIME = new Set(['brk', 'mmap:anonymous', 'munmap', 'mremap', 'madvise', 'mprotect', 'futex']);

/**
 * The calls a native process makes through the vDSO, in its own address space, without entering
 * the kernel. Under valgrind they are system calls (valgrind does not run the vDSO), so its log
 * shows every clock read; natively they cost a few instructions and no system call, so they are
 * left out: a count holds what reaches the kernel.
 */
const VDSO = new Set(['clock_gettime', 'gettimeofday', 'time', 'getcpu']);

/** valgrind's wrapper names (less `sys_`) that differ from the kernel's, as strace and man pages name the calls. */
/** @type {Record<string, string>} */
const KERNEL_NAMES = { newfstat: 'fstat', newstat: 'stat', newlstat: 'lstat', newuname: 'uname', llseek: '_llseek' };

/** MAP_ANONYMOUS in mmap's flags (its fourth argument), on x86-64 and arm64 alike. */
const MAP_ANONYMOUS = 0x20;

/**
 * @typedef {object} SyscallCounts what one interval (or the sum of several) did
 * @property {Record<string, number>} calls system calls by name
 * @property {number} bytesRead returned by the read calls
 * @property {number} bytesWritten returned by the write calls
 */

/** @returns {SyscallCounts} */
export const emptyCounts = () => ({ calls: {}, bytesRead: 0, bytesWritten: 0 });

/**
 * Add b into a.
 * @param {SyscallCounts} a
 * @param {SyscallCounts} b
 */
export function addCounts(a, b) {
  for (const [k, v] of Object.entries(b.calls)) a.calls[k] = (a.calls[k] ?? 0) + v;
  a.bytesRead += b.bytesRead;
  a.bytesWritten += b.bytesWritten;
  return a;
}

/**
 * The kinds a reader compares: syncs, writes, reads, the rest of the operation's calls (locks,
 * opens, truncations...), and the runtime's own (RUNTIME).
 * @param {Record<string, number>} calls
 */
export function kinds(calls) {
  const k = { fsync: 0, write: 0, read: 0, other: 0, runtime: 0 };
  for (const [name, n] of Object.entries(calls)) {
    if (SYNCS.has(name)) k.fsync += n;
    else if (WRITES.has(name)) k.write += n;
    else if (READS.has(name)) k.read += n;
    else if (RUNTIME.has(name)) k.runtime += n;
    else k.other += n;
  }
  return k;
}

// One call per `SYSCALL[pid,tid](nr)` (a thread's line can follow another's on the same line):
//   `sys_pwrite64 ( 12, 0x5906bf0, 4096, 0 )[sync] --> Success(0x1000)`, `... --> [pre-fail] Failure(0x26)`,
//   a blocking call `sys_fsync ( 12 ) --> [async] ... ` then, later, `... [async] --> Success(0x0)`;
//   one valgrind tells apart by an argument: `sys_fcntl[ARG3=='lock'] ( 12, 6, 0x1ffefff6a0 )[sync] --> ...`;
//   one valgrind does not know: `unimplemented (by the kernel) syscall: 435! (ni_syscall)`.
const CALL =
  /SYSCALL\[\d+,(\d+)\]\((\d+)\) (?:(\.\.\. \[async\])|(\w+)(?:\[[^\]]*\])? ?\((.*?)\)(?:\[sync\])? -->)?.*?(?:(Success|Failure)\((0x[0-9a-f]+)\))?\s*$/;

/**
 * The intervals of a valgrind system-call log: interval n holds the calls made between mark n-1
 * and mark n (interval 1 starts at the process's start), each counted when it returned; the calls
 * after the last mark are left out. valgrind's names are the kernel's (KERNEL_NAMES); the vDSO's
 * calls are left out (VDSO).
 * @param {string} file
 * @returns {Promise<SyscallCounts[]>} index n: interval n (index 0 unused)
 */
export async function syscallIntervals(file) {
  /** @type {SyscallCounts[]} */
  const out = [emptyCounts()];
  let cur = emptyCounts();
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  /** @type {Map<string, string>} a thread's blocking call, by thread, until it returns */
  const pending = new Map();
  for await (const line of lines)
    for (const part of line.split(/(?=SYSCALL\[)/)) {
      const m = CALL.exec(part);
      if (!m) continue; // valgrind's own lines
      const [, tid, nr, resumed, raw, args, result, value] = m;
      let name;
      if (resumed) {
        name = pending.get(tid);
        pending.delete(tid);
        if (!name) continue;
      } else {
        const bare = raw?.replace(/^sys_/, '');
        name = bare ? (KERNEL_NAMES[bare] ?? bare) : `syscall_${nr}`;
        if (name === 'mmap' && Number(args.split(',')[3]) & MAP_ANONYMOUS) name = 'mmap:anonymous';
        if (!result && part.includes('[async]')) {
          pending.set(tid, name);
          continue;
        }
      }
      if (name === MARK_SYSCALL) {
        out.push(cur);
        cur = emptyCounts();
        continue;
      }
      if (VDSO.has(name)) continue;
      cur.calls[name] = (cur.calls[name] ?? 0) + 1;
      const ret = result === 'Success' ? Number(value) : 0;
      if (READS.has(name)) cur.bytesRead += ret;
      else if (WRITES.has(name)) cur.bytesWritten += ret;
    }
  return out;
}
