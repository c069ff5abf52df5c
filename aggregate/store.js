// results/: the permanent, append-only history. One file per result document (one matrix cell of
// one run), never modified or deleted once written. results/index.json is derived from those files
// (one line each: what the README needs to pick documents without parsing them all) and is
// rebuilt for any file it does not list.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../lib/files.js';
import { readResult } from './read.js';

export const INDEX = 'index.json';

/**
 * @typedef {object} Entry
 * @property {string} file path under results/, with / separators
 * @property {string} id run id
 * @property {string} sha256 of the stored bytes
 * @property {string} finishedAt
 * @property {'complete'|'interrupted'} status
 * @property {'quick'|'full'} mode
 * @property {string} platform e.g. linux-x64
 * @property {string} node e.g. v22.12.0
 * @property {string} machine the machine class: never mixed in one table
 */

/** The bytes a document is stored as: the same document always gives the same bytes. */
export const storedText = (/** @type {any} */ doc) => `${JSON.stringify(doc)}\n`;
const sha256 = (/** @type {string} */ s) => crypto.createHash('sha256').update(s).digest('hex');

/**
 * The machine class of a document: platform, arch, CPU model, core count and runner image OS.
 * Runner image versions roll weekly, so they are shown, not keyed on.
 * @param {any} doc
 */
export function machineOf(doc) {
  const e = doc.environment;
  const image = e.ci?.imageOs ?? (e.ci ? e.ci.provider : 'local');
  return `${e.platform}-${e.arch} · ${e.cpuModel} · ${e.cores} cores · ${image}`;
}

/**
 * @param {any} doc
 * @param {string} file
 * @param {string} text
 * @returns {Entry}
 */
export function entryOf(doc, file, text) {
  return {
    file,
    id: doc.run.id,
    sha256: sha256(text),
    finishedAt: doc.run.finishedAt,
    status: doc.run.status,
    mode: doc.run.mode,
    platform: `${doc.environment.platform}-${doc.environment.arch}`,
    node: doc.environment.node,
    machine: machineOf(doc),
  };
}

/** Where a document goes: by date, platform, arch and Node version, made unique by the run id. */
export function fileFor(/** @type {any} */ doc) {
  const day = doc.run.finishedAt.slice(0, 10);
  const { platform, arch, node } = doc.environment;
  return `${day.slice(0, 4)}/${day}-${platform}-${arch}-node-${node}-${doc.run.id.slice(0, 8)}.json`;
}

/** All stored document files under results/, as relative paths. */
function storedFiles(/** @type {string} */ dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true })
    .map((f) => String(f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.json') && f !== INDEX && !f.split('/').some((p) => p.startsWith('.')))
    .sort();
}

/**
 * Open the store: read the index and bring it in line with the files actually there.
 * @param {string} dir
 * @param {(line: string) => void} warn
 */
export function openStore(dir, warn) {
  const indexFile = path.join(dir, INDEX);
  /** @type {Map<string, Entry>} */
  const byFile = new Map();
  if (fs.existsSync(indexFile)) {
    try {
      for (const e of JSON.parse(fs.readFileSync(indexFile, 'utf8')).entries) byFile.set(e.file, e);
    } catch (err) {
      warn(`${indexFile}: unreadable (${/** @type {Error} */ (err).message.split('\n')[0]}); rebuilding it from the stored files`);
    }
  }
  const files = storedFiles(dir);
  const present = new Set(files);
  for (const f of [...byFile.keys()]) if (!present.has(f)) byFile.delete(f);
  for (const f of files) {
    if (byFile.has(f)) continue;
    const r = readResult(path.join(dir, f));
    if (!r.ok) {
      warn(`${path.join(dir, f)}: stored file is not a valid result document (${r.reason}); left as it is, not shown`);
      continue;
    }
    byFile.set(f, entryOf(r.doc, f, r.text));
  }
  const entries = () => [...byFile.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const byId = () => new Map(entries().map((e) => [e.id, e]));
  return {
    dir,
    entries,
    /**
     * Add a document, unless it is already there. Never overwrites.
     * @returns {{ stored: true, file: string } | { stored: false, reason: string, duplicate?: boolean }}
     */
    add(/** @type {any} */ doc) {
      const text = storedText(doc);
      const same = byId().get(doc.run.id);
      if (same) {
        if (same.sha256 === sha256(text)) return { stored: false, duplicate: true, reason: `already stored as results/${same.file}` };
        return { stored: false, reason: `/run/id ${doc.run.id} is already stored as results/${same.file} with different content; not overwritten` };
      }
      const file = fileFor(doc);
      const full = path.join(dir, file);
      if (fs.existsSync(full)) return { stored: false, reason: `results/${file} exists with another document; not overwritten` };
      writeFileAtomic(full, text);
      byFile.set(file, entryOf(doc, file, text));
      return { stored: true, file };
    },
    /** Write the index (sorted, one entry a line, so the same history gives the same bytes). */
    saveIndex() {
      const lines = entries().map((e) => JSON.stringify(e));
      const text = `{"schemaVersion":1,"entries":[\n${lines.join(',\n')}\n]}\n`;
      if (fs.existsSync(indexFile) && fs.readFileSync(indexFile, 'utf8') === text) return false;
      writeFileAtomic(indexFile, text);
      return true;
    },
    /** Parse a stored document. */
    load(/** @type {Entry} */ e) {
      return JSON.parse(fs.readFileSync(path.join(dir, e.file), 'utf8'));
    },
  };
}
