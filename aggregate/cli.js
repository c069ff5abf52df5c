#!/usr/bin/env node
// npm run aggregate -- --artifacts <dir> [--results results] [--readme README.md]
//
// Reads every result document under <dir> (download-artifact's layout with or without
// merge-multiple, or a folder of `npm run bench` output), adds the valid ones to results/
// (append-only), and regenerates README.md between its markers from all of results/.
// Exit 0 when at least one valid document was found and everything was written; 1 when none was
// found or something could not be written; 2 on bad flags.
import fs from 'node:fs';
import path from 'node:path';
import { removeStaleTemps, removeStaleTempsOf, writeFileAtomic } from '../lib/files.js';
import { UsageError, command, parseStrict } from '../lib/command.js';
import { discover, readResult } from './read.js';
import { replaceBlock } from '../lib/markers.js';
import { renderBlock } from './render.js';
import { openStore } from './store.js';

const OPTIONS = /** @type {const} */ ({
  artifacts: { type: 'string' },
  results: { type: 'string', default: 'results' },
  readme: { type: 'string', default: 'README.md' },
  help: { type: 'boolean', short: 'h', default: false },
});

/**
 * @param {{ artifacts: string, results: string, readme: string }} o
 * @param {{ log: (s: string) => void, warn: (s: string) => void }} io
 * @returns {number} exit code
 */
export function aggregate(o, io) {
  const readmeText = fs.readFileSync(o.readme, 'utf8');
  replaceBlock(readmeText, ''); // refuse bad markers before anything is written
  // an aggregate killed between writing a temp file and renaming it leaves the temp file behind
  for (const f of [...removeStaleTemps(o.results), ...removeStaleTempsOf(o.readme)]) io.warn(`${f}: removed, left by an interrupted aggregate`);
  const { files, rejected } = discover(o.artifacts);
  const store = openStore(o.results, io.warn);
  let valid = 0;
  const stored = [];
  const skipped = [...rejected];
  for (const file of files) {
    const r = readResult(file);
    if (!r.ok) {
      skipped.push({ file, reason: r.reason });
      continue;
    }
    valid++;
    const added = store.add(r.doc);
    if (added.stored) stored.push(added.file);
    else skipped.push({ file, reason: added.reason });
  }
  for (const s of skipped) io.warn(`${s.file}: ${s.reason}`);
  const indexChanged = store.saveIndex();
  const resultsLink = path.relative(path.dirname(path.resolve(o.readme)), path.resolve(o.results)).split(path.sep).join('/') || '.';
  const next = replaceBlock(readmeText, renderBlock(store, { resultsLink }));
  const readmeChanged = next !== readmeText;
  if (readmeChanged) writeFileAtomic(o.readme, next);
  /** @type {Map<string, number>} */
  const perPlatform = new Map();
  for (const e of store.entries()) perPlatform.set(e.platform, (perPlatform.get(e.platform) ?? 0) + 1);
  io.log(`aggregate: ${files.length + rejected.length} file(s) read, ${valid} valid, ${stored.length} stored, ${skipped.length} skipped`);
  for (const f of stored) io.log(`  stored ${path.join(o.results, f)}`);
  io.log(`  results/ holds ${store.entries().length} document(s): ${[...perPlatform].map(([p, n]) => `${p} ${n}`).join(', ') || 'none'}`);
  io.log(`  ${o.readme} ${readmeChanged ? 'updated' : 'unchanged'}; index ${indexChanged ? 'updated' : 'unchanged'}`);
  if (valid === 0) {
    io.warn(`aggregate: no valid result document under ${o.artifacts}`);
    return 1;
  }
  return 0;
}

function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, OPTIONS);
  if (values.help) {
    console.log('usage: npm run aggregate -- --artifacts DIR [--results DIR] [--readme FILE]');
    return 0;
  }
  if (!values.artifacts || !fs.existsSync(values.artifacts) || !fs.statSync(values.artifacts).isDirectory()) {
    throw new UsageError(`--artifacts must name a directory (got ${values.artifacts === undefined ? 'nothing' : `'${values.artifacts}'`})`);
  }
  return aggregate(/** @type {any} */ (values), { log: (s) => console.log(s), warn: (s) => console.error(s) });
}

command('aggregate', import.meta.url, main);
