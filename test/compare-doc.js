// A compare's run document for the tests (compare.json: bench/result/document.schema.json, two
// sides base and head): the real quick compare's (test/fixtures/real-linux-x64-compare.json, made
// by `npm run compare -- --base . --quick --config production --driver better-sqlite3 --cipher
// none --op insert,select,size`), with its judged pairs and cases made from simple rows, and its
// counting, sides, run or environment replaced where a test says.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.js';
import { sideCases } from '../bench/shootout/count-nodes.js';
import { countDifferences } from '../lib/costs.js';

/** The real compare's document. */
export const REAL_COMPARE = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'real-linux-x64-compare.json'), 'utf8'),
);

/**
 * @typedef {object} TestRow a case as a test states it: what the report shows of it
 * @property {string} key config/driver/cipher/op
 * @property {number | null} base the base's figure (each round the same); null: the case failed there
 * @property {number | null} head
 * @property {number | null} change
 * @property {number | null} low
 * @property {number | null} high
 * @property {number | null} p
 * @property {number | null} pAdjusted
 * @property {string} verdict
 * @property {string} [reason]
 * @property {number} [rounds] default 10
 */

/**
 * A row: a case with no change unless `extra` says otherwise.
 * @param {string} key
 * @param {string} [verdict]
 * @param {Partial<TestRow>} [extra]
 * @returns {TestRow}
 */
export const row = (key, verdict = 'no change', extra = {}) => ({
  key,
  base: 1000,
  head: 1010,
  change: 0.01,
  low: -0.02,
  high: 0.04,
  p: 0.5,
  pAdjusted: 1,
  verdict,
  ...extra,
});

/**
 * The judged pair and the two sides' cases of each row.
 * @param {TestRow[]} rows
 */
function pairsAndCases(rows) {
  const comparisons = rows.map((r) => {
    const [config, driver, cipher, op] = r.key.split('/');
    return {
      id: 'compare',
      reference: 'base',
      member: 'head',
      setup: `${config}/${driver}/${cipher}`,
      op,
      pairs: r.base === null || r.head === null ? 0 : (r.rounds ?? 10),
      change: r.change,
      low: r.low,
      high: r.high,
      p: r.p,
      pAdjusted: r.pAdjusted,
      verdict: r.verdict,
      ...(r.reason === undefined ? {} : { reason: r.reason }),
    };
  });
  const cases = rows.flatMap((r) => {
    const [config, driver, cipher, op] = r.key.split('/');
    return /** @type {const} */ (['base', 'head']).map((side) => ({
      config,
      driver,
      cipher,
      op,
      side,
      status: r[side] === null ? 'error' : 'ok',
      ...(r[side] === null ? { reason: 'it failed' } : {}),
      rounds: Array.from({ length: r.rounds ?? 10 }, () => r[side]),
    }));
  });
  return { comparisons, cases };
}

/**
 * The real compare's counting with these counted cases (each { key, counts } as the counting pass
 * writes them, bench/counts/counts.js CaseCounts), stored as the compare stores them
 * (bench/shootout/count-nodes.js sideCases) and judged by the one count rule (lib/costs.js
 * countDifferences), head against base.
 * @param {{ key: string, counts: any }[]} base
 * @param {{ key: string, counts: any }[]} head
 */
export function countingOf(base, head) {
  const cases = [...sideCases('base', { cases: base }), ...sideCases('head', { cases: head })];
  const pairs = [{ comparison: 'compare', reference: 'base', member: 'head' }];
  return { ...structuredClone(REAL_COMPARE.counting), cases, differences: countDifferences(cases, pairs) };
}

/**
 * A compare's document: the real one, with these parts replaced.
 * @param {{ rows?: TestRow[], counting?: any, phases?: any[], base?: any, head?: any,
 *   run?: Record<string, any>, environment?: Record<string, any>, method?: string,
 *   drivers?: { base?: any[], head?: any[] } }} [o]
 *   base, head: the sides' checkouts; run: fields of run replaced
 */
export function compareDoc(o = {}) {
  const doc = structuredClone(REAL_COMPARE);
  if (o.rows) Object.assign(doc, pairsAndCases(o.rows));
  if (o.counting) doc.counting = o.counting;
  if (o.phases) doc.run.phases = o.phases;
  if (o.run) Object.assign(doc.run, o.run);
  if (o.environment) Object.assign(doc.environment, o.environment);
  if (o.method !== undefined) doc.harness.method = o.method;
  if (o.base) doc.sides[0].checkout = o.base;
  if (o.head) doc.sides[1].checkout = o.head;
  if (o.drivers?.base) doc.sides[0].drivers = o.drivers.base;
  if (o.drivers?.head) doc.sides[1].drivers = o.drivers.head;
  return doc;
}
