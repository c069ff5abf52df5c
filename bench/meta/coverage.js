// Whether the ± means what it says, over repeat runs (meta:precision): coverage of the combined
// intervals (lib/stats/interval.js `lands`) against the earlier ± (1.96 × rse), the A/A self-check's
// flags, own-interval coverage and width against movement, and the paired half-widths; their
// targets are in docs/checking.md.
import { lands } from '../../lib/stats/interval.js';
import { quantile } from '../../lib/stats/spread.js';
import { widerSide } from '../../lib/stats/headline.js';
import { VERDICTS } from '../../lib/verdicts.js';
import { caseKey } from '../data/suite.js';
import { OPS } from '../data/ops.js';
import { JOURNAL } from '../data/workloads.js';

/** The earlier ±: 1.96 × rse, symmetric (what documents carried before the interval). */
const earlier = (/** @type {any} */ o) => ({
  median: o.median,
  low: o.median * (1 - (1.96 * o.rse) / 100),
  high: o.median * (1 + (1.96 * o.rse) / 100),
});
const now = (/** @type {any} */ o) => ({ median: o.median, low: o.low, high: o.high });
/** The wider side of an interval, as a fraction of the median. */
const width = (/** @type {{ median: number, low: number, high: number }} */ x) => widerSide(x.median, x.low, x.high);

/**
 * Each operation's cases' figures over repeat runs, in run order: `figure` of each case measured ok,
 * where it gives one.
 * @template T
 * @param {any[]} docs
 * @param {(c: any) => T | null} figure
 * @returns {Map<string, T[][]>} per operation, per case, its figures
 */
function figuresByOp(docs, figure) {
  /** @type {Map<string, { op: string, figures: T[] }>} */
  const byCase = new Map();
  for (const doc of docs)
    for (const c of doc.cases) {
      const f = c.status === 'ok' && c.stats?.opsPerSec ? figure(c) : null;
      if (f === null) continue;
      if (!byCase.has(caseKey(c))) byCase.set(caseKey(c), { op: c.op, figures: [] });
      byCase.get(caseKey(c))?.figures.push(f);
    }
  const byOp = new Map();
  for (const { op, figures } of byCase.values()) byOp.set(op, [...(byOp.get(op) ?? []), figures]);
  return byOp;
}

/** Rows' coverage over all operations, each weighted by its pairs. */
const overall = (/** @type {{ pairs: number }[]} */ rows, /** @type {(r: any) => number} */ of) =>
  rows.reduce((a, r) => a + of(r) * r.pairs, 0) / rows.reduce((a, r) => a + r.pairs, 0);

/**
 * @param {any[]} docs result documents of repeat runs, in run order
 */
export function coverage(docs) {
  const byOp = figuresByOp(docs, (c) => {
    const o = c.stats.opsPerSec;
    return typeof o.low === 'number' && typeof o.rse === 'number' ? { o, modes: Boolean(c.stats.modes) } : null;
  });
  const rows = [...byOp].map(([op, cases]) => {
    const t = { pairs: 0, landed: 0, landedEarlier: 0 };
    for (const figures of cases)
      for (let i = 0; i < figures.length; i++)
        for (let j = i + 1; j < figures.length; j++) {
          t.pairs++;
          t.landed += Number(lands(now(figures[i].o), now(figures[j].o)));
          t.landedEarlier += Number(lands(earlier(figures[i].o), earlier(figures[j].o)));
        }
    const all = cases.flat();
    const widths = (/** @type {(o: any) => any} */ band) => all.map((f) => width(band(f.o)));
    return {
      op,
      pairs: t.pairs,
      coverage: t.landed / t.pairs,
      coverageEarlier: t.landedEarlier / t.pairs,
      widthMedian: quantile(widths(now), 0.5),
      widthMedianEarlier: quantile(widths(earlier), 0.5),
      withModes: all.filter((f) => f.modes).length,
      figures: all.length,
    };
  });
  const all = { pairs: rows.reduce((a, r) => a + r.pairs, 0) };
  const of = (/** @type {'coverage' | 'coverageEarlier'} */ k) => overall(rows, (r) => r[k]);
  return { byOp: rows, all: { ...all, coverage: of('coverage'), coverageEarlier: of('coverageEarlier') } };
}

