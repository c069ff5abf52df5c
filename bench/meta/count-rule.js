// The calibration registry's row d2: the PR check's count rule on Node 24's real calibration runs
// (`npm run compare -- --calibrate-counts`), kept per (run, case) in count-rule.json so the row is
// measured, not quoted; runs whose per-run output was not kept are counted as `quoted`.
import fs from 'node:fs';
import { OPS } from '../data/ops.js';
import { COUNT_VERDICTS as W } from '../../lib/verdicts.js';

/**
 * @typedef {{ verdict: string, fails: boolean, change: number, tolerance: number, moved: string[] }} AaVerdict
 * @typedef {{ found: boolean, change: number, tolerance: number }} Found found: beyond the tolerance
 * @typedef {Found & { verdict: string }} Loop found: the total beyond its tolerance; verdict: the case's
 * @typedef {{ seed: number, key: string, op: string, aa: AaVerdict, loop: Loop, fsync: boolean, sqlite: Found | null }} RunCase
 * @typedef {{ what: string, source?: string, seeds: number[], aaFailed: number[], aaChanged: number[], cases: Record<string, { sqlite: number }> }} Quoted
 * @typedef {{ what: string, node: string, groups: { what: string, node: string, commit: string, countArgs: string, runs: number, cases: RunCase[] }[], quoted: Quoted[] }} CountRuleData
 */

/** The stored calibration (count-rule.json). @returns {CountRuleData} */
export const countRuleData = () => JSON.parse(fs.readFileSync(new URL('count-rule.json', import.meta.url), 'utf8'));

/**
 * Whether `misses` of `n` meet the targets' "at most 1 in 20": false once the misses exceed it (in
 * 20 runs, or in proportion beyond), true from 20 runs within it, null with fewer runs.
 */
export function meets(/** @type {number} */ misses, /** @type {number} */ n) {
  if (misses > Math.max(1, Math.floor(n / 20))) return false;
  return n >= 20 && misses <= Math.floor(n / 20) ? true : null;
}

/**
 * The row's figures and verdict: A/A compares (one per seed: the PR check compares every case at
 * once, so a seed fails where any of its cases does), +1% instructions per CPU-bound case but
 * select, +1% of SQLite's work per select; pass false if any target fails, null if too few runs.
 * @param {CountRuleData} data
 */
export function countRuleVerdict(data) {
  const rows = data.groups.flatMap((g) => g.cases);
  const quoted = data.quoted ?? [];
  const seeds = new Set([...rows.map((r) => r.seed), ...quoted.flatMap((q) => q.seeds)]);
  const moved = (/** @type {RunCase} */ r) => r.aa.verdict !== W.same || r.aa.moved.length > 0;
  // seeds, not (seed, case) pairs: a seed's quoted selects and its cases in the data are one compare
  const failed = new Set([...rows.filter((r) => r.aa.fails).map((r) => r.seed), ...quoted.flatMap((q) => q.aaFailed)]);
  const changed = new Set([...rows.filter(moved).map((r) => r.seed), ...quoted.flatMap((q) => q.aaChanged)]);
  const aa = { n: seeds.size, fails: failed.size, changes: changed.size };
  const bound = (/** @type {string} */ op) => OPS.find((o) => o.name === op)?.bound ?? 'cpu';
  const keys = [...new Set(rows.map((r) => r.key))].sort();
  const cases = keys.map((key) => {
    const of = rows.filter((r) => r.key === key);
    const op = of[0].op;
    const q = quoted.filter((x) => x.cases[key]);
    const sql = of.filter((r) => r.sqlite);
    const tolerances = of.map((r) => r.aa.tolerance);
    return {
      key,
      op,
      bound: bound(op),
      n: of.length + q.reduce((s, x) => s + x.seeds.length, 0),
      quoted: q.reduce((s, x) => s + x.seeds.length, 0),
      // the check reports the case costs more (its total or a component beyond its tolerance: the
      // loop's work lands in the runtime's part), and the total alone beyond its tolerance
      loop: of.filter((r) => r.loop.verdict === W.more).length,
      loopByTotal: of.filter((r) => r.loop.found).length,
      sqlite: sql.length
        ? sql.filter((r) => r.sqlite?.found).length + q.reduce((s, x) => s + x.cases[key].sqlite, 0)
        : null,
      fsync: of.filter((r) => r.fsync).length,
      counted: of.length,
      tolerance: [Math.min(...tolerances), Math.max(...tolerances)],
    };
  });
  const loopCases = cases.filter((c) => c.bound === 'cpu' && c.op !== 'select');
  const sqliteCases = cases.filter((c) => c.op === 'select' && c.sqlite !== null);
  const verdicts = [
    meets(aa.fails, aa.n),
    ...loopCases.map((c) => meets(c.counted - c.loop, c.counted)),
    ...sqliteCases.map((c) => meets(c.n - /** @type {number} */ (c.sqlite), c.n)),
  ];
  if (!loopCases.length || !sqliteCases.length) verdicts.push(null);
  const pass = verdicts.includes(false) ? false : verdicts.includes(null) ? null : true;
  return { aa, cases, loopCases, sqliteCases, pass };
}
