// The drawing threads: worker threads of the aggregate's own process that draw charts (thread.js)
// while the main thread renders the pages. `draw` hands a chart to the least loaded thread and
// returns at once; `drawn` resolves when every chart handed is back. A thread starts with the
// first chart it is given (one per chart up to the pool's size), or all at once with `warm` (they
// load vega meanwhile); none keeps the process alive on its own.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { firstLine } from '../../lib/command.js';

/** Charts are drawn by at most this many threads (the aggregate job's runner has 4 cores). */
export const MAX_THREADS = 4;
/** No chart back for this long: a thread is stuck. */
const STALL_MS = 60_000;
/**
 * A drawing thread's young generation: vega allocates short-lived objects by the million, and with
 * V8's default a thread spent about 15% of its time collecting them (0.6 of 3.9 s for a night's 32
 * charts); 64 MB saved 0.07–0.22 s a night in three alternated pairs.
 */
const YOUNG_GENERATION_MB = 64;

/**
 * The cores this process may use: os.availableParallelism (which heeds CPU affinity) where Node
 * has it (18.14+ and 19.4+), else every core (Node 19.0–19.3, inside the engines range, lack it:
 * it is looked up by name, not used as if every Node had it).
 * @returns {number}
 */
function cores() {
  /** @type {unknown} */
  const available = Reflect.get(os, 'availableParallelism');
  return typeof available === 'function' ? available.call(os) : os.cpus().length;
}

/**
 * One thread per core but one, at most MAX_THREADS: the main thread renders the pages meanwhile,
 * and V8's garbage collector works on helper threads (a drawing thread keeps about 1.4 cores busy).
 * On a 2-core VM one drawing thread was as fast as two, with a quarter less CPU.
 */
export const defaultThreads = () => Math.max(1, Math.min(MAX_THREADS, cores() - 1));

/** @typedef {{ svg: string, error?: undefined } | { svg?: undefined, error: string }} Drawn a chart's SVG, or why it could not be drawn */

/**
 * @param {number} [size] threads, defaultThreads() when not given
 */
export function drawingPool(size = defaultThreads()) {
  /** @typedef {{ worker: Worker, load: number, waiting: Map<string, { cost: number, answer: (d: Drawn) => void }> }} Thread */
  /** @type {Thread[]} */
  const threads = [];
  /** @type {Map<string, Promise<Drawn>>} key → its chart, drawn or being drawn */
  const charts = new Map();
  /** When the last chart came back (or the wait for them began). */
  let lastAnswer = Date.now();

  /** One more thread (each loads vega: a thread per chart at most). */
  const start = () => {
    const worker = new Worker(new URL('./thread.js', import.meta.url), {
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    /** @type {Thread} */
    const t = { worker, load: 0, waiting: new Map() };
    const settle = (/** @type {string} */ key, /** @type {Drawn} */ drawn) => {
      const w = t.waiting.get(key);
      if (!w) return;
      t.waiting.delete(key);
      t.load -= w.cost;
      lastAnswer = Date.now();
      w.answer(drawn);
    };
    worker.on('message', (/** @type {{ key: string, svg?: string, error?: string }} */ { key, svg, error }) =>
      settle(key, error === undefined ? { svg: /** @type {string} */ (svg) } : { error }),
    );
    // a thread that fails or stops answers every chart it still had with why, and takes no more
    const gone = (/** @type {string} */ why) => {
      const i = threads.indexOf(t);
      if (i >= 0) threads.splice(i, 1);
      for (const key of [...t.waiting.keys()]) settle(key, { error: why });
    };
    worker.on('error', (err) => gone(`its drawing thread failed: ${firstLine(err)}`));
    worker.on('exit', (code) => gone(`its drawing thread stopped (exit code ${code})`));
    worker.unref(); // after the listeners: adding one refs the thread again
    threads.push(t);
    return t;
  };

  return {
    /** Start every thread now, so that each has vega loaded when the charts come (when charts will surely change). */
    warm() {
      while (threads.length < size) start();
    },
    /**
     * Draw a chart (once per key: the same key again is the same drawing).
     * @param {string} key names the chart in the results
     * @param {any} spec
     * @param {number} [cost] about how long it takes to draw, in any unit (the spec's JSON length will do)
     * @returns {Promise<Drawn>}
     */
    draw(key, spec, cost = 1) {
      const known = charts.get(key);
      if (known) return known;
      const thread =
        threads.length < size ? start() : threads.reduce((best, t) => (t.load < best.load ? t : best), threads[0]);
      thread.load += cost;
      /** @type {Promise<Drawn>} */
      const drawn = new Promise((answer) => thread.waiting.set(key, { cost, answer }));
      thread.worker.postMessage({ key, spec });
      charts.set(key, drawn);
      return drawn;
    },
    /**
     * Every chart handed to draw, once all are back. Rejects when no chart came back for STALL_MS.
     * @returns {Promise<Map<string, Drawn>>} key → its SVG, or why it could not be drawn
     */
    async drawn() {
      const all = Promise.all([...charts].map(async ([key, p]) => /** @type {const} */ ([key, await p])));
      /** @type {NodeJS.Timeout | undefined} */
      let timer;
      /** @type {Promise<never>} */
      const stalled = new Promise((_, reject) => {
        lastAnswer = Date.now();
        const check = () => {
          const quiet = Date.now() - lastAnswer;
          if (quiet < STALL_MS) timer = setTimeout(check, STALL_MS - quiet);
          else
            reject(
              new Error(
                `charts: no chart came back in ${STALL_MS / 1000} s (${threads.reduce((n, t) => n + t.waiting.size, 0)} still drawing); a drawing thread is stuck`,
              ),
            );
        };
        timer = setTimeout(check, STALL_MS);
      });
      try {
        return new Map(await Promise.race([all, stalled]));
      } finally {
        clearTimeout(timer);
      }
    },
    /** Stop the threads. */
    close() {
      for (const t of threads.splice(0)) void t.worker.terminate();
    },
  };
}
