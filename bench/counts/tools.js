// What the counting pass runs its processes under, with which flags, and whether this machine has
// it. Every flag is here, so the document records exactly what made its counts.
import { execFileSync } from 'node:child_process';
import { mallocHelper } from './instrument.js';
import { MARK_FUNCTION } from './marks.js';

/**
 * Node's flags in a counted process, to make it repeat itself: V8's compilers off (an optimisation,
 * or giving one up, would change the instructions from one process to the next; Sparkplug's code
 * also flips code pages writable and back, an mprotect(2) that fell into some operations' counts;
 * Maglev, on by default from Node 22, is turned off where V8 knows it: V8 11 and later, Node 20
 * on), no background threads (compilation and GC on the main thread, at the same points every
 * time), a fixed GC schedule, fixed seeds, no flushing of bytecode a case has not run for a few
 * collections (it would be compiled again inside a later count); and gc() exposed for the worker
 * (worker.js).
 * @param {string} [v8] the V8 version of the Node that runs them (default: this one's)
 */
export function nodeFlags(v8 = process.versions.v8) {
  return [
    '--single-threaded',
    '--predictable',
    '--predictable-gc-schedule',
    '--no-opt',
    ...(Number(v8.split('.')[0]) >= 11 ? ['--no-maglev'] : []),
    '--no-sparkplug',
    '--no-flush-bytecode',
    '--hash-seed=1',
    '--random-seed=1',
    '--expose-gc',
  ];
}

/**
 * valgrind's callgrind with the cache simulation off (its default): instructions only. It dumps its
 * counts at every mark (marks.js) to one small file each (callgrind.js), per function but without
 * per-instruction or per-line detail.
 */
export const VALGRIND_ARGS = Object.freeze([
  '--tool=callgrind',
  `--dump-before=${MARK_FUNCTION}`,
  '--dump-instr=no',
  '--dump-line=no',
  '--quiet',
  '--vgdb=no',
]);

/** What callgrind adds when the worker switches its instrumentation on at its first mark (instrument.js). */
export const FROM_FIRST_MARK_ARGS = Object.freeze(['--instr-atstart=no']);

/**
 * Every counted process runs under `setarch -R` (util-linux, on every Linux): without address-space
 * randomisation. Where V8 places its objects decides which of them share a slot of its lookup
 * caches; with randomised addresses a select (50 row objects built per operation) counted 1%
 * more in one process of five than in the others, without, never.
 */
export const SETARCH = Object.freeze(['setarch', '-R']);

/** Every callgrind process (and meta:counting's untraced one) also runs on one CPU, so the GC's helper thread runs where the worker waits for it (worker.js collect). */
export const pinned = (/** @type {number} */ cpu) => ['taskset', '-c', String(cpu)];

/** strace: every thread, every system call, no string arguments (not needed, and smaller logs). */
export const STRACE_ARGS = Object.freeze(['-f', '-qq', '-s', '0']);

/** The environment variables a counted process keeps; the rest are dropped, so its start is the same everywhere. */
export const KEPT_ENV = Object.freeze(['PATH', 'SQLITE_BENCH_GENERATION', 'SQLITE_BENCH_DRIVERS_DIR']);

/**
 * The environment a counted process gets besides KEPT_ENV; pass.js adds its key, its temp dir and
 * LD_PRELOAD: its malloc, count-malloc.c (instrument.js mallocHelper), whose cost, sizes and
 * alignments do not depend on the process's history as glibc's do (docs/counting.md).
 */
export const COUNT_ENV = Object.freeze({ LANG: 'C' });

/**
 * The version a tool prints, or null when it is not installed.
 * @param {string} cmd
 * @param {RegExp} pattern its first group is the version
 */
function versionOf(cmd, pattern) {
  try {
    const out = execFileSync(cmd, ['--version'], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 }).toString();
    return pattern.exec(out)?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * @typedef {{ status: 'ok', valgrind: string, strace: string } | { status: 'unavailable', reason: string }} Tools
 */

/**
 * Whether this machine can count, and the versions it counts with.
 * @param {NodeJS.Platform} [platform]
 * @returns {Tools}
 */
export function countingTools(platform = process.platform) {
  if (platform !== 'linux')
    return {
      status: 'unavailable',
      reason: `counting runs under valgrind and strace, which run on Linux only; this machine is ${platform}`,
    };
  const valgrind = versionOf('valgrind', /valgrind-(\S+)/);
  const strace = versionOf('strace', /version (\S+)/);
  const utils = ['setarch', 'taskset'].filter((cmd) => !versionOf(cmd, /util-linux (\S+)/));
  const missing = [!valgrind && 'valgrind', !strace && 'strace', ...utils.map((u) => `${u} (util-linux)`)].filter(
    Boolean,
  );
  if (!valgrind || !strace || utils.length)
    return {
      status: 'unavailable',
      reason: `${missing.join(' and ')} not installed (apt-get install valgrind strace util-linux; in CI: npm run ci:install-counting)`,
    };
  const malloc = mallocHelper();
  if (malloc.status !== 'ok')
    return { status: 'unavailable', reason: `${malloc.reason} (the counted processes' malloc; apt-get install gcc)` };
  return { status: 'ok', valgrind, strace };
}
