// What the aggregate stores, decided before anything is written, from the valid documents only (an
// invalid one is never in the running). Two documents conflict when they claim the same run id, or
// the same file in results/, with different content: neither silently wins. The one already in
// results/ stays; two incoming ones are both refused; every file involved is named.

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

/** The files of the group whose content differs from d's. */
const differing = (/** @type {Checked[]} */ group, /** @type {Checked} */ d) =>
  group
    .filter((x) => x.sha256 !== d.sha256)
    .map((x) => x.file)
    .join(', ');
/** The files of the group other than d. */
const others = (/** @type {Checked[]} */ group, /** @type {Checked} */ d) =>
  group
    .filter((x) => x !== d)
    .map((x) => x.file)
    .join(', ');

/**
 * One run id: stored already, one incoming content, or a conflict.
 * @param {Checked[]} group the incoming documents with this id, in reading order
 * @param {import('./store.js').Entry | undefined} stored
 * @param {Admission} admission
 */
function admitById(group, stored, admission) {
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
        reason: `/run/id ${d.id} is also claimed by ${differing(group, d)} with different content; neither is stored`,
      });
    return;
  }
  admission.store.push(group[0]);
  for (const d of group.slice(1))
    admission.same.push({ file: d.file, reason: `the same document as ${group[0].file}; stored once` });
}

/**
 * One target file: free, held by another stored run, or wanted by several new runs.
 * @param {Checked[]} group new documents, each of its own run id, that would be stored at this path
 * @param {import('./store.js').Entry | undefined} stored
 * @param {Admission} admission
 */
function admitByTarget(group, stored, admission) {
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
        reason: `would be stored as results/${d.target}, as would ${others(group, d)} (another run id); neither is stored`,
      });
  } else {
    admission.store.push(group[0]);
  }
}

/**
 * @param {Checked[]} docs every valid incoming document, in reading order
 * @param {{ byId: (id: string) => import('./store.js').Entry | undefined, byFile: (file: string) => import('./store.js').Entry | undefined }} store
 * @returns {Admission}
 */
export function admit(docs, store) {
  /** @type {Admission} */
  const byId = { store: [], same: [], refused: [] };
  for (const [id, group] of groupBy(docs, (d) => d.id)) admitById(group, store.byId(id), byId);
  /** @type {Admission} */
  const result = { store: [], same: byId.same, refused: byId.refused };
  for (const [target, group] of groupBy(byId.store, (d) => d.target))
    admitByTarget(group, store.byFile(target), result);
  return result;
}
