// Pass: runs of sibling paths that are strokes of one style (nothing but d differs, no fill where
// they are) drawn as one path. A subpath that is the same as one already in the path starts
// another path: a line drawn twice stays drawn twice (its anti-aliased edges darken).
import { STRAIGHT } from './paths.js';

/**
 * @typedef {import('./parse.js').Element} Element
 * @typedef {import('./parse.js').Node} Node
 */

/** What keeps strokes of one style from being drawn as one path: a fill (overlaps would fill once), transparency, caps or dashes. */
const UNMERGED = new Set([
  'fill',
  'fill-opacity',
  'opacity',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-dasharray',
  'transform',
  'clip-path',
  'id',
]);

/**
 * @param {Element} el rewritten in place, with everything under it
 * @param {string} [fill] the fill it inherits
 */
export function merge(el, fill = 'black') {
  const own = el.attrs.get('fill') ?? fill;
  /** @type {Node[]} */
  const out = [];
  /** @type {{ el: Element, key: string, subs: Set<string> } | undefined} */
  let run;
  for (const c of el.children) {
    if (typeof c !== 'string') merge(c, own);
    const mergeable =
      typeof c !== 'string' &&
      c.name === 'path' &&
      own === 'none' &&
      c.attrs.has('stroke') &&
      ![...c.attrs.keys()].some((k) => UNMERGED.has(k)) &&
      STRAIGHT.test(c.attrs.get('d') ?? '');
    if (!mergeable) {
      out.push(c);
      run = undefined;
      continue;
    }
    const key = JSON.stringify([...c.attrs].filter(([k]) => k !== 'd'));
    const subs = /** @type {string} */ (c.attrs.get('d')).match(/M[^M]*/g) ?? [];
    if (run && run.key === key && subs.every((s) => !run?.subs.has(s)) && new Set(subs).size === subs.length) {
      run.el.attrs.set('d', `${run.el.attrs.get('d')}${subs.join('')}`);
      for (const s of subs) run.subs.add(s);
    } else {
      out.push(c);
      run = { el: c, key, subs: new Set(subs) };
    }
  }
  el.children = out;
}
