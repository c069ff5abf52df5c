// The marks the counted process (worker.js) sets around every timed call: a read of `process.ppid`,
// which calls getppid(2), and nothing else in the process does; callgrind dumps at each
// (callgrind.js), strace logs a getppid() line (strace.js): docs/counting.md#how-a-case-is-counted.

/** The C function callgrind dumps before (--dump-before). */
export const MARK_FUNCTION = 'uv_os_getppid';
/** The system call strace sees at a mark. */
export const MARK_SYSCALL = 'getppid';

let made = 0;

/** Set a mark; its number (1 for the first), which is the number of the dump it starts. */
export function mark() {
  void process.ppid;
  return ++made;
}

export const marksMade = () => made;
