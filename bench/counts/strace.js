// System calls between marks, from an strace log (strace -f -qq -s 0 -o FILE): how many of each
// kind each interval made, and the bytes its reads and writes moved. Nothing here is timed.
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
 * @typedef {object} SyscallCounts what one interval (or the sum of several) did
 * @property {Record<string, number>} calls system calls by name
 * @property {number} bytesRead returned by the read calls
 * @property {number} bytesWritten returned by the write calls
 */

/** @returns {SyscallCounts} */
export const emptyCounts = () => ({ calls: {}, bytesRead: 0, bytesWritten: 0 });

/**
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

// `1234 pwrite64(12, ""..., 4096, 8192) = 4096`, `1234 <... fsync resumed>) = 0`, `1234 openat(...) = -1 ENOENT (...)`
const LINE = /^\d+\s+(?:<\.\.\. (\w+) resumed>.*|(\w+)\(.*)\)\s+=\s+(-?\d+|\?|0x[0-9a-f]+)/;

/**
 * The intervals of an strace log: interval n holds the calls made between mark n-1 and mark n
 * (interval 1 starts at the process's start), each counted when it returned; the calls after the
 * last mark are left out. A call strace shows as unfinished is counted at its resumption.
 * @param {string} file
 * @returns {Promise<SyscallCounts[]>} index n: interval n (index 0 unused)
 */
export async function straceIntervals(file) {
  /** @type {SyscallCounts[]} */
  const out = [emptyCounts()];
  let cur = emptyCounts();
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  /** @type {Map<string, string>} a thread's call strace showed as unfinished: its line, whose arguments the resumption lacks */
  const unfinished = new Map();
  for await (const line of lines) {
    if (line.endsWith('<unfinished ...>')) unfinished.set(line.slice(0, line.indexOf(' ')), line);
    const m = LINE.exec(line);
    if (!m) continue; // signals, exits, unfinished calls
    const args = m[1] ? (unfinished.get(line.slice(0, line.indexOf(' '))) ?? '') : line;
    const name = (m[1] ?? m[2]) === 'mmap' && args.includes('MAP_ANONYMOUS') ? 'mmap:anonymous' : (m[1] ?? m[2]);
    if (name === MARK_SYSCALL) {
      out.push(cur);
      cur = emptyCounts();
      continue;
    }
    cur.calls[name] = (cur.calls[name] ?? 0) + 1;
    const ret = Number(m[3]);
    if (Number.isFinite(ret) && ret > 0) {
      if (READS.has(name)) cur.bytesRead += ret;
      else if (WRITES.has(name)) cur.bytesWritten += ret;
    }
  }
  return out;
}
