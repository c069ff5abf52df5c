// The README block and results/README.md, computed from results/: no figure, chart or comparison in
// them is written by hand. Per platform and machine class (never mixed in one table or chart),
// the sections of sections/index.js in order; then the README block's sections of the whole block.
// The README is bounded (lines and bytes), so it has short forms (ctx.page === 'readme') and no
// blank line it does not need (tidy); results/README.md is the long form. A section asks for a
// chart with ctx.chart: the chart writer (charts/writer.js) gives back its path at once, for the
// image link, and writes the chart once both pages are rendered. Every string that comes from a
// document goes through inert() (lib/markdown.js): it renders as itself, and can open no link,
// image, HTML or heading, break no table and mention no one; a chart's spec through chartText()
// (one line, bounded), a folder's name through fileSlug(); numbers through lib/format.js.
import path from 'node:path';
import { chartText, fileSlug, fragment, inert } from '../lib/markdown.js';
import { chartFile } from './charts/writer.js';
import { summary } from './sections/machines.js';
import { PAGE_SECTIONS, README_BLOCK_SECTIONS, README_SECTIONS } from './sections/index.js';
import { renderAnswers } from './answers/index.js';
import { when } from './sections/common.js';
import { latestAttempts } from './store.js';

/** The alt text of an image: inert, and short enough to read aloud. */
const ALT_MAX = 400;

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
 * @returns {string[]}
 */
export function navigable(lines) {
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
 * @returns {string[]}
 */
export function tidy(lines) {
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

/**
 * Each document parsed once per aggregate.
 * @param {{ load: (e: import('./store.js').Entry) => any }} store
 */
function loader(store) {
  /** @type {Map<string, any>} */
  const docs = new Map();
  return (/** @type {import('./store.js').Entry} */ e) => {
    if (!docs.has(e.file)) docs.set(e.file, store.load(e));
    return docs.get(e.file);
  };
}

/**
 * The machine classes of a store, platform by platform, in the order the pages show them.
 * @param {import('./store.js').Entry[]} entries
 */
export function classesOf(entries) {
  return [...new Set(entries.map((e) => e.platform))].sort().flatMap((platform) =>
    [...new Set(entries.filter((e) => e.platform === platform).map((e) => e.machine))].sort().map((machine) => ({
      platform,
      machine,
      entries: entries.filter((e) => e.platform === platform && e.machine === machine),
    })),
  );
}

/** The entries a section is given: of the kinds its row names. */
const ofKinds = (/** @type {{ kinds?: string[] }} */ s, /** @type {import('./store.js').Entry[]} */ entries) =>
  s.kinds ? entries.filter((e) => s.kinds?.includes(e.kind)) : entries;

/**
 * The per-machine sections of one page: each section's lines as an element of its own (blank
 * lines between them are the page's to choose).
 * @param {ReturnType<typeof classesOf>} classes
 * @param {import('./sections/index.js').Section[]} sections
 * @param {RenderOptions & { load: (e: import('./store.js').Entry) => any, page: 'readme' | 'results', intro: (c: ReturnType<typeof classesOf>[number]) => string[] }} o
 * @returns {string[][]}
 */
function machines(classes, sections, o) {
  const out = [];
  for (const [i, { platform, machine, entries: mine }] of classes.entries()) {
    if (classes[i - 1]?.platform !== platform) out.push([`### ${inert(platform)}`]);
    // the platform names the folder; the machine class without it (it starts with it) the file
    const folder = fileSlug(platform);
    const file = (/** @type {string} */ name) =>
      `${folder}/${chartFile(machine.startsWith(platform) ? machine.slice(platform.length) : machine, name)}`;
    out.push([`#### ${inert(machine)}`, ...o.intro(classes[i])]);
    for (const s of sections) {
      /** @type {import('./sections/index.js').SectionContext} */
      const ctx = {
        platform,
        machine,
        entries: ofKinds(s, mine),
        load: o.load,
        resultsLink: o.resultsLink,
        page: o.page,
        brief: o.page === 'readme' && i > 0,
        nights: o.nights,
        chart: (name, spec, alt) =>
          `![${inert(alt, ALT_MAX)}](${o.resultsLink}/${o.charts.add(file(name), chartText(spec))})`,
      };
      const lines = s.module.render(ctx);
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
 * @param {RenderOptions} o
 * @param {string} newest the newest run's finishedAt
 */
const updated = (o, newest) =>
  o.nights.now === undefined
    ? `${when(newest)} (the newest run's finish time)`
    : `${new Date(o.nights.now).toISOString().slice(0, 10)} (the aggregate's clock, UTC; the newest run finished ${when(newest)})`;

/**
 * The README block.
 * @param {{ entries: () => import('./store.js').Entry[], load: (e: import('./store.js').Entry) => any }} store
 * @param {RenderOptions} o
 * @returns {string}
 */
export function renderBlock(store, o) {
  const entries = latestAttempts(store.entries());
  if (!entries.length) return NO_RESULTS;
  const newest = entries.reduce((a, b) => (b.finishedAt > a.finishedAt ? b : a));
  const load = loader(store);
  const classes = classesOf(entries);
  const intro = (/** @type {ReturnType<typeof classesOf>[number]} */ c) => [
    summary({
      machine: c.machine,
      entries: c.entries.filter((e) => e.kind === 'result'),
      load,
      resultsLink: o.resultsLink,
      nights: o.nights,
    }),
  ];
  // the answers first (answers/index.js), then how to read them, then the charts
  const found = renderAnswers({
    classes,
    load,
    resultsLink: o.resultsLink,
    page: 'readme',
    nights: o.nights,
    chart: () => '',
  });
  return tidy([
    ...(found.length ? [...found, ''] : []),
    `_Last updated ${updated(o, newest.finishedAt)} from ${entries.length} result document(s) (listed in [\`${o.resultsLink}/index.json\`](${o.resultsLink}/index.json); each is a release asset). Every comparison in full, the absolute figures and how to read them: [${o.resultsLink}/README.md](${o.resultsLink}/README.md)._`,
    '',
    HOW_TO_READ_SHORT,
    // a section after another: a blank line between them (tidy drops it before a heading)
    ...[
      ...machines(classes, README_SECTIONS, { ...o, load, page: 'readme', intro }),
      // the sections of the whole block, once, after the platforms
      ...README_BLOCK_SECTIONS.map((s) =>
        s.module.render({
          classes: classes.map((c) => ({ ...c, entries: ofKinds(s, c.entries) })),
          load,
          resultsLink: o.resultsLink,
          page: 'readme',
          nights: o.nights,
          chart: (name, spec, alt) =>
            `![${inert(alt, ALT_MAX)}](${o.resultsLink}/${o.charts.add(`all/${name}.svg`, chartText(spec))})`,
        }),
      ).filter((lines) => lines.length),
    ].flatMap((lines) => ['', ...lines]),
  ]).join('\n');
}

/**
 * results/README.md, the long form: GitHub shows it when someone opens results/.
 * @param {{ entries: () => import('./store.js').Entry[], load: (e: import('./store.js').Entry) => any }} store
 * @param {RenderOptions & { readmeLink: string }} o resultsLink is '.', readmeLink the link back to the README
 * @returns {string | null} null for an empty store: no page
 */
export function renderResultsPage(store, o) {
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
      ...machines(classesOf(entries), PAGE_SECTIONS, { ...o, load: loader(store), page: 'results', intro }).flatMap(
        (lines) => ['', ...lines],
      ),
      '',
    ]
      .join('\n')
      .split('\n'),
  ).join('\n');
}
