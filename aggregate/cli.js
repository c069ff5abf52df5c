#!/usr/bin/env node
// npm run aggregate -- --artifacts <dir> [--results results] [--readme README.md]
//
// Reads every result document under <dir> (download-artifact's layout, or a folder of `npm run bench`
// output), adds the valid ones to results/ (append-only), and regenerates README.md between its
// markers from all of results/. docs/pipeline.md "Aggregating results" says each step, what is
// trusted (trust.js) and the exit statuses (0 stored, 1 conflict / nothing valid / a cap / could not
// be done, 2 bad flags). The order is the point: validate first (every file is checked before
// anything is written, and only valid ones decide what is stored: admit.js, so an invalid one never
// blocks a valid one), render second (to memory, the new documents in them), store last (once both
// pages rendered and their charts were drawn). A stored document that makes a renderer throw is
// named and left out of the pages, so the night goes on without it.
import fs from 'node:fs';
import path from 'node:path';
import { removeStaleTemps, removeStaleTempsOf, writeFileAtomic } from '../lib/files.js';
import { CommandError, UsageError, command, parseStrict, valueFlag } from '../lib/command.js';
import { BIDI, CONTROL } from '../lib/markdown.js';
import { replaceBlock } from '../lib/markers.js';
import { admit } from './admit.js';
import { discover, readResult } from './read.js';
import { renderBlock, renderResultsPage } from './render-pages.js';
import { CHARTS, chartWriter } from './charts/writer.js';
import { nightStore } from './nights.js';
import { digest, fileFor, kindOf, openStore, sha256, storedText } from './store.js';
import { artifactProblem, attemptProblem, timeProblem } from './trust.js';

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

export const HELP = {
  usage: 'npm run aggregate -- --artifacts DIR [flags]',
  summary:
    'Checks every document under --artifacts, stores the valid ones in --results (append-only), and regenerates the README block, results/README.md and the charts from all of them.',
  options: OPTIONS,
};

const UNPRINTABLE = new RegExp(`${CONTROL.source}|${BIDI.source}`, 'gu');
/** A line for the terminal: control and bidirectional characters written as \u{…}, so one line stays one line. */
export const printable = (/** @type {string} */ s) =>
  s.replace(UNPRINTABLE, (ch) => `\\u{${/** @type {number} */ (ch.codePointAt(0)).toString(16)}}`);

/**
 * Read and check every file (its schema, then what trust.js asks of its time, its attempt and the
 * artifact it came in); of a valid document, keep only what admitting it needs.
 * @param {string[]} files
 * @param {Map<string, string>} artifactOf a file's artifact folder, when it came in one (read.js discover)
 * @param {number} now the aggregate's clock
 */
function check(files, artifactOf, now) {
  const valid = /** @type {import('./admit.js').Checked[]} */ ([]);
  const invalid = /** @type {{ file: string, reason: string }[]} */ ([]);
  for (const file of files) {
    const r = readResult(file);
    const target = r.ok ? fileFor(r.doc) : null;
    const folder = artifactOf.get(file);
    const distrust = r.ok
      ? (timeProblem(r.doc, now) ??
        attemptProblem(r.doc) ??
        (folder ? artifactProblem(folder, r.doc, kindOf(r.doc)) : null))
      : null;
    if (!r.ok) invalid.push({ file, reason: r.reason });
    else if (distrust) invalid.push({ file, reason: distrust });
    else if (!target) invalid.push({ file, reason: '/run and /environment do not make a file name inside results/' });
    else valid.push({ file, id: r.doc.run.id, sha256: digest(r.doc), target });
  }
  return { valid, invalid };
}

/** The document a file holds, with the bytes it is stored as, if it is still the one that was checked. */
function reread(/** @type {import('./admit.js').Checked} */ d) {
  try {
    const doc = JSON.parse(fs.readFileSync(d.file, 'utf8'));
    const text = storedText(doc);
    return sha256(text) === d.sha256 ? { doc, text } : null;
  } catch {
    return null;
  }
}

/**
 * Stage what was admitted (store.js stage: shown, written only once the pages rendered); a file
 * that changed since it was checked, or that the store refuses, is refused.
 * @param {import('./admit.js').Checked[]} admitted
 * @param {ReturnType<typeof openStore>} store
 */
function stageAll(admitted, store) {
  /** @type {Map<string, string>} under results/ → the file it was read from */
  const staged = new Map();
  const refused = /** @type {{ file: string, reason: string }[]} */ ([]);
  for (const d of admitted) {
    const again = reread(d);
    /** @type {ReturnType<typeof store.stage>} */
    const added = again
      ? store.stage(again.doc, again.text)
      : { stored: false, reason: 'changed after it was checked; not stored' };
    if (added.stored) staged.set(added.file, d.file);
    else refused.push({ file: d.file, reason: added.reason });
  }
  return { staged, refused };
}

/** Documents kept parsed: the newest per Node major of every machine class, and a night's, fit. */
const RECENT = 64;

