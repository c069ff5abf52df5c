// Pass: what draws nothing dropped. ARIA and CSS hooks (a chart is shown as an <img>: its alt text
// is the <title>), attributes at their default value, the font set once on the <svg> (index.js),
// and paths that draw nothing: empty, hidden, or of a single point (vega's empty group backgrounds).
import { elements } from './parse.js';

/** @typedef {import('./parse.js').Element} Element */

/** Hooks for a page's CSS and for screen readers inside a page. */
const DROPPED = new Set(['class', 'role', 'aria-roledescription', 'aria-hidden', 'aria-label', 'pointer-events']);
/** Attributes at their default value. @type {Record<string, string>} */
const DEFAULTS = { opacity: '1', transform: 'translate(0,0)', 'stroke-miterlimit': '4' };
/** A path of one point: a move and lines or closes of zero length (vega's empty group backgrounds). */
const DOT = /^M-?[\d.e+-]+,-?[\d.e+-]+(?:[hvl](?:-?0(?:\.0*)?,?)+|Z)*$/;

/** Nothing drawn: an empty path, a hidden one, or one of a single point. */
function drawsNothing(/** @type {Element} */ el) {
  const d = el.attrs.get('d') ?? '';
  return el.name === 'path' && (el.attrs.get('display') === 'none' || !d.trim() || DOT.test(d));
}

/**
 * @param {Element} el rewritten in place, with everything under it
 * @param {string} font the font set on the <svg>: a font-family of that font goes
 */
export function clean(el, font) {
  for (const [k, v] of [...el.attrs])
    if (DROPPED.has(k) || DEFAULTS[k] === v || (k === 'font-family' && v === font)) el.attrs.delete(k);
  el.children = el.children.filter((c) => typeof c === 'string' || !drawsNothing(c));
  for (const c of elements(el)) clean(c, font);
}