/**
 * The A/A self-check over repeat runs: of all its comparisons (runs × operations), how many were
 * flagged as a difference, and how many runs failed it.
 * @param {any[]} docs
 */
export function selfChecks(docs) {
  const pc = (/** @type {number} */ x) => (x * 100).toFixed(1);
  const aa = docs.flatMap((d) => (d.comparisons ?? []).filter((/** @type {any} */ c) => c.id === 'self-check'));
  return {
    comparisons: aa.length,
    flagged: aa
      .filter((c) => c.verdict !== VERDICTS.unclear)
      .map((c) => `${c.op} ${pc(c.change)}% [${pc(c.low)}, ${pc(c.high)}]`),
    runsFailed: docs.filter((d) => d.selfCheck && !d.selfCheck.passed).length,
  };
}

/** The figures a document gives a case: the median and the fastest typical, each with its interval. */
const FIGURES = {
  median: (/** @type {any} */ s) => ({ value: s.opsPerSec.median, low: s.opsPerSec.low, high: s.opsPerSec.high }),
  fast: (/** @type {any} */ s) => (s.fast ? { value: s.fast.opsPerSec, low: s.fast.low, high: s.fast.high } : null),
};

/**
 * Own-interval coverage and width against movement, per operation, for one figure.
 * @param {any[]} docs repeat runs
 * @param {keyof typeof FIGURES} which
 */
export function calibrationOf(docs, which) {
  const byOp = figuresByOp(docs, (c) => {
    const f = FIGURES[which](c.stats);
    return f && typeof f.low === 'number' && typeof f.high === 'number' ? f : null;
  });
  const rows = [...byOp].flatMap(([op, cases]) => {
    const t = { pairs: 0, inside: 0, moves: /** @type {number[]} */ ([]) };
    for (const figures of cases)
      for (let i = 0; i < figures.length; i++)
        for (let j = 0; j < figures.length; j++) {
          if (i === j) continue;
          t.pairs++;
          t.inside += Number(figures[j].value >= figures[i].low && figures[j].value <= figures[i].high);
          if (j > i) t.moves.push(Math.abs(figures[j].value / figures[i].value - 1));
        }
    if (!t.pairs) return [];
    const widths = cases.flat().map((f) => widerSide(f.value, f.low, f.high));
    const width = quantile(widths, 0.5);
    const move95 = quantile(t.moves, 0.95);
    return [{ op, pairs: t.pairs, coverage: t.inside / t.pairs, width, move95, ratio: width / move95 }];
  });
  const pairs = rows.reduce((a, r) => a + r.pairs, 0);
  return { byOp: rows, all: { pairs, coverage: overall(rows, (r) => r.coverage) } };
}

/** The suite's in-run comparisons' half-widths per operation, over repeat runs (the A/A twin and the workloads' pairs left out). */
export function pairedWidths(/** @type {any[]} */ docs) {
  const bound = Object.fromEntries(OPS.map((o) => [o.name, o.bound]));
  const byOp = /** @type {Record<string, { halves: number[], decided: number }>} */ ({});
  for (const doc of docs)
    for (const c of doc.comparisons ?? []) {
      if (c.id === 'self-check' || c.id === JOURNAL) continue;
      const t = (byOp[c.op] ??= { halves: [], decided: 0 });
      t.halves.push((Math.log1p(c.high) - Math.log1p(c.low)) / 2);
      t.decided += Number(c.verdict !== VERDICTS.unclear);
    }
  return Object.entries(byOp).map(([op, t]) => ({
    op,
    bound: bound[op] ?? 'io',
    comparisons: t.halves.length,
    halfWidth: Math.expm1(quantile(t.halves, 0.5)),
    decided: t.decided,
  }));
}
