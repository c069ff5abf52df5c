// results/: the append-only history, one file per document, never modified or deleted once
// written. results/index.json lists every document ever stored (one line each: what the pages need
// to pick documents without parsing them all, and the release it is archived in) and names the
// repository whose releases hold them. The documents are not in git (assets.js): a clone holds only
// those it fetched (npm run ci:restore), so an entry whose file is not here is kept (its run id and
// sha256 still refuse a conflicting document) and reading it says how to fetch it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../lib/files.js';
import { CommandError } from '../lib/command.js';
import { isName } from '../lib/names.js';
import { bundleName, releaseOf } from './assets.js';
import { readResult } from './read.js';
import { isShootout } from '../bench/result/header.js';
import { validAttempt } from './trust.js';

export const INDEX = 'index.json';
/** The index's one version: the version written and the only one read. */
const INDEX_VERSION = 1;

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
 * @property {string} [release] the release it is archived in (assets.js): named when the aggregate
 *   that stored it saves the index
 * @property {string} [run] the GitHub Actions run that wrote it, so a re-run's attempt supersedes
 *   the earlier one (latestAttempts)
 * @property {number} [attempt] that run's attempt
 */

/** Whether an entry is a shootout's (a run of several sides, its node the reference Node): fileFor names it by the machine. */
export const isShootoutEntry = (/** @type {Entry} */ e) => /-shootout-[0-9a-f]{8}\.json$/.test(e.file);

/** The bytes a document is stored as: the same document always gives the same bytes. */
export const storedText = (/** @type {any} */ doc) => `${JSON.stringify(doc)}\n`;
export const sha256 = (/** @type {string} */ s) => crypto.createHash('sha256').update(s).digest('hex');
/** The sha256 of the bytes a document is stored as: equal exactly when the documents are. */
export const digest = (/** @type {any} */ doc) => sha256(storedText(doc));

/**
 * The machine class of a document: platform, arch, CPU model, core count and runner image OS.
 * Runner image versions roll weekly, so they are shown, not keyed on.
 */
export function machineOf(/** @type {any} */ doc) {
  const e = doc.environment;
  const image = e.ci?.imageOs ?? (e.ci ? e.ci.provider : 'local');
  return `${e.platform}-${e.arch} · ${e.cpuModel} · ${e.cores} cores · ${image}`;
}

/** @returns {Entry} */
export function entryOf(/** @type {any} */ doc, /** @type {string} */ file, /** @type {string} */ text) {
  const ci = doc.environment.ci;
  const attempt = Number(ci?.runAttempt);
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
    // an attempt out of GitHub's range (trust.js) names no run: it supersedes nothing
    ...(ci?.runId && validAttempt(attempt) ? { run: String(ci.runId), attempt } : {}),
  };
}

/**
 * The entries to show: of the attempts of one GitHub run's cell (the same run, platform and arch,
 * machine class, shootout or not, and Node major), the newest only. "Re-run failed jobs" gives a
 * failed cell a new attempt in the same run: the failed attempt's document (npm run ci:failure)
 * stays in results/ (append-only), not shown. A document of another machine class never
 * supersedes (a document can claim any run and attempt: it hides at most its own class's). An
 * entry of no run (local, or of an attempt out of GitHub's range: trust.js) is its own.
 * @template {Entry} E
 * @param {E[]} entries
 * @returns {E[]}
 */
export function latestAttempts(entries) {
  const key = (/** @type {Entry} */ e) =>
    `${e.run}|${e.platform}|${e.machine}|${isShootoutEntry(e)}|${e.node.slice(1).split('.')[0]}`;
  const counts = (/** @type {Entry} */ e) => Boolean(e.run) && validAttempt(e.attempt);
  const newest = /** @type {Map<string, number>} */ (new Map());
  for (const e of entries)
    if (counts(e)) newest.set(key(e), Math.max(newest.get(key(e)) ?? 0, /** @type {number} */ (e.attempt)));
  return entries.filter((e) => !counts(e) || newest.get(key(e)) === e.attempt);
}

