#!/usr/bin/env node
// npm run ci:archive -- [--results results]
//
// Archives every document here (results/<year>/) that the index lists as an asset of its month's
// release (assets.js), creating the release the first time: what the nightly job does after it
// aggregates and before it commits the index that lists them, so the index never names a document
// the archive does not hold. An asset the release has already is never replaced: the same document
// is skipped, another one is refused (exit 1, nothing uploaded for that release).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommandError, command, parseStrict } from '../lib/command.js';
import { assetOf, byRelease, packAsset, unpackAsset } from '../aggregate/assets.js';
import { gh } from './gh.js';
import { openStore, sha256 } from '../aggregate/store.js';

const NO_RELEASE = /release not found/i;

/**
 * The assets a release has (name → size); null when there is no such release.
 * @param {string} tag
 * @returns {Map<string, number> | null}
 */
function assetsOf(tag) {
  const out = gh(['release', 'view', tag, '--json', 'assets'], { missing: NO_RELEASE });
  return out === null ? null : new Map(JSON.parse(out).assets.map((/** @type {any} */ a) => [a.name, a.size]));
}

/**
 * Whether the release's asset of this name is the document with this sha256 (the same size is
 * taken as the same bytes; else it is fetched and compared).
 * @param {string} tag @param {string} name @param {Buffer} packed @param {number} size @param {string} sha @param {string} tmp
 */
function sameAsset(tag, name, packed, size, sha, tmp) {
  if (size === packed.length) return true;
  const dir = path.join(tmp, `${tag}-check`);
  fs.mkdirSync(dir, { recursive: true });
  gh(['release', 'download', tag, '--dir', dir, '--pattern', name]);
  return sha256(unpackAsset(fs.readFileSync(path.join(dir, name)))) === sha;
}

/**
 * @param {{ results: string, log?: (s: string) => void, warn?: (s: string) => void }} o
 * @returns {{ uploaded: string[], archived: number }}
 */
export function archive(o) {
  const store = openStore(o.results, o.warn ?? ((s) => console.error(s)));
  const here = store.entries().filter((e) => store.has(e));
  const byTag = byRelease(here);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-archive-'));
  /** @type {string[]} */
  const uploaded = [];
  try {
    for (const [tag, entries] of byTag) {
      let assets = assetsOf(tag);
      if (!assets) {
        gh([
          'release',
          'create',
          tag,
          '--latest=false',
          '--title',
          `Result documents, ${tag.slice('results-'.length)}`,
          '--notes',
          'The result and shootout documents of this month, one gzipped JSON asset each, as results/index.json lists them (docs/pipeline.md). Written by the nightly aggregate; never replaced.',
        ]);
        assets = new Map();
      }
      /** @type {string[]} */
      const files = [];
      for (const e of entries) {
        const { name } = assetOf(e.file);
        const text = fs.readFileSync(path.join(o.results, e.file), 'utf8');
        if (sha256(text) !== e.sha256)
          throw new CommandError(
            `results/${e.file} is not the document results/index.json lists (sha256 differs); not archived`,
          );
        const packed = packAsset(text);
        const size = assets.get(name);
        if (size !== undefined) {
          if (!sameAsset(tag, name, packed, size, e.sha256, tmp))
            throw new CommandError(
              `release ${tag} has an asset ${name} that is another document than results/${e.file}; not replaced, nothing uploaded for ${tag}`,
            );
          continue;
        }
        const file = path.join(tmp, tag, name);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, packed);
        files.push(file);
      }
      if (files.length) gh(['release', 'upload', tag, ...files]);
      uploaded.push(...files.map((f) => `${tag}/${path.basename(f)}`));
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  o.log?.(
    `ci:archive: ${uploaded.length} document(s) uploaded; ${here.length - uploaded.length} here already archived`,
  );
  return { uploaded, archived: here.length };
}

function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, { results: { type: 'string', default: 'results' } });
  archive({ results: values.results, log: (s) => console.log(s) });
  return 0;
}

command('ci:archive', import.meta.url, main);
