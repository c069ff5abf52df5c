// One chart drawn: a vega-lite spec in, SVG text out. vega renders headlessly, without a browser
// and without a canvas package: text widths come from metrics.js, the same on every machine, and
// each chart is drawn on its own (its clip path ids start again), so the same spec always gives the
// same bytes, whatever was drawn before. What vega writes is made small and steady by tidy.js.
import { vegaTextWidth } from './metrics.js';
import { tidy } from './tidy.js';

/**
 * What this file uses of vega beyond its typings: the text measure it lays labels out with.
 * @typedef {{ textMetrics: { width: (item: any, text?: any) => number } }} VegaTextMetrics
 */

/** vega and vega-lite, loaded with the first chart (an aggregate that draws none loads neither). @type {Promise<{ vega: typeof import('vega'), compile: typeof import('vega-lite').compile }> | undefined} */
let libraries;

/** vega-lite's warnings (e.g. a scale property a log scale ignores) are about the spec, not this night's data: not printed. @type {any} */
const quiet = { level: () => quiet, info: () => quiet, debug: () => quiet, warn: () => quiet };
quiet.error = (/** @type {unknown[]} */ ...m) => {
  throw new Error(m.join(' '));
};

/**
 * One vega-lite spec drawn as SVG, tidied. One chart at a time: vega's clip path ids are global.
 * @param {any} spec
 * @returns {Promise<string>}
 */
export async function svgOf(spec) {
  const { vega, compile } = await (libraries ??= Promise.all([import('vega'), import('vega-lite')]).then(
    ([vega, vl]) => {
      // Helvetica's widths instead of vega's 0.8 em estimate
      /** @type {VegaTextMetrics} */ (/** @type {unknown} */ (vega)).textMetrics.width = vegaTextWidth;
      return { vega, compile: vl.compile };
    },
  ));
  const view = new vega.View(vega.parse(compile(spec, { logger: quiet }).spec), { renderer: 'none' });
  try {
    vega.resetSVGDefIds(); // clip path ids start again per chart: the same chart, the same ids
    return tidy(await view.toSVG(), spec);
  } finally {
    view.finalize();
  }
}
