// The machines the figures come from: the newest run per Node major of this machine class, with
// its hardware, OS, runner image and drivers, each run linked to its document (results/README.md);
// in the README one line under the machine class's heading (summary).
import { DRIVERS, PRODUCTION_DRIVER } from '../../bench/data/drivers.js';
import { REASON_MAX, inert } from '../../lib/markdown.js';
import { NOT_A_NUMBER, driverText, percent, whole } from '../../lib/format.js';
import { classLink, newestPerMajor, readmeTable, when } from './common.js';
import { documentLink } from '../assets.js';
/** @import { Entry } from '../store.js' */

const driverCell = (/** @type {any} */ doc, /** @type {string} */ name) => {
  const d = doc.sides[0].drivers.find((/** @type {any} */ x) => x.name === name);
  if (!d) return 'not in this run';
  return inert(driverText(d, { name: false }).replace('SQLite3 Multiple Ciphers', 'SQLite3MC'), REASON_MAX);
};

/**
 * How noisy the run's machine was (bench/result/noise.js): the share of CPU-bound slices in the
 * slow state, the CPU time stolen, hardware threads per core; "not recorded" for a document without
 * it (one that measured nothing: npm run ci:failure).
 */
export function noiseCell(/** @type {any} */ noise) {
  const pct = (/** @type {unknown} */ x) =>
    typeof x === 'number' && Number.isFinite(x) ? percent(x, x < 0.1 ? 1 : 0) : NOT_A_NUMBER;
  const parts = [
    noise?.slowShare == null ? null : `slow ${pct(noise.slowShare)}`,
    noise?.steal == null ? null : `steal ${pct(noise.steal)}`,
    noise?.topology ? `${whole(noise.topology.threadsPerCore)} thread(s)/core` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'not recorded';
}

/** How a run that is not a complete full run is marked where it is named. */
const runMark = (/** @type {Entry} */ e) =>
  [e.mode === 'quick' ? 'quick' : '', e.status === 'interrupted' ? 'interrupted' : ''].filter(Boolean).join(', ');

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const rows = newestPerMajor(ctx.entries).map((entry) => ({ entry, doc: ctx.load(entry) }));
  if (!rows.length) return [];
  // 8 columns, the run's mode only where it is not a complete full run, the date and the time
  // apart: within GitHub's column (test/table-widths.test.js)
  const t = [['Node', 'Run (UTC)', 'Machine', 'OS, runner image', 'Noise', ...DRIVERS.map((d) => d.name)]];
  for (const { entry, doc } of rows) {
    const e = doc.environment;
    const image = e.ci?.imageOs ? `${e.ci.imageOs} ${e.ci.imageVersion ?? ''}`.trim() : e.ci ? e.ci.provider : 'local';
    const mark = runMark(entry);
    t.push([
      inert(e.node),
      `${documentLink(when(doc.run.finishedAt).replace('T', ' '), ctx.resultsLink, entry)}${mark ? ` (${mark})` : ''}`,
      `${inert(e.cpuModel)}, ${whole(e.cores)} cores, ${whole(e.memoryBytes / 2 ** 30)} GiB`,
      inert(`${e.platform} ${e.osRelease}, ${image}`),
      noiseCell(doc.noise),
      ...DRIVERS.map((d) => driverCell(doc, d.name)),
    ]);
  }
  return [
    '##### Machines: the newest run per Node major (each its own matrix cell, a different VM: not a comparison of Node versions)',
    readmeTable(t),
  ];
}

/**
 * The README's line under a machine class's heading: how many runs it has, and the newest run per
 * Node major with the production driver's version (each a matrix cell of its own, on its own VM);
 * the machines table (CPU, image, SQLite versions, the documents) is on results/README.md, linked.
 * @param {{ machine: string, entries: Entry[], load: (e: Entry) => any, resultsLink: string, nights: { of: (e: Entry) => import('../nights.js').Night } }} ctx
 *   entries: the machine class's result documents
 */
export function summary(ctx) {
  const runs = newestPerMajor(ctx.entries).map((e) => {
    const version = ctx.nights.of(e).driver;
    // no version: the driver did not run; the status word, the reason is in the table
    const driver = version
      ? inert(version)
      : inert(
          ctx.load(e).sides[0].drivers.find((/** @type {any} */ d) => d.name === PRODUCTION_DRIVER)?.status ??
            'not in this run',
        );
    const mark = runMark(e);
    // how noisy that run's machine was: the share of its CPU-bound slices in the slow state
    const slow = ctx.load(e).noise?.slowShare;
    const noise = typeof slow === 'number' ? ` · ${Math.round(100 * slow)}% slow` : '';
    return `${inert(e.node)} · ${driver}${noise}${mark ? ` (${mark})` : ''}`;
  });
  const link = `${classLink(ctx)}`;
  return `${ctx.entries.length} run(s) of this machine class; the newest per Node major (each its own matrix cell and VM) with ${PRODUCTION_DRIVER}${runs.some((r) => r.includes('% slow')) ? ' and the share of its slices in the machine’s slow state' : ''}: ${runs.join(', ')}. CPU, image, SQLite versions, noise, documents: [machines](${link}).`;
}
