#!/usr/bin/env node
// npm run ci:restore -- [--results results] [--all]
//
// Fetches archived documents (assets.js) into results/<year>/: by default the ones the pages read
// (needed.js), which the nightly job does before it aggregates; --all every document the index lists.
// Each asset is checked against the sha256 the index lists before it is written (temp file, rename);
// a document already here is left as it is. Exit 1 when an asset is missing or does not match.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommandError, command, parseStrict } from '../lib/command.js';
import { writeFileAtomic } from '../lib/files.js';
import { assetOf, byRelease, unpackAsset } from '../aggregate/assets.js';
import { gh } from './gh.js';
import { neededEntries } from './needed.js';
import { openStore, sha256 } from '../aggregate/store.js';

/**
 * @param {{ results: string, all?: boolean, log?: (s: string) => void, warn?: (s: string) => void }} o
 * @returns {{ fetched: string[], here: number }}
 */
export function restore(o) {
  const store = openStore(o.results, o.warn ?? ((s) => console.error(s)));
  const wanted = o.all ? store.entries() : neededEntries(store.entries());
  const missing = wanted.filter((e) => !store.has(e));
  const byTag = byRelease(missing);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-restore-'));
  try {
    for (const [tag, entries] of byTag) {
      const dir = path.join(tmp, tag);
      fs.mkdirSync(dir, { recursive: true });
      gh(['release', 'download', tag, '--dir', dir, ...entries.flatMap((e) => ['--pattern', assetOf(e.file).name])]);
      for (const e of entries) {
        const { name } = assetOf(e.file);
        const asset = path.join(dir, name);
        if (!fs.existsSync(asset))
          throw new CommandError(`release ${tag} has no asset ${name} (results/index.json lists ${e.file})`);
        const text = unpackAsset(fs.readFileSync(asset));
        if (sha256(text) !== e.sha256)
          throw new CommandError(
            `asset ${name} of release ${tag} is not the document results/index.json lists as ${e.file} (sha256 ${sha256(text).slice(0, 12)}…, listed ${e.sha256.slice(0, 12)}…); not written`,
          );
        writeFileAtomic(path.join(o.results, e.file), text);
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const fetched = missing.map((e) => e.file);
  o.log?.(
    `ci:restore: ${fetched.length} document(s) fetched from ${byTag.size} release(s); ${wanted.length - missing.length} of the ${wanted.length} wanted already here`,
  );
  return { fetched, here: wanted.length - missing.length };
}

function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, {
    results: { type: 'string', default: 'results' },
    all: { type: 'boolean', default: false },
  });
  restore({ results: values.results, all: Boolean(values.all), log: (s) => console.log(s) });
  return 0;
}

command('ci:restore', import.meta.url, main);