/**
 * A document loader that keeps the last RECENT documents it parsed (a cold run, which reads every
 * night of the history window, keeps no more than that).
 * @param {(e: import('./store.js').Entry) => any} load
 */
function recent(load) {
  const kept = /** @type {Map<string, any>} */ (new Map());
  return (/** @type {import('./store.js').Entry} */ e) => {
    if (kept.has(e.file)) return kept.get(e.file);
    const doc = load(e);
    kept.set(e.file, doc);
    if (kept.size > RECENT) kept.delete(/** @type {string} */ (kept.keys().next().value));
    return doc;
  };
}

/**
 * Render the README's block and results/README.md to memory, from the entries given. A section
 * asks for its charts as it renders; the requests are kept (`charts`), and given to the chart
 * writer only once both pages rendered, so a render that fails leaves no chart behind.
 * @param {{ results: string, readme: string }} o
 * @param {string} readmeText
 * @param {{ entries: () => import('./store.js').Entry[], load: (e: import('./store.js').Entry) => any }} shown
 * @param {ReturnType<typeof nightStore>} nights
 */
function renderPages(o, readmeText, shown, nights) {
  const rel = (/** @type {string} */ from, /** @type {string} */ to) =>
    path.relative(from, to).split(path.sep).join('/') || '.';
  const resultsLink = rel(path.dirname(path.resolve(o.readme)), path.resolve(o.results));
  const asked = /** @type {[string, any][]} */ ([]);
  const charts = {
    add: (/** @type {string} */ file, /** @type {any} */ spec) => {
      asked.push([file, spec]);
      return `${CHARTS}/${file}`;
    },
  };
  const next = replaceBlock(readmeText, renderBlock(shown, { resultsLink, charts, nights }));
  const page = renderResultsPage(shown, {
    resultsLink: '.',
    readmeLink: rel(path.resolve(o.results), path.resolve(o.readme)),
    charts,
    nights,
  });
  return { next, page, nights, charts: asked };
}

/** How many stored documents one aggregate leaves out before it gives up (something else is wrong). */
const MAX_LEFT_OUT = 8;
/** How many of the documents a failed render read are tried without, one at a time, to find the one at fault. */
const PROBES = 8;

/**
 * Render the pages; when a document makes a renderer throw, render them without it. The document
 * at fault is among those the failed render read: the one it read last is tried first (a renderer
 * fails on the document it just read, or one it read before in the same section); the first
 * whose absence lets both pages render is left out. A document archived only (store.js notHere)
 * is no fault of a document: that error stops the aggregate.
 * @param {(entries: import('./store.js').Entry[], load: (e: import('./store.js').Entry) => any) => ReturnType<typeof renderPages>} render
 * @param {import('./store.js').Entry[]} entries
 * @param {(e: import('./store.js').Entry) => any} load
 * @returns {{ pages: ReturnType<typeof renderPages>, left: { file: string, reason: string }[] }}
 */
