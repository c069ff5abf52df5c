// Where a stored document's bytes live once they leave the git history. results/ in git keeps the
// index (every document ever stored: run id, sha256, what the pages pick by), the nights cache and
// the derived pages and charts; each document itself (results/<year>/…json, ~0.4 MB, ~50 KB
// deflated, a night of 24 would add ~1 MB to every clone) is archived as an asset of a GitHub release,
// one release per month (`results-2026-11`), gzipped, named after its file. The aggregate reads a
// document from results/<year>/ as before: the nightly job first fetches the ones the pages show
// (needed.js) with `npm run ci:restore`, and after aggregating uploads the new ones with
// `npm run ci:archive` before it commits the index that lists them. A laptop keeps every document
// it aggregated in results/<year>/ (git ignores that folder). An asset is never replaced: an upload
// of a name the release has already is skipped when its bytes are the same and refused otherwise.
import zlib from 'node:zlib';

/** A stored document's file under results/: <year>/<day>-….json (store.js fileFor). */
const FILE = /^(\d{4})\/((\d{4})-(\d{2})-\d{2}-[a-z0-9.-]+\.json)$/;

/**
 * The release and asset a stored document is archived as.
 * @param {string} file a path under results/, as the index lists it
 * @returns {{ tag: string, name: string }}
 */
export function assetOf(file) {
  const m = FILE.exec(file);
  if (!m || m[1] !== m[3])
    throw new Error(
      `results/index.json: '${file}' is not a stored document's path (<year>/<year>-<month>-<day>-….json)`,
    );
  return { tag: `results-${m[3]}-${m[4]}`, name: `${m[2]}.gz` };
}

/**
 * The link to a stored document from a page whose link to results/ is resultsLink: its release
 * asset. On GitHub a page is shown at /<owner>/<repo>/blob/<branch>/<path> and results/ is always
 * /<owner>/<repo>/blob/<branch>/results, so three levels up from results/ is the repository.
 * @param {string} resultsLink
 * @param {string} file
 */
export function documentLink(resultsLink, file) {
  const { tag, name } = assetOf(file);
  return `${resultsLink}/../../../releases/download/${tag}/${name}`;
}

/** A document's stored text as its asset's bytes: gzip, the same text always the same bytes. */
export const packAsset = (/** @type {string} */ text) => zlib.gzipSync(text, { level: 9 });
/** An asset's bytes as the stored text. */
export const unpackAsset = (/** @type {Buffer} */ bytes) => zlib.gunzipSync(bytes).toString('utf8');

/**
 * Stored documents by the release they are archived in.
 * @template {{ file: string }} E
 * @param {E[]} entries
 * @returns {Map<string, E[]>} tag → its entries, in the order given
 */
export function byRelease(entries) {
  /** @type {Map<string, E[]>} */
  const releases = new Map();
  for (const e of entries) {
    const { tag } = assetOf(e.file);
    releases.set(tag, [...(releases.get(tag) ?? []), e]);
  }
  return releases;
}
