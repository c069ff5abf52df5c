// Text from outside the project (a result document, a pull request's compare.json) made inert for
// GitHub-flavoured Markdown: whatever it holds, it renders as the same characters in one line and
// cannot open a link, an image, HTML, a heading, a list, a code span or fence, emphasis, math, break
// a table or mention anyone; the same text as a heading's link fragment, a file name part or a
// chart's text, each bounded: the one neutraliser for text from outside. And the project's one
// GFM table writer: padded as markdown-table 3 lays a table out, or unpadded in fewer bytes for
// the README.
// Built-ins only (no imports at all): the PR comment job runs it without installing anything.

/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** Unicode bidirectional controls: the marks, embeddings, overrides and isolates. */
export const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Longest text kept, in characters, unless a caller says otherwise. */
const MAX_TEXT = 200;
/** Longest reason kept (why a case or a driver did not run: up to about 310 characters). */
export const REASON_MAX = 320;
/** Shown after text that was cut. */
const ELLIPSIS = '…';
/** Zero-width space: after @ and #, so GitHub neither mentions, nor links an e-mail or an issue. */
const ZWSP = '\u200b';

const global = (/** @type {RegExp} */ re) => new RegExp(re.source, 'g');
const CONTROLS = global(CONTROL);
const BIDIS = global(BIDI);
/** ASCII punctuation with a meaning in GFM (or GitHub's math): backslash-escaped wherever it is. */
const PUNCTUATION = /[\\`*_~[\]<>|#&!$]/g;

/**
 * One line of plain text: controls become spaces, bidirectional controls go, runs of white space
 * become one space, and text longer than `max` characters is cut with an ellipsis.
 * @param {unknown} s
 * @param {number} [max]
 */
export function plain(s, max = MAX_TEXT) {
  const flat = String(s).replace(CONTROLS, ' ').replace(BIDIS, '').replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > max
    ? `${chars
        .slice(0, Math.max(0, max - 1))
        .join('')
        .trimEnd()}${ELLIPSIS}`
    : flat;
}

/**
 * Text that GitHub renders as itself, in a table cell, a list item, a heading or a paragraph.
 * @param {unknown} s
 * @param {number} [max] characters kept before escaping
 */
export function inert(s, max = MAX_TEXT) {
  return plain(s, max)
    .replace(PUNCTUATION, '\\$&')
    .replace(/^([-+=])(?=[ =+-]|$)/, '\\$1') // a list item, a rule or a setext underline, were it to start a line
    .replace(/^(\d+)([.)])(?= |$)/, '$1\\$2') // an ordered list item
    .replace(/:(?=\/\/)/g, '\\:') // http://… would become a link
    .replace(/(www)\./gi, '$1\\.') // and so would www.…
    .replace(/[@#]/g, `$&${ZWSP}`) // @name pings, a@b.c is a mailto: link, #12 links an issue
    .replace(/\b(gh)-(?=\d)/gi, `$1${ZWSP}-`); // and so does GH-12
}

/**
 * A code span when the text allows one (no backtick, no pipe), else inert text.
 * @param {unknown} s
 * @param {number} [max]
 */
export function code(s, max = MAX_TEXT) {
  const p = plain(s, max);
  return p && !/[`|]/.test(p) ? `\`${p}\`` : inert(p, max);
}

/**
 * The fragment GitHub gives a heading (#…), for a heading written as inert(text, max): its text
 * bounded as the heading is, lowercased, without punctuation and symbols (what is not a letter,
 * mark, digit, '_', '-' or space), spaces as '-'. The escapes inert() adds do not show, so they are
 * no part of the fragment; nor is the zero-width space (a format character).
 * @param {unknown} text
 * @param {number} [max]
 */
export const fragment = (text, max = MAX_TEXT) =>
  `#${plain(text, max)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-')}`;

/**
 * A file name part: lowercase ASCII letters, digits and '-', at most `max` characters; never
 * empty ('x'), never '.', '..' or a separator.
 * @param {unknown} text
 * @param {number} [max]
 */
