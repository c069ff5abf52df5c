// How noisy the machine was during a run, from the run's own slices and what the OS shows: the
// document's `noise` and the summary's noise line.
//
// - The slow state: a slice more than 25% slower than its round's fastest typical figure (the gap
//   lib/stats/modes.js calls separated) ran while the machine was slow. Its share, per operation
//   and over the CPU-bound ones (the fsync-bound ones swing with the disk instead), is how much of
//   the run the machine spent slowed.
// - Steal: the share of CPU time the hypervisor gave to others while the run waited (/proc/stat).
// - Topology: logical CPUs and hardware threads per core (/sys): two threads per core means
//   another tenant's work can run on this core's sibling thread.
import fs from 'node:fs';
import os from 'node:os';
import { OPS } from '../data/ops.js';
import { MIN_GAP } from '../../lib/stats/modes.js';
import { percent, sig } from '../../lib/format.js';

/** A slice slower than its round's fastest typical figure by more than this ratio is in the slow state. */
const SLOW = Math.exp(MIN_GAP);

/** Counts of slices in the slow state, per operation, as the run measures them. */
export function slowCounter() {
  const byOp = /** @type {Record<string, { slow: number, total: number }>} */ ({});
  return {
    byOp,
    /**
     * @param {string} op
     * @param {number[]} slices a round's slice rates
     * @param {number} fast its fastest typical figure
     */
    add(op, slices, fast) {
      const c = (byOp[op] ??= { slow: 0, total: 0 });
      c.total += slices.length;
      c.slow += slices.filter((x) => x * SLOW < fast).length;
    },
  };
}

/** The CPU times of the whole machine (/proc/stat, in ticks): null where there is none. */
export function cpuTimes(file = '/proc/stat') {
  try {
    const line = fs.readFileSync(file, 'utf8').split('\n')[0];
    const f = line.trim().split(/\s+/);
    if (f[0] !== 'cpu') return null;
    const n = f.slice(1).map(Number);
    if (n.length < 8 || n.some((x) => !Number.isFinite(x))) return null;
    // user nice system idle iowait irq softirq steal [guest guest_nice, counted in user and nice]
    return { steal: n[7], total: n.slice(0, 8).reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}

/** The share of CPU time stolen between two readings of cpuTimes, or null. */
export function stealBetween(
  /** @type {{ steal: number, total: number } | null} */ a,
  /** @type {{ steal: number, total: number } | null} */ b,
) {
  if (!a || !b || b.total <= a.total) return null;
  return Math.min(1, Math.max(0, (b.steal - a.steal) / (b.total - a.total)));
}

/** Logical CPUs, hardware threads per core and sockets (Linux /sys), or null. */
export function topology(root = '/sys/devices/system/cpu') {
  try {
    const cpus = fs.readdirSync(root).filter((d) => /^cpu\d+$/.test(d));
    if (!cpus.length) return null;
    const read = (/** @type {string} */ cpu, /** @type {string} */ f) =>
      fs.readFileSync(`${root}/${cpu}/topology/${f}`, 'utf8').trim();
    const siblings = read(cpus[0], 'thread_siblings_list')
      .split(',')
      .reduce((n, part) => {
        const [a, b] = part.split('-').map(Number);
        return n + (b === undefined ? 1 : b - a + 1);
      }, 0);
    const sockets = new Set(cpus.map((c) => read(c, 'physical_package_id'))).size;
    return { cpus: cpus.length, threadsPerCore: Math.max(1, siblings), sockets: Math.max(1, sockets) };
  } catch {
    return os.platform() === 'linux' ? { cpus: os.cpus().length, threadsPerCore: 1 } : null;
  }
}

/**
 * The document's `noise`.
 * @param {{ byOp: Record<string, { slow: number, total: number }> }} counter
 * @param {Record<string, number>} machineFast per operation, %: the fastest typical figure's movement between blocks
 * @param {number | null} steal
 * @param {ReturnType<typeof topology>} topo
 */
export function noiseOf(counter, machineFast, steal, topo) {
  const cpu = new Set(OPS.filter((o) => o.bound === 'cpu').map((o) => o.name));
  const counted = Object.entries(counter.byOp).filter(([, c]) => c.total > 0);
  const cpuCounts = counted.filter(([op]) => cpu.has(op)).map(([, c]) => c);
  const total = cpuCounts.reduce((a, c) => a + c.total, 0);
  return {
    slowShare: total ? sig(cpuCounts.reduce((a, c) => a + c.slow, 0) / total) : null,
    byOp: Object.fromEntries(counted.map(([op, c]) => [op, sig(c.slow / c.total)])),
    machineFast,
    steal: steal === null ? null : sig(steal),
    topology: topo,
  };
}

/**
 * The summary's one line about the machine's noise.
 * @param {any} noise the document's `noise`
 */
export function noiseLine(noise) {
  if (!noise) return null;
  const parts = [];
  parts.push(
    noise.slowShare === null
      ? 'no slices to tell the slow state by'
      : `${percent(noise.slowShare, noise.slowShare < 0.1 ? 1 : 0)} of the CPU-bound slices ran in the slow state (over 25% slower than their round's fastest typical)`,
  );
  if (noise.steal !== null) parts.push(`steal ${percent(noise.steal)} of CPU time`);
  if (noise.topology)
    parts.push(
      `${noise.topology.cpus} logical CPUs, ${noise.topology.threadsPerCore} thread${noise.topology.threadsPerCore > 1 ? 's' : ''} per core`,
    );
  return `Machine noise: ${parts.join('; ')}.`;
}
