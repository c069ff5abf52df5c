// Where a stored document's bytes live once they leave the git history (results/ in git keeps the
// index, the nights cache, the pages and charts): one GitHub release per batch (the documents one
// aggregate stores), `results-<newest day>-<8 hex>`, holding one asset, the batch packed
// (`<tag>.jsonl.gz`), made in one call and never appended to. docs/pipeline.md "Where the documents
// are" says why (git cannot deltify them; immutable releases; GitHub's asset cap) and how they are
// made and fetched (`npm run ci:archive` before the index that names them is committed,
// `npm run ci:restore` first in the nightly job).
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import { namePart } from '../lib/names.js';

/**
 * A stored document's file under results/ (store.js fileFor):
 * <year>/<day>-<platform>-<arch>-node-<Node version>-<8 hex>.json, or …-shootout-<8 hex>.json; each
 * part of the kind of name the schemas admit (lib/names.js), so every document stored has a release.
 */
const FILE = new RegExp(
  `^(\\d{4})/((\\d{4})-\\d{2}-\\d{2})-${namePart('platform')}-${namePart('arch')}-(?:node-${namePart('nodeVersion')}|shootout)-[0-9a-f]{8}\\.json$`,
);
/** A release's tag: results-<day>-<8 hex>. */
const TAG = new RegExp(`^results-${namePart('day')}-[0-9a-f]{8}$`);

/**
 * The release a batch of documents is archived in: the newest one's day and the first 8 hex of
 * the sha256 of their sha256s and the run (its attempt), so the same batch of one run always
 * names the same release (an aggregate run again after a rejected push finds it made), and
 * another batch or a re-run another one (a re-run never depends on a release an earlier attempt
 * left half made, or an immutable one). `run`: e.g. 1234.2; '' on a laptop.
 */
export function releaseOf(/** @type {{ file: string, sha256: string }[]} */ batch, run = '') {
  const days = batch.map((e) => {
    const m = FILE.exec(e.file);
    if (!m || m[1] !== m[3])
      throw new Error(
        `results/index.json: '${e.file}' is not a stored document's path (<year>/<year>-<month>-<day>-<platform>-<arch>-node-<Node version>-<8 hex>.json, or …-shootout-<8 hex>.json)`,
      );
    return m[2];
  });
  const hash = crypto
    .createHash('sha256')
    .update(
      batch
        .map((e) => e.sha256)
        .sort()
        .concat(run)
        .join('\n'),
    )
    .digest('hex');
  return `results-${days.sort().at(-1)}-${hash.slice(0, 8)}`;
}

/** A release's one asset: its documents, packed (packBundle). */
export const bundleName = (/** @type {string} */ tag) => `${tag}.jsonl.gz`;

/**
 * Whether an index entry names a release (of the form TAG).
 * @template {{ release?: string }} E
 * @param {E} e
 * @returns {e is E & { release: string }}
 */
const named = (e) => typeof e.release === 'string' && TAG.test(e.release);

/**
 * A stored document's name on a page, linked to its release's asset. On GitHub a page is shown at
 * /<owner>/<repo>/blob/<branch>/<path> and results/ is always /<owner>/<repo>/blob/<branch>/results,
 * so three levels up from results/ is the repository. A document whose entry names no release is
 * not linked: a page never links an asset that is not there. `text`: Markdown, already escaped.
 */
export function documentLink(
  /** @type {string} */ text,
  /** @type {string} */ resultsLink,
  /** @type {{ file: string, release?: string }} */ e,
) {
  if (!named(e)) return text;
  return `[${text}](${resultsLink}/../../../releases/download/${e.release}/${bundleName(e.release)})`;
}

/**
 * Documents as one asset: per document a line naming it, then its stored text (one line, store.js
 * storedText), in file order, gzipped: the same documents always the same bytes here.
 */
export function packBundle(/** @type {{ file: string, text: string }[]} */ docs) {
  const lines = [...docs]
    .sort((a, b) => (a.file < b.file ? -1 : 1))
    .map((d) => {
      if (!d.text.endsWith('\n') || d.text.indexOf('\n') !== d.text.length - 1)
        throw new Error(`${d.file}: a stored document is one line of JSON`);
      return `${JSON.stringify({ file: d.file })}\n${d.text}`;
    });
  return zlib.gzipSync(lines.join(''), { level: 9 });
}

/** An asset's documents: file → stored text. */
export function unpackBundle(/** @type {Buffer} */ bytes) {
  const lines = zlib.gunzipSync(bytes).toString('utf8').split('\n');
  const docs = /** @type {Map<string, string>} */ (new Map());
  for (let i = 0; i + 1 < lines.length; i += 2) docs.set(JSON.parse(lines[i]).file, `${lines[i + 1]}\n`);
  return docs;
}

/**
 * Stored documents by the release they are archived in; an entry that names none is an error.
 * @template {{ file: string, release?: string }} E
 * @param {E[]} entries
 * @returns {Map<string, E[]>} tag → its entries, in the order given
 */
export function byRelease(entries) {
  const releases = /** @type {Map<string, E[]>} */ (new Map());
  for (const e of entries) {
    if (!named(e))
      throw new Error(
        `results/index.json: the entry of ${e.file} names no release (results-<day>-<8 hex>): edited by hand?`,
      );
    releases.set(e.release, [...(releases.get(e.release) ?? []), e]);
  }
  return releases;
}
