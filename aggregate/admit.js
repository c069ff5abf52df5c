// Which incoming documents the aggregate stores, decided before anything is written: every file is
// checked first (read.js, then what trust.js asks of its time, its attempt and its artifact), and
// only the valid ones are in the running, so an invalid one never blocks a valid one. Two documents
// conflict when they claim the same run id, or the same file in results/, with different content:
// neither silently wins. The one already in results/ stays; two incoming ones are both refused;
// every file involved is named. What is admitted is staged in the store (shown, not yet written).
import fs from 'node:fs';
import { readResult } from './read.js';
import { digest, fileFor, sha256, storedText } from './store.js';
import { artifactProblem, attemptProblem, timeProblem } from './trust.js';
/** @import { Entry } from './store.js' */

/**
 * @typedef {object} Checked a valid incoming document, by what admitting it needs
 * @property {string} file where it was read
 * @property {string} id its run id
 * @property {string} sha256 of the bytes it would be stored as
 * @property {string} target where it would be stored, under results/
 */

/**
 * @typedef {object} Admission
 * @property {Checked[]} store to add to results/, one per run id
 * @property {{ file: string, reason: string }[]} same identical to one stored, or to one stored now: not an error
 * @property {{ file: string, reason: string }[]} refused in conflict with another valid document
 */

/**
 * @template T
 * @param {T[]} items
 * @param {(item: T) => string} key
 */
function groupBy(items, key) {
  const groups = /** @type {Map<string, T[]>} */ (new Map());
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** The files of a group that pass a test, as one list. */
const filesOf = (/** @type {Checked[]} */ group, /** @type {(x: Checked) => boolean} */ test) =>
  group
    .filter(test)
    .map((x) => x.file)
    .join(', ');

/** One run id (its incoming documents in reading order): stored already, one incoming content, or a conflict. */
function admitById(
  /** @type {Checked[]} */ group,
  /** @type {Entry | undefined} */ stored,
  /** @type {Admission} */ admission,
) {
  if (stored) {
    for (const d of group) {
      if (d.sha256 === stored.sha256)
        admission.same.push({ file: d.file, reason: `already stored as results/${stored.file}` });
      else
        admission.refused.push({
          file: d.file,
          reason: `/run/id ${d.id} is already stored as results/${stored.file} with different content; refused, the stored one stays`,
        });
    }
    return;
  }
  if (new Set(group.map((d) => d.sha256)).size > 1) {
    for (const d of group)
      admission.refused.push({
        file: d.file,
        reason: `/run/id ${d.id} is also claimed by ${filesOf(group, (x) => x.sha256 !== d.sha256)} with different content; neither is stored`,
      });
    return;
  }
  admission.store.push(group[0]);
  for (const d of group.slice(1))
    admission.same.push({ file: d.file, reason: `the same document as ${group[0].file}; stored once` });
}

/** One target file (the new documents, each of its own run id, it would hold): free, held by a stored run, or wanted by several. */
function admitByTarget(
  /** @type {Checked[]} */ group,
  /** @type {Entry | undefined} */ stored,
  /** @type {Admission} */ admission,
) {
  if (stored) {
    for (const d of group)
      admission.refused.push({
        file: d.file,
        reason: `would be stored as results/${d.target}, which holds run ${stored.id}; refused, the stored one stays`,
      });
  } else if (group.length > 1) {
    for (const d of group)
      admission.refused.push({
        file: d.file,
        reason: `would be stored as results/${d.target}, as would ${filesOf(group, (x) => x !== d)} (another run id); neither is stored`,
      });
  } else {
    admission.store.push(group[0]);
  }
}

/**
 * Read and check every file found (read.js discover): its schema, then what trust.js asks of its
 * time, its attempt and the artifact it came in; of a valid document, keep only what admitting it needs.
 * @param {ReturnType<typeof import('./read.js').discover>} batch
 * @param {number} now the aggregate's clock
 */
export function check({ files, rejected, artifactOf }, now) {
  const valid = /** @type {Checked[]} */ ([]);
  const invalid = /** @type {{ file: string, reason: string }[]} */ ([...rejected]);
  for (const file of files) {
    const r = readResult(file);
    const folder = artifactOf.get(file);
    const reason = r.ok
      ? (timeProblem(r.doc, now) ??
        attemptProblem(r.doc) ??
        (folder ? artifactProblem(folder, r.doc) : null) ??
        (fileFor(r.doc) ? null : '/run and /environment do not make a file name inside results/'))
      : r.reason;
    if (reason) invalid.push({ file, reason });
    else if (r.ok)
      valid.push({ file, id: r.doc.run.id, sha256: digest(r.doc), target: /** @type {string} */ (fileFor(r.doc)) });
  }
  return { read: files.length + rejected.length, valid, invalid };
}

/** The document a file holds, with the bytes it is stored as, if it is still the one that was checked. */
function reread(/** @type {Checked} */ d) {
  try {
    const doc = JSON.parse(fs.readFileSync(d.file, 'utf8'));
    const text = storedText(doc);
    return sha256(text) === d.sha256 ? { doc, text } : null;
  } catch {
    return null;
  }
}

/**
 * Decide what is stored, and stage it (store.js stage: shown, written only once the pages
 * rendered); a file that changed since it was checked, or that the store refuses, is refused.
 * Every file skipped or refused is named on one line.
 */
export function admit(
  /** @type {ReturnType<typeof check>} */ checked,
  /** @type {ReturnType<typeof import('./store.js').openStore>} */ store,
  /** @type {(line: string) => void} */ warn,
) {
  /** @type {Admission} by run id first, then by target file */
  const byId = { store: [], same: [], refused: [] };
  for (const [id, group] of groupBy(checked.valid, (d) => d.id)) admitById(group, store.byId(id), byId);
  /** @type {Admission} */
  const decided = { store: [], same: byId.same, refused: byId.refused };
  for (const [target, group] of groupBy(byId.store, (d) => d.target))
    admitByTarget(group, store.byFile(target), decided);
  /** @type {Map<string, string>} under results/ → the file it was read from */
  const staged = new Map();
  const skipped = [...checked.invalid, ...decided.same];
  const conflicts = decided.refused;
  for (const d of decided.store) {
    const again = reread(d);
    /** @type {ReturnType<typeof store.stage>} */
    const added = again
      ? store.stage(again.doc, again.text)
      : { stored: false, reason: 'changed after it was checked; not stored' };
    if (added.stored) staged.set(added.file, d.file);
    else conflicts.push({ file: d.file, reason: added.reason });
  }
  for (const s of [...skipped, ...conflicts]) warn(`${s.file}: ${s.reason}`);
  return { read: checked.read, valid: checked.valid.length, staged, skipped, conflicts };
}
