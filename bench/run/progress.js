// Progress on stderr: what runs now, n of total, elapsed, ETA. One line per case when stderr is
// not a terminal (CI logs), one rewritten line when it is.

import { clock } from '../../lib/format.js';

/**
 * @typedef {object} Progress
 * @property {number} done rounds of cases finished
 * @property {number} total rounds of cases planned so far (extra rounds add to it pass by pass)
 * @property {{ config: string, driver: string, cipher: string, op: string } | null} current null: finished
 * @property {{ pass: number, deadline: number }} [extra] an extra round (run.js); no extra round starts after `deadline` (ms since the epoch)
 */

/**
 * @param {NodeJS.WriteStream} stream
 * @param {() => number} [now]
 */
export function createProgress(stream = process.stderr, now = Date.now) {
  const start = now();
  const tty = Boolean(stream.isTTY);
  return (/** @type {Progress} */ p) => {
    const t = now();
    const elapsed = t - start;
    const eta = p.done > 0 ? clock((elapsed / p.done) * (p.total - p.done)) : '--:--';
    const what = p.current
      ? `${p.current.config} · ${p.current.driver} · ${p.current.cipher} · ${p.current.op}`
      : 'done';
    // extra rounds go on while cases are imprecise, but never past the deadline
    const when = p.extra
      ? `extra pass ${p.extra.pass}, at most ${clock(Math.max(0, p.extra.deadline - t))} left`
      : `ETA ${eta}`;
    const line = `[${String(p.done + (p.current ? 1 : 0)).padStart(String(p.total).length)}/${p.total}] ${clock(elapsed)} elapsed, ${when}  ${what}`;
    if (tty) stream.write(`\r\x1b[K${line}${p.current ? '' : '\n'}`);
    else stream.write(`${line}\n`);
  };
}
