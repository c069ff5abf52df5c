// The SVG tree the tidy passes rewrite: vega's SVG read into elements (parse) and written out
// again (serialize), byte for byte what was read when no pass changed anything. It reads only what
// vega writes: tags with double-quoted attributes and text; anything else (a comment, CDATA, an
// unbalanced tag) is an error, not something passed through unread.

/**
 * @typedef {{ name: string, attrs: Map<string, string>, children: Node[] }} Element
 * @typedef {Element | string} Node a string is text, as it was written (escaped)
 */

/** A tag (close mark, name, attributes, self-closing mark) or a run of text. */
const TOKEN = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[A-Za-z_:][\w:.-]*="[^"]*")*)\s*(\/?)>|([^<]+)/g;
/** One attribute of a tag. */
const ATTRIBUTE = /([\w:.-]+)="([^"]*)"/g;

/**
 * The SVG as a tree under a root without name. Throws on anything vega does not write (comments,
 * CDATA, unbalanced tags).
 * @param {string} svg
 * @returns {Element}
 */
export function parse(svg) {
  /** @type {Element} */
  const root = { name: '', attrs: new Map(), children: [] };
  const stack = [root];
  const token = new RegExp(TOKEN);
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
        attrs: new Map([...attrs.matchAll(ATTRIBUTE)].map(([, k, v]) => [k, v])),
        children: [],
      };
      top.children.push(el);
      if (!empty) stack.push(el);
    }
  }
  if (at !== svg.length || stack.length !== 1) throw new Error(`charts: SVG not understood at character ${at}`);
  return root;
}

/**
 * A node as SVG text: an element without children as a self-closing tag.
 * @param {Node} n
 * @returns {string}
 */
export function serialize(n) {
  if (typeof n === 'string') return n;
  const attrs = [...n.attrs].map(([k, v]) => ` ${k}="${v}"`).join('');
  return n.children.length
    ? `<${n.name}${attrs}>${n.children.map(serialize).join('')}</${n.name}>`
    : `<${n.name}${attrs}/>`;
}

/**
 * An element's child elements (its text left out).
 * @param {Element} el
 * @returns {Element[]}
 */
export const elements = (el) => /** @type {Element[]} */ (el.children.filter((c) => typeof c !== 'string'));

/**
 * Every element under el, el first.
 * @param {Element} el
 * @returns {Generator<Element>}
 */
export function* walk(el) {
  yield el;
  for (const c of elements(el)) yield* walk(c);
}
