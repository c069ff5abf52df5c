// The kinds of name a document carries (a Node version, a run id, a platform, a side's label...),
// one pattern each, read from lib/names.schema.json: the same file the document schema
// refers to, so whatever the schema admits is exactly what a stored file's name and a release's
// name are made of (aggregate/store.js fileFor, aggregate/assets.js). A name is never checked by a
// second, looser or stricter, pattern.
import fs from 'node:fs';

/** The names schema, as the document schemas refer to it (bench/result/document.js adds it to its validator). */
export const NAMES_SCHEMA = JSON.parse(fs.readFileSync(new URL('./names.schema.json', import.meta.url), 'utf8'));

/** @typedef {{ type?: string, maxLength?: number, pattern?: string, enum?: string[] }} NameDef */
/** @type {Record<string, NameDef>} */
const DEFS = NAMES_SCHEMA.$defs;

/**
 * @param {string} kind a key of names.schema.json's $defs
 */
function def(kind) {
  const d = DEFS[kind];
  if (!d) throw new Error(`lib/names.schema.json has no name '${kind}' (valid: ${Object.keys(DEFS).join(', ')})`);
  return d;
}

/**
 * A kind of name as a regular expression source without its anchors, to build a longer name
 * from (an enum becomes its alternatives).
 * @param {string} kind
 */
export function namePart(kind) {
  const d = def(kind);
  if (d.enum) return `(?:${d.enum.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
  const p = /** @type {string} */ (d.pattern);
  return `(?:${p.slice(1, -1)})`;
}

/**
 * Whether a value is a name of this kind: a string within its length, of its pattern or one of its values.
 * @param {string} kind
 * @param {unknown} value
 * @returns {value is string}
 */
export function isName(kind, value) {
  const d = def(kind);
  if (typeof value !== 'string') return false;
  if (d.enum) return d.enum.includes(value);
  return (
    value.length <= /** @type {number} */ (d.maxLength) && new RegExp(/** @type {string} */ (d.pattern)).test(value)
  );
}
