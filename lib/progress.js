// Progress on stderr: what runs now, n of total, elapsed, ETA. One line per update when stderr is
// not a terminal (CI logs), one rewritten line when it is. A phase reports when it moves on (a
// block of cases, a workload's process, a counting process), which can be minutes apart (a
// counted process under valgrind, a slow case): so a timer prints the last report again, with the
// time and the ETA brought up to date, whenever HEARTBEAT_MS pass without a line.

import { clock } from './format.js';

/** The longest the terminal stays silent while a phase runs. */
export const HEARTBEAT_MS = 10_000;

/** How often the timer looks (the heartbeat is at most this late). */
const TICK_MS = 1000;

/**
 * @typedef {object} Progress
 * @property {number} done units finished (rounds of cases, processes)
 * @property {number} total units planned so far (extra rounds add to it, one by one)
 * @property {{ config: string, driver: string, cipher: string, op: string } | string | null} current
 *   what runs now (a case, or words); null: finished
 * @property {{ round: number, deadline: number }} [extra] an extra round (run.js); no extra round starts after `deadline` (ms since the epoch)
 * @property {number} [running] units running now (default 1; the counting pass runs several processes at once)
 * @property {() => number} [eta] ms left, where the phase knows better than done/total (the counting pass); asked at every line
 */

/**
 * @typedef {object} Timers
 * @property {(fn: () => void, ms: number) => { unref?: () => void }} setInterval
 * @property {(t: any) => void} clearInterval
 */

/**
 * A progress reporter: call it with each Progress; it prints it, and again every HEARTBEAT_MS
 * while nothing new comes, until a Progress with `current: null`.
 * @param {Pick<NodeJS.WriteStream, 'write' | 'isTTY'>} [stream]
 * @param {{ now?: () => number, timers?: Timers, label?: string }} [o] label: the phase, before each line
 * @returns {(p: Progress) => void}
 */
export function createProgress(stream = process.stderr, o = {}) {
  const now = o.now ?? Date.now;
  const timers = o.timers ?? { setInterval, clearInterval };
  const start = now();
  const tty = Boolean(stream.isTTY);
  const label = o.label ? `${o.label} ` : '';
  /** @type {{ p: Progress, at: number } | null} the last report and when it came */
  let last = null;
  let wrote = start;
  let timer = /** @type {any} */ (null);

  /** The time left: the phase's own estimate, or the pace so far, less the time since the last report. */
  const etaText = (/** @type {Progress} */ p, /** @type {number} */ at, /** @type {number} */ t) => {
    const left = p.eta ? p.eta() : p.done > 0 ? ((at - start) / p.done) * (p.total - p.done) - (t - at) : null;
    if (left === null || !Number.isFinite(left)) return '--:--';
    return left < 500 && t > at ? 'overdue' : clock(left);
  };

  const write = (/** @type {Progress} */ p, /** @type {number} */ at, /** @type {number} */ t) => {
    wrote = t;
    const what = !p.current
      ? 'done'
      : typeof p.current === 'string'
        ? p.current
        : `${p.current.config} · ${p.current.driver} · ${p.current.cipher} · ${p.current.op}`;
    // extra rounds go on while cases are imprecise, but never past the deadline
    const when = p.extra
      ? `extra round ${p.extra.round}, at most ${clock(Math.max(0, p.extra.deadline - t))} left`
      : `ETA ${etaText(p, at, t)}`;
    // n of total: the one running counted in (several where several run at once); none before the total is known
    const n = p.done + (p.current ? (p.running ?? 1) : 0);
    const count = p.total > 0 ? `[${String(n).padStart(String(p.total).length)}/${p.total}] ` : '';
    const line = `${label}${count}${clock(t - start)} elapsed, ${when}  ${what}`;
    if (tty) stream.write(`\r\x1b[K${line}${p.current ? '' : '\n'}`);
    else stream.write(`${line}\n`);
  };

  const beat = () => {
    const t = now();
    if (last && t - wrote >= HEARTBEAT_MS) write(last.p, last.at, t);
  };
  const stop = () => {
    if (timer !== null) timers.clearInterval(timer);
    timer = null;
  };

  return (p) => {
    const t = now();
    if (!p.current) {
      stop();
      if (p.total > 0 || last) write(p, t, t);
      last = null;
      return;
    }
    last = { p, at: t };
    write(p, t, t);
    if (timer === null) {
      timer = timers.setInterval(beat, TICK_MS);
      timer.unref?.(); // never what keeps the process alive
    }
  };
}
