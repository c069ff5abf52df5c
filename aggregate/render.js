// The README block and results/README.md, computed from results/: no figure, chart or comparison in
// them is written by hand. Per platform and machine class (never mixed in one table or chart),
// the sections of sections/index.js in order (a heading is followed by its content without a
// blank line: the block has a line budget); charts are queued with the chart writer and drawn
// once both pages are rendered. Every string that comes from a document goes through inert()
// (lib/markdown.js): it renders as itself, and can open no link, image, HTML or heading, break no
// table and mention no one.
import path from 'node:path';
import { inert } from '../lib/markdown.js';
import { slug } from './charts/writer.js';
import { PAGE_SECTIONS, README_SECTIONS } from './sections/index.js';
import { when } from './sections/common.js';

export { newestPerMajor, num } from './sections/common.js';
export { COLUMNS, findCase } from './sections/absolute.js';

/** The alt text of an image: inert, and short enough to read aloud. */
const ALT_MAX = 400;

const HOW_TO_READ = '**How to read these numbers.** A chart or table of changes compares two setups measured side by side in one run on one machine (paired: the same blocks of the same rounds): the dot is the change in ops/s (+ is faster, also for operations shown in ms), the bar its 95% interval, the line at 0 no change; an interval that holds 0 (grey, "≈") is no evidence of a difference. ' +
  'Every run also measures production twice (the A/A twin): how far apart they land is the run\'s own noise. ' +
  'In the nightly history each night runs on another VM, so nights move more than one run\'s ± says; the band shows how much. ' +
  'Quick runs are smoke tests and are not compared. Node versions are compared only in the shootout, where every Node runs on one machine in one interleaved run; never across matrix cells, which are different machines ([methodology](docs/methodology.md)).';
/** The long form also has absolute figures. */
const FIGURES = ' An absolute figure (ops/s; setup and VACUUM in ms) is the median of several rounds; its ± is the wider side of a 95% interval: where a repeat run on the same machine is expected to land. "modes": the rounds fell into separated groups, both shown with their shares.';

/**
 * @typedef {object} RenderOptions
 * @property {string} resultsLink the relative link from the page to results/
 * @property {{ add: (file: string, spec: any) => string }} charts the chart writer (charts/writer.js)
 * @property {{ of: (e: import('./store.js').Entry) => import('./nights.js').Night }} nights (nights.js)
 */

/**
 * The per-machine sections of one page.
 * @param {{ entries: () => import('./store.js').Entry[], load: (e: import('./store.js').Entry) => any }} store
 * @param {import('./sections/index.js').Section[]} sections
 * @param {RenderOptions & { page: 'readme' | 'results', intro: (machine: string, entries: import('./store.js').Entry[]) => string[] }} o
 */
function machines(store, sections, o) {
  const entries = store.entries();
  /** @type {Map<string, any>} */
  const docs = new Map();
  const load = (/** @type {import('./store.js').Entry} */ e) => {
    if (!docs.has(e.file)) docs.set(e.file, store.load(e));
    return docs.get(e.file);
  };
  const out = [];
  for (const platform of [...new Set(entries.map((e) => e.platform))].sort()) {
    out.push('', `### ${platform}`);
    for (const machine of [...new Set(entries.filter((e) => e.platform === platform).map((e) => e.machine))].sort()) {
      const mine = entries.filter((e) => e.platform === platform && e.machine === machine);
      // the platform names the folder; the machine class without it (it starts with it) the file
      const prefix = `${platform.toLowerCase().replace(/[^a-z0-9-]/g, '-')}/${slug(machine.startsWith(platform) ? machine.slice(platform.length) : machine)}`;
      out.push('', `#### ${inert(machine)}`, ...o.intro(machine, mine));
      for (const s of sections) {
        /** @type {import('./sections/index.js').SectionContext} */
        const ctx = {
          platform,
          machine,
          entries: s.kinds ? mine.filter((e) => s.kinds?.includes(/** @type {any} */ (e).kind ?? 'result')) : mine,
          load,
          resultsLink: o.resultsLink,
          page: o.page,
          nights: o.nights,
          chart: (name, spec, alt) => `![${inert(alt, ALT_MAX)}](${o.resultsLink}/${o.charts.add(`${prefix}-${name}.svg`, spec)})`,
        };
        const lines = s.module.render(ctx);
        if (lines.length) out.push('', ...lines);
      }
    }
  }
  return out;
}

/**
 * The README block.
 * @param {{ entries: () => import('./store.js').Entry[], load: (e: import('./store.js').Entry) => any }} store
 * @param {RenderOptions} o
 * @returns {string}
 */
export function renderBlock(store, o) {
  const entries = store.entries();
  if (!entries.length) return '_No results yet._';
  const newest = entries.reduce((a, b) => (b.finishedAt > a.finishedAt ? b : a));
  return [
    `_Last updated ${when(newest.finishedAt)} (the newest run's finish time) from ${entries.length} result document(s) in [\`${o.resultsLink}/\`](${o.resultsLink}/). Absolute figures per configuration, every comparison as a table and every night outside its band: [${o.resultsLink}/README.md](${o.resultsLink}/README.md)._`,
    '',
    HOW_TO_READ,
    ...machines(store, README_SECTIONS, { ...o, page: 'readme', intro: (_, mine) => [`${mine.length} run(s) of this machine class in \`${o.resultsLink}/\`.`] }),
  ].join('\n');
}

/**
 * results/README.md, the long form: GitHub shows it when someone opens results/.
 * @param {{ entries: () => import('./store.js').Entry[], load: (e: import('./store.js').Entry) => any }} store
 * @param {RenderOptions & { readmeLink: string }} o resultsLink is '.', readmeLink the link back to the README
 * @returns {string | null} null for an empty store: no page
 */
export function renderResultsPage(store, o) {
  const entries = store.entries();
  if (!entries.length) return null;
  return [
    '# Results',
    '',
    `Generated by \`npm run aggregate\` from the result documents in this folder; nothing here is written by hand. The answers, with charts, are in the [README](${o.readmeLink}#results); this page has the long form: every comparison as a table, every night outside its band, and the absolute figures per configuration.`,
    '',
    HOW_TO_READ.replace('([methodology](docs/methodology.md))', `([methodology](${path.posix.join(path.posix.dirname(o.readmeLink), 'docs/methodology.md')}))`) + FIGURES,
    ...machines(store, PAGE_SECTIONS, { ...o, page: 'results', intro: (_, mine) => [`${mine.length} run(s) of this machine class in this folder.`] }),
    '',
  ].join('\n');
}
