// The compare's table, in Markdown (terminal, job summary and PR comment alike).
import { markdownTable } from 'markdown-table';
import { tally } from './analyse.js';

const RANK = { regression: 0, improvement: 1, 'too noisy to tell': 2, 'not compared': 3, 'no change': 4 };

const valueText = (/** @type {number | null} */ n, /** @type {string} */ unit) => {
  if (n === null) return '';
  if (unit === 'bytes') return `${(n / 1e6).toFixed(2)} MB`;
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n >= 10 ? n.toFixed(1) : n.toFixed(2);
};
const signedPercent = (/** @type {number | null} */ x) => (x === null ? '' : `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`);

/**
 * @param {import('./analyse.js').Row[]} rows
 */
export function table(rows) {
  const sorted = [...rows].sort((a, b) => RANK[a.verdict] - RANK[b.verdict] || (a.change ?? 0) - (b.change ?? 0) || a.key.localeCompare(b.key));
  return markdownTable(
    [
      ['Case (config/driver/cipher/op)', 'Base', 'Head', 'Change', '95% interval', 'Sig.', 'Verdict'],
      ...sorted.map((r) => [
        r.key,
        valueText(r.base, r.unit),
        valueText(r.head, r.unit),
        signedPercent(r.change),
        r.unit === 'bytes' ? (r.change === null ? '' : 'exact') : r.low === null ? '' : `${signedPercent(r.low)} … ${signedPercent(r.high)}`,
        r.significant ? '*' : '',
        r.verdict === 'not compared' ? `not compared: ${r.reason}` : r.verdict,
      ]),
    ],
    { align: ['l', 'r', 'r', 'r', 'c', 'c', 'l'] },
  );
}

/**
 * The whole report.
 * @param {{ rows: import('./analyse.js').Row[], base: string, head: string, rounds: number, threshold: number, alpha: number, engineArgs: string[], environment: string, method: string, seconds: number }} c
 */
export function report(c) {
  const n = tally(c.rows);
  const timed = c.rows.filter((r) => r.pAdjusted !== null).length;
  const lines = [
    `## Benchmark compare: ${c.head} against ${c.base}`,
    '',
    `${n.regression ? `**${n.regression} regression${n.regression > 1 ? 's' : ''}**` : 'No regression'}, ${n.improvement} improvement(s), ${n['no change']} no change, ${n['too noisy to tell']} too noisy to tell, ${n['not compared']} not compared.`,
    '',
    `${c.environment}. ${c.rounds} rounds per side; ${c.method}; engine \`${c.engineArgs.join(' ')}\`; ${(c.seconds / 60).toFixed(1)} min.`,
    `Base, Head: median ops/s over the rounds (size: bytes, exact). Change: head over base, from the 20%-trimmed mean of the ${c.rounds} round pairs' log ratios, with its 95% interval. Sig. (*): the trimmed-mean paired t-test, Holm-corrected over the ${timed} timed cases, α = ${c.alpha}. Regression: significantly slower, and the interval reaches a slowdown of ${(c.threshold * 100).toFixed(0)}% or more; no change: the whole interval lies within ±${(c.threshold * 100).toFixed(0)}%; too noisy to tell: neither (more rounds would tell).`,
    '',
  ];
  const worth = c.rows.filter((r) => r.verdict !== 'no change' && r.verdict !== 'not compared');
  if (worth.length) lines.push(table(worth), '');
  const fold = (/** @type {string} */ what, /** @type {import('./analyse.js').Row[]} */ rows) => {
    if (rows.length) lines.push(`<details><summary>${rows.length} case(s) ${what}</summary>`, '', table(rows), '', '</details>', '');
  };
  fold('with no change', c.rows.filter((r) => r.verdict === 'no change'));
  fold('not compared', c.rows.filter((r) => r.verdict === 'not compared'));
  return lines.join('\n');
}
