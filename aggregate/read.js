// Finding and checking result documents. Every rejection is one line naming the file and the
// field; nothing is thrown for a bad file, so one bad artifact never stops the rest.
import fs from 'node:fs';
import path from 'node:path';
import { validate } from '../bench/result/document.js';
import { SCHEMA_VERSION } from '../bench/result/header.js';
import {
  KIND as SHOOTOUT_KIND,
  SCHEMA_VERSION as SHOOTOUT_SCHEMA_VERSION,
  shootoutProblems,
  validateShootout,
} from '../bench/shootout/document.js';
import { OPS } from '../bench/tables/ops.js';
import { TABLES, caseKey } from '../bench/tables/suite.js';
import { BIDI, CONTROL } from '../lib/markdown.js';
import { runProblems } from '../lib/schema.js';
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
  /** @type {string[]} */
  const found = [];
  /** @type {{ file: string, reason: string }[]} */
  const rejected = [];
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
  /** @type {Map<string, string[]>} artifact folder → its files */
  const byArtifact = new Map();
  for (const f of found) {
    const a = artifactFolder(dir, f);
    if (a) byArtifact.set(a, [...(byArtifact.get(a) ?? []), f]);
  }
  /** @type {Map<string, string>} */
  const artifactOf = new Map();
  /** @type {string[]} */
  const files = [];
  for (const f of found) {
    const a = artifactFolder(dir, f);
    const mates = a ? /** @type {string[]} */ (byArtifact.get(a)) : [];
    if (a && mates.length > 1)
      rejected.push({
        file: f,
        reason: `the artifact ${a} holds ${mates.length} documents; a cell's artifact holds one: none of them is read`,
      });
    else {
      files.push(f);
      if (a) artifactOf.set(f, a);
    }
  }
  let bytes = 0;
  let count = 0;
  for (const f of files) {
    const size = fs.lstatSync(f).size;
    if (size > MAX_DOCUMENT_BYTES) continue; // refused by its size, alone (readResult)
    bytes += size;
    count++;
  }
  return { files, rejected, artifactOf, over: batchProblem(dir, count, bytes) };
}

const codePoint = (/** @type {string} */ ch) =>
  `U+${/** @type {number} */ (ch.codePointAt(0)).toString(16).toUpperCase().padStart(4, '0')}`;
/** A value of the document quoted in a message: cut, so a huge one cannot flood the log. */
const shown = (/** @type {unknown} */ v) => {
  const s = String(v);
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
};
const pointer = (/** @type {string} */ key) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Control characters and Unicode bidirectional controls, in any string of the document: strings
 * name files and are shown in the README, where neither has a place.
 * @param {any} doc
 * @returns {string[]}
 */
function textProblems(doc) {
  /** @type {string[]} */
  const problems = [];
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
 * A case that ran carries the figure its operation is shown by: a size, or timing statistics.
 * @param {any} c
 * @param {number} i
 */
function figureProblem(c, i) {
  const op = OPS.find((o) => o.name === c.op);
  if (c.status !== 'ok' || !op) return null;
  if (op.kind === 'size' && !c.size) return `/cases/${i} is ok but has no size: '${c.op}' is measured in bytes`;
  if (op.kind !== 'size' && !c.stats) return `/cases/${i} is ok but has no stats: '${c.op}' is timed`;
  return null;
}

/**
 * Checks the schema cannot express: names the tables know, each case once, the figure each case
 * needs, real dates, a Node version semver reads, no control characters, at least one case.
 * @param {any} doc a schema-valid document
 * @returns {string[]}
 */
export function semanticProblems(doc) {
  const problems = textProblems(doc);
  const seen = new Set();
  // a cell that measured nothing still lists every case, each with the reason (npm run ci:failure)
  if (!doc.cases.length)
    problems.push(
      '/cases is empty: no case, and no reason; a cell that measured nothing lists each case with why (npm run ci:failure)',
    );
  doc.cases.forEach((/** @type {any} */ c, /** @type {number} */ i) => {
    for (const t of /** @type {const} */ (['config', 'driver', 'cipher', 'op'])) {
      if (!TABLES[t].includes(c[t]))
        problems.push(`/cases/${i}/${t} unknown ${t} '${shown(c[t])}' (valid: ${TABLES[t].join(', ')})`);
    }
    const figure = figureProblem(c, i);
    if (figure) problems.push(figure);
    const key = caseKey(c);
    if (seen.has(key)) problems.push(`/cases/${i} repeats case ${key}`);
    seen.add(key);
  });
  if (doc.run.budget.slowdown)
    problems.push(
      `/run/budget/slowdown is ${doc.run.budget.slowdown}: a calibration run with a synthetic slowdown, not a result`,
    );
  problems.push(...runProblems(doc, shown));
  return problems;
}

/** A document of another version than its schema's one: a line naming the valid value. */
const versionReason = (/** @type {any} */ doc, /** @type {number} */ version, /** @type {string} */ kind) =>
  `/schemaVersion is ${JSON.stringify(doc.schemaVersion)}; this aggregate reads ${kind} documents of version ${version}`;

/** One line from a list of problems: the first three, and how many more. */
const oneLine = (/** @type {string[]} */ problems) =>
  problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '');

/**
 * Check a shootout document (bench/shootout/shootout.schema.json and its semantic checks), the
 * other kind results/ stores.
 * @param {any} doc parsed, with kind 'sqlite-node-bench/shootout'
 * @param {string} text
 * @returns {{ ok: true, doc: any, text: string } | { ok: false, reason: string }}
 */
function readShootout(doc, text) {
  if (doc.schemaVersion !== SHOOTOUT_SCHEMA_VERSION)
    return { ok: false, reason: versionReason(doc, SHOOTOUT_SCHEMA_VERSION, 'shootout') };
  const schema = validateShootout(doc);
  if (schema.length) return { ok: false, reason: `shootout document: ${oneLine(schema)}` };
  const semantic = [...textProblems(doc), ...shootoutProblems(doc)];
  if (semantic.length) return { ok: false, reason: `shootout document: ${oneLine(semantic)}` };
  return { ok: true, doc, text };
}

/**
 * Read and check one file: a result document, or a shootout document.
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
  const kind = doc && typeof doc === 'object' && !Array.isArray(doc) ? doc.kind : undefined;
  if (kind === SHOOTOUT_KIND) return readShootout(doc, text);
  if (kind !== 'sqlite-node-bench/result')
    return {
      ok: false,
      reason: `/kind is not 'sqlite-node-bench/result': not a result document (nor '${SHOOTOUT_KIND}': not a shootout document)`,
    };
  if (doc.schemaVersion !== SCHEMA_VERSION) return { ok: false, reason: versionReason(doc, SCHEMA_VERSION, 'result') };
  const problems = validate(doc);
  if (problems.length) return { ok: false, reason: oneLine(problems) };
  const semantic = semanticProblems(doc);
  if (semantic.length) return { ok: false, reason: oneLine(semantic) };
  return { ok: true, doc, text };
}
