#!/usr/bin/env node
// npm run aggregate -- --artifacts <dir> [--results results] [--readme README.md]
//
// Reads every result document under <dir> (download-artifact's layout with or without
// merge-multiple, or a folder of `npm run bench` output), adds the valid ones to results/
// (append-only), and regenerates README.md between its markers from all of results/.
//
// Validate first, store second: every file is read and checked before anything is written, and
// only valid documents take part in deciding what is stored (aggregate/plan.js), so an invalid
// one never blocks a valid one. Each file not stored gets one line on stderr: the file, the
// field, the reason.
//
// Exit status:
//   0  at least one valid document was found, and every valid one is stored (now or before),
//      even when invalid files were skipped (each is named);
//   1  a conflict: two valid documents claim the same run id (or the same file in results/)
//      with different content; the one already in results/ stays, two new ones are both
//      refused, every file involved is named, and everything else is still stored and shown here
//      (in the nightly job the failed step keeps `npm run ci:publish` from running: nothing of that
//      night is archived or committed; docs/pipeline.md says what to do).
//      Also 1 when no valid document was found (the pages are still written: with no document
//      stored, the README block is render.js NO_RESULTS), or something could not be written (a
//      README with bad markers: nothing is written);
//   2  bad flags.
import fs from 'node:fs';
import path from 'node:path';
import { removeStaleTemps, removeStaleTempsOf, writeFileAtomic } from '../lib/files.js';
import { UsageError, command, parseStrict } from '../lib/command.js';
import { BIDI, CONTROL } from '../lib/markdown.js';
import { replaceBlock } from '../lib/markers.js';
import { plan } from './plan.js';
import { discover, readResult } from './read.js';
import { renderBlock, renderResultsPage } from './render.js';
import { chartWriter } from './charts/writer.js';
import { nightStore } from './nights.js';
import { digest, fileFor, openStore, sha256, storedText } from './store.js';

const OPTIONS = /** @type {const} */ ({
  artifacts: { type: 'string' },
  results: { type: 'string', default: 'results' },
  readme: { type: 'string', default: 'README.md' },
  help: { type: 'boolean', short: 'h', default: false },
});

const UNPRINTABLE = new RegExp(`${CONTROL.source}|${BIDI.source}`, 'gu');
/** A line for the terminal: control and bidirectional characters written as \u{…}, so one line stays one line. */
export const printable = (/** @type {string} */ s) =>
  s.replace(UNPRINTABLE, (ch) => `\\u{${/** @type {number} */ (ch.codePointAt(0)).toString(16)}}`);

/**
 * Read and check every file; of a valid document, keep only what the plan needs.
 * @param {string[]} files
 */
function check(files) {
  /** @type {import('./plan.js').Checked[]} */
  const valid = [];
  /** @type {{ file: string, reason: string }[]} */
  const invalid = [];
  for (const file of files) {
    const r = readResult(file);
    const target = r.ok ? fileFor(r.doc) : null;
    if (!r.ok) invalid.push({ file, reason: r.reason });
    else if (!target) invalid.push({ file, reason: '/run and /environment do not make a file name inside results/' });
    else valid.push({ file, id: r.doc.run.id, sha256: digest(r.doc), target });
  }
  return { valid, invalid };
}

/**
 * The document a file holds, with the bytes it is stored as, if it is still the one that was checked.
 * @param {import('./plan.js').Checked} d
 */
function reread(d) {
  try {
    const doc = JSON.parse(fs.readFileSync(d.file, 'utf8'));
    const text = storedText(doc);
    return sha256(text) === d.sha256 ? { doc, text } : null;
  } catch {
    return null;
  }
}

/**
 * Store what the plan says; a file that changed since it was checked, or that the store refuses, is refused.
 * @param {import('./plan.js').Checked[]} planned
 * @param {ReturnType<typeof openStore>} store
 */
function storeAll(planned, store) {
  /** @type {string[]} */
  const stored = [];
  /** @type {{ file: string, reason: string }[]} */
  const refused = [];
  for (const d of planned) {
    const again = reread(d);
    /** @type {ReturnType<typeof store.add>} */
    const added = again
      ? store.add(again.doc, again.text)
      : { stored: false, reason: 'changed after it was checked; not stored' };
    if (added.stored) stored.push(added.file);
    else refused.push({ file: d.file, reason: added.reason });
  }
  return { stored, refused };
}

/** Documents kept parsed: the newest per Node major of every machine class, and a night's, fit. */
const RECENT = 64;

/**
 * A document loader that keeps the last RECENT documents it parsed (a cold run, which reads every
 * night of the history window, keeps no more than that).
 * @param {(e: import('./store.js').Entry) => any} load
 */
function recent(load) {
  /** @type {Map<string, any>} */
  const kept = new Map();
  return (/** @type {import('./store.js').Entry} */ e) => {
    if (kept.has(e.file)) return kept.get(e.file);
    const doc = load(e);
    kept.set(e.file, doc);
    if (kept.size > RECENT) kept.delete(/** @type {string} */ (kept.keys().next().value));
    return doc;
  };
}

/**
 * Regenerate the README's block, results/README.md and the charts from all of results/, in two
 * steps: render both pages (each section asks the chart writer for its charts and gets their paths
 * at once; the drawing threads draw the charts whose data changed meanwhile); then, once every
 * chart is drawn, write each file that changed: the charts first, then the nights, the pages.
 * @param {{ results: string, readme: string }} o
 * @param {string} readmeText
 * @param {ReturnType<typeof openStore>} store
 * @param {ReturnType<typeof chartWriter>} charts
 */
