// Positions to the pixel and straight paths as points, for the geometry pass (geometry.js) and the
// merge pass (merge.js): a path's d read into absolute points (subpaths), rounded (snapSubpath),
// and written again as relative moves (pathOf).

/** Numbers as vega writes them. */
const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi;
/** A path's commands and numbers, one at a time. */
const PATH_TOKEN = /([MmLlHhVvZz])|(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/g;
/** A path of straight lines only (moves, lines, closes: no arcs or curves). */
export const STRAIGHT = /^\s*[Mm][MmLlHhVvZz\s\d.,eE+-]*$/;
/** A side under this many px (a tick's thickness) is kept to a tenth: to the pixel it would double or vanish. */
const THIN = 3;

/**
 * @typedef {{ points: number[][], closed: boolean }} Subpath
 */

/**
 * A position to the pixel, or to the half pixel when vega put it there (to keep 1-px lines sharp): 37.04 → 37, 9.5 → 9.5, -0.2 → 0.
 * @param {number} v
 * @returns {number}
 */
export function snap(v) {
  const halves = Math.round(v * 2);
  const r = Math.abs(v * 2 - halves) < 1e-6 ? halves / 2 : Math.round(v);
  return r === 0 ? 0 : r; // no -0
}
/** A size to a tenth of a pixel (a symbol's radius). */
export const tenth = (/** @type {number} */ v) => Math.round(v * 10) / 10 || 0;
/** Every number in a text through f. */
export const numbers = (/** @type {string} */ s, /** @type {(v: number) => number} */ f) =>
  s.replace(NUMBER, (n) => String(f(Number(n))));

/**
 * A straight path's subpaths as absolute points.
 * @param {string} d
 * @param {number} [dx] added to every x (the element's translate)
 * @param {number} [dy]
 * @returns {Subpath[]}
 */
export function subpaths(d, dx = 0, dy = 0) {
  /** @type {Subpath[]} */
  const out = [];
  let [x, y, startX, startY] = [dx, dy, dx, dy];
  /** @type {{ current: Subpath | null }} the subpath being drawn, none after a close */
  const open = { current: null };
  let cmd = 'M';
  /** @type {number[]} */
  const args = [];
  const point = (/** @type {number} */ nx, /** @type {number} */ ny, /** @type {boolean} */ move) => {
    [x, y] = [nx, ny];
    if (move) [startX, startY] = [x, y];
    if (move || !open.current) out.push((open.current = { points: move ? [] : [[startX, startY]], closed: false }));
    open.current.points.push([x, y]);
  };
  for (const [, letter, n] of d.matchAll(PATH_TOKEN)) {
    if (letter) {
      cmd = letter;
      if (letter === 'Z' || letter === 'z') {
        if (open.current) open.current.closed = true;
        open.current = null;
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

/**
 * A subpath's points to the pixel. A rectangle (vega's bars and ticks) with a thin side keeps that
 * side's size: its corner goes to the pixel, the side to a tenth.
 * @param {Subpath} sub
 * @returns {Subpath}
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
 * @param {Subpath[]} subs points already rounded
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
