// Pass: a clip path the same as an earlier one dropped, its users pointed at the earlier one.
import { serialize, walk } from './parse.js';

/** @param {import('./parse.js').Element} root rewritten in place, with everything under it */
export function sameClips(root) {
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
