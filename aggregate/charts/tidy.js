// vega's SVG made small and steady, drawing the same picture. Charts are committed every night: a
// night that moves a few points should rewrite a few bytes, and what git stores of a chart should
// be its data, not vega's markup repeated on every element. svgo does the generic work with its
// default preset (shapes as paths, bare groups unwrapped, transforms folded into paths, numbers to
// a tenth of a pixel, defaults and what draws nothing dropped, strokes of one style that do not
// cross drawn as one path) after vega's ARIA and CSS hooks are dropped (a chart is shown as an
// <img>: its alt text is the <title>). Three passes are ours, as svgo plugins:
// - sameClips: a clip path the same as an earlier one dropped, its users pointed at the earlier one;
// - repeats: a path svgo's merge made of a line drawn several times (vega draws a rule once per
//   row) split again, so that each is still drawn (a line drawn twice: its anti-aliased edges darken);
// - sheet: each element's style (fill, stroke, font...) a class of one <style> sheet, named by a
//   hash of the style (the same name in every chart and every night); the font set once on the
//   <svg>, the alt text as its <title>.
import crypto from 'node:crypto';
import { optimize } from 'svgo';

/** @typedef {import('svgo').XastElement} Element */

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

/** @type {import('svgo').CustomPlugin} */
export const sameClips = {
  name: 'sameClips',
  fn: () => {
    /** @type {Map<string, string>} content → id */
    const first = new Map();
    /** @type {Map<string, string>} id → the id used instead */
    const instead = new Map();
    /** @type {Element[]} */
    const users = [];
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
export const repeats = {
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
      /** @type {Map<Element, string>} */
      const keyOf = new Map();
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
 * vega's SVG, tidied (see above).
 * @param {string} svg as vega wrote it
 * @param {any} spec the vega-lite spec it was drawn from
 * @returns {string}
 */
export function tidy(svg, spec) {
  return optimize(svg, {
    plugins: [
      { name: 'removeAttrs', params: { attrs: ['class', 'role', 'aria-.*', 'pointer-events'] } },
      'removeScripts',
      sameClips,
      // positions to a tenth of a pixel (vega's half pixels, which keep 1-px lines sharp, kept),
      // opacities to a hundredth; font sizes keep their px (in the sheet's CSS a bare number is no size)
      {
        name: 'preset-default',
        params: {
          overrides: {
            cleanupNumericValues: { floatPrecision: 2, defaultPx: false },
            convertPathData: { floatPrecision: 1 },
            convertTransform: { floatPrecision: 1 },
            mergePaths: { floatPrecision: 1 },
          },
        },
      },
      repeats,
      // again: a path the preset left as one point (vega's empty group backgrounds), and its group
      'removeHiddenElems',
      'removeEmptyContainers',
      sheet(String(spec.config?.font ?? ''), String(spec.description ?? spec.title?.text ?? '')),
    ],
  }).data;
}