async function writePages(o, readmeText, store, charts) {
  const rel = (/** @type {string} */ from, /** @type {string} */ to) =>
    path.relative(from, to).split(path.sep).join('/') || '.';
  const resultsLink = rel(path.dirname(path.resolve(o.readme)), path.resolve(o.results));
  // both pages and the nights read the newest documents: each is parsed once
  const shared = { entries: store.entries, load: recent(store.load) };
  const nights = nightStore(o.results, shared.load);
  // step 1: render
  const next = replaceBlock(readmeText, renderBlock(shared, { resultsLink, charts, nights }));
  const page = renderResultsPage(shared, {
    resultsLink: '.',
    readmeLink: rel(path.resolve(o.results), path.resolve(o.readme)),
    charts,
    nights,
  });
  // step 2: write
  const drawn = await charts.flush();
  const nightsChanged = nights.save();
  const pageFile = path.join(o.results, 'README.md');
  const pageChanged = page !== null && (!fs.existsSync(pageFile) || fs.readFileSync(pageFile, 'utf8') !== page);
  if (pageChanged) writeFileAtomic(pageFile, page);
  const readmeChanged = next !== readmeText;
  if (readmeChanged) writeFileAtomic(o.readme, next);
  return { readmeChanged, pageChanged, nightsChanged, drawn };
}

/**
 * @param {{ artifacts: string, results: string, readme: string, repository?: string | null, run?: string }} o
 *   repository: where the documents are archived (GITHUB_REPOSITORY on GitHub), by default the
 *   one the index names; run: the GitHub run and attempt (GITHUB_RUN_ID.GITHUB_RUN_ATTEMPT) that
 *   names the release of the documents it stores (assets.js releaseOf)
 * @param {{ log: (s: string) => void, warn: (s: string) => void }} io
 * @returns {Promise<number>} exit code
 */
export async function aggregate(o, io) {
  const warn = (/** @type {string} */ s) => io.warn(printable(s));
  const readmeText = fs.readFileSync(o.readme, 'utf8');
  replaceBlock(readmeText, ''); // refuse bad markers before anything is written
  // an aggregate killed between writing a temp file and renaming it leaves the temp file behind
  for (const f of [...removeStaleTemps(o.results), ...removeStaleTempsOf(o.readme)])
    warn(`${f}: removed, left by an interrupted aggregate`);
  const { files, rejected } = discover(o.artifacts);
  const { valid, invalid } = check(files);
  const store = openStore(o.results, warn);
  const planned = plan(valid, store);
  const charts = chartWriter(o.results);
  if (planned.store.length) charts.warm(); // a new document moves charts: the threads load vega meanwhile
  const { stored, refused } = storeAll(planned.store, store);
  const skipped = [...rejected, ...invalid, ...planned.same];
  const conflicts = [...planned.refused, ...refused];
  for (const s of [...skipped, ...conflicts]) warn(`${s.file}: ${s.reason}`);
  const release = store.nameRelease(o.run ?? '');
  // on GitHub the index names the repository whose releases archive its documents (a fork's are its own)
  const indexChanged = store.saveIndex(o.repository ?? store.repository());
  const { readmeChanged, pageChanged, drawn } = await writePages(o, readmeText, store, charts);
  /** @type {Map<string, number>} */
  const perPlatform = new Map();
  for (const e of store.entries()) perPlatform.set(e.platform, (perPlatform.get(e.platform) ?? 0) + 1);
  io.log(
    `aggregate: ${files.length + rejected.length} file(s) read, ${valid.length} valid, ${stored.length} stored, ${skipped.length} skipped, ${conflicts.length} refused`,
  );
  for (const f of stored) io.log(`  stored ${path.join(o.results, f)}`);
  if (release) io.log(`  archived in release ${release} by npm run ci:archive (aggregate/assets.js)`);
  io.log(
    `  results/ holds ${store.entries().length} document(s): ${[...perPlatform].map(([p, n]) => `${p} ${n}`).join(', ') || 'none'}`,
  );
  io.log(
    `  ${o.readme} ${readmeChanged ? 'updated' : 'unchanged'}; index ${indexChanged ? 'updated' : 'unchanged'}; ${path.join(o.results, 'README.md')} ${pageChanged ? 'updated' : 'unchanged'}`,
  );
  io.log(`  charts: ${drawn.written.length} drawn, ${drawn.unchanged} unchanged, ${drawn.removed.length} removed`);
  if (conflicts.length) {
    warn(
      `aggregate: ${conflicts.length} valid document(s) refused: each conflicts with another valid document (same run id or file, different content); the files are named above`,
    );
    return 1;
  }
  if (valid.length === 0) {
    warn(`aggregate: no valid result document under ${o.artifacts}`);
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
    throw new UsageError(
      `--artifacts must name a directory (got ${values.artifacts === undefined ? 'nothing' : `'${values.artifacts}'`})`,
    );
  }
  return aggregate(
    {
      .../** @type {any} */ (values),
      repository: process.env.GITHUB_REPOSITORY || null,
      run: process.env.GITHUB_RUN_ID ? `${process.env.GITHUB_RUN_ID}.${process.env.GITHUB_RUN_ATTEMPT ?? 1}` : '',
    },
    { log: (s) => console.log(s), warn: (s) => console.error(s) },
  );
}

command('aggregate', import.meta.url, main);
