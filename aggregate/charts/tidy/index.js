// vega's SVG made small and steady, drawing the same picture. Charts are committed every night: a
// night that moves a few points should rewrite a few bytes, and what git stores of a chart should
// be its data, not vega's markup repeated on every element. The SVG is read into a tree
// (parse.js), each pass rewrites the tree, in this order, and the tree is written out again:
// - clean.js: ARIA and CSS hooks, attributes at their default, and marks that draw nothing dropped;
// - geometry.js: every point to the pixel, each shape written once in its group's coordinates
//   (the arithmetic in paths.js);
// - unwrap.js: groups without attributes unwrapped (vega nests many);
// - merge.js: strokes of one style next to each other drawn as one path;
// - clips.js: clip paths that are the same as another dropped;
// - classes.js: the style of each element as a class of a <style> sheet.
// A pass sees the tree the pass before it left (merge.js merges the paths geometry.js wrote, and
// unwrap.js made siblings); each is tested on its own (test/tidy.test.js).
import { classes } from './classes.js';
import { clean } from './clean.js';
import { sameClips } from './clips.js';
import { geometry } from './geometry.js';
import { merge } from './merge.js';
import { elements, parse, serialize } from './parse.js';
import { unwrap } from './unwrap.js';

/** @typedef {import('./parse.js').Element} Element */

const escape = (/** @type {string} */ s) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * vega's SVG, tidied (see the passes above), with the font set once and the alt text as the
 * chart's <title>.
 * @param {string} svg as vega wrote it
 * @param {any} spec the vega-lite spec it was drawn from
 * @returns {string}
 */
export function tidy(svg, spec) {
  const font = String(spec.config?.font ?? '');
  const root = parse(svg);
  const top = elements(root)[0];
  if (top?.name !== 'svg') throw new Error('charts: vega wrote no <svg>');
  clean(top, font);
  geometry(top);
  unwrap(top);
  merge(top);
  sameClips(top);
  const sheet = classes(top);
  top.attrs.set('font-family', escape(font));
  top.attrs.set('role', 'img');
  /** @type {Element[]} */
  const head = [{ name: 'title', attrs: new Map(), children: [escape(spec.description ?? spec.title?.text ?? '')] }];
  if (sheet) head.push({ name: 'style', attrs: new Map(), children: [sheet] });
  top.children.unshift(...head);
  return serialize(top);
}
