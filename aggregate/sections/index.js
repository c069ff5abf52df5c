// The sections of the README block and of results/README.md, in the order a reader meets them:
// answers first (what a PRAGMA change does, what encryption costs, how nights move), then the
// machines they come from. A section module exports `render(ctx)`, Markdown lines (possibly none)
// for one machine class, starting with a `#####` heading of its own (render-pages.js writes the
// platform and machine headings); strings from documents go through lib/markdown.js inert(). It is
// given the shootouts' store entries (store.js isShootoutEntry) when it exports `shootouts`, else
// the runs' of one side.
/**
 * @typedef {object} SectionContext
 * @property {string} platform e.g. linux-x64
 * @property {string} machine the machine class (store.js machineOf), from documents: inert() before showing
 * @property {Entry[]} entries this machine class's store entries
 * @property {(e: Entry) => any} load the parsed document (parsed once per aggregate)
 * @property {string} resultsLink the relative link from the page being written to results/
 * @property {'readme' | 'results'} page the README block (bounded: keep it short) or results/README.md (the long form)
 * @property {boolean} [brief] a README machine class after the first: its charts without their tables
 *   (on results/README.md, linked), and what the first class's sections explain not said again (the
 *   block's byte budget: bench/meta/aggregate-year.js BOUNDS)
 * @property {(name: string, spec: any, alt: string) => string} chart a chart of this machine class:
 *   `name` (lowercase letters, digits, '-') unique within the machine class, `spec` a vega-lite spec
 *   without config (charts/specs.js; its description the alt text), `alt` the main finding in words;
 *   returns the Markdown image line for the page being written. The SVG is drawn after both pages
 *   are rendered, and written only when its spec changed (charts/writer.js).
 * @property {Nights} nights a document's production figures and versions, without parsing it again,
 *   and the job's clock, where the history ends (nights.js)
 */
/** @typedef {{ shootouts?: boolean, render: (ctx: SectionContext) => string[] }} Section */
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
 * The README block, per machine class, under the line machines.js summary writes; the claims table
 * of the whole block follows the platforms (render-pages.js).
 * @type {Section[]}
 */
export const README_SECTIONS = [shootout, selfCheck, pragmaChanges, encryptionCost, workloadTables, history];

/** results/README.md, per machine class. @type {Section[]} */
export const PAGE_SECTIONS = [
  machines,
  shootout,
  selfCheck,
  comparisonTables,
  claims,
  workloadTables,
  history,
  absolute,
];
