#!/usr/bin/env node
// npm run ci:restore -- [--all]: fetches archived documents (aggregate/assets.js) into
// results/<year>/, by default the ones the pages read (needed.js), each checked against the sha256
// the index lists; a fork's first night starts its own history
// (docs/pipeline.md#where-the-documents-are). Exit 1 when a release or asset is missing or does not match.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommandError, command, parseStrict, switchFlag, valueFlag } from '../lib/command.js';
import { writeFileAtomic } from '../lib/files.js';
import { bundleName, byRelease, unpackBundle } from '../aggregate/assets.js';
import { NO_RELEASE, viewRelease } from './archive.js';
import { gh } from './gh.js';
import { neededEntries } from './needed.js';
import { INDEX, openStore, sha256 } from '../aggregate/store.js';
import { CHARTS } from '../aggregate/charts/writer.js';

const NOT_THERE = new RegExp(`${NO_RELEASE.source}|no assets match`, 'i');

/** The repository the nightly job runs in, as gh reads it; null on a laptop. */
const thisRepository = (/** @type {Record<string, string | undefined>} */ env = process.env) =>
  env.GH_REPO || env.GITHUB_REPOSITORY || null;

/** What the aggregate makes in results/: the index, the long page, the charts (and nights) and the documents by year. */
const MADE_BY_AGGREGATE = [INDEX, 'README.md', CHARTS, /^\d{4}$/];

/**
 * Empty results/ of what the aggregate made there (the index, pages, charts, nights and the
 * documents), for a repository whose own history starts now; anything else in it is kept, and
 * named (no command removes what it did not make).
 * @param {string} results
 * @returns {string[]} what was kept
 */
export function startOver(results) {
  const kept = [];
  for (const f of fs.readdirSync(results)) {
    if (MADE_BY_AGGREGATE.some((m) => (typeof m === 'string' ? m === f : m.test(f))))
      fs.rmSync(path.join(results, f), { recursive: true, force: true });
    else kept.push(f);
  }
  return kept;
}

/**
 * @param {{ results: string, all?: boolean, repository?: string | null, log?: (s: string) => void, warn?: (s: string) => void }} o
 *   repository: this repository (thisRepository() by default)
 * @returns {Promise<{ fetched: string[], here: number, startedOver: boolean }>}
 */
export async function restore(o) {
  const log = o.log ?? ((s) => console.error(s));
  const store = openStore(o.results, o.warn ?? ((s) => console.error(s)));
  const mine = o.repository === undefined ? thisRepository() : o.repository;
  const theirs = store.repository();
  const needed = neededEntries(store.entries());
  if (mine && theirs && mine !== theirs) {
    // a renamed or transferred repository keeps its releases: only one without them starts over
    const probe = needed.find((e) => e.release);
    if (probe?.release && (await viewRelease(probe.release, log)))
      log(
        `ci:restore: ${path.join(o.results, INDEX)} names ${theirs}, and this is ${mine}, which holds its releases (renamed or transferred): kept`,
      );
    else {
      const n = store.entries().length;
      const kept = startOver(o.results);
      if (kept.length)
        log(`ci:restore: ${o.results} also holds ${kept.join(', ')}, which the aggregate did not make: kept`);
      log(
        `ci:restore: ${path.join(o.results, INDEX)} lists ${n} document(s) archived in ${theirs}'s releases, and this is ${mine}, which has none of them (a fork: GitHub does not copy releases): results/ emptied, ${mine}'s own history starts with tonight's documents`,
      );
      return { fetched: [], here: 0, startedOver: true };
    }
  }
  const wanted = o.all ? store.entries() : needed;
  const missing = wanted.filter((e) => !store.has(e));
  const byTag = byRelease(missing);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-restore-'));
  try {
    for (const [tag, entries] of byTag) {
      const dir = path.join(tmp, tag);
      const name = bundleName(tag);
      const got = await gh(['release', 'download', tag, '--dir', dir, '--pattern', name], { missing: NOT_THERE, log });
      if (got === null)
        throw new CommandError(
          `release ${tag}${mine ? ` of ${mine}` : ''} or its asset ${name} is not there, and ${path.join(o.results, INDEX)} lists ${entries.length} document(s) the pages need in it (${entries[0].file}${entries.length > 1 ? ', …' : ''}); nothing written. If this repository is a copy of another, remove results/ to start its own history (docs/pipeline.md)`,
        );
      const docs = unpackBundle(fs.readFileSync(path.join(dir, name)));
      for (const e of entries) {
        const text = docs.get(e.file);
        if (text === undefined)
          throw new CommandError(
            `asset ${name} of release ${tag} holds no ${e.file}, which results/index.json lists there`,
          );
        if (sha256(text) !== e.sha256)
          throw new CommandError(
            `asset ${name} of release ${tag} holds another document than results/index.json lists as ${e.file} (sha256 ${sha256(text).slice(0, 12)}…, listed ${e.sha256.slice(0, 12)}…); not written`,
          );
      }
      for (const e of entries) writeFileAtomic(path.join(o.results, e.file), /** @type {string} */ (docs.get(e.file)));
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const fetched = missing.map((e) => e.file);
  o.log?.(
    `ci:restore: ${fetched.length} document(s) fetched from ${byTag.size} release(s); ${wanted.length - missing.length} of the ${wanted.length} wanted already here`,
  );
  return { fetched, here: wanted.length - missing.length, startedOver: false };
}

const HELP = {
  usage: 'npm run ci:restore -- [flags]',
  summary:
    "Fetches the archived documents the pages read (release assets) into results/<year>/, each checked against the index's sha256; a fork's first night starts its own history.",
  options: /** @type {const} */ ({
    results: valueFlag('DIR', 'the results folder whose index.json names the documents', { default: 'results' }),
    all: switchFlag('every document the index lists, not only those the pages read'),
  }),
};

async function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, HELP.options);
  await restore({ results: values.results, all: Boolean(values.all), log: (s) => console.log(s) });
  return 0;
}

command('ci:restore', import.meta.url, main, HELP);
