// The sections of the README block and of results/README.md, in the order a reader meets them:
// answers first (what a PRAGMA change does, what encryption costs, how nights move), then the
// machines they come from. Each row names a module, and whether it is given the shootouts' store
// entries (store.js isShootoutEntry) or the runs' of one side.
//
// A section module exports `render(ctx)` and returns Markdown lines (possibly none) for one
// machine class; render-pages.js writes the platform and machine headings around them, so a section
// starts with a `#####` heading of its own. Strings from documents go through lib/markdown.js
// inert(). The context:
//
/**
 * @typedef {object} SectionContext
 * @property {string} platform e.g. linux-x64
 * @property {string} machine the machine class (store.js machineOf), from documents: inert() before showing
 * @property {Entry[]} entries this machine class's store entries: its shootouts' when the section's
 *   row says `shootouts`, else its runs' of one side
 * @property {(e: Entry) => any} load the parsed document (parsed once per aggregate)
 * @property {string} resultsLink the relative link from the page being written to results/
 * @property {'readme' | 'results'} page the README block (bounded: keep it short) or results/README.md (the long form)
 * @property {boolean} [brief] a README machine class after the first: its charts without their tables
 *   (on results/README.md, linked), and what the first class's sections explain not said again (the
 *   block's byte budget: bench/meta/aggregate-year.js BOUNDS)
 * @property {(name: string, spec: any, alt: string) => string} chart a chart of this machine class:
 *   `name` (lowercase letters, digits, '-') unique within the machine class, `spec` a vega-lite spec
 *   without config (aggregate/charts/specs.js; its description should be the alt text), `alt` the
 *   main finding in words. Returns the Markdown image line (alt made inert) for the page being
 *   written, pointing at results/charts/<platform>/<machine>-<name>.svg. The SVG is drawn after
 *   both pages are rendered, and written only when its spec changed (aggregate/charts/writer.js).
 * @property {Nights} nights a document's production figures and versions,
 *   without parsing it again, and the job's clock, where the history ends (aggregate/nights.js)
 */
/** @typedef {{ name: string, shootouts?: boolean, module: { render: (ctx: SectionContext) => string[] } }} Section */
/**
 * A section of the whole README block, not of one machine class (e.g. one table with a column per
 * machine class): render-pages.js writes it once, after the platforms. Its context: every machine class
 * with its entries (as a Section's), and load, resultsLink, page and nights as above; `chart`
 * points at results/charts/all/<name>.svg.
 * @typedef {object} BlockContext
 * @property {{ platform: string, machine: string, entries: Entry[] }[]} classes
 *   platform by platform, machine class by machine class, in the order the block shows them
 * @property {(e: Entry) => any} load
 * @property {string} resultsLink
 * @property {'readme'} page
 * @property {Nights} nights
 * @property {(name: string, spec: any, alt: string) => string} chart
 */
/** @typedef {{ name: string, shootouts?: boolean, module: { render: (ctx: BlockContext) => string[] } }} BlockSection */
import * as absolute from './absolute.js';
import * as claims from './claims.js';
import * as comparisonTables from './comparison-tables.js';
import * as encryptionCost from './encryption-cost.js';
import * as history from './history.js';
import * as machines from './machines.js';
import * as pragmaChanges from './pragma-changes.js';
import * as selfCheck from './self-check.js';
import * as shootout from './shootout.js';
import * as workloadTables from './workload-tables.js';
/** @import { Nights } from '../nights.js' */
/** @import { Entry } from '../store.js' */

/**
 * Every section of one machine class, once: its module, and whether it is given the shootouts.
 * @satisfies {Record<string, Omit<Section, 'name'>>}
 */
const SECTIONS = {
  machines: { module: machines },
  shootout: { shootouts: true, module: shootout },
  'self-check': { module: selfCheck },
  'pragma-changes': { module: pragmaChanges },
  'encryption-cost': { module: encryptionCost },
  'comparison-tables': { module: comparisonTables },
  claims: { module: claims },
  'workload-tables': { module: workloadTables },
  history: { module: history },
  absolute: { module: absolute },
};
/** The sections named, in that order. @returns {Section[]} */
const inOrder = (/** @type {(keyof typeof SECTIONS)[]} */ names) => names.map((name) => ({ name, ...SECTIONS[name] }));

/** The README block, per machine class. */
export const README_SECTIONS = inOrder([
  'shootout',
  'self-check',
  'pragma-changes',
  'encryption-cost',
  'workload-tables',
  'history',
]);

/**
 * The README block, once for the whole block (after the platforms). The machines each figure comes
 * from are one line under each machine class's heading (machines.js summary, written by render-pages.js).
 * @type {BlockSection[]}
 */
export const README_BLOCK_SECTIONS = [
  // claims: one table, a column per machine class (claims.js renderBlockClaims)
  { name: 'claims', module: { render: claims.renderBlock } },
];

/** results/README.md, per machine class. */
export const PAGE_SECTIONS = inOrder([
  'machines',
  'shootout',
  'self-check',
  'comparison-tables',
  'claims',
  'workload-tables',
  'history',
  'absolute',
]);
