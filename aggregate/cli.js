#!/usr/bin/env node
// npm run aggregate -- --artifacts <dir>: stores the valid result documents under <dir> in results/
// (append-only) and regenerates README.md's block, results/README.md and the charts from all of
// results/. `aggregate()` is the flow, a step a line; each step, what is trusted and the exit
// statuses: docs/pipeline.md#aggregating-results.
import fs from 'node:fs';
import path from 'node:path';
import { removeStaleTemps, removeStaleTempsOf } from '../lib/files.js';
import { UsageError, command, parseStrict, valueFlag } from '../lib/command.js';
import { BIDI, CONTROL } from '../lib/markdown.js';
import { replaceBlock } from '../lib/markers.js';
import { admit, check } from './admit.js';
import { discover } from './read.js';
import { renderPages, writePages } from './render-pages.js';
import { chartWriter } from './charts/writer.js';
import { openStore } from './store.js';

const OPTIONS = /** @type {const} */ ({
  artifacts: valueFlag(
    'DIR',
    "the result and shootout documents to store: download-artifact's layout, or a folder of npm run bench output",
    { shown: 'none (required)' },
  ),
  results: valueFlag('DIR', 'the stored documents, index.json, pages and charts', { default: 'results' }),
  readme: valueFlag('FILE', 'the README whose block between the markers is rewritten', { default: 'README.md' }),
  now: valueFlag(
    'TIME',
    "the job's clock, an ISO time in UTC such as 2026-11-20T06:00:00Z: it says Last updated, where the history ends and which documents are from the future (aggregate/trust.js); for replaying a synthetic history",
    { shown: "this machine's clock" },
  ),
});

/** An ISO time in UTC, as --now takes it. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;

const HELP = {
  usage: 'npm run aggregate -- --artifacts DIR [flags]',
  summary:
    'Checks every document under --artifacts, stores the valid ones in --results (append-only), and regenerates the README block, results/README.md and the charts from all of them.',
  options: OPTIONS,
};

const UNPRINTABLE = new RegExp(`${CONTROL.source}|${BIDI.source}`, 'gu');
/** A line for the terminal: control and bidirectional characters written as \u{…}, so one line stays one line. */
const printable = (/** @type {string} */ s) =>
  s.replace(UNPRINTABLE, (ch) => `\\u{${/** @type {number} */ (ch.codePointAt(0)).toString(16)}}`);

/**
 * @param {{ artifacts: string, results: string, readme: string, repository?: string | null, run?: string, now?: number, draw?: boolean }} o
 *   repository: where the documents are archived (GITHUB_REPOSITORY on GitHub), by default the
 *   one the index names; run: the GitHub run and attempt (GITHUB_RUN_ID.GITHUB_RUN_ATTEMPT) that
 *   names the release of the documents it stores (assets.js releaseOf); now: the job's clock, ms
 *   since the epoch (default Date.now()): it alone says "Last updated", where the history ends and
 *   which documents are from the future (trust.js); draw: false leaves every chart out (none drawn,
 *   the old ones removed), for a synthetic year's batches before its last (bench/meta/aggregate-year.js)
 * @param {{ log: (s: string) => void, warn: (s: string) => void }} io
 * @returns {Promise<number>} exit code
 */
export async function aggregate(o, io) {
  const now = o.now ?? Date.now();
  const warn = (/** @type {string} */ s) => io.warn(printable(s));
  const readmeText = fs.readFileSync(o.readme, 'utf8');
  replaceBlock(readmeText, ''); // refuse bad markers before anything is written
  const batch = discover(o.artifacts); // the caps, by stat before a byte is read: a batch over them is refused whole
  if (batch.over) return (warn(batch.over), 1);
  // an aggregate killed between writing a temp file and renaming it leaves the temp file behind
  for (const f of [...removeStaleTemps(o.results), ...removeStaleTempsOf(o.readme)])
    warn(`${f}: removed, left by an interrupted aggregate`);
  const store = openStore(o.results, warn);
  const admitted = admit(check(batch, now), store, warn); // staged: shown in the pages, written only once they rendered
  const shown = renderPages(o, readmeText, store, admitted, now, warn);
  const drawn = await (o.draw === false ? chartWriter(o.results) : shown.pages.charts).flush(); // all or none
  store.commit();
  // on GitHub the index names the repository whose releases archive its documents (a fork's are its own)
  const index = store.saveIndex(o.repository ?? store.repository());
  const pages = writePages(o, shown.pages, readmeText);
  return report(o, { admitted, shown, drawn, index, pages, entries: store.entries() }, io, warn);
}

