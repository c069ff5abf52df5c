// What encryption costs: each cipher against the same package without a key, and against
// better-sqlite3 without encryption as a second reference, paired within the newest full run; the
// chart shows both, the table the first, in the README each cell written by compactChange (the
// second, and the drivers without encryption, are tables in results/README.md, linked).
import { CIPHERS, PRODUCTION_CIPHER } from '../../bench/data/ciphers.js';
import { PRODUCTION_DRIVER } from '../../bench/data/drivers.js';
import { parseSetupKey } from '../../bench/data/suite.js';
import { comparisonSpec } from '../charts/specs.js';
import { day } from '../../lib/format.js';
import { classLink, cipherLabel, comparisonPoints, comparisonRun, signed } from './common.js';
import { COMPARED, comparisonTable, opLabel } from '../render/pair-table.js';
import { median } from '../../lib/stats/spread.js';

const SERIES = ['against the same package, no key', 'against better-sqlite3, no encryption'];

/** A cipher as a row: its name, marked when it is production's. */
const cipherTitle = (/** @type {string} */ c) =>
  c === 'none' ? 'no key (the package alone)' : `${cipherLabel(c)}${c === PRODUCTION_CIPHER ? ' (Production)' : ''}`;
const cipherRow = (/** @type {string} */ key) => cipherTitle(parseSetupKey(key).cipher);

/**
 * The main finding in words: the cheapest and the costliest cipher by their median change across
 * operations against the same package without a key, and the production cipher's.
 * @param {ReturnType<typeof comparisonPoints>} points the first series
 */
function findings(points) {
  const byMember = [...new Set(points.map((p) => p.member))].map((m) => ({
    m,
    typical: median(points.filter((p) => p.member === m).map((p) => p.change)),
  }));
  if (!byMember.length) return '';
  const sorted = [...byMember].sort((a, b) => b.typical - a.typical);
  const prod = byMember.find((x) => x.m === cipherTitle(PRODUCTION_CIPHER));
  const noise = points.filter((p) => p.verdict === 'too noisy to tell').length;
  const ends = [sorted[0], /** @type {typeof sorted[number]} */ (sorted.at(-1))];
  // production's own figure, unless it is the cheapest or the costliest (named already)
  const own = prod && !ends.includes(prod) ? `, ${prod.m} ${signed(prod.typical)}` : '';
  return `Each cipher against no key, median over operations: cheapest ${ends[0].m} ${signed(ends[0].typical)}, costliest ${ends[1].m} ${signed(ends[1].typical)}${own}; ${noise} of ${points.length} too noisy to tell.`;
}

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const doc = comparisonRun(ctx);
  if (!doc?.comparisons?.length) return [];
  const first = comparisonPoints(doc, 'cipher', cipherRow);
  if (!first.length) return [];
  const points = [
    ...first.map((p) => ({ ...p, series: SERIES[0] })),
    ...comparisonPoints(doc, 'cipher-vs-better-sqlite3', cipherRow).map((p) => ({ ...p, series: SERIES[1] })),
  ];
  const members = CIPHERS.map((c) => cipherTitle(c.name)).filter((m) => points.some((p) => p.member === m));
  // the run is named by the line above the PRAGMA heading (self-check.js) and in the chart's subtitle
  const alt = findings(first);
  const title = 'What encryption costs';
  const chart = ctx.chart(
    'cipher',
    comparisonSpec({
      title,
      subtitle: [
        `${ctx.platform}, Node ${doc.environment.node}, run of ${day(doc.run.finishedAt)}: ${PRODUCTION_DRIVER} with each cipher and Production's PRAGMAs,`,
        'change in ops/s (+ is faster) against two references without encryption, measured side by side (paired), with its 95% interval.',
      ],
      alt,
      points,
      members,
      ops: COMPARED.map(opLabel),
      series: { domain: SERIES, title: 'each cipher:' },
    }),
    alt,
  );
  const heading = `##### ${title}, against ${PRODUCTION_DRIVER} without a key`;
  if (ctx.page !== 'readme') return [heading, chart, '', comparisonTable(doc, 'cipher', cipherRow, 'Cipher')];
  // the note and the chart share a line (the chart is wider than what is left of it, so it shows
  // under the note), the table starts right under them
  const link = `${classLink(ctx)}`;
  if (ctx.brief) return [heading, `▲: against better-sqlite3 without encryption. ${chart} [The tables](${link}).`];
  return [
    heading,
    `▲: against better-sqlite3 without encryption ([table](${link})). ${chart}`,
    comparisonTable(doc, 'cipher', cipherRow, 'Cipher', {
      compact: true,
      caption:
        'Each cell: the change in % ops/s ± the wider side of its 95% interval, in points (−50% is 2.00× the time, −59% 2.44×: the answers above give each cipher as × time); "≈ ±22": no evidence of a difference.',
    }),
  ];
}
