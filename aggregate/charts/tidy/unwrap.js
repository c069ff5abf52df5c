// Pass: groups without attributes (vega nests many; they draw nothing of their own) replaced by
// their children.

/** @param {import('./parse.js').Element} el rewritten in place, with everything under it */
export function unwrap(el) {
  el.children = el.children.flatMap((c) => {
    if (typeof c === 'string') return [c];
    unwrap(c);
    return c.name === 'g' && c.attrs.size === 0 ? c.children : [c];
  });
}