/**
 * What was read, stored, skipped and refused, and the exit status (docs/pipeline.md): 1 for a
 * conflict or when nothing valid came in.
 * @param {{ artifacts: string, results: string, readme: string }} o
 * @param {{ admitted: ReturnType<typeof admit>, shown: ReturnType<typeof renderPages>, drawn: { written: string[], unchanged: number, removed: string[] }, index: boolean, pages: ReturnType<typeof writePages>, entries: import('./store.js').Entry[] }} r
 * @param {{ log: (s: string) => void }} io
 * @param {(s: string) => void} warn
 */
function report(o, { admitted: a, shown, drawn, index, pages, entries }, io, warn) {
  const valid = a.valid - shown.takenBack;
  const platforms = [...new Set(entries.map((e) => e.platform))];
  const changed = (/** @type {boolean} */ c) => (c ? 'updated' : 'unchanged');
  io.log(
    `aggregate: ${a.read} file(s) read, ${valid} valid, ${a.staged.size} stored, ${a.skipped.length} skipped, ${a.conflicts.length} refused`,
  );
  for (const f of a.staged.keys()) io.log(`  stored ${path.join(o.results, f)}`);
  if (shown.release) io.log(`  archived in release ${shown.release} by npm run ci:archive (aggregate/assets.js)`);
  io.log(
    `  results/ holds ${entries.length} document(s): ${platforms.map((p) => `${p} ${entries.filter((e) => e.platform === p).length}`).join(', ') || 'none'}`,
  );
  if (shown.leftOut) io.log(`  left out of the pages: ${shown.leftOut} stored document(s), each named on stderr`);
  io.log(
    `  ${o.readme} ${changed(pages.readmeChanged)}; index ${changed(index)}; ${pages.page} ${changed(pages.pageChanged)}`,
  );
  io.log(`  charts: ${drawn.written.length} drawn, ${drawn.unchanged} unchanged, ${drawn.removed.length} removed`);
  if (a.conflicts.length)
    warn(
      `aggregate: ${a.conflicts.length} valid document(s) refused: each conflicts with another valid document (same run id or file, different content); the files are named above`,
    );
  else if (valid === 0) warn(`aggregate: no valid result document under ${o.artifacts}`);
  return a.conflicts.length || valid === 0 ? 1 : 0;
}

function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, OPTIONS);
  if (!values.artifacts || !fs.existsSync(values.artifacts) || !fs.statSync(values.artifacts).isDirectory()) {
    throw new UsageError(
      `--artifacts must name a directory (got ${values.artifacts === undefined ? 'nothing' : `'${values.artifacts}'`})`,
    );
  }
  const now = values.now === undefined ? undefined : Date.parse(values.now);
  if (values.now !== undefined && (!ISO_UTC.test(values.now) || Number.isNaN(now)))
    throw new UsageError(
      `--now must be an ISO time in UTC such as 2026-11-20T06:00:00Z (got '${printable(values.now.slice(0, 40))}')`,
    );
  return aggregate(
    {
      .../** @type {any} */ (values),
      now,
      repository: process.env.GITHUB_REPOSITORY || null,
      run: process.env.GITHUB_RUN_ID ? `${process.env.GITHUB_RUN_ID}.${process.env.GITHUB_RUN_ATTEMPT ?? 1}` : '',
    },
    { log: (s) => console.log(s), warn: (s) => console.error(s) },
  );
}

command('aggregate', import.meta.url, main, HELP);
