// vega's SVG made small and steady, drawing the same picture. Charts are committed every night: a
// night that moves a few points should rewrite a few bytes, and what git stores of a chart should
// be its data, not vega's markup repeated on every element. The SVG is read into a tree, each pass
// below rewrites the tree, and the tree is written out again:
// - clean: ARIA and CSS hooks, attributes at their default, and marks that draw nothing dropped;
// - geometry: every point to the pixel (vega's half-pixel offsets, which keep 1-px lines sharp,
//   kept), each shape written once in its group's coordinates: a line or a straight path as one
//   path of relative moves (differences of the rounded points: no error adds up), a text's
//   position as x and y; the shape of a symbol (its arcs) to a tenth of a pixel around its point;
// - groups without attributes unwrapped (vega nests many);
// - strokes of one style next to each other drawn as one path, clip paths that are the same as
//   another dropped;
// - the style of each element (fill, stroke, font...) as a class of a <style> sheet, named by a
//   hash of the style (the same name in every chart and every night).
import crypto from 'node:crypto';

/**
 * @typedef {{ name: string, attrs: Map<string, string>, children: Node[] }} Element
 * @typedef {Element | string} Node a string is text, as it was written (escaped)
 */

/** Hooks for a page's CSS and for screen readers inside a page: an <img> has its alt text (the <title>). */
const DROPPED = new Set(['class', 'role', 'aria-roledescription', 'aria-hidden', 'aria-label', 'pointer-events']);
/** Attributes at their default value. @type {Record<string, string>} */
const DEFAULTS = { opacity: '1', transform: 'translate(0,0)', 'stroke-miterlimit': '4' };
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
/** Numbers as vega writes them. */
const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi;
/** A path's commands and numbers, one at a time. */
const PATH_TOKEN = /([MmLlHhVvZz])|(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/g;
/** A path of one point: a move and lines or closes of zero length (vega's empty group backgrounds). */
const DOT = /^M-?[\d.e+-]+,-?[\d.e+-]+(?:[hvl](?:-?0(?:\.0*)?,?)+|Z)*$/;
/** A path of straight lines only (moves, lines, closes: no arcs or curves). */
const STRAIGHT = /^\s*[Mm][MmLlHhVvZz\s\d.,eE+-]*$/;

/** A position to the pixel, or to the half pixel when vega put it there (to keep 1-px lines sharp): 37.04 → 37, 9.5 → 9.5, -0.2 → 0. */
export function snap(/** @type {number} */ v) {
  const halves = Math.round(v * 2);
  const r = Math.abs(v * 2 - halves) < 1e-6 ? halves / 2 : Math.round(v);
  return r === 0 ? 0 : r; // no -0
}
/** A size to a tenth of a pixel (a symbol's radius). */
const tenth = (/** @type {number} */ v) => Math.round(v * 10) / 10 || 0;
const numbers = (/** @type {string} */ s, /** @type {(v: number) => number} */ f) =>
  s.replace(NUMBER, (n) => String(f(Number(n))));

/**
 * The SVG as a tree. Throws on anything vega does not write (comments, CDATA, unbalanced tags).
 * @param {string} svg
 * @returns {Element}
 */
export function parse(svg) {
  /** @type {Element} */
  const root = { name: '', attrs: new Map(), children: [] };
  const stack = [root];
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[A-Za-z_:][\w:.-]*="[^"]*")*)\s*(\/?)>|([^<]+)/g;
  let at = 0;
  for (let m = token.exec(svg); m && m.index === at; m = token.exec(svg)) {
    at = token.lastIndex;
    const [, close, name, attrs, empty, text] = m;
    const top = stack[stack.length - 1];
    if (text !== undefined) top.children.push(text);
    else if (close) {
      if (top.name !== name) throw new Error(`charts: SVG closes <${name}> inside <${top.name}>`);
      stack.pop();
    } else {
      /** @type {Element} */
      const el = {
        name,
        attrs: new Map([...attrs.matchAll(/([\w:.-]+)="([^"]*)"/g)].map(([, k, v]) => [k, v])),
        children: [],
      };
      top.children.push(el);
      if (!empty) stack.push(el);
    }
  }
  if (at !== svg.length || stack.length !== 1) throw new Error(`charts: SVG not understood at character ${at}`);
  return root;
}

/** The tree as SVG text. */
export function serialize(/** @type {Node} */ n) {
  if (typeof n === 'string') return n;
  const attrs = [...n.attrs].map(([k, v]) => ` ${k}="${v}"`).join('');
  return n.children.length
    ? `<${n.name}${attrs}>${n.children.map(serialize).join('')}</${n.name}>`
    : `<${n.name}${attrs}/>`;
}

const elements = (/** @type {Element} */ el) =>
  /** @type {Element[]} */ (el.children.filter((c) => typeof c !== 'string'));
/** Every element under el, el first. */
function* walk(/** @type {Element} */ el) {
  yield el;
  for (const c of elements(el)) yield* walk(c);
}

/** A transform that is one translate: its x and y, else null. */
function translateOf(/** @type {string | undefined} */ t) {
  const m = /^translate\((-?[\d.e+-]+)[ ,]+(-?[\d.e+-]+)\)$/.exec(t ?? 'translate(0,0)');
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * A straight path's subpaths as absolute points.
 * @param {string} d
 * @param {number} [dx] added to every x (the element's translate)
 * @param {number} [dy]
 * @returns {{ points: number[][], closed: boolean }[]}
 */
export function subpaths(d, dx = 0, dy = 0) {
  /** @type {{ points: number[][], closed: boolean }[]} */
  const out = [];
  let [x, y, startX, startY] = [dx, dy, dx, dy];
  /** @type {{ points: number[][], closed: boolean } | null} */
  let sub = null;
  let cmd = 'M';
  /** @type {number[]} */
  const args = [];
  const point = (/** @type {number} */ nx, /** @type {number} */ ny, /** @type {boolean} */ move) => {
    [x, y] = [nx, ny];
    if (move) [startX, startY] = [x, y];
    if (move || !sub) out.push((sub = { points: move ? [] : [[startX, startY]], closed: false }));
    sub.points.push([x, y]);
  };
  for (const [, letter, n] of d.matchAll(PATH_TOKEN)) {
    if (letter) {
      cmd = letter;
      if (letter === 'Z' || letter === 'z') {
        if (sub) sub.closed = true;
        sub = null;
        [x, y] = [startX, startY];
      }
      continue;
    }
    args.push(Number(n));
    const rel = cmd === cmd.toLowerCase();
    const c = cmd.toUpperCase();
    if (c === 'H' || c === 'V')
      point(c === 'H' ? args[0] + (rel ? x : dx) : x, c === 'V' ? args[0] + (rel ? y : dy) : y, false);
    else if (args.length === 2) point(args[0] + (rel ? x : dx), args[1] + (rel ? y : dy), c === 'M');
    else continue;
    args.length = 0;
    if (c === 'M') cmd = rel ? 'l' : 'L'; // more pairs after a move are lines
  }
  return out;
}

/**
 * Points without those that lie inside a horizontal or vertical run: a band drawn as ninety points
 * on one line becomes its two ends (a removed point lies on the segment that replaces it).
 * @param {number[][]} pts
 */
export function straighten(pts) {
  const kept = [pts[0]];
  const between = (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ c) =>
    (a <= b && b <= c) || (a >= b && b >= c);
  for (let i = 1; i < pts.length - 1; i++) {
    const [a, b, c] = [kept[kept.length - 1], pts[i], pts[i + 1]];
    const onRow = a[1] === b[1] && b[1] === c[1] && between(a[0], b[0], c[0]);
    const onColumn = a[0] === b[0] && b[0] === c[0] && between(a[1], b[1], c[1]);
    if (!onRow && !onColumn) kept.push(b);
  }
  if (pts.length > 1) kept.push(pts[pts.length - 1]);
  return kept;
}

/** A side under this many px (a tick's thickness) is kept to a tenth: to the pixel it would double or vanish. */
const THIN = 3;

/**
 * A subpath's points to the pixel. A rectangle (vega's bars and ticks) with a thin side keeps that
 * side's size: its corner goes to the pixel, the side to a tenth.
 * @param {{ points: number[][], closed: boolean }} sub
 */
export function snapSubpath({ points, closed }) {
  const snapped = points.map((p) => p.map(snap));
  const [a, b, c, d] = points;
  const same = (/** @type {number} */ u, /** @type {number} */ v) => Math.abs(u - v) < 1e-6;
  const rect =
    closed &&
    points.length === 4 &&
    ((same(a[1], b[1]) && same(b[0], c[0]) && same(c[1], d[1]) && same(d[0], a[0])) ||
      (same(a[0], b[0]) && same(b[1], c[1]) && same(c[0], d[0]) && same(d[1], a[1])));
  for (const axis of rect ? [0, 1] : []) {
    const size = c[axis] - a[axis];
    if (Math.abs(size) >= THIN) continue;
    const far = tenth(snapped[0][axis] + tenth(size));
    for (const [i, p] of points.entries()) snapped[i][axis] = same(p[axis], a[axis]) ? snapped[0][axis] : far;
  }
  return { points: snapped, closed };
}

/** A number after another in a path: a minus sign separates it, else a comma. */
const join = (/** @type {number} */ a, /** @type {number} */ b) => `${a}${b < 0 ? '' : ','}${b}`;

/**
 * Subpaths as d: each starts at its absolute point, then relative moves (h, v or l), so that a
 * shape moved as a whole rewrites one pair of numbers.
 * @param {{ points: number[][], closed: boolean }[]} subs points already rounded
 */
export function pathOf(subs) {
  return subs
    .map(({ points, closed }) => {
      const [first, ...rest] = straighten(points);
      let [x, y] = first;
      let d = `M${join(x, y)}`;
      for (const [nx, ny] of rest) {
        const [dx, dy] = [tenth(nx - x), tenth(ny - y)]; // points are to a tenth at least: so are their differences
        d += dy === 0 ? `h${dx}` : dx === 0 ? `v${dy}` : `l${join(dx, dy)}`;
        [x, y] = [nx, ny];
      }
      return closed ? `${d}Z` : d;
    })
    .join('');
}

/** Nothing drawn: an empty path, a hidden one, or one of a single point (vega's empty group backgrounds). */
function drawsNothing(/** @type {Element} */ el) {
  const d = el.attrs.get('d') ?? '';
  return el.name === 'path' && (el.attrs.get('display') === 'none' || !d.trim() || DOT.test(d));
}

/** Pass: ARIA and CSS hooks, defaults, the font everyone has, and marks that draw nothing, gone. */
function clean(/** @type {Element} */ el, /** @type {string} */ font) {
  for (const [k, v] of [...el.attrs])
    if (DROPPED.has(k) || DEFAULTS[k] === v || (k === 'font-family' && v === font)) el.attrs.delete(k);
  el.children = el.children.filter((c) => typeof c === 'string' || !drawsNothing(c));
  for (const c of elements(el)) clean(c, font);
}

/** Pass: positions to the pixel, each shape written once in its group's coordinates. */
function geometry(/** @type {Element} */ el) {
  const a = el.attrs;
  const t = a.get('transform');
  const at = translateOf(t);
  const snapTranslate = () => {
    const snapped = t?.replace(/translate\(([^)]*)\)/g, (_, xy) => `translate(${numbers(xy, snap)})`);
    if (snapped === DEFAULTS.transform) a.delete('transform');
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

/** Pass: groups without attributes (they draw nothing of their own) replaced by their children. */
function unwrap(/** @type {Element} */ el) {
  el.children = el.children.flatMap((c) => {
    if (typeof c === 'string') return [c];
    unwrap(c);
    return c.name === 'g' && c.attrs.size === 0 ? c.children : [c];
  });
}

/**
 * Pass: runs of sibling paths that are strokes of one style (nothing but d differs, no fill where
 * they are) drawn as one path. A subpath that is the same as one already in the path starts
 * another path: a line drawn twice stays drawn twice (its anti-aliased edges darken).
 * @param {Element} el
 * @param {string} fill the fill it inherits
 */
function merge(el, fill = 'black') {
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

/** Pass: a clip path the same as an earlier one dropped, its users pointed at the earlier one. */
function sameClips(/** @type {Element} */ root) {
  /** @type {Map<string, string>} content → id */
  const first = new Map();
  /** @type {Map<string, string>} id → the id used instead */
  const instead = new Map();
  for (const el of walk(root)) {
    el.children = el.children.filter((c) => {
      if (typeof c === 'string' || c.name !== 'clipPath' || !c.attrs.has('id')) return true;
      const id = /** @type {string} */ (c.attrs.get('id'));
      const content = c.children.map(serialize).join('');
      const earlier = first.get(content);
      if (earlier === undefined) first.set(content, id);
      else instead.set(id, earlier);
      return earlier === undefined;
    });
  }
  for (const el of walk(root)) {
    const ref = /^url\(#(.+)\)$/.exec(el.attrs.get('clip-path') ?? '');
    if (ref && instead.has(ref[1])) el.attrs.set('clip-path', `url(#${instead.get(ref[1])})`);
  }
}

/** Letters for a class name from a hash (a class name starts with a letter). */
const LETTERS = 'abcdefghijklmnop';

/**
 * Pass: each element's style attributes as a class: the rules, as a style sheet. A class is named by
 * a hash of its style, as few letters (at least 3) as keep the names of one chart apart.
 * @param {Element} root
 * @returns {string} the style sheet
 */
function classes(root) {
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

const escape = (/** @type {string} */ s) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * vega's SVG, tidied (see the passes above), with the font set once and the alt text as the
 * chart's <title>.
 * @param {string} svg as vega wrote it
 * @param {any} spec the vega-lite spec it was drawn from
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
