// What the machine itself does, apart from SQLite: fixed disk loops, a CPU loop and a memory chase,
// between the runs of meta:precision and window after window in meta:floor. A run whose fsync-bound
// cases moved with the probe was moved by the machine, which in-run statistics cannot remove.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from '../../lib/stats/spread.js';

const PAGE = 4096;

/**
 * Typical rate of an operation: 1000 / the median of its durations (ms), like the suite's headline.
 * @param {() => void} op
 * @param {number} ms how long to repeat it
 */
export function typicalRate(op, ms) {
  const times = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const t0 = performance.now();
    op();
    times.push(performance.now() - t0);
  }
  return 1000 / median(times);
}

/** Pages a `checkpoint` probe moves, as the suite's checkpoint case after its 20 updates. */
const CHECKPOINT_PAGES = 20;

/**
 * The probe operations, none of them SQLite (docs/checking.md): `fsync`, a 4 KiB page of a 1 MiB
 * file rewritten and fdatasync'd; `checkpoint`, a WAL checkpoint's disk work (20 pages appended to
 * an empty log, fdatasync, rewritten in the main file, fdatasync, the log truncated: the file
 * system allocates and frees blocks as for a real WAL); `cpu`, SHA-256 of 64 KiB; `memory`, a
 * pointer chase over 128 MiB. `close` removes the files.
 * @param {string} [dir] where the files go (default: the temp dir, as the suite's databases)
 */
export function openProbes(dir = os.tmpdir()) {
  const work = fs.mkdtempSync(path.join(dir, 'sqlite-bench-probe-'));
  const fd = fs.openSync(path.join(work, 'probe.bin'), 'w+');
  const log = fs.openSync(path.join(work, 'probe.log'), 'w+');
  fs.writeSync(fd, Buffer.alloc(256 * PAGE));
  fs.fsyncSync(fd);
  const page = crypto.randomBytes(PAGE);
  const pages = crypto.randomBytes(CHECKPOINT_PAGES * PAGE);
  const block = crypto.randomBytes(64 * 1024);
  const memory = memoryChase();
  let i = 0;
  let j = 0;
  return {
    fsync: () => {
      fs.writeSync(fd, page, 0, PAGE, (i++ % 256) * PAGE);
      fs.fdatasyncSync(fd);
    },
    checkpoint: () => {
      fs.writeSync(log, pages, 0, pages.length, 0);
      fs.fdatasyncSync(log);
      fs.writeSync(fd, pages, 0, pages.length, (j++ % ((256 / CHECKPOINT_PAGES) | 0)) * pages.length);
      fs.fdatasyncSync(fd);
      fs.ftruncateSync(log, 0);
    },
    cpu: () => {
      crypto.createHash('sha256').update(block).digest();
    },
    memory,
    close: () => {
      fs.closeSync(fd);
      fs.closeSync(log);
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

/** Reads one probe of `memory` makes; each depends on the one before, so none can overlap. */
const CHASE_READS = 4096;

/**
 * A pointer chase over 128 MiB: a random cyclic permutation (Sattolo), followed CHASE_READS steps
 * a call, from where the last call stopped.
 */
function memoryChase() {
  const n = (128 * 1024 * 1024) / 4;
  const next = new Uint32Array(n);
  for (let k = 0; k < n; k++) next[k] = k;
  let seed = 0x9e3779b9;
  for (let k = n - 1; k > 0; k--) {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    const r = seed % k;
    const t = next[k];
    next[k] = next[r];
    next[r] = t;
  }
  let at = 0;
  return () => {
    for (let k = 0; k < CHASE_READS; k++) at = next[at];
  };
}

/**
 * Probe the machine: the typical rate of each probe operation over `ms`.
 * @param {{ ms?: number, dir?: string }} [o]
 */
export function probeMachine({ ms = 3000, dir } = {}) {
  const p = openProbes(dir);
  try {
    const [fsyncPerSec, cpuPerSec, memoryPerSec] = [p.fsync, p.cpu, p.memory].map((op) => typicalRate(op, ms));
    return { fsyncPerSec, cpuPerSec, memoryPerSec };
  } finally {
    p.close();
  }
}
