// The chart drawer: vega-lite specs in, SVG text out, in worker threads of the aggregate's own
// process (drawingPool). vega renders headlessly, without a browser and without a canvas package:
// text widths come from metrics.js, the same on every machine, and each chart is drawn on its own
// (its clip path ids start again), so the same spec always gives the same bytes, whichever thread
// drew it and whatever it drew before. The aggregate is synchronous: it hands each chart to a
// thread as soon as a section asks for it (the threads load vega and draw while the pages are still
// being rendered) and, once both pages are done, blocks on a shared counter until the last chart
// is back (Atomics.wait + receiveMessageOnPort). vega is loaded only in the threads, and only when a
// chart has to be drawn (or, with warm(), as soon as new documents make that certain). What vega
// writes is made small and steady by tidy/.
import os from 'node:os';
import {
  MessageChannel,
  Worker,
  isMainThread,
  parentPort,
  receiveMessageOnPort,
  workerData,
} from 'node:worker_threads';
import { vegaTextWidth } from './metrics.js';
import { tidy } from './tidy/index.js';

/** What a thread of the pool is told it is (a worker started by something else is left alone). */
const ROLE = 'sqlite-node-bench chart drawer';
/** Charts are drawn by at most this many threads (the aggregate job's runner has 4 cores). */
export const MAX_THREADS = 4;
/** No chart back for this long: a thread is stuck or gone. */
const STALL_MS = 60_000;

/**
 * One thread per core but one, at most MAX_THREADS: the main thread renders the pages meanwhile,
 * and V8's garbage collector works on helper threads (a drawing thread keeps about 1.4 cores busy).
 * On a 2-core VM one drawing thread was as fast as two, with a quarter less CPU.
 */
export const defaultThreads = () =>
  Math.max(1, Math.min(MAX_THREADS, (os.availableParallelism?.() ?? os.cpus().length) - 1));
/**
 * A drawing thread's young generation: vega allocates short-lived objects by the million, and with
 * V8's default a thread spent about 15% of its time collecting them (0.6 of 3.9 s for a night's 32
 * charts); 64 MB saved 0.07–0.22 s a night in three alternated pairs.
 */
const YOUNG_GENERATION_MB = 64;

/** vega and vega-lite, loaded on the first chart. @type {Promise<{ vega: any, compile: any }> | undefined} */
let libraries;
const load = () => {
  libraries ??= Promise.all([import('vega'), import('vega-lite')]).then(([vega, vl]) => {
    vega.textMetrics.width = vegaTextWidth; // Helvetica's widths instead of vega's 0.8 em estimate
    return { vega, compile: vl.compile };
  });
  return libraries;
};

/** vega-lite's warnings (e.g. a scale property a log scale ignores) are about the spec, not this night's data: not printed. */
const quiet = {
  level() {
    return this;
  },
  info() {
    return this;
  },
  debug() {
    return this;
  },
  warn() {
    return this;
  },
  error(/** @type {unknown[]} */ ...m) {
    throw new Error(m.join(' '));
  },
};

/**
 * One vega-lite spec drawn as SVG, in this thread.
 * @param {any} spec
 * @returns {Promise<string>}
 */
export async function svgOf(spec) {
  const { vega, compile } = await load();
  const view = new vega.View(vega.parse(compile(spec, { logger: quiet }).spec), { renderer: 'none' });
  try {
    vega.resetSVGDefIds(); // clip path ids start again per chart: the same chart, the same ids
    return tidy(await view.toSVG(), spec);
  } finally {
    view.finalize();
  }
}

/** The first line of an error, for a one-line report. */
const firstLine = (/** @type {unknown} */ err) => String(/** @type {any} */ (err)?.message ?? err).split('\n')[0];

/**
 * Threads that draw charts for a synchronous caller: `submit` hands a chart to the least loaded
 * thread and returns at once; `wait` blocks until every chart submitted is back. A thread starts
 * with a chart to draw (one per chart up to `size`), and none keeps the process alive.
 * @param {number} [size] threads, defaultThreads() when not given
 */
export function drawingPool(size = defaultThreads()) {
  const counter = new Int32Array(new SharedArrayBuffer(4));
  /** @type {{ worker: Worker, port: import('node:worker_threads').MessagePort, load: number }[]} */
  const threads = [];
  /** @type {Map<string, number>} key → the cost of a chart being drawn */
  const pending = new Map();
  /** @type {Map<string, { svg?: string, error?: string }>} */
  const done = new Map();
  /** One more thread (each loads vega: a thread per chart at most). */
  const start = () => {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { role: ROLE, port: port2, counter },
      transferList: [port2],
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    worker.unref();
    port1.unref();
    threads.push({ worker, port: port1, load: 0 });
  };
  const drain = () => {
    for (const t of threads) {
      for (let m = receiveMessageOnPort(t.port); m; m = receiveMessageOnPort(t.port)) {
        const { key, svg, error } = m.message;
        const cost = pending.get(key);
        if (cost === undefined) continue;
        t.load -= cost;
        pending.delete(key);
        done.set(key, error === undefined ? { svg } : { error });
      }
    }
  };
  return {
    /** Start every thread now, so that each has vega loaded when the charts come (when charts will surely change). */
    warm() {
      while (threads.length < size) start();
    },
    /**
     * Draw a chart (once per key: the same key again is ignored).
     * @param {string} key names the chart in the results
     * @param {any} spec
     * @param {number} [cost] about how long it takes to draw, in any unit (the spec's JSON length will do)
     */
    submit(key, spec, cost = 1) {
      if (pending.has(key) || done.has(key)) return;
      drain();
      if (threads.length < size) start();
      const thread = threads.reduce((best, t, i) => (t.load < threads[best].load ? i : best), 0);
      threads[thread].load += cost;
      pending.set(key, cost);
      threads[thread].worker.postMessage({ key, spec });
    },
    /**
     * Block until every chart submitted is drawn.
     * @returns {Map<string, { svg?: string, error?: string }>} key → its SVG, or why it could not be drawn
     */
    wait() {
      for (;;) {
        const seen = Atomics.load(counter, 0);
        drain();
        if (!pending.size) return done;
        if (Atomics.wait(counter, 0, seen, STALL_MS) === 'timed-out') {
          drain();
          if (!pending.size) return done;
          throw new Error(
            `charts: no chart came back in ${STALL_MS / 1000} s (${pending.size} still drawing); a drawing thread is stuck or gone`,
          );
        }
      }
    },
    /** Stop the threads. */
    close() {
      for (const t of threads.splice(0)) {
        t.port.close();
        void t.worker.terminate();
      }
    },
  };
}

/** A thread of the pool: draws one chart at a time (vega's clip path ids are global), in the order they come. */
function serve() {
  const { port, counter } = workerData;
  /** @type {Promise<unknown>} vega is loaded as the thread starts, before its first chart comes */
  let queue = load().catch(() => {}); // a failure to load is reported with each chart

  const reply = (/** @type {any} */ message) => {
    port.postMessage(message);
    Atomics.add(counter, 0, 1);
    Atomics.notify(counter, 0);
  };
  parentPort?.on('message', ({ key, spec }) => {
    queue = queue
      .then(() => svgOf(spec))
      .then(
        (svg) => reply({ key, svg }),
        (err) => reply({ key, error: firstLine(err) }),
      );
  });
}

if (!isMainThread && workerData?.role === ROLE) serve();
