// vega's SVG made small and steady, drawing the same picture: charts are committed every night, so a
// night that moves a few points should rewrite a few bytes, and git should store a chart's data, not
// vega's markup repeated on every element. svgo's default preset does the generic work; four passes
// are ours, as svgo plugins (docs/pipeline.md#what-the-readme-shows): pixels (vega's ARIA and CSS
// hooks dropped, a chart being an <img> whose alt text is its <title>; every point to the pixel where
// vega wrote it, its half pixels kept, so a night that moves a point by a tenth rewrites nothing; a
// group's transform left on the group, so a panel moved by a wider label rewrites one transform),
// sameClips, repeats (a line vega draws once per row, which svgo merged, split again: drawn twice,
// its anti-aliased edges darken) and sheet (each element's style a class of one <style> sheet).
import crypto from 'node:crypto';
import { optimize } from 'svgo';

/** @typedef {import('svgo').XastElement} Element */

/** Attributes that style an element (and its children): they go into the class. */
const STYLE = new Set(
  [
    'fill fill-opacity stroke stroke-width stroke-opacity stroke-linecap stroke-linejoin stroke-miterlimit',
    'stroke-dasharray stroke-dashoffset opacity font-family font-size font-style font-weight text-anchor',
  ].flatMap((line) => line.split(' ')),
);
/** Letters for a class name from a hash (a class name starts with a letter). */
const LETTERS = 'abcdefghijklmnop';

/** Numbers as vega writes them. */
const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi;
/** The attributes that hold a position or a size. */
const POSITION = new Set(['x', 'y', 'x1', 'y1', 'x2', 'y2', 'width', 'height']);
/** A side under this many px (a tick's thickness) is kept to a tenth: to the pixel, it would double or vanish. */
const THIN = 3;

/** A position to the pixel, or to the half pixel where vega put it: 37.04 → 37, 9.5 → 9.5, -0.2 → 0. */
function snap(/** @type {number} */ v) {
  const halves = Math.round(v * 2);
  return (Math.abs(v * 2 - halves) < 1e-6 ? halves / 2 : Math.round(v)) || 0; // no -0
}
const snapNumbers = (/** @type {string} */ s) => s.replace(NUMBER, (n) => String(snap(Number(n))));

/**
 * A path vega wrote, its points to the pixel: a rectangle (a bar, a tick, a background) as vega
 * writes it, M x,y h w v h h -w Z, with its corner to the pixel and a side under THIN px to a
 * tenth; lines and polygons of absolute points (M, L, Z) with each point to the pixel. Anything
 * else (a symbol's arcs) is left to the preset, to a tenth.
 * @param {string} d
 */
function snapPath(d) {
  const rect = /^M([^,]+),([^h]+)h([^v]+)v([^h]+)h[^Z]+Z$/.exec(d)?.slice(1).map(Number);
  if (!rect) return /^M[MLZ\d\s.,eE+-]*$/.test(d) ? snapNumbers(d) : d;
  const [x, y, w, h] = rect;
  const side = (/** @type {number} */ at, /** @type {number} */ size) =>
    Math.abs(size) < THIN ? Math.round(size * 10) / 10 : snap(at + size) - snap(at);
  return `M${snap(x)},${snap(y)}h${side(x, w)}v${side(y, h)}h${-side(x, w)}Z`;
}

/** @type {import('svgo').CustomPlugin} */
const pixels = {
  name: 'pixels',
  fn: () => ({
    element: {
      enter(el) {
        const a = el.attributes;
        // vega's hooks (not by svgo's removeAttrs: it makes its patterns again for each element)
        for (const k of Object.keys(a)) if (/^(class|role|aria-.*|pointer-events)$/.test(k)) delete a[k];
        if (el.name === 'svg') return;
        for (const k of Object.keys(a)) if (POSITION.has(k)) a[k] = snapNumbers(a[k]);
        if (a.transform) a.transform = a.transform.replace(/translate\([^)]*\)/g, snapNumbers);
        if (/^translate\(0[ ,]*0?\)$/.test(a.transform ?? '')) delete a.transform; // a group that moves nothing goes
        if (el.name === 'path' && a.d) a.d = snapPath(a.d);
      },
    },
  }),
};

