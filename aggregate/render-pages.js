// The README block and results/README.md, computed from results/ (docs/pipeline.md#what-the-readme-shows):
// per platform and machine class the sections of sections/index.js in order, then the README's
// claims table of the whole block; the README bounded (short forms when ctx.page === 'readme', no blank
// line it does not need: tidyBlanks), results/README.md the long form. Every string that comes from
// a document goes through inert() (lib/markdown.js): it renders as itself, and can open no link,
// image, HTML or heading, break no table and mention no one; a chart's spec through chartText()
// (one line, bounded), a folder's name through fileSlug(); numbers through lib/format.js.
// renderPages renders both to memory, leaving out a document that makes a renderer throw;
// writePages writes them once the documents are stored.
import fs from 'node:fs';
import path from 'node:path';
import { CommandError, firstLine } from '../lib/command.js';
import { chartText, fileSlug, fragment, inert } from '../lib/markdown.js';
import { writeFileAtomic } from '../lib/files.js';
import { replaceBlock } from '../lib/markers.js';
import { chartFile, chartWriter } from './charts/writer.js';
import { nightStore } from './nights.js';
import { summary } from './sections/machines.js';
import { PAGE_SECTIONS, README_SECTIONS } from './sections/index.js';
import { renderBlockClaims } from './sections/claims.js';
import { renderAnswers } from './answers/index.js';
import { when } from './sections/common.js';
import { isShootoutEntry, latestAttempts } from './store.js';
import { timeProblem } from './trust.js';
/** @import { Entry } from './store.js' */
/** @typedef {{ entries: () => Entry[], load: (e: Entry) => any }} Shown what the pages are rendered from */

/** results/README.md: how to read it, in full. */
const HOW_TO_READ =
  '**How to read these numbers.** A chart or table of changes compares two setups measured side by side in one run on one machine (paired: the same blocks of the same rounds): the dot is the change in ops/s (+ is faster, also for operations shown in ms), the bar its 95% interval, the line at 0 no change; an interval that holds 0 (grey, "≈") is no evidence of a difference. ' +
  "Every run also measures Production twice (the A/A twin): how far apart they land is the run's own noise. " +
  "In the nightly history each night runs on another VM, so nights move more than one run's ± says; the band shows how much. " +
  'Quick runs are smoke tests and are not compared. Node versions are compared only in the shootout, where every Node runs on one machine in one interleaved run; never across matrix cells, which are different machines ([methodology](docs/methodology.md)).';
/** The long form also has absolute figures. */
const FIGURES =
  ' An absolute figure (ops/s; setup and VACUUM in ms) is the median of several rounds; its ± is the wider side of a 95% interval: where a repeat run on the same machine is expected to land. "modes": the rounds fell into separated groups, both shown with their shares. ' +
  'Which figure is which: the figure shown is typical under load, each round’s median slice of a few milliseconds; each document also holds the fastest typical figure, each round’s 90th-percentile slice, which the machine’s interference (only ever adding time) moves least; "Noise" in the machines table is the share of slices that ran in the machine’s slow state.';
/** The README: how to read its cells (compactChange, sections/common.js), in short; the rest on results/README.md. */
const HOW_TO_READ_SHORT =
  '**How to read.** A change compares two setups measured side by side in one run on one machine (paired: slices of a few milliseconds of each in turn, so the machine’s switching between fast and slow states falls on both). ' +
  '"+14% ±3.4" ("+14 ±3.4" in a table of % ops/s): 14% more ops/s (+ is faster, also for operations shown in ms), its 95% interval within 3.4 points of that. ' +
  '"≈ ±22": too noisy to tell, no evidence of a difference; the interval lies within ±22% of no change. ' +
  "The charts draw each interval; the A/A twin (Production measured twice) shows a run's own noise. " +
  "Every night runs on another VM, so nights vary more than one run's ± says: the history's band shows how much. " +
  'Node versions are compared only in the shootout (one machine, one interleaved run), never across matrix cells ([methodology](docs/methodology.md)).';

const heading = (/** @type {string} */ l) => /^#{1,6} /.test(l);
const row = (/** @type {string} */ l) => l.startsWith('|');
/** A table longer than this many rows is collapsed on results/README.md: the page scrolls past it. */
const LONG_TABLE = 12;

