// One line per nightly document for the history charts: what each night measured for the
// production setup (figure and 95% interval per timed operation) and what it ran on (Node, driver,
// SQLite, runner image, the project's commit) and, where the run counted (Linux), what one
// operation cost in instructions, fsyncs, writes and bytes written (docs/counting.md). Kept in
// results/charts/nights.jsonl so the aggregate reads a few hundred short lines instead of parsing
// every document of the last 90 days (each is ~0.5 MB); a line is
// reused while its document's sha256 matches, else made again from the document. Only the lines
// a render used are kept, so the file holds the window the charts show and no more.
import fs from 'node:fs';
import path from 'node:path';
import { PRODUCTION_DRIVER } from '../bench/data/drivers.js';
import { OPS } from '../bench/data/ops.js';
import { caseKey } from '../bench/data/suite.js';
import { PRODUCTION_SETUP } from './sections/common.js';
import { headlineMargin } from '../lib/stats/headline.js';
import { writeFileAtomic } from '../lib/files.js';
/** @import { Entry } from './store.js' */

export const NIGHTS_FILE = 'charts/nights.jsonl';
const TIMED = OPS.filter((o) => o.kind === 'timed').map((o) => o.name);
/** 4 significant figures: a chart shows no more, and the file stays small. */
const sig4 = (/** @type {number} */ x) => Number(x.toPrecision(4));

/**
 * @typedef {object} Night
 * @property {string} file
 * @property {string} sha256
 * @property {string} finishedAt
 * @property {string} node
 * @property {string | null} image runner image version (or OS), null when local
 * @property {string | null} driver the production driver's version
 * @property {string | null} sqlite its SQLite version
 * @property {string | null} sqlite3mc its SQLite3MC version
 * @property {string | null} commit the project's commit the run measured
 * @property {Record<string, [number, number, number]>} figures op → [median, low, high] in ops/s, 4 significant figures
 * @property {Record<string, Counts>} [counts] op → what one operation cost, where the run counted it
 */

/**
 * One operation's counts, 4 significant figures: instructions, fsyncs, writes and bytes written
 * per operation (bench/counts/counts.js CaseCounts: the first count).
 * @typedef {[number, number, number, number]} Counts
 */
/** @returns {Night} */
export function nightOf(/** @type {any} */ doc, /** @type {Entry} */ entry) {
  const d = doc.sides[0].drivers.find((/** @type {any} */ x) => x.name === PRODUCTION_DRIVER);
  const ok = d?.status === 'ok';
  const figures = /** @type {Record<string, [number, number, number]>} */ ({});
  const counts = /** @type {Record<string, Counts>} */ ({});
  for (const op of TIMED) {
    const c = doc.cases.find((/** @type {any} */ x) => caseKey(x) === `${PRODUCTION_SETUP}/${op}`);
    if (c?.status !== 'ok' || !c.stats) continue;
    // the case's counts, where it was counted and each is a number
    const k = c.counts?.status === 'ok' ? c.counts : {};
    /** @type {number[]} */
    const xs = [k.instructions, k.syscalls?.fsync, k.syscalls?.write, k.bytes?.written];
    if (xs.every(Number.isFinite)) counts[op] = /** @type {Counts} */ (xs.map(sig4));
    const o = c.stats.opsPerSec;
    const m = headlineMargin(c.stats) / 100;
    figures[op] = [sig4(o.median), sig4(o.low ?? o.median * (1 - m)), sig4(o.high ?? o.median * (1 + m))];
  }
  const ci = doc.environment.ci;
  return {
    file: entry.file,
    sha256: entry.sha256,
    finishedAt: doc.run.finishedAt,
    node: doc.environment.node,
    image: ci ? `${ci.imageOs ?? ci.provider} ${ci.imageVersion ?? ''}`.trim() : null,
    driver: ok ? d.version : null,
    sqlite: ok ? d.sqlite : null,
    sqlite3mc: ok ? (d.sqlite3mc ?? null) : null,
    commit: doc.run.commit,
    figures,
    ...(Object.keys(counts).length ? { counts } : {}),
  };
}

/**
 * What the pages read of the nights: each document's night, and the job's clock, which says where
 * the history ends (sections/history.js windowOf), never the newest document (trust.js).
 * @typedef {object} Nights
 * @property {(e: Entry) => Night} of
 * @property {number} [now] the aggregate's clock, ms since the epoch
 */

/** The nights of results/, and the aggregate's clock `now` (Nights). */
export function nightStore(
  /** @type {string} */ resultsDir,
  /** @type {(e: Entry) => any} */ load,
  /** @type {number | undefined} */ now,
) {
  const file = path.join(resultsDir, NIGHTS_FILE);
  const cached = /** @type {Map<string, Night>} */ (new Map());
  if (fs.existsSync(file)) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      try {
        const n = line && JSON.parse(line);
        if (n?.file) cached.set(n.file, n);
      } catch {
        // a damaged line is made again from its document
      }
    }
  }
  const used = /** @type {Map<string, Night>} */ (new Map());
  return {
    now,
    /** The night of a stored document. */
    of(/** @type {Entry} */ entry) {
      let n = used.get(entry.file) ?? cached.get(entry.file);
      if (!n || n.sha256 !== entry.sha256) n = nightOf(load(entry), entry);
      used.set(entry.file, n);
      return n;
    },
    /** Write the lines used (sorted by file), when they differ from the file's. */
    save() {
      const text = [...used.values()]
        .sort((a, b) => (a.file < b.file ? -1 : 1))
        .map((n) => `${JSON.stringify(n)}\n`)
        .join('');
      if ((fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '') !== text) writeFileAtomic(file, text);
    },
  };
}
