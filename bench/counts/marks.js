// The marks the counted process (worker.js) sets around every timed call, and where each tool
// sees them. A mark is a read of `process.ppid`: Node answers it with libuv's uv_os_getppid, which
// calls getppid(2), and nothing else in the process calls either. So:
//   - callgrind, started with --dump-before=uv_os_getppid, writes its counts since the previous
//     mark to dump file number n at mark n, and starts again from zero (callgrind.js);
//   - strace logs a getppid() line at each mark, between the system calls of the calls it
//     separates (strace.js).
// A mark costs the same few thousand instructions every time, and the windows' difference
// (worker.js) cancels it.

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
