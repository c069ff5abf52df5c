// Generated untrusted documents for the tests, seeded with lib/prng.js (no library: the same seed
// gives the same cases on every Node): strings that try to become Markdown, HTML or a mention;
// values of every wrong type; every field of a document replaced or left out; and a check that
// Markdown rendered from them is inert under GFM (micromark), each value shown as itself.
// Generic over JSON documents: compare.json here, result documents where a test wants them.
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { randomInt } from '../lib/prng.js';
import { plain } from '../lib/markdown.js';

/** Text that GFM or GitHub would turn into something else than its characters. */
export const CRAFTED_TEXT = [
  '[x](http://evil.example)',
  '![i](http://evil.example/i.png)',
  '<img src=x onerror=alert(1)>',
  '<a href="http://evil.example">a</a>',
  '<details open><summary>s</summary>',
  '</details></td></tr></table>',
  '@octocat',
  'mail a@b.example',
  'fixes #12',
  'o/r#7',
  '| a | b |',
  '`code` ``x``',
  '```\nfence',
  '# heading',
  '\n- item\n1. one\n> quote',
  '**bold** _em_ ~~del~~',
  '$x^2$ $$y$$',
  'http://evil.example www.evil.example',
  '&amp; &#60;b&#62; &lt;',
  '\\',
  '<!-- c -->',
  '[ref]: http://evil.example',
  '<https://evil.example>',
  '\u202eevil\u2066 \u0000 \u001b[31m \u2028 \r\n',
  '\ud800 lone surrogate',
  ':smile: ✓ 中文',
  '   ',
  '',
];

/**
 * A string of up to `max` characters: crafted pieces and letters, run together.
 * @param {() => number} random
 * @param {number} max
 */
export function craftedString(random, max) {
  const want = randomInt(random, Math.min(max, random() < 0.3 ? max : 60) + 1);
  let s = '';
  while (s.length < want) {
    const piece =
      random() < 0.6
        ? CRAFTED_TEXT[randomInt(random, CRAFTED_TEXT.length)]
        : 'abcdefghij'.slice(0, 1 + randomInt(random, 10));
    s += `${piece} `;
  }
  return s.slice(0, want);
}

/** Values of a wrong type or size for almost any field, the crafted text among them. */
export function wrongValues() {
  return [
    {},
    [],
    null,
    0,
    -1,
    1.5,
    1e308,
    true,
    JSON.parse('{"toString": 1, "valueOf": 1}'),
    JSON.parse('{"__proto__": {"polluted": 1}}'),
    ['a'],
    'x'.repeat(300_000),
    ...CRAFTED_TEXT,
  ];
}

/**
 * Every JSON pointer in a document: objects, lists and leaves.
 * @param {unknown} doc
 * @param {string} [at]
 * @returns {string[]}
 */
export function pointers(doc, at = '') {
  /** @type {string[]} */
  const out = at ? [at] : [];
  if (doc && typeof doc === 'object')
    for (const [k, v] of Object.entries(doc))
      out.push(...pointers(v, `${at}/${String(k).replace(/~/g, '~0').replace(/\//g, '~1')}`));
  return out;
}

/**
 * A copy of doc with the value at `pointer` replaced, or removed when value is undefined.
 * @param {any} doc
 * @param {string} pointer
 * @param {unknown} value
 */
export function withValue(doc, pointer, value) {
  const copy = JSON.parse(JSON.stringify(doc)); // a JSON document: no value shared by two fields
  const keys = pointer
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = /** @type {string} */ (keys.pop());
  let o = copy;
  for (const k of keys) o = o[k];
  if (value === undefined && !Array.isArray(o)) delete o[last];
  else Object.defineProperty(o, last, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/**
 * A crafted variant of a valid document: one field (chosen by the seed) of a wrong type or size,
 * or left out.
 * @param {any} doc
 * @param {() => number} random
 * @returns {{ pointer: string, value: unknown, doc: any }}
 */
export function crafted(doc, random) {
  const all = pointers(doc);
  const pointer = all[randomInt(random, all.length)];
  const values = [undefined, ...wrongValues()];
  const value = values[randomInt(random, values.length)];
  return { pointer, value, doc: withValue(doc, pointer, value) };
}

/** GFM as micromark renders it, raw HTML kept (GitHub keeps some: it must not come from a value). */
export const html = (/** @type {string} */ md) =>
  micromark(md, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });

const TAG = /<\/?([A-Za-z][A-Za-z0-9-]*)[^>]*>/g;
const decode = (/** @type {string} */ s) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
/** Separates the text of two elements, so a value split across cells is seen. */
const GAP = '\u0001';

/**
 * What is wrong with Markdown rendered from untrusted values: a tag not in `tags`, a mention or an
 * issue reference, a bidirectional control, or a value that does not read as itself. Each value is
 * found by the token it starts with; after the token the text must be the value's plain form, or
 * a prefix of it cut with an ellipsis.
 * @param {string} md
 * @param {{ tags: string[], values: Map<string, string> }} o values by their token
 * @returns {string[]}
 */
export function inertProblems(md, { tags, values }) {
  const out = /** @type {string[]} */ ([]);
  const h = html(md);
  for (const m of h.matchAll(TAG)) if (!tags.includes(m[1].toLowerCase())) out.push(`tag <${m[1]}>`);
  const text = decode(h.replace(TAG, GAP));
  // GitHub links no mention or issue inside a code span
  const prose = decode(h.replace(/<code>[^<]*<\/code>/g, GAP).replace(TAG, GAP));
  const mention = prose.match(/(?:^|[^\w])[@#][A-Za-z0-9]/);
  if (mention) out.push(`a mention or issue reference: ${JSON.stringify(mention[0])}`);
  if (/[\u202a-\u202e\u2066-\u2069]/.test(text)) out.push('a bidirectional control');
  const flat = text.replace(/\u200b/g, '').replace(/\s+/g, ' ');
  for (const [token, value] of values) {
    const expected = plain(token + value, Infinity).slice(token.length);
    for (let at = flat.indexOf(token); at >= 0; at = flat.indexOf(token, at + 1)) {
      const after = flat.slice(at + token.length, at + token.length + expected.length + 1);
      if (after.startsWith(expected)) continue;
      const cut = after.indexOf('…');
      const kept = cut >= 0 ? after.slice(0, cut) : null;
      if (kept !== null && !kept.includes(GAP) && expected.startsWith(kept.trimEnd())) continue;
      out.push(`${token} reads ${JSON.stringify(after.slice(0, 80))}, not ${JSON.stringify(expected.slice(0, 80))}`);
    }
  }
  return out;
}
