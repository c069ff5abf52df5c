// Concurrency and scale (docs/pipeline.md#what-the-readme-shows, item 4): per machine class, from the newest run
// that measured the workloads (a full one when there is one): on results/README.md every setup and
// the latencies; in the README block (a budget of 5 lines) production's setup in two lines.
import { inert } from '../../lib/markdown.js';
import { PRODUCTION_CIPHER } from '../../bench/data/ciphers.js';
import { PRODUCTION_DRIVER } from '../../bench/data/drivers.js';
import {
  growthOf,
  journalChange,
  journalRows,
  latencyRows,
  notRunLines,
  readersOf,
  scaleRows,
  SCALE_ROWS,
} from '../render/workload-rows.js';
import { num, whole } from '../../lib/format.js';
import { ratioText } from '../render/figure.js';
import { newestFirst, runName, readmeTable } from './common.js';
import { compactChange, opLabel } from '../render/pair-table.js';

/**
 * The run the workloads come from: among the newest run per Node major, the newest full one that
 * has workloads, else the newest quick one (a smoke test, said so); on a tie the highest Node.
 * @param {import('./index.js').SectionContext} ctx
 * @returns {any | null}
 */
function workloadRun(ctx) {
  const withWorkloads = newestFirst(ctx.entries)
    .map((e) => ({ e, doc: ctx.load(e) }))
    .filter((x) => x.doc?.workloads?.cases?.length);
  return (withWorkloads.find((x) => x.doc.run.mode === 'full') ?? withWorkloads[0])?.doc ?? null;
}

/** Production's setup: its driver and cipher, its busy_timeout. */
const production = (/** @type {any} */ s) =>
  s.driver === PRODUCTION_DRIVER && s.cipher === PRODUCTION_CIPHER && s.busyTimeout !== 0;

/**
 * Concurrency in one line: per workload of production's setup, the paired change WAL against DELETE
 * of reads/s and (with a writer) writes/s.
 * @param {any} doc
 * @returns {string | null}
 */
function concurrencyLine(doc) {
  const w = doc.workloads;
  const cases = w.cases.filter(
    (/** @type {any} */ c) => c.kind === 'concurrency' && c.setup.journal === 'WAL' && production(c.setup),
  );
  const parts = cases
    .map((/** @type {any} */ c) => {
      const figures = ['reads', 'writes']
        .map((f) => ({ f, cmp: journalChange(doc.comparisons, c, f) }))
        .filter((x) => x.cmp);
      if (!figures.length) return null;
      const shape = c.setup.writer ? `writer + ${readersOf(c.setup)}` : `${readersOf(c.setup)} alone`;
      return `${shape}: ${figures.map((x) => `${x.f} ${ratioText(x.cmp, compactChange)}`).join(', ')}`;
    })
    .filter(Boolean);
  return parts.length ? `- WAL against DELETE, paired by round: ${parts.join('; ')}.` : null;
}

/** The scale figures the README names, of SCALE_ROWS, by their operation's name. */
const GROWING = ['select', 'insert', 'update', 'delete', 'vacuum'];

/**
 * Scale in one line: how the main figures' cost grows per 10× messages.
 * @param {any} w the document's workloads
 * @returns {string | null}
 */
function scaleLine(w) {
  const sizes = w.cases
    .filter((/** @type {any} */ c) => c.kind === 'scale' && c.status === 'ok' && production(c.setup))
    .sort((/** @type {any} */ a, /** @type {any} */ b) => a.setup.messages - b.setup.messages);
  const parts = SCALE_ROWS.filter((r) => GROWING.includes(r.id))
    .map((r) => ({ r, c: growthOf(sizes, r) }))
    .filter((x) => x.c)
    .map((x) => `${opLabel(x.r.id)} ${ratioText(/** @type {any} */ (x.c), compactChange)}`);
  if (!parts.length) return null;
  return `- Scale, ${num(sizes[0].setup.messages)} to ${num(sizes[sizes.length - 1].setup.messages)} messages: growth per 10× messages of the time per operation, bounds from both sizes' 95% intervals: ${parts.join(', ')}.`;
}

/**
 * The README form: two lines under the heading, the tables on results/README.md.
 * @param {any} doc
 * @param {string} resultsLink
 */
function readmeForm(doc, resultsLink) {
  const w = doc.workloads;
  const link = `[${resultsLink}/README.md](${resultsLink}/README.md)`;
  if (w.mode === 'quick')
    return [
      '##### Concurrency and scale',
      `From ${runName(doc)}, a quick run: one round per workload, a smoke test without ±, so no figures here (the tables: ${link}).`,
    ];
  const lines = [concurrencyLine(doc), scaleLine(w)].filter((l) => l !== null);
  if (!lines.length) return [];
  return [
    '##### Concurrency and scale',
    `From ${runName(doc)}, Production's setup (all setups, the figures: ${link}):`,
    ...lines,
  ];
}

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const doc = workloadRun(ctx);
  if (!doc) return [];
  if (ctx.page === 'readme') return readmeForm(doc, ctx.resultsLink);
  const w = doc.workloads;
  const out = ['##### Concurrency and scale', ''];
  const quick = w.mode === 'quick' ? ' A quick run: one round, a smoke test without ±.' : '';
  out.push(
    `From ${runName(doc)}: ${whole(w.budget.rounds)} round(s) per workload, each in fresh processes, in a shuffled order; ± is the wider side of the 95% interval of the median of the rounds.${quick}`,
    '',
  );
  const journal = journalRows(w, doc.comparisons, inert);
  if (journal.length > 1) {
    out.push(
      `Concurrency: one writer inserting a message per transaction and K readers selecting a mailbox's newest 50, each its own connection in a worker thread, on one database; WAL against the rollback journal (DELETE), the change paired by round ("≈": too noisy to tell).`,
      '',
    );
    out.push(readmeTable(journal, ['l', ...journal[0].slice(1).map(() => /** @type {const} */ ('r'))]), '');
    out.push(readmeTable(latencyRows(w, inert), ['l', 'r', 'r', 'r', 'r']), '');
  }
  const scale = scaleRows(w, inert);
  if (scale.length > 1) {
    out.push(
      `Scale: the Production setup at ${scale[0].length - 2} database sizes; "cost per 10× messages": how the time per operation (or the ms, the MB) grows when the mailbox grows tenfold, from the smallest size to the largest, with bounds from both sizes' 95% intervals.`,
      '',
    );
    out.push(readmeTable(scale, ['l', ...scale[0].slice(1).map(() => /** @type {const} */ ('r'))]), '');
  }
  const notRun = notRunLines(w, inert);
  if (notRun.length) out.push('Not measured:', ...notRun, '');
  while (out[out.length - 1] === '') out.pop();
  return out;
}
