// Finding and checking documents. Every rejection is one line naming the file and the
// field; nothing is thrown for a bad file, so one bad artifact never stops the rest.
import fs from 'node:fs';
import path from 'node:path';
import { semanticProblems as documentProblems, validate } from '../bench/result/document.js';
import { KIND, SCHEMA_VERSION, isShootout } from '../bench/result/header.js';
import { BIDI, CONTROL } from '../lib/markdown.js';
import { MAX_DOCUMENT_BYTES, artifactFolder, batchProblem } from './trust.js';

/**
 * Every *.json file under dir, in a stable order, with its artifact (trust.js): a top-level folder
 * named as benchmark.yml names artifacts (result-*, shootout-*) is a cell's artifact and holds one
 * document, else none of its files is read; any other file is local output (npm run bench), read
 * as it is. Symlinks are reported, not followed. Sizes come from stat, before a byte is read: a
 * file over MAX_DOCUMENT_BYTES is refused by its size (readResult), and a batch over trust.js's caps is
 * refused whole (`over`, one line).
 * @param {string} dir
 * @returns {{ files: string[], rejected: { file: string, reason: string }[], artifactOf: Map<string, string>, over: string | null }}
 */
export function discover(dir) {
  const found = /** @type {string[]} */ ([]);
  const rejected = /** @type {{ file: string, reason: string }[]} */ ([]);
  const walk = (/** @type {string} */ d) => {
    for (const entry of fs
      .readdirSync(d, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = path.join(d, entry.name);
      if (entry.isSymbolicLink()) {
        if (entry.name.endsWith('.json') || fs.statSync(p, { throwIfNoEntry: false })?.isDirectory())
          rejected.push({ file: p, reason: 'is a symbolic link; not followed' });
      } else if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && entry.name.endsWith('.json')) found.push(p);
    }
  };
  walk(dir);
  const artifactOf = /** @type {Map<string, string>} */ (new Map());
  const count = /** @type {Map<string, number>} artifact folder → its files */ (new Map());
  for (const f of found) {
    const a = artifactFolder(dir, f);
    if (!a) continue;
    artifactOf.set(f, a);
    count.set(a, (count.get(a) ?? 0) + 1);
  }
  const files = found.filter((f) => {
    const a = artifactOf.get(f);
    if (!a || count.get(a) === 1) return true;
    artifactOf.delete(f);
    rejected.push({
      file: f,
      reason: `the artifact ${a} holds ${count.get(a)} documents; a cell's artifact holds one: none of them is read`,
    });
    return false;
  });
  // a file over MAX_DOCUMENT_BYTES is refused by its size, alone (readResult)
  const sizes = files.map((f) => fs.lstatSync(f).size).filter((size) => size <= MAX_DOCUMENT_BYTES);
  const bytes = sizes.reduce((sum, x) => sum + x, 0);
  return { files, rejected, artifactOf, over: batchProblem(dir, sizes.length, bytes) };
}

const codePoint = (/** @type {string} */ ch) =>
  `U+${/** @type {number} */ (ch.codePointAt(0)).toString(16).toUpperCase().padStart(4, '0')}`;
const pointer = (/** @type {string} */ key) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Control characters and Unicode bidirectional controls, in any string of the document: strings
 * name files and are shown in the README, where neither has a place.
 */
function textProblems(/** @type {any} */ doc) {
  const problems = /** @type {string[]} */ ([]);
  /** @type {string[]} the keys down to the value being looked at: its JSON pointer is made only for a problem */
  const keys = [];
  const at = () => keys.map((k) => `/${pointer(k)}`).join('');
  const walk = (/** @type {any} */ v) => {
    if (typeof v === 'string') {
      const control = v.match(CONTROL)?.[0];
      const bidi = control === undefined ? v.match(BIDI)?.[0] : undefined;
      if (control !== undefined) problems.push(`${at()} contains the control character ${codePoint(control)}`);
      else if (bidi !== undefined)
        problems.push(`${at()} contains the Unicode bidirectional control ${codePoint(bidi)}`);
    } else if (v && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        keys.push(k);
        walk(v[k]);
        keys.pop();
      }
    }
  };
  walk(doc);
  return problems;
}

/**
 * What the aggregate refuses beyond the document's own checks (bench/result/document.js):
 * control characters, a one-side run with no case, a calibration run's synthetic slowdown, a
 * compare's run (its sides carry their checkouts).
 * @param {any} doc a schema-valid document
 */
export function aggregateProblems(doc) {
  const problems = textProblems(doc);
  // a cell that measured nothing still lists every case, each with the reason (npm run ci:failure)
  if (!isShootout(doc) && doc.cases?.length === 0)
    problems.push(
      '/cases is empty: no case, and no reason; a cell that measured nothing lists each case with why (npm run ci:failure)',
    );
  problems.push(...documentProblems(doc));
  if (doc.run.budget?.slowdown)
    problems.push(
      `/run/budget/slowdown is ${doc.run.budget.slowdown}: a calibration run with a synthetic slowdown, not a result`,
    );
  const checkout = (doc.sides ?? []).findIndex((/** @type {any} */ s) => s.checkout);
  if (checkout >= 0)
    problems.push(
      `/sides/${checkout}/checkout: a compare's run (npm run compare), not a result; results/ holds runs of the published checkout`,
    );
  return problems;
}

/** One line from a list of problems: the first three, and how many more. */
const oneLine = (/** @type {string[]} */ problems) =>
  problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '');

/**
 * Read and check one file: a document (a run of one side, or a shootout's of several).
 * @param {string} file
 * @returns {{ ok: true, doc: any, text: string } | { ok: false, reason: string }}
 */
export function readResult(file) {
  const st = fs.lstatSync(file);
  if (st.isSymbolicLink()) return { ok: false, reason: 'is a symbolic link; not followed' };
  if (st.size === 0) return { ok: false, reason: 'is empty' };
  if (st.size > MAX_DOCUMENT_BYTES)
    return { ok: false, reason: `is ${st.size} bytes, over the ${MAX_DOCUMENT_BYTES}-byte limit` };
  const text = fs.readFileSync(file, 'utf8');
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `is not JSON (${String(/** @type {Error} */ (err).message).split('\n')[0]})` };
  }
  if (doc?.kind !== KIND) return { ok: false, reason: `/kind is not '${KIND}': not a result document` };
  if (doc.schemaVersion !== SCHEMA_VERSION)
    return {
      ok: false,
      reason: `/schemaVersion is ${JSON.stringify(doc.schemaVersion)}; this aggregate reads documents of version ${SCHEMA_VERSION}`,
    };
  const problems = validate(doc);
  if (problems.length) return { ok: false, reason: oneLine(problems) };
  const semantic = aggregateProblems(doc);
  if (semantic.length) return { ok: false, reason: oneLine(semantic) };
  return { ok: true, doc, text };
}
