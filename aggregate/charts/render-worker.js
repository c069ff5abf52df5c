// The chart drawer: vega-lite specs in, SVG text out, in worker threads of the aggregate's own
// process (drawingPool). vega renders headlessly, without a browser and without a canvas package:
// text widths come from metrics.js, the same on every machine, and each chart is drawn on its own
// (its clip path ids start again), so the same spec always gives the same bytes, whichever thread
// drew it and whatever it drew before. The aggregate is synchronous: it hands each chart to a
// thread as soon as a section asks for it (the threads load vega and draw while the pages are still
// being rendered) and, once both pages are done, blocks on a shared counter until the last chart
// is back (Atomics.wait + receiveMessageOnPort). vega is loaded only in the threads, and only when a
// chart has to be drawn (or, with warm(), as soon as new documents make that certain).
import os from 'node:os';
import { MessageChannel, Worker, isMainThread, parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { vegaTextWidth } from './metrics.js';

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
export const defaultThreads = () => Math.max(1, Math.min(MAX_THREADS, (os.availableParallelism?.() ?? os.cpus().length) - 1));

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
const quiet = { level() { return this; }, info() { return this; }, debug() { return this; }, warn() { return this; }, error(/** @type {unknown[]} */ ...m) { throw new Error(m.join(' ')); } };

const escape = (/** @type {string} */ s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Hooks for a page's CSS and for screen readers inside a page: an <img> has its alt text (the <title>). */
const DROPPED = new Set(['class', 'role', 'aria-roledescription', 'aria-hidden', 'aria-label', 'pointer-events']);
/** Attributes at their default value. @type {Record<string, string>} */
const DEFAULTS = { opacity: '1', transform: 'translate(0,0)' };
/** Attributes that hold positions and sizes in px: their numbers are rounded (never opacity, font or stroke widths). */
const GEOMETRY = /^(d|transform|x|y|x1|x2|y1|y2|width|height|viewBox|r|cx|cy|rx|ry|points)$/;
/** A number to a tenth of a pixel, the shortest way: 37.04 → 37, -0.04 → 0 (String(-0) is '0'), .55 → 0.6. */
const tenth = (/** @type {string} */ n) => String(Math.round(Number(n) * 10) / 10);

/**
 * A path of straight lines only (M, L, Z with absolute coordinates) without the points that lie
 * inside a horizontal or vertical run: a band drawn as ninety points on one line becomes its two
 * ends. The shape drawn is the same (a removed point lies on the segment that replaces it), and a
 * night that moves the band rewrites a few bytes, not a few hundred.
 * @param {string} d
 */
export function straighten(d) {
  if (!/^(M-?[\d.]+,-?[\d.]+(L-?[\d.]+,-?[\d.]+)*Z?)+$/.test(d)) return d;
  return (d.match(/M[^M]+/g) ?? []).map((sub) => {
    const closed = sub.endsWith('Z');
    const pts = sub.slice(1, closed ? -1 : undefined).split('L').map((p) => p.split(','));
    /** @type {string[][]} */
    const kept = [pts[0]];
    const between = (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ c) => (a <= b && b <= c) || (a >= b && b >= c);
    for (let i = 1; i < pts.length - 1; i++) {
      const [a, b, c] = [kept[kept.length - 1], pts[i], pts[i + 1]].map((p) => p.map(Number));
      const onRow = a[1] === b[1] && b[1] === c[1] && between(a[0], b[0], c[0]);
      const onColumn = a[0] === b[0] && b[0] === c[0] && between(a[1], b[1], c[1]);
      if (!onRow && !onColumn) kept.push(pts[i]);
    }
    if (pts.length > 1) kept.push(pts[pts.length - 1]);
    return `M${kept.map((p) => p.join(',')).join('L')}${closed ? 'Z' : ''}`;
  }).join('');
}

/**
 * Groups without attributes (vega nests many) draw nothing of their own: their children are kept,
 * the <g> and </g> around them dropped.
 * @param {string} svg
 */
function unwrapBareGroups(svg) {
  /** @type {boolean[]} whether each open <g> was kept */
  const open = [];
  return svg.replace(/<g>|<g\s[^>]*>|<\/g>/g, (tag) => {
    if (tag === '</g>') return open.pop() ? tag : '';
    if (tag.endsWith('/>')) return tag;
    open.push(tag !== '<g>');
    return tag === '<g>' ? '' : tag;
  });
}

/**
 * vega's SVG made smaller and steadier, drawing the same picture: ARIA and CSS hooks and defaults
 * dropped, positions to a tenth of a pixel (a hundredth shows nothing; a night that moves nothing
 * rewrites nothing), straight runs of a path to their ends, bare groups unwrapped, the font set
 * once, and the alt text as the chart's <title>.
 * @param {string} svg as vega wrote it
 * @param {any} spec the vega-lite spec it was drawn from
 */
export function tidy(svg, spec) {
  const font = String(spec.config?.font ?? '');
  const attribute = (/** @type {string} */ m, /** @type {string} */ name, /** @type {string} */ value) => {
    if (DROPPED.has(name) || DEFAULTS[name] === value || (name === 'font-family' && value === font)) return '';
    if (!GEOMETRY.test(name)) return m;
    const rounded = value.includes('.') ? value.replace(/-?\d*\.?\d+(e-?\d+)?/g, tenth) : value;
    return ` ${name}="${name === 'd' ? straighten(rounded) : rounded}"`;
  };
  const tidied = svg
    .replace(/<[^>]+>/g, (tag) => tag.replace(/ ([a-zA-Z][a-zA-Z0-9:-]*)="([^"]*)"/g, attribute))
    .replace(/<path( d="(M0,0h0v0h0Z)?")?( display="none")?\/>/g, ''); // empty group backgrounds
  return unwrapBareGroups(tidied)
    .replace(/^<svg([^>]*)>/, (_, attrs) => `<svg${attrs} font-family="${escape(font)}" role="img"><title>${escape(spec.description ?? spec.title?.text ?? '')}</title>`);
}

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
    const worker = new Worker(new URL(import.meta.url), { workerData: { role: ROLE, port: port2, counter }, transferList: [port2] });
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
          throw new Error(`charts: no chart came back in ${STALL_MS / 1000} s (${pending.size} still drawing); a drawing thread is stuck or gone`);
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
    queue = queue.then(() => svgOf(spec)).then((svg) => reply({ key, svg }), (err) => reply({ key, error: firstLine(err) }));
  });
}

if (!isMainThread && workerData?.role === ROLE) serve();