export const fileSlug = (text, max = 40) =>
  String(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '') || 'x';

/** Longest text of a chart (a title, a label, a description), in characters. */
const MAX_CHART_TEXT = 300;

/**
 * Every string of a chart's spec (vega-lite) as one line of plain text, bounded: the SVG renderer
 * escapes what XML would read as markup, this keeps a document's text from filling the chart.
 * Equal strings stay equal, so a spec's fields and its data still match.
 * @template T
 * @param {T} spec
 * @param {number} [max]
 * @returns {T}
 */
export function chartText(spec, max = MAX_CHART_TEXT) {
  if (typeof spec === 'string') return /** @type {T} */ (plain(spec, max));
  if (Array.isArray(spec)) return /** @type {T} */ (spec.map((x) => chartText(x, max)));
  if (spec && typeof spec === 'object')
    return /** @type {T} */ (Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, chartText(v, max)])));
  return spec;
}

/**
 * A GFM table. Padded (the default): byte for byte what markdown-table 3 writes with its defaults,
 * cells padded to their column's width, the delimiter row marking each column's alignment.
 * Unpadded (`padded: false`): renders the same in fewer bytes (the README block has a byte budget):
 * each row's cells as given, a space beside each pipe. `tight`: unpadded without even that space,
 * "|a|b|" (the README's wide tables: 18 bytes a row fewer with 9 columns). Cells are written as given.
 * @param {unknown[][]} rows the first is the header
 * @param {('l'|'r'|'c'|'')[]} [align]
 * @param {{ padded?: boolean, tight?: boolean }} [o]
 */
export function table(rows, align = [], { padded = true, tight = false } = {}) {
  if (tight || !padded) return unpadded(rows, align, tight);
  const columns = [...Array(rows.reduce((n, r) => Math.max(n, r.length), 0)).keys()];
  const text = rows.map((r) => columns.map((i) => (r[i] === null || r[i] === undefined ? '' : String(r[i]))));
  /** @type {Record<string, string[]>} */
  const ends = { l: [':', ''], r: ['', ':'], c: [':', ':'] };
  const marks = columns.map((i) => ends[align[i] ?? ''] ?? ['', '']);
  const widest = columns.map((i) => text.reduce((n, r) => Math.max(n, r[i].length), 0));
  const rule = columns.map(
    (i) =>
      `${marks[i][0]}${'-'.repeat(Math.max(1, widest[i] - marks[i][0].length - marks[i][1].length))}${marks[i][1]}`,
  );
  const width = columns.map((i) => Math.max(widest[i], rule[i].length));
  const pad = (/** @type {string} */ s, /** @type {number} */ i) => {
    const gap = width[i] - s.length;
    if (align[i] === 'r') return ' '.repeat(gap) + s;
    if (align[i] === 'c') return ' '.repeat(Math.ceil(gap / 2)) + s + ' '.repeat(Math.floor(gap / 2));
    return s + ' '.repeat(gap);
  };
  const line = (/** @type {string[]} */ cells) => `| ${cells.map(pad).join(' | ')} |`;
  return [line(text[0]), line(rule), ...text.slice(1).map(line)].join('\n');
}

/** table() unpadded: each row's cells as given, the delimiter row as wide as the header. */
function unpadded(
  /** @type {unknown[][]} */ rows,
  /** @type {('l'|'r'|'c'|'')[]} */ align,
  /** @type {boolean} */ tight,
) {
  const cell = (/** @type {unknown} */ c) => (c === null || c === undefined ? '' : String(c));
  const line = (/** @type {unknown[]} */ cells) =>
    tight ? `|${cells.map(cell).join('|')}|` : `| ${cells.map(cell).join(' | ')} |`;
  /** @type {Record<string, string>} */
  const marks = tight ? { l: ':-', r: '-:', c: ':-:', '': '-' } : { l: ':--', r: '--:', c: ':-:', '': '---' };
  const rule = rows[0].map((_, i) => marks[align[i] ?? ''] ?? marks['']);
  return [line(rows[0]), line(rule), ...rows.slice(1).map(line)].join('\n');
}