/** @type {import('svgo').CustomPlugin} */
export const sameClips = {
  name: 'sameClips',
  fn: () => {
    /** @type {Map<string, string>} content → id */
    const first = new Map();
    /** @type {Map<string, string>} id → the id used instead */
    const instead = new Map();
    const users = /** @type {Element[]} */ ([]);
    return {
      element: {
        enter(el, parent) {
          if (el.attributes['clip-path']) users.push(el);
          const id = el.attributes.id;
          if (el.name !== 'clipPath' || id === undefined) return;
          const content = JSON.stringify(el.children);
          const earlier = first.get(content);
          if (earlier === undefined) first.set(content, id);
          else {
            instead.set(id, earlier);
            parent.children = parent.children.filter((c) => c !== el);
          }
        },
      },
      root: {
        exit() {
          for (const el of users) {
            const earlier = instead.get(/^url\(#(.+)\)$/.exec(el.attributes['clip-path'])?.[1] ?? '');
            if (earlier) el.attributes['clip-path'] = `url(#${earlier})`;
          }
        },
      },
    };
  },
};

/** @type {import('svgo').CustomPlugin} */
const repeats = {
  name: 'repeats',
  fn: () => ({
    element: {
      enter(el, parent) {
        const d = el.name === 'path' ? (el.attributes.d ?? '') : '';
        const subpaths = d.startsWith('M') ? (d.match(/M[^M]*/g) ?? []) : [];
        if (new Set(subpaths).size === subpaths.length) return;
        /** @type {Set<string>[]} each a path's subpaths, none twice */
        const paths = [];
        for (const sub of subpaths) {
          const free = paths.find((p) => !p.has(sub));
          if (free) free.add(sub);
          else paths.push(new Set([sub]));
        }
        const drawn = paths.map((p) => ({ ...el, attributes: { ...el.attributes, d: [...p].join('') } }));
        parent.children = parent.children.flatMap((c) => (c === el ? drawn : [c]));
      },
    },
  }),
};

/**
 * The style sheet pass: every element's style attributes (but the <svg>'s) as a class, named by a
 * hash of its style, as few letters (at least 3) as keep the names of one chart apart; a
 * font-family of the chart's font dropped (it is set on the <svg>).
 * @param {string} font
 * @param {string} title the alt text
 * @returns {import('svgo').CustomPlugin}
 */
export function sheet(font, title) {
  return {
    name: 'sheet',
    fn: () => {
      const keyOf = /** @type {Map<Element, string>} */ (new Map());
      return {
        element: {
          enter(el) {
            if (el.name === 'svg') return;
            if (el.attributes['font-family'] === font) delete el.attributes['font-family'];
            const style = Object.keys(el.attributes)
              .filter((k) => STYLE.has(k))
              .sort();
            if (!style.length) return;
            keyOf.set(el, style.map((k) => `${k}:${el.attributes[k]}`).join(';'));
            for (const k of style) delete el.attributes[k];
          },
        },
        root: {
          exit(root) {
            const svg = root.children.find((c) => c.type === 'element' && c.name === 'svg');
            if (svg?.type !== 'element') throw new Error('charts: vega wrote no <svg>');
            const keys = [...new Set(keyOf.values())];
            const hashes = keys.map((k) =>
              [...crypto.createHash('sha256').update(k).digest('hex')].map((h) => LETTERS[parseInt(h, 16)]).join(''),
            );
            let n = 3;
            while (new Set(hashes.map((h) => h.slice(0, n))).size < keys.length) n++;
            const names = new Map(keys.map((k, i) => [k, hashes[i].slice(0, n)]));
            for (const [el, key] of keyOf) el.attributes = { class: String(names.get(key)), ...el.attributes };
            Object.assign(svg.attributes, { 'font-family': font, role: 'img' });
            /** @type {Element[]} */
            const head = [
              { type: 'element', name: 'title', attributes: {}, children: [{ type: 'text', value: title }] },
            ];
            const rules = [...names]
              .sort(([, a], [, b]) => (a < b ? -1 : 1))
              .map(([k, name]) => `.${name}{${k}}`)
              .join('');
            if (rules)
              head.push({ type: 'element', name: 'style', attributes: {}, children: [{ type: 'text', value: rules }] });
            svg.children.unshift(...head);
          },
        },
      };
    },
  };
}

/**
 * @param {string} svg as vega wrote it
 * @param {any} spec the vega-lite spec it was drawn from
 * @returns {string}
 */
export function tidy(svg, spec) {
  return optimize(svg, {
    plugins: [
      pixels,
      'removeScripts',
      sameClips,
      // what pixels left to a tenth kept so, opacities to a hundredth; font sizes keep their px (in
      // the sheet's CSS a bare number is no size)
      {
        name: 'preset-default',
        params: {
          overrides: {
            cleanupNumericValues: { floatPrecision: 2, defaultPx: false },
            convertPathData: { floatPrecision: 1 },
            convertTransform: { floatPrecision: 1 },
            mergePaths: { floatPrecision: 1 },
            moveGroupAttrsToElems: false, // a group's transform stays on the group (see pixels)
            removeHiddenElems: false, // once, below: it is one of the slowest
          },
        },
      },
      repeats,
      // what draws nothing (a path the preset left as one point: vega's empty backgrounds), its group
      'removeHiddenElems',
      'removeEmptyContainers',
      sheet(String(spec.config?.font ?? ''), String(spec.description ?? spec.title?.text ?? '')),
    ],
  }).data;
}
