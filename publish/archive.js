#!/usr/bin/env node
// npm run ci:archive: makes the releases the index names for the documents here (aggregate/assets.js),
// before the nightly job commits the index, so the index never names a release the repository does
// not hold; a release that exists is checked, not written to blindly
// (docs/pipeline.md#where-the-documents-are).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommandError, command, parseStrict, valueFlag } from '../lib/command.js';
import { bundleName, byRelease, packBundle, unpackBundle } from '../aggregate/assets.js';
import { GhError, RETRIES, gh, retrying } from './gh.js';
import { openStore, sha256 } from '../aggregate/store.js';

/** What gh says of a release this repository does not have. */
export const NO_RELEASE = /release not found/i;

/**
 * A release as gh shows it (gh finds a draft by its tag too); null when there is none.
 * @param {string} tag @param {(s: string) => void} log
 * @returns {Promise<{ isDraft: boolean, databaseId: number, assets: { name: string, size: number, state: string }[] } | null>}
 */
export async function viewRelease(tag, log) {
  const out = await gh(['release', 'view', tag, '--json', 'assets,isDraft,databaseId'], { missing: NO_RELEASE, log });
  return out === null ? null : JSON.parse(out);
}

/**
 * Whether the release's asset holds exactly these documents (file → sha256).
 * @param {string} tag @param {Map<string, string>} want @param {string} tmp @param {(s: string) => void} log
 */
async function holds(tag, want, tmp, log) {
  const dir = fs.mkdtempSync(path.join(tmp, 'check-'));
  await gh(['release', 'download', tag, '--dir', dir, '--pattern', bundleName(tag)], { log });
  const docs = unpackBundle(fs.readFileSync(path.join(dir, bundleName(tag))));
  return (
    docs.size === want.size && [...want].every(([file, sha]) => docs.has(file) && sha256(docs.get(file) ?? '') === sha)
  );
}

/** What GitHub said to a create or an upload: the next round looks at what it left. */
class Refusal extends Error {}
const refused = (/** @type {unknown} */ err) => {
  throw err instanceof GhError ? new Refusal(err.said) : err;
};
/** Thrown while GitHub's listing does not show the asset yet. */
const LAGS = 'asset not listed yet';

/**
 * Make sure release `tag` holds `bundle` (the documents `want`): made when missing, checked when
 * there, in at most RETRIES.round rounds of looking and acting. Returns what it did.
 * @param {string} tag @param {string} bundle the packed file @param {Map<string, string>} want
 * @param {string} tmp @param {(s: string) => void} log
 * @returns {Promise<'made' | 'there' | 'completed'>}
 */
async function ensure(tag, bundle, want, tmp, log) {
  const name = bundleName(tag);
  const round = async (/** @type {number} */ n) => {
    let state = await viewRelease(tag, log);
    if (state?.isDraft) {
      log(`ci:archive: release ${tag} is a draft, left by an upload that was cut off: deleted, to be made again`);
      // by its id: GitHub's lookup by tag does not find a draft (its tag does not exist yet)
      await gh(['api', '-X', 'DELETE', `repos/{owner}/{repo}/releases/${state.databaseId}`], { log });
      state = null;
    }
    if (!state) {
      // not retried by gh.js: a create cut off may have left a draft, which the next round deletes
      const notes = `The result and shootout documents one nightly aggregate stored, packed in ${name} (per document a line {"file": …} and its JSON), as results/index.json lists them (docs/pipeline.md). Never replaced.`;
      const title = `Result documents: ${tag.slice('results-'.length)}`;
      await gh(['release', 'create', tag, bundle, '--latest=false', '--title', title, '--notes', notes], {
        log,
        tries: 1,
      }).catch(refused);
      return 'made';
    }
    let seen = state;
    seen = await retrying(
      async (look) => {
        if (look > 1) seen = (await viewRelease(tag, log)) ?? seen;
        if (look < RETRIES.look.tries && !seen.assets.some((a) => a.name === name && a.state === 'uploaded'))
          throw new Error(LAGS);
        return seen;
      },
      RETRIES.look,
      { retryable: (err) => err.message === LAGS },
    );
    const asset = seen.assets.find((a) => a.name === name);
    if (asset?.state === 'uploaded') {
      if (asset.size === fs.statSync(bundle).size || (await holds(tag, want, tmp, log)))
        return n === 1 ? 'there' : 'made';
      throw new CommandError(
        `release ${tag} holds an asset ${name} that is not the documents results/index.json archives there; not replaced (delete the release on GitHub if it is not this repository's archive, then run the nightly job again)`,
      );
    }
    if (asset) await gh(['release', 'delete-asset', tag, name, '--yes'], { log }).catch(refused); // cut off: 'starter'
    await gh(['release', 'upload', tag, bundle], { log, tries: 1 }).catch(refused);
    return 'completed';
  };
  const immutable = (/** @type {Error} */ err) => /immutable/i.test(err.message);
  return retrying(round, RETRIES.round, { retryable: (err) => err instanceof Refusal && !immutable(err) }).catch(
    (err) => {
      if (!(err instanceof Refusal)) throw err;
      throw new CommandError(
        immutable(err)
          ? `release ${tag} is immutable and cannot hold its asset ${name} (${err.message.slice(0, 120)}): nothing was committed; re-run the workflow, whose new attempt names a new release for these documents`
          : `release ${tag}: not made after ${RETRIES.round.tries} rounds; the last refusal: ${err.message}`,
      );
    },
  );
}

/**
 * @param {{ results: string, log?: (s: string) => void, warn?: (s: string) => void }} o
 * @returns {Promise<{ releases: Record<string, string>, archived: number }>} what was done per release
 */
export async function archive(o) {
  const log = o.log ?? ((s) => console.error(s));
  const store = openStore(o.results, o.warn ?? ((s) => console.error(s)));
  const here = store.entries().filter((e) => store.has(e) && e.release);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-archive-'));
  const done = /** @type {Record<string, string>} */ ({});
  try {
    for (const [tag, entries] of byRelease(here)) {
      const docs = entries.map((e) => {
        const text = fs.readFileSync(path.join(o.results, e.file), 'utf8');
        if (sha256(text) !== e.sha256)
          throw new CommandError(
            `results/${e.file} is not the document results/index.json lists (sha256 differs); not archived`,
          );
        return { file: e.file, text };
      });
      const bundle = path.join(tmp, bundleName(tag));
      fs.writeFileSync(bundle, packBundle(docs));
      done[tag] = await ensure(tag, bundle, new Map(entries.map((e) => [e.file, e.sha256])), tmp, log);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const made = Object.entries(done).filter(([, d]) => d !== 'there');
  o.log?.(
    `ci:archive: ${here.length} document(s) here in ${Object.keys(done).length} release(s): ${made.length ? made.map(([t, d]) => `${t} ${d}`).join(', ') : 'every one there already'}`,
  );
  return { releases: done, archived: here.length };
}

const HELP = {
  usage: 'npm run ci:archive -- [flags]',
  summary:
    'Makes the releases the index names for the documents here, one asset each, never appending to one; a release that exists is checked, not overwritten.',
  options: /** @type {const} */ ({
    results: valueFlag('DIR', 'the results folder holding index.json and the documents', { default: 'results' }),
  }),
};

async function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, HELP.options);
  await archive({ results: values.results, log: (s) => console.log(s) });
  return 0;
}

command('ci:archive', import.meta.url, main, HELP);
