// What the machine itself did during a precision measurement: a fixed fsync loop and a fixed CPU
// loop, a few seconds each, run between the suite's runs. Neither touches SQLite, so a run whose
// fsync-bound cases all moved while the probe moved with them was moved by the machine (its disk,
// its neighbours), not by the engine; in-run statistics cannot remove such a shift.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from '../measure.js';

const PAGE = 4096;

/**
 * Typical rate of an operation: 1000 / the median of its durations (ms), like the suite's headline.
 * @param {() => void} op
 * @param {number} ms how long to repeat it
 */
function typicalRate(op, ms) {
  const times = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const t0 = performance.now();
    op();
    times.push(performance.now() - t0);
  }
  return 1000 / median(times);
}

/**
 * Probe the machine: fsync (one 4 KiB page rewritten in a 1 MiB file, then fdatasync) and CPU
 * (SHA-256 of 64 KiB), each for `ms`.
 * @param {{ ms?: number, dir?: string }} [o] dir: where the fsync file goes (default: the temp dir, as the suite's databases)
 * @returns {{ fsyncPerSec: number, cpuPerSec: number }}
 */
export function probeMachine({ ms = 3000, dir = os.tmpdir() } = {}) {
  const work = fs.mkdtempSync(path.join(dir, 'sqlite-bench-probe-'));
  try {
    const file = path.join(work, 'probe.bin');
    const page = crypto.randomBytes(PAGE);
    const fd = fs.openSync(file, 'w+');
    try {
      fs.writeSync(fd, Buffer.alloc(256 * PAGE));
      fs.fsyncSync(fd);
      let i = 0;
      const fsyncPerSec = typicalRate(() => {
        fs.writeSync(fd, page, 0, PAGE, (i++ % 256) * PAGE);
        fs.fdatasyncSync(fd);
      }, ms);
      const block = crypto.randomBytes(64 * 1024);
      const cpuPerSec = typicalRate(() => { crypto.createHash('sha256').update(block).digest(); }, ms);
      return { fsyncPerSec, cpuPerSec };
    } finally {
      fs.closeSync(fd);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
