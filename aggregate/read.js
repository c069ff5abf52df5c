// Finding and checking result documents. Every rejection is one line naming the file and the
// field; nothing is thrown for a bad file, so one bad artifact never stops the rest.
import fs from 'node:fs';
import path from 'node:path';
import { validate } from '../bench/result/document.js';
import { TABLES, caseKey } from '../bench/tables/suite.js';

export const MAX_BYTES = 10 * 1024 * 1024;

/**
 * Every *.json file under dir, in a stable order. Symlinks are reported, not followed.
 * @param {string} dir
 * @returns {{ files: string[], rejected: { file: string, reason: string }[] }}
 */
export function discover(dir) {
  /** @type {string[]} */
  const files = [];
  /** @type {{ file: string, reason: string }[]} */
  const rejected = [];
  const walk = (/** @type {string} */ d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = path.join(d, entry.name);
      if (entry.isSymbolicLink()) {
        if (entry.name.endsWith('.json') || fs.statSync(p, { throwIfNoEntry: false })?.isDirectory()) rejected.push({ file: p, reason: 'is a symbolic link; not followed' });
      } else if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && entry.name.endsWith('.json')) files.push(p);
    }
  };
  walk(dir);
  return { files, rejected };
}

/**
 * Checks the schema cannot express: names the tables know, each case once, coherent times.
 * @param {any} doc a schema-valid document
 * @returns {string[]}
 */
export function semanticProblems(doc) {
  const problems = [];
  const seen = new Set();
  doc.cases.forEach((/** @type {any} */ c, /** @type {number} */ i) => {
    for (const t of /** @type {const} */ (['config', 'driver', 'cipher', 'op'])) {
      if (!TABLES[t].includes(c[t])) problems.push(`/cases/${i}/${t} unknown ${t} '${c[t]}' (valid: ${TABLES[t].join(', ')})`);
    }
    const key = caseKey(c);
    if (seen.has(key)) problems.push(`/cases/${i} repeats case ${key}`);
    seen.add(key);
  });
  if (doc.run.budget.slowdown) problems.push(`/run/budget/slowdown is ${doc.run.budget.slowdown}: a calibration run with a synthetic slowdown, not a result`);
  if (Date.parse(doc.run.finishedAt) < Date.parse(doc.run.startedAt)) problems.push('/run/finishedAt is before /run/startedAt');
  return problems;
}

/**
 * Read and check one file.
 * @param {string} file
 * @returns {{ ok: true, doc: any, text: string } | { ok: false, reason: string }}
 */
export function readResult(file) {
  const st = fs.lstatSync(file);
  if (st.isSymbolicLink()) return { ok: false, reason: 'is a symbolic link; not followed' };
  if (st.size === 0) return { ok: false, reason: 'is empty' };
  if (st.size > MAX_BYTES) return { ok: false, reason: `is ${st.size} bytes, over the ${MAX_BYTES}-byte limit` };
  const text = fs.readFileSync(file, 'utf8');
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `is not JSON (${String(/** @type {Error} */ (err).message).split('\n')[0]})` };
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc) || doc.kind !== 'sqlite-node-bench/result') {
    return { ok: false, reason: "/kind is not 'sqlite-node-bench/result': not a result document" };
  }
  if (doc.schemaVersion !== 1) return { ok: false, reason: `/schemaVersion is ${JSON.stringify(doc.schemaVersion)}; this aggregate reads 1` };
  const problems = validate(doc);
  if (problems.length) return { ok: false, reason: problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '') };
  const semantic = semanticProblems(doc);
  if (semantic.length) return { ok: false, reason: semantic.slice(0, 3).join('; ') + (semantic.length > 3 ? `; and ${semantic.length - 3} more` : '') };
  return { ok: true, doc, text };
}