/**
 * results/README.md made navigable: a table of contents (each machine class, and its sections'
 * headings outside a collapsed part, as GitHub links them: a repeated heading's fragment gets -1,
 * -2…) after the lines before the first platform, and every table longer than LONG_TABLE rows not
 * already inside <details> collapsed under a line saying its size (its caption stays above it).
 * @param {string[]} lines the page, one line an element
 */
function navigable(lines) {
  /** @type {string[]} */
  const out = [];
  /** @type {Map<string, number>} */
  const seen = new Map();
  /** @type {string[]} */
  const toc = [];
  let open = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    open += (l.match(/<details>/g) ?? []).length - (l.match(/<\/details>/g) ?? []).length;
    const h = /^(#{1,6}) (.*)$/.exec(l);
    if (h) {
      const base = fragment(h[2]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      const link = `[${
        h[1] === '####'
          ? h[2]
          : h[2]
              .split(/[:(]/)[0]
              .replace(/ without a key$/, '')
              .trim()
      }](${n ? `${base}-${n}` : base})`;
      if (h[1] === '####') toc.push(`- ${link}`);
      else if (h[1] === '#####' && !open && toc.length)
        toc[toc.length - 1] += `${toc.at(-1)?.includes(': ') ? ' · ' : ': '}${link}`;
    }
    if (row(l) && !row(lines[i - 1] ?? '') && !open) {
      let end = i;
      while (row(lines[end + 1] ?? '')) end++;
      if (end - i - 1 > LONG_TABLE) {
        out.push(
          `<details><summary>Show the table (${end - i - 1} rows)</summary>`,
          '',
          ...lines.slice(i, end + 1),
          '',
          '</details>',
        );
        i = end;
        continue;
      }
    }
    out.push(l);
  }
  const first = out.findIndex((l) => l.startsWith('### '));
  return first < 0
    ? out
    : [...out.slice(0, first), '**Contents**, a machine class each:', '', ...toc, '', ...out.slice(first)];
}

/**
 * The README's blank lines: none after a heading and none before one (an ATX heading interrupts a
 * paragraph and ends a table in GFM), one after a table when anything but a heading follows (a
 * line under a table would be one of its rows), never two in a row, none at either end. Blank
 * lines a section puts between paragraphs stay.
 * @param {string[]} lines Markdown, an element may hold several lines
 */
export function tidyBlanks(lines) {
  /** @type {string[]} */
  const out = [];
  for (const l of lines.join('\n').split('\n')) {
    const prev = out.at(-1);
    if (l.trim() === '') {
      if (prev !== undefined && prev !== '' && !heading(prev)) out.push('');
      continue;
    }
    if (heading(l) && prev === '') out.pop();
    else if (prev !== undefined && row(prev) && !row(l) && !heading(l)) out.push('');
    out.push(l);
  }
  while (out.at(-1) === '') out.pop();
  return out;
}

/**
 * @typedef {object} RenderOptions
 * @property {string} resultsLink the relative link from the page to results/
 * @property {{ add: (file: string, spec: any) => string }} charts the chart writer (charts/writer.js)
 * @property {import('./nights.js').Nights} nights (nights.js): its `now`, the job's clock, says "Last updated"
 */

/** The machine classes of a store, platform by platform, in the order the pages show them. */
export function classesOf(/** @type {Entry[]} */ entries) {
  return [...new Set(entries.map((e) => e.platform))].sort().flatMap((platform) =>
    [...new Set(entries.filter((e) => e.platform === platform).map((e) => e.machine))].sort().map((machine) => ({
      platform,
      machine,
      entries: entries.filter((e) => e.platform === platform && e.machine === machine),
    })),
  );
}

/** The entries a section is given: the shootouts' when it says so, else the runs' of one side. */
const given = (/** @type {{ shootouts?: boolean }} */ s, /** @type {Entry[]} */ entries) =>
  entries.filter((e) => isShootoutEntry(e) === Boolean(s.shootouts));

/**
 * The per-machine sections of one page: each section's lines as an element of its own (blank
 * lines between them are the page's to choose).
 */
function machines(
  /** @type {ReturnType<typeof classesOf>} */ classes,
  /** @type {import('./sections/index.js').Section[]} */ sections,
  /** @type {RenderOptions & { load: (e: Entry) => any, page: 'readme' | 'results', intro: (c: ReturnType<typeof classesOf>[number], i: number) => string[] }} */ o,
) {
  const out = [];
  for (const [i, { platform, machine, entries: mine }] of classes.entries()) {
    if (classes[i - 1]?.platform !== platform) out.push([`### ${inert(platform)}`]);
    // the platform names the folder; the machine class without it (it starts with it) the file
    const folder = fileSlug(platform);
    const file = (/** @type {string} */ name) =>
      `${folder}/${chartFile(machine.startsWith(platform) ? machine.slice(platform.length) : machine, name)}`;
    out.push([`#### ${inert(machine)}`, ...o.intro(classes[i], i)]);
    for (const s of sections) {
      /** @type {import('./sections/index.js').SectionContext} */
      const ctx = {
        platform,
        machine,
        entries: given(s, mine),
        load: o.load,
        resultsLink: o.resultsLink,
        page: o.page,
        brief: o.page === 'readme' && i > 0,
        nights: o.nights,
        // a Markdown image: its alt text inert, and short enough (400) to read aloud
        chart: (name, spec, alt) =>
          `![${inert(alt, 400)}](${o.resultsLink}/${o.charts.add(file(name), chartText(spec))})`,
      };
      const lines = s.render(ctx);
      if (lines.length) out.push(lines);
    }
  }
  return out;
}

/**
 * The README block while results/ holds no document (a fork before its first night; the committed
 * README's block says the same): what fills it, and how to see one on this machine
 * (bench/tools/matrix.js: each Node of the matrix on this platform, aggregated into out/matrix/).
 */
export const NO_RESULTS =
  "_No results yet: the nightly benchmark workflow's `aggregate` job (`.github/workflows/benchmark.yml`) fills this block from the result documents in `results/`. To see it on your machine, `npm run matrix` benchmarks each Node of the nightly matrix here and writes the block into `out/matrix/README.md`._";

/**
 * "Last updated": the day of the job's clock (nights.now), never a document's date (a document can
 * claim any: aggregate/trust.js), with the newest run's finish beside it; without a clock (a page
 * rendered alone), the newest run's finish.
 */
const updated = (/** @type {RenderOptions} */ o, /** @type {string} */ newest) =>
  o.nights.now === undefined
    ? `${when(newest)} (the newest run's finish time)`
    : `${new Date(o.nights.now).toISOString().slice(0, 10)} (the aggregate's clock, UTC; the newest run finished ${when(newest)})`;

export function renderReadmeBlock(/** @type {Shown} */ store, /** @type {RenderOptions} */ o) {
  const entries = latestAttempts(store.entries());
  if (!entries.length) return NO_RESULTS;
  const newest = entries.reduce((a, b) => (b.finishedAt > a.finishedAt ? b : a));
  const load = store.load;
  const classes = classesOf(entries);
  // each machine class with its runs of one side: the line under its heading, and the claims
  const runs = classes.map((c) => ({ ...c, entries: given({}, c.entries), load, ...o }));
  const intro = (/** @type {unknown} */ _, /** @type {number} */ i) => [summary(runs[i])];
  // the answers first (answers/index.js), then how to read them, then the charts
  const found = renderAnswers({ classes, load, nights: o.nights });
  const sections = machines(classes, README_SECTIONS, { ...o, load, page: 'readme', intro });
  // the claims: one table for the whole block, once, after the platforms
  const claims = renderBlockClaims({ machines: runs, resultsLink: o.resultsLink });
  return tidyBlanks([
    ...(found.length ? [...found, ''] : []),
    `_Last updated ${updated(o, newest.finishedAt)} from ${entries.length} result document(s) (listed in [\`${o.resultsLink}/index.json\`](${o.resultsLink}/index.json); each is a release asset). Every comparison in full, the absolute figures and how to read them: [${o.resultsLink}/README.md](${o.resultsLink}/README.md)._`,
    '',
    HOW_TO_READ_SHORT,
    // a section after another: a blank line between them (tidyBlanks drops it before a heading)
    ...[...sections, ...(claims.length ? [claims] : [])].flatMap((lines) => ['', ...lines]),
  ]).join('\n');
}

/**
 * results/README.md, the long form: GitHub shows it when someone opens results/; null for an empty
 * store. `o.resultsLink` is '.', `o.readmeLink` the link back to the README.
 */
export function renderResultsPage(/** @type {Shown} */ store, /** @type {RenderOptions & { readmeLink: string }} */ o) {
  const entries = latestAttempts(store.entries());
  if (!entries.length) return null;
  const intro = (/** @type {ReturnType<typeof classesOf>[number]} */ c) => [
    `${c.entries.length} run(s) of this machine class in this folder.`,
  ];
  return navigable(
    [
      '# Results',
      '',
      `Generated by \`npm run aggregate\` from the result documents [\`index.json\`](index.json) lists; nothing here is written by hand. Each night's documents are one asset of that night's \`results-<day>-<hash>\` release (linked from the tables; git holds the index, not the documents: \`npm run ci:restore -- --all\` fetches them into this folder). The answers, with charts, are in the [README](${o.readmeLink}#results); this page has the long form: every comparison as a table, every night outside its band, and the absolute figures per configuration.`,
      '',
      HOW_TO_READ.replace(
        '([methodology](docs/methodology.md))',
        `([methodology](${path.posix.join(path.posix.dirname(o.readmeLink), 'docs/methodology.md')}))`,
      ) + FIGURES,
      ...machines(classesOf(entries), PAGE_SECTIONS, { ...o, load: store.load, page: 'results', intro }).flatMap(
        (lines) => ['', ...lines],
      ),
      '',
    ]
      .join('\n')
      .split('\n'),
  ).join('\n');
}

/**
 * Render the README (its block replaced) and results/README.md to memory, from the entries given.
 * A section asks for its charts as it renders (a chart writer of its own per render: charts/writer.js),
 * drawn and written only once both pages rendered, so a render that fails leaves no chart behind.
 */
function renderBoth(
  /** @type {{ results: string, readme: string }} */ o,
  /** @type {string} */ readmeText,
  /** @type {Shown} */ shown,
  /** @type {ReturnType<typeof nightStore>} */ nights,
) {
  const rel = (/** @type {string} */ from, /** @type {string} */ to) =>
    path.relative(from, to).split(path.sep).join('/') || '.';
  const charts = chartWriter(o.results);
  // both pages read the newest documents: each parsed once (the nights read every night of the
  // history window on a cold run, through the store's load: never kept)
  const docs = /** @type {Map<string, any>} */ (new Map());
  const load = shown.load;
  shown = {
    entries: shown.entries,
    load: (e) => (docs.has(e.file) ? docs.get(e.file) : docs.set(e.file, load(e)).get(e.file)),
  };
  const resultsLink = rel(path.dirname(path.resolve(o.readme)), path.resolve(o.results));
  const readme = replaceBlock(readmeText, renderReadmeBlock(shown, { resultsLink, charts, nights }));
  const readmeLink = rel(path.resolve(o.results), path.resolve(o.readme));
  const page = renderResultsPage(shown, { resultsLink: '.', readmeLink, charts, nights });
  return { readme, page, nights, charts };
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
 * @param {(entries: Entry[], load: (e: Entry) => any) => ReturnType<typeof renderBoth>} render
 * @param {Entry[]} entries
 * @param {(e: Entry) => any} load
 * @returns {{ pages: ReturnType<typeof renderBoth>, left: { file: string, reason: string }[] }}
 */
function renderLeavingOut(render, entries, load) {
  const left = /** @type {{ file: string, reason: string }[]} */ ([]);
  const out = /** @type {Set<string>} */ (new Set());
  const attempt = (/** @type {Set<string>} */ without) => {
    const read = /** @type {string[]} */ ([]);
    try {
      return {
        read,
        pages: render(
          entries.filter((e) => !without.has(e.file)),
          (e) => read.push(e.file) && load(e),
        ),
      };
    } catch (err) {
      if (err instanceof CommandError) throw err;
      return { read, err, pages: null };
    }
  };
  let r = attempt(out);
  while (!r.pages) {
    const suspects = [...new Set(r.read)].reverse().filter((f) => !out.has(f));
    if (!suspects.length || left.length >= MAX_LEFT_OUT) throw r.err;
    const reason = `${/** @type {any} */ (r.err)?.name ?? 'Error'}: ${firstLine(r.err).slice(0, 200)}`;
    let [culprit, next] = [suspects[0], /** @type {ReturnType<typeof attempt> | null} */ (null)];
    for (const f of suspects.slice(0, PROBES))
      if ((next = attempt(new Set([...out, f]))).pages) {
        culprit = f;
        break;
      }
    out.add(culprit);
    left.push({ file: culprit, reason });
    // none alone: several are at fault; the last read is one, the next render finds the others
    r = next?.pages ? next : attempt(out);
  }
  return { pages: r.pages, left };
}

/**
 * The render step: both pages to memory, from every entry of the store with the staged documents
 * in it. A stored document dated outside the clock (trust.js), or one that makes a renderer throw,
 * is left out of the pages and named; a staged one that makes a renderer throw is taken back (not
 * stored), and the pages are rendered again without it, its release named again (assets.js
 * releaseOf hashes its documents).
 * @param {{ results: string, readme: string, run?: string }} o
 * @param {string} readmeText
 * @param {ReturnType<typeof import('./store.js').openStore>} store
 * @param {ReturnType<typeof import('./admit.js').admit>} admitted its staged and skipped lose what is taken back
 * @param {number} now the aggregate's clock
 * @param {(line: string) => void} warn
 */
export function renderPages(o, readmeText, store, admitted, now, warn) {
  const leftOut = store.entries().flatMap((e) => {
    const reason = store.staged(e.file) ? null : timeProblem({ run: { finishedAt: e.finishedAt } }, now);
    return reason ? [{ file: e.file, reason }] : [];
  });
  for (const l of leftOut) warn(`${path.join(o.results, l.file)}: ${l.reason}; left out of the pages`);
  let release = store.nameRelease(o.run ?? '');
  const render = (/** @type {Entry[]} */ entries, /** @type {any} */ load) =>
    renderBoth(o, readmeText, { entries: () => entries, load }, nightStore(o.results, load, now));
  const shown = () => store.entries().filter((e) => !leftOut.some((l) => l.file === e.file));
  let { pages, left } = renderLeavingOut(render, shown(), store.load);
  let takenBack = 0;
  for (const l of left) {
    const from = admitted.staged.get(l.file);
    if (from !== undefined) {
      store.unstage(l.file);
      admitted.staged.delete(l.file);
      admitted.skipped.push({ file: from, reason: `could not be rendered (${l.reason}); not stored` });
      warn(`${from}: could not be rendered (${l.reason}); not stored`);
      takenBack++;
    } else {
      leftOut.push(l);
      warn(
        `${path.join(o.results, l.file)}: stored document could not be rendered (${l.reason}); left out of the pages`,
      );
    }
  }
  if (takenBack) {
    for (const e of store.entries()) if (release && e.release === release) delete e.release;
    release = store.nameRelease(o.run ?? '');
    ({ pages } = renderLeavingOut(render, shown(), store.load));
  }
  return { pages, release, leftOut: leftOut.length, takenBack };
}

/**
 * Write the pages that changed, and the nights they read (nights.js), each file whole (lib/files.js).
 * @param {{ results: string, readme: string }} o
 * @param {ReturnType<typeof renderBoth>} pages
 * @param {string} readmeText the README as it was read
 * @returns {{ page: string, pageChanged: boolean, readmeChanged: boolean }}
 */
export function writePages(o, pages, readmeText) {
  pages.nights.save();
  const page = path.join(o.results, 'README.md');
  const pageChanged = pages.page !== null && (!fs.existsSync(page) || fs.readFileSync(page, 'utf8') !== pages.page);
  if (pageChanged) writeFileAtomic(page, /** @type {string} */ (pages.page));
  const readmeChanged = pages.readme !== readmeText;
  if (readmeChanged) writeFileAtomic(o.readme, pages.readme);
  return { page, pageChanged, readmeChanged };
}
