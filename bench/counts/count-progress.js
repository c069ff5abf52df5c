// The counting pass's progress (bench/counts/pass.js), for lib/progress.js: processes done
// of all, what runs now, and an ETA from the first line. A counted process says nothing until it
// exits, and under valgrind one can take minutes, so the ETA comes from what each process should
// take (a start and a cost per case, per tool: PRIOR, measured here), scaled by how much slower or
// faster than that the processes that finished were, and laid out on the pass's lanes as the
// pool runs them (in order, each on the first free lane).

/**
 * Seconds a counted process takes, per tool: to start (node, the drivers, the warm-up of its
 * setups, the marks' calibration) and per case; on 2 idle cores, callgrind counting only the
 * windows (bench/counts/instrument.js), quick K. Only the ETA's first guess: the processes that
 * finish correct it.
 * @type {Record<string, { start: number, perCase: number }>}
 */
const PRIOR = {
  callgrind: { start: 3.5, perCase: 0.9 },
  // two side by side after the callgrind ones: ~55 s for 207 cases (docs/counting.md), 79 and 104 s
  // for 226 beside them on a busier machine
  strace: { start: 0.8, perCase: 0.3 },
  native: { start: 0.5, perCase: 0.05 },
};

/**
 * @typedef {{ step: 'begin', cases: number }
 *   | { step: 'plan', jobs: { tool: string, repeat: number, cases: number }[], lanes: number }
 *   | { step: 'start', i: number }
 *   | { step: 'end', i: number }} CountEvent
 *   begin: before the templates are made (bench/cli.js); plan: the processes, in the order the
 *   pool starts them, and how many run at once; start and end: process i of the plan
 */

/**
 * @param {(p: import('../../lib/progress.js').Progress) => void} report
 * @param {() => number} [now]
 * @returns {(e: CountEvent) => void} lines come a turn of the event loop after their events (one per moment), but
 *   `begin`'s at once
 */
export function countingProgress(report, now = Date.now) {
  /** @type {{ tool: string, repeat: number, cases: number }[]} */
  let jobs = [];
  let lanes = 1;
  /** @type {Map<number, number>} running: i -> when it started */
  const running = new Map();
  /** @type {Map<number, number>} finished: i -> its seconds over its prior */
  const finished = new Map();
  let cases = 0;

  const prior = (/** @type {{ tool: string, cases: number }} */ j) => {
    const p = PRIOR[j.tool] ?? PRIOR.callgrind;
    return (p.start + p.perCase * j.cases) * 1000;
  };
  /**
   * How much slower than its prior a process of this tool runs here: its finished ones', else any
   * finished one's; and at least what a running one of the tool has already taken over its prior.
   */
  const scale = (/** @type {string} */ tool, /** @type {number} */ t) => {
    const of = (/** @type {(i: number) => boolean} */ f) => [...finished].filter(([i]) => f(i)).map(([, r]) => r);
    const own = of((i) => jobs[i].tool === tool);
    const all = own.length ? own : of(() => true);
    const mean = all.length ? all.reduce((a, b) => a + b, 0) / all.length : 1;
    const over = [...running].filter(([i]) => jobs[i].tool === tool).map(([i, at]) => (t - at) / prior(jobs[i]));
    return Math.max(mean, ...over);
  };
  /** A process's expected ms; one that has run past it is expected to need a tenth of its time again. */
  const expected = (/** @type {number} */ i, /** @type {number} */ t) => prior(jobs[i]) * scale(jobs[i].tool, t);
  const left = (/** @type {number} */ i, /** @type {number} */ t) => {
    const ran = t - /** @type {number} */ (running.get(i));
    return Math.max(expected(i, t) - ran, ran / 10);
  };

  /** ms until the last process ends: the running ones' remainders, then the queued on the first free lane. */
  const eta = () => {
    if (!jobs.length) {
      // the templates first: roughly what one strace process takes for these cases
      return prior({ tool: 'callgrind', cases }) + prior({ tool: 'strace', cases });
    }
    const t = now();
    const free = [...running.keys()].map((i) => left(i, t));
    while (free.length < lanes) free.push(0);
    jobs.forEach((_, i) => {
      if (running.has(i) || finished.has(i)) return;
      const k = free.indexOf(Math.min(...free));
      free[k] += expected(i, t);
    });
    return Math.max(0, ...free);
  };

  const plural = (/** @type {number} */ n, /** @type {string} */ w) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const what = () => {
    if (!jobs.length) return `making the templates of ${plural(cases, 'case')} natively`;
    const names = [...running.keys()].map(
      (i) => `${jobs[i].tool} (${jobs[i].repeat ? 'repeat' : 'first count'}, ${plural(jobs[i].cases, 'case')})`,
    );
    return names.length ? `running ${names.join(', ')}` : 'reading the counts';
  };

  const emit = () => {
    const done = finished.size;
    report(
      jobs.length && done === jobs.length
        ? { done, total: jobs.length, current: null }
        : { done, total: jobs.length, running: running.size, current: what(), eta },
    );
  };
  /** One line for the events of one moment: a process ends and the next starts in the same turn. */
  let pending = false;
  const soon = () => {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      emit();
    });
  };

  return (e) => {
    if (e.step === 'begin') {
      cases = e.cases;
      emit(); // at once: the templates are made next, without a turn of the event loop
      return;
    }
    if (e.step === 'plan') {
      jobs = e.jobs;
      lanes = Math.max(1, e.lanes);
      return;
    }
    if (e.step === 'start') running.set(e.i, now());
    else {
      const at = running.get(e.i) ?? now();
      running.delete(e.i);
      finished.set(e.i, (now() - at) / prior(jobs[e.i]));
    }
    soon();
  };
}