function renderLeavingOut(render, entries, load) {
  const left = /** @type {{ file: string, reason: string }[]} */ ([]);
  const attempt = (/** @type {Set<string>} */ without) => {
    const read = /** @type {string[]} */ ([]);
    try {
      const pages = render(
        entries.filter((e) => !without.has(e.file)),
        (e) => {
          read.push(e.file);
          return load(e);
        },
      );
      return { ok: /** @type {const} */ (true), pages };
    } catch (err) {
      if (err instanceof CommandError) throw err;
      return { ok: /** @type {const} */ (false), err, read };
    }
  };
  const out = /** @type {Set<string>} */ (new Set());
  let r = attempt(out);
  while (!r.ok) {
    const { err, read } = r;
    const e = /** @type {any} */ (err);
    const reason = `${e?.name ?? 'Error'}: ${String(e?.message ?? e)
      .split('\n')[0]
      .slice(0, 200)}`;
    const suspects = [...new Set(read)].reverse().filter((f) => !out.has(f));
    if (!suspects.length || left.length >= MAX_LEFT_OUT) throw err;
    let culprit = suspects[0];
    for (const f of suspects.slice(0, PROBES)) {
      const trial = attempt(new Set([...out, f]));
      if (trial.ok) {
        culprit = f;
        r = trial;
        break;
      }
    }
    out.add(culprit);
    left.push({ file: culprit, reason });
    if (!r.ok) r = attempt(out); // none alone: several are at fault; the last read is one, the next render finds the others
  }
  return { pages: r.pages, left };
}

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
  // the caps, by stat before a byte is read: a batch over them is refused whole (trust.js)
  const { files, rejected, artifactOf, over } = discover(o.artifacts);
  if (over) {
    warn(over);
    return 1;
  }
  // an aggregate killed between writing a temp file and renaming it leaves the temp file behind
  for (const f of [...removeStaleTemps(o.results), ...removeStaleTempsOf(o.readme)])
    warn(`${f}: removed, left by an interrupted aggregate`);
  const { valid, invalid } = check(files, artifactOf, now);
  const store = openStore(o.results, warn);
  const admitted = admit(valid, store);
  const charts = chartWriter(o.results);
  // staged: shown in the pages rendered below, written only once they rendered
  const { staged, refused } = stageAll(admitted.store, store);
  const skipped = [...rejected, ...invalid, ...admitted.same];
  const conflicts = [...admitted.refused, ...refused];
  for (const s of [...skipped, ...conflicts]) warn(`${s.file}: ${s.reason}`);
  // a document stored before its date was checked (trust.js) is left out of the pages, named
  const untimely = /** @type {Set<string>} */ (new Set());
  for (const e of store.entries()) {
    const why = store.staged(e.file) ? null : timeProblem({ run: { finishedAt: e.finishedAt } }, now);
    if (why) {
      untimely.add(e.file);
      warn(`${path.join(o.results, e.file)}: ${why}; left out of the pages`);
    }
  }
  let release = store.nameRelease(o.run ?? '');
  // both pages and the nights read the newest documents: each is parsed once
  const parsed = recent(store.load);
  const render = (
    /** @type {import('./store.js').Entry[]} */ entries,
    /** @type {(e: import('./store.js').Entry) => any} */ load,
  ) => renderPages(o, readmeText, { entries: () => entries, load }, nightStore(o.results, load, now));
  const shownEntries = () => store.entries().filter((e) => !untimely.has(e.file));
  let { pages, left } = renderLeavingOut(render, shownEntries(), parsed);
  /** @type {{ file: string, reason: string }[]} stored documents left out */
  const leftOut = [];
  for (const l of left) {
    const from = staged.get(l.file);
    if (from !== undefined && store.staged(l.file)) {
      store.unstage(l.file);
      staged.delete(l.file);
      skipped.push({ file: from, reason: `could not be rendered (${l.reason}); not stored` });
      warn(`${from}: could not be rendered (${l.reason}); not stored`);
    } else {
      leftOut.push(l);
      warn(
        `${path.join(o.results, l.file)}: stored document could not be rendered (${l.reason}); left out of the pages`,
      );
    }
  }
  if (left.length > leftOut.length) {
    // a new document was taken back: the release named again (assets.js releaseOf hashes its
    // documents) and the pages without it
    for (const e of store.entries()) if (release && e.release === release) delete e.release;
    release = store.nameRelease(o.run ?? '');
    const without = new Set(leftOut.map((l) => l.file));
    ({ pages } = renderLeavingOut(
      render,
      shownEntries().filter((e) => !without.has(e.file)),
      parsed,
    ));
  }
  // the pages rendered: draw the charts (none is written if one cannot be drawn), then store, then write
  if (o.draw !== false) for (const [file, spec] of pages.charts) charts.add(file, spec);
  const drawn = await charts.flush();
  store.commit();
  // on GitHub the index names the repository whose releases archive its documents (a fork's are its own)
  const indexChanged = store.saveIndex(o.repository ?? store.repository());
  pages.nights.save();
  const pageFile = path.join(o.results, 'README.md');
  const pageChanged =
    pages.page !== null && (!fs.existsSync(pageFile) || fs.readFileSync(pageFile, 'utf8') !== pages.page);
  if (pageChanged) writeFileAtomic(pageFile, /** @type {string} */ (pages.page));
  const readmeChanged = pages.next !== readmeText;
  if (readmeChanged) writeFileAtomic(o.readme, pages.next);
  const stored = [...staged.keys()];
  const perPlatform = /** @type {Map<string, number>} */ (new Map());
  for (const e of store.entries()) perPlatform.set(e.platform, (perPlatform.get(e.platform) ?? 0) + 1);
  const validNow = valid.length - (left.length - leftOut.length);
  io.log(
    `aggregate: ${files.length + rejected.length} file(s) read, ${validNow} valid, ${stored.length} stored, ${skipped.length} skipped, ${conflicts.length} refused`,
  );
  for (const f of stored) io.log(`  stored ${path.join(o.results, f)}`);
  if (release) io.log(`  archived in release ${release} by npm run ci:archive (aggregate/assets.js)`);
  io.log(
    `  results/ holds ${store.entries().length} document(s): ${[...perPlatform].map(([p, n]) => `${p} ${n}`).join(', ') || 'none'}`,
  );
  if (leftOut.length + untimely.size)
    io.log(`  left out of the pages: ${leftOut.length + untimely.size} stored document(s), each named on stderr`);
  io.log(
    `  ${o.readme} ${readmeChanged ? 'updated' : 'unchanged'}; index ${indexChanged ? 'updated' : 'unchanged'}; ${pageFile} ${pageChanged ? 'updated' : 'unchanged'}`,
  );
  io.log(`  charts: ${drawn.written.length} drawn, ${drawn.unchanged} unchanged, ${drawn.removed.length} removed`);
  if (conflicts.length) {
    warn(
      `aggregate: ${conflicts.length} valid document(s) refused: each conflicts with another valid document (same run id or file, different content); the files are named above`,
    );
    return 1;
  }
  if (validNow === 0) {
    warn(`aggregate: no valid result document under ${o.artifacts}`);
    return 1;
  }
  return 0;
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
