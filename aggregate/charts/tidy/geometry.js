// Pass: every point to the pixel (vega's half-pixel offsets, which keep 1-px lines sharp, kept),
// each shape written once in its group's coordinates: a line or a straight path as one path of
// relative moves (differences of the rounded points: no error adds up), a text's position as x and
// y; the shape of a symbol (its arcs) to a tenth of a pixel around its point.
import { elements } from './parse.js';
import { STRAIGHT, numbers, pathOf, snap, snapSubpath, subpaths, tenth } from './paths.js';

/** @typedef {import('./parse.js').Element} Element */

/** The transform that moves nothing. */
const IDENTITY = 'translate(0,0)';

/**
 * A transform that is one translate: its x and y, else null.
 * @param {string | undefined} t
 * @returns {[number, number] | null}
 */
function translateOf(t) {
  const m = /^translate\((-?[\d.e+-]+)[ ,]+(-?[\d.e+-]+)\)$/.exec(t ?? IDENTITY);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** @param {Element} el rewritten in place, with everything under it */
export function geometry(el) {
  const a = el.attrs;
  const t = a.get('transform');
  const at = translateOf(t);
  const snapTranslate = () => {
    const snapped = t?.replace(/translate\(([^)]*)\)/g, (_, xy) => `translate(${numbers(xy, snap)})`);
    if (snapped === IDENTITY) a.delete('transform');
    else if (snapped) a.set('transform', snapped);
  };
  if (el.name === 'line' && at) {
    const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((k) => Number(a.get(k) ?? 0));
    el.name = 'path';
    for (const k of ['transform', 'x1', 'y1', 'x2', 'y2']) a.delete(k);
    a.set(
      'd',
      pathOf([
        snapSubpath({
          points: [
            [x1 + at[0], y1 + at[1]],
            [x2 + at[0], y2 + at[1]],
          ],
          closed: false,
        }),
      ]),
    );
  } else if (el.name === 'path' && at && STRAIGHT.test(a.get('d') ?? '')) {
    a.delete('transform');
    a.set('d', pathOf(subpaths(a.get('d') ?? '', at[0], at[1]).map(snapSubpath)));
  } else if (el.name === 'path') {
    a.set('d', numbers(a.get('d') ?? '', tenth)); // a symbol's shape, around its point
    snapTranslate();
  } else if (el.name === 'text' && at && t) {
    a.delete('transform');
    a.set('x', String(snap(at[0])));
    a.set('y', String(snap(at[1])));
  } else if (el.name === 'rect') {
    const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((k) => Number(a.get(k) ?? 0));
    const [x0, y0, x1, y1] = [x, y, x + w, y + h].map(snap);
    for (const [k, v] of /** @type {[string, number][]} */ ([
      ['x', x0],
      ['y', y0],
      ['width', x1 - x0],
      ['height', y1 - y0],
    ])) {
      if (a.has(k) || v !== 0) a.set(k, String(v));
    }
    snapTranslate();
  } else {
    snapTranslate();
    for (const k of ['x', 'y']) if (a.has(k)) a.set(k, numbers(/** @type {string} */ (a.get(k)), snap));
  }
  for (const c of elements(el)) geometry(c);
}
