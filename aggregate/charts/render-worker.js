#!/usr/bin/env node
// The chart renderer, run as a child process by aggregate/charts/writer.js: reads a JSON array of
// vega-lite specs on stdin, writes a JSON array of SVG strings on stdout. vega renders headlessly,
// without a browser and without a canvas package: text widths are vega's estimate, the same on
// every machine, so the same spec always gives the same bytes. A child, because vega's renderer is
// asynchronous and the aggregate is not; and so vega is loaded only when a chart changed.
import fs from 'node:fs';
import os from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import { vegaTextWidth } from './metrics.js';

vega.textMetrics.width = vegaTextWidth; // Helvetica's widths instead of vega's 0.8 em estimate

const escape = (/** @type {string} */ s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * One spec as SVG, with numbers cut to 2 decimals (smaller files; a hundredth of a pixel shows nothing).
 * @param {any} spec a vega-lite spec
 */
async function svgOf(spec) {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  vega.resetSVGDefIds(); // clip path ids start again per chart: the same chart, the same ids
  const svg = await view.toSVG();
  view.finalize();
  const font = String(spec.config?.font ?? '');
  return svg
    .replace(/ (class|role|aria-roledescription|aria-hidden|pointer-events)="[^"]*"/g, '') // hooks for a page's CSS and screen readers inside a page; an <img> has its alt text
    .replace(/ opacity="1"/g, '') // the default
    .replace(/<path d="(M0,0h0v0h0Z)?"( display="none")?\/>/g, '') // empty group backgrounds
    .replace(/ font-family="([^"]*)"/g, (m, f) => (f === font ? '' : m)) // set once on the root
    .replace(/<[^>]+>/g, (tag) => tag.replace(/(\d\.\d)\d+/g, '$1')) // a tenth of a pixel is enough
    .replace(/^<svg([^>]*)>/, (_, attrs) => `<svg${attrs} font-family="${escape(font)}" role="img"><title>${escape(spec.description ?? spec.title?.text ?? '')}</title>`);
}

/** Charts drawn per thread at least: below that a thread costs more (loading vega) than it saves. */
const PER_THREAD = 4;

/**
 * Draw the specs, split over threads (one per core, at most 4): each chart is drawn on its own,
 * so the bytes do not depend on the split.
 * @param {any[]} specs
 * @returns {Promise<string[]>}
 */
async function drawAll(specs) {
  const threads = Math.max(1, Math.min(4, os.availableParallelism?.() ?? os.cpus().length, Math.floor(specs.length / PER_THREAD)));
  if (threads === 1) {
    const out = [];
    for (const s of specs) out.push(await svgOf(s));
    return out;
  }
  const parts = Array.from({ length: threads }, (_, t) => specs.filter((_, i) => i % threads === t));
  const drawn = await Promise.all(parts.map((part) => new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: part });
    w.once('message', resolve);
    w.once('error', reject);
    w.once('exit', (code) => code && reject(new Error(`a drawing thread exited ${code}`)));
  })));
  return specs.map((_, i) => /** @type {string[]} */ (drawn[i % threads])[Math.floor(i / threads)]);
}

if (isMainThread) {
  drawAll(JSON.parse(fs.readFileSync(0, 'utf8'))).then((out) => process.stdout.write(JSON.stringify(out)), (err) => {
    console.error(`charts: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
} else {
  const out = [];
  for (const s of workerData) out.push(await svgOf(s));
  parentPort?.postMessage(out);
}