/**
 * Where a document goes, a path under results/ with / separators: by date, platform, arch and Node
 * version, made unique by the run id; null when a part is not the kind of name the schema allows
 * (lib/names.js: a document that was not validated).
 */
export function fileFor(/** @type {any} */ doc) {
  const parts = {
    day: String(doc.run?.finishedAt).slice(0, 10),
    platform: doc.environment?.platform,
    arch: doc.environment?.arch,
    node: doc.environment?.node,
    id: String(doc.run?.id).slice(0, 8),
  };
  const kinds = { day: 'day', platform: 'platform', arch: 'arch', node: 'nodeVersion' };
  const ok = Object.entries(kinds).every(([k, kind]) => isName(kind, parts[/** @type {keyof typeof kinds} */ (k)]));
  if (!ok || !/^[0-9a-f]{8}$/.test(parts.id)) return null;
  // a shootout measured every Node: named by the machine, not by one Node
  const what = isShootout(doc) ? 'shootout' : `node-${parts.node}`;
  return `${parts.day.slice(0, 4)}/${parts.day}-${parts.platform}-${parts.arch}-${what}-${parts.id}.json`;
}

/** Whether a relative path stays inside dir once resolved (defence in depth: fileFor allows no other). */
export function inside(/** @type {string} */ dir, /** @type {string} */ file) {
  return path.resolve(dir, file).startsWith(path.resolve(dir) + path.sep);
}

