// Pass: the style of each element (fill, stroke, font...) as a class of a <style> sheet, named by
// a hash of the style: the same name in every chart and every night.
import crypto from 'node:crypto';
import { walk } from './parse.js';

/** @typedef {import('./parse.js').Element} Element */

/** Attributes that style an element (and its children): they go into the class. */
const STYLE = new Set([
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'opacity',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'text-anchor',
]);
/** Letters for a class name from a hash (a class name starts with a letter). */
const LETTERS = 'abcdefghijklmnop';

/**
 * Each element's style attributes (but the <svg>'s) as a class: the rules, as a style sheet. A
 * class is named by a hash of its style, as few letters (at least 3) as keep the names of one
 * chart apart.
 * @param {Element} root rewritten in place, with everything under it
 * @returns {string} the style sheet
 */
export function classes(root) {
  /** @type {Map<Element, string>} */
  const keyOf = new Map();
  for (const el of walk(root)) {
    const style = [...el.attrs].filter(([k]) => STYLE.has(k)).sort(([a], [b]) => (a < b ? -1 : 1));
    if (el.name === 'svg' || !style.length) continue;
    keyOf.set(el, style.map(([k, v]) => `${k}:${v}`).join(';'));
    for (const [k] of style) el.attrs.delete(k);
  }
  const keys = [...new Set(keyOf.values())];
  const hashes = keys.map((k) =>
    [...crypto.createHash('sha256').update(k).digest('hex')].map((h) => LETTERS[parseInt(h, 16)]).join(''),
  );
  let n = 3;
  while (new Set(hashes.map((h) => h.slice(0, n))).size < keys.length) n++;
  const names = new Map(keys.map((k, i) => [k, hashes[i].slice(0, n)]));
  for (const [el, key] of keyOf) el.attrs = new Map([['class', /** @type {string} */ (names.get(key))], ...el.attrs]);
  return [...names]
    .sort(([, a], [, b]) => (a < b ? -1 : 1))
    .map(([k, name]) => `.${name}{${k}}`)
    .join('');
}
