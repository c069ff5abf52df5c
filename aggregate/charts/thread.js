// A drawing thread of the pool (pool.js starts it): draws the charts it is sent one at a time, in
// the order they come (vega's clip path ids are global), and answers each with its SVG or why it
// could not be drawn. vega is loaded as the thread starts, before its first chart comes.
import { parentPort } from 'node:worker_threads';
import { firstLine } from '../../lib/command.js';
import { load, svgOf } from './draw.js';

/** @type {Promise<unknown>} the charts drawn so far; a failure to load vega is reported with each chart */
let queue = load().catch(() => {});

parentPort?.on('message', (/** @type {{ key: string, spec: any }} */ { key, spec }) => {
  queue = queue
    .then(() => svgOf(spec))
    .then(
      (svg) => parentPort?.postMessage({ key, svg }),
      (err) => parentPort?.postMessage({ key, error: firstLine(err) }),
    );
});