/** All stored document files under results/, as relative paths. */
function storedFiles(/** @type {string} */ dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map((f) => String(f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.json') && f !== INDEX && !f.split('/').some((p) => p.startsWith('.')))
    .sort();
}

/** Why a listed document cannot be read here, and how to fetch it. */
function notHere(/** @type {string} */ dir, /** @type {Entry} */ e) {
  const where = e.release ? `archived in release ${e.release}, asset ${bundleName(e.release)}` : 'no release named';
  return `${path.join(dir, e.file)}: listed in ${path.join(dir, INDEX)} but not here (${where}); fetch what the pages need with npm run ci:restore, or every document with npm run ci:restore -- --all`;
}

/**
 * Open the store: read the index and add to it any document here that it does not list (an entry
 * whose file is not here stays: the document is archived, assets.js).
 */
export function openStore(/** @type {string} */ dir, /** @type {(line: string) => void} */ warn) {
  const indexFile = path.join(dir, INDEX);
  const byFile = /** @type {Map<string, Entry>} */ (new Map());
  /** @type {string | null} the repository whose releases hold the archived documents */
  let repository = null;
  if (fs.existsSync(indexFile)) {
    try {
      const index = JSON.parse(fs.readFileSync(indexFile, 'utf8'));
      if (index.schemaVersion !== INDEX_VERSION)
        throw new Error(
          `/schemaVersion is ${index.schemaVersion}; this aggregate reads an index of version ${INDEX_VERSION}`,
        );
      repository = typeof index.repository === 'string' ? index.repository : null;
      for (const e of index.entries) byFile.set(e.file, e);
    } catch (err) {
      // it is the only list of the archived documents: never rebuilt over them silently
      throw new CommandError(
        `${indexFile}: unreadable (${/** @type {Error} */ (err).message.split('\n')[0]}); it lists the archived documents too, so it is not rebuilt: take it back from git (git checkout -- ${indexFile}), or remove it to rebuild it from the documents here only`,
      );
    }
  }
  const files = storedFiles(dir);
  for (const f of files) {
    if (byFile.has(f)) continue;
    const r = readResult(path.join(dir, f));
    // the file name says whether it is a shootout's (isShootoutEntry): a document elsewhere is not shown
    const reason = !r.ok
      ? `not a valid document (${r.reason})`
      : fileFor(r.doc) === f
        ? null
        : `a document the aggregate stores as results/${fileFor(r.doc)}`;
    if (!r.ok || reason) {
      warn(`${path.join(dir, f)}: stored file is ${reason}; left as it is, not shown`);
      continue;
    }
    byFile.set(f, entryOf(r.doc, f, r.text));
  }
  const entries = () => [...byFile.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  /** @type {Map<string, Entry>} */
  const ids = new Map([...byFile.values()].map((e) => [e.id, e]));
  /** @type {Map<string, string>} staged documents (file → stored bytes): shown, not yet written (stage, commit) */
  const staged = new Map();
  /** Whether a listed document's file is here, or staged (else it is archived only: assets.js). */
  const has = (/** @type {Entry} */ e) => staged.has(e.file) || fs.existsSync(path.join(dir, e.file));
  /**
   * Add a document whose run id is not stored (admit.js decides that): staged (listed and loadable,
   * not written) until commit. Never overwrites, never writes outside dir.
   * @param {string} [text] storedText(doc), when the caller has it already
   * @returns {{ stored: true, file: string } | { stored: false, reason: string }}
   */
  function stage(/** @type {any} */ doc, text = storedText(doc)) {
    const file = fileFor(doc);
    if (!file || !inside(dir, file))
      return { stored: false, reason: '/run and /environment do not make a file name inside results/; not stored' };
    const full = path.join(dir, file);
    if (fs.existsSync(full) || staged.has(file))
      return { stored: false, reason: `results/${file} exists; not overwritten` };
    staged.set(file, text);
    const entry = entryOf(doc, file, text);
    byFile.set(file, entry);
    ids.set(entry.id, entry);
    return { stored: true, file };
  }
  return {
    entries,
    byId: (/** @type {string} */ id) => ids.get(id),
    /** The stored document at this path under results/. */
    byFile: (/** @type {string} */ file) => byFile.get(file),
    stage,
    /** Take back a staged document (it could not be rendered): as if it had never been added. */
    unstage(/** @type {string} */ file) {
      const e = byFile.get(file);
      if (!staged.delete(file) || !e) return;
      byFile.delete(file);
      ids.delete(e.id);
    },
    /** Whether a document is staged, not yet written. */
    staged: (/** @type {string} */ file) => staged.has(file),
    commit() {
      for (const [file, text] of staged) {
        writeFileAtomic(path.join(dir, file), text);
        staged.delete(file);
      }
    },
    /** The repository whose releases hold the archived documents, as the index names it; null when it names none. */
    repository: () => repository,
    /**
     * Name the release of every document here that has none: one release for them all
     * (assets.js releaseOf, of the GitHub run and attempt `run`), which npm run ci:archive makes
     * before the index is committed; null when none was named.
     */
    nameRelease(/** @type {string | undefined} */ run) {
      const batch = entries().filter((e) => !e.release && has(e));
      if (!batch.length) return null;
      const tag = releaseOf(batch, run);
      for (const e of batch) e.release = tag;
      return tag;
    },
    /**
     * Write the index (sorted, one entry a line, so the same history gives the same bytes).
     * @param {string | null} [repo] the repository whose releases archive the documents (the
     *   nightly job's); by default the one the index names
     */
    saveIndex(repo = repository) {
      repository = repo;
      const lines = entries().map((e) => JSON.stringify(e));
      const head = repository ? `"repository":${JSON.stringify(repository)},` : '';
      const text = `{"schemaVersion":${INDEX_VERSION},${head}"entries":[\n${lines.join(',\n')}\n]}\n`;
      if (fs.existsSync(indexFile) && fs.readFileSync(indexFile, 'utf8') === text) return false;
      writeFileAtomic(indexFile, text);
      return true;
    },
    has,
    /** Parse a stored document; one that is archived only is an error saying how to fetch it. */
    load(/** @type {Entry} */ e) {
      const text = staged.get(e.file);
      if (text !== undefined) return JSON.parse(text);
      const full = path.join(dir, e.file);
      if (!fs.existsSync(full)) throw new CommandError(notHere(dir, e));
      return JSON.parse(fs.readFileSync(full, 'utf8'));
    },
  };
}
