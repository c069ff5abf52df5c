// Whether the ± means what it says, over repeat runs (meta:precision): coverage of the combined
// intervals (lib/stats/interval.js `lands`) against the earlier ± (1.96 × rse), the A/A self-check's
// flags, own-interval coverage and width against movement, and the paired half-widths; their
// targets are in docs/checking.md.
import { lands } from '../../lib/stats/interval.js';
import { quantile } from '../../lib/stats/spread.js';
import { widerSide } from '../../lib/stats/headline.js';
import { caseKey } from '../data/suite.js';
import { OPS } from '../data/ops.js';

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
 * @param {any[]} docs result documents of repeat runs, in run order
 */
export function coverage(docs) {
  const byCase = /** @type {Map<string, any[]>} */ (new Map());
  docs.forEach((doc, run) => {
    for (const c of doc.cases) {
      const o = c.stats?.opsPerSec;
      if (c.status !== 'ok' || typeof o?.low !== 'number' || typeof o?.rse !== 'number') continue;
      const k = caseKey(c);
      byCase.set(k, [...(byCase.get(k) ?? []), { run, op: c.op, o, modes: Boolean(c.stats.modes) }]);
    }
  });
  const byOp =
    /** @type {Record<string, { pairs: number, landed: number, landedEarlier: number, widths: number[], widthsEarlier: number[], modes: number, figures: number }>} */ ({});
  for (const figures of byCase.values()) {
    const op = figures[0].op;
    const t = (byOp[op] ??= {
      pairs: 0,
      landed: 0,
      landedEarlier: 0,
      widths: [],
      widthsEarlier: [],
      modes: 0,
      figures: 0,
    });
    for (const f of figures) {
      t.widths.push(width(now(f.o)));
      t.widthsEarlier.push(width(earlier(f.o)));
      t.modes += Number(f.modes);
      t.figures++;
    }
    for (let i = 0; i < figures.length; i++)
      for (let j = i + 1; j < figures.length; j++) {
        t.pairs++;
        t.landed += Number(lands(now(figures[i].o), now(figures[j].o)));
        t.landedEarlier += Number(lands(earlier(figures[i].o), earlier(figures[j].o)));
      }
  }
  const rows = Object.entries(byOp).map(([op, t]) => ({
    op,
    pairs: t.pairs,
    coverage: t.landed / t.pairs,
    coverageEarlier: t.landedEarlier / t.pairs,
    widthMedian: quantile(t.widths, 0.5),
    widthMedianEarlier: quantile(t.widthsEarlier, 0.5),
    withModes: t.modes,
    figures: t.figures,
  }));
  const sum = (/** @type {(r: typeof rows[number]) => number} */ f) => rows.reduce((a, r) => a + f(r), 0);
  const pairs = sum((r) => r.pairs);
  return {
    byOp: rows,
    all: {
      pairs,
      coverage: sum((r) => r.coverage * r.pairs) / pairs,
      coverageEarlier: sum((r) => r.coverageEarlier * r.pairs) / pairs,
    },
  };
}

/**
 * The A/A self-check over repeat runs: of all its comparisons (runs × operations), how many were
 * flagged as a difference, and how many runs failed it.
 * @param {any[]} docs
 */
export function selfChecks(docs) {
  const aa = docs.flatMap((d) => (d.comparisons ?? []).filter((/** @type {any} */ c) => c.id === 'self-check'));
  return {
    comparisons: aa.length,
    flagged: aa
      .filter((c) => c.verdict !== 'too noisy to tell')
      .map(
        (c) => `${c.op} ${(c.change * 100).toFixed(1)}% [${(c.low * 100).toFixed(1)}, ${(c.high * 100).toFixed(1)}]`,
      ),
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
  const byCase = /** @type {Map<string, { op: string, figures: { value: number, low: number, high: number }[] }>} */ (
    new Map()
  );
  for (const doc of docs)
    for (const c of doc.cases) {
      if (c.status !== 'ok' || !c.stats?.opsPerSec) continue;
      const f = FIGURES[which](c.stats);
      if (!f || typeof f.low !== 'number' || typeof f.high !== 'number') continue;
      const k = caseKey(c);
      if (!byCase.has(k)) byCase.set(k, { op: c.op, figures: [] });
      byCase.get(k)?.figures.push(f);
    }
  const byOp = /** @type {Record<string, { pairs: number, inside: number, widths: number[], moves: number[] }>} */ ({});
  for (const { op, figures } of byCase.values()) {
    const t = (byOp[op] ??= { pairs: 0, inside: 0, widths: [], moves: [] });
    for (const f of figures) t.widths.push(widerSide(f.value, f.low, f.high));
    for (let i = 0; i < figures.length; i++)
      for (let j = 0; j < figures.length; j++) {
        if (i === j) continue;
        t.pairs++;
        t.inside += Number(figures[j].value >= figures[i].low && figures[j].value <= figures[i].high);
        if (j > i) t.moves.push(Math.abs(figures[j].value / figures[i].value - 1));
      }
  }
  const rows = Object.entries(byOp)
    .filter(([, t]) => t.pairs)
    .map(([op, t]) => {
      const width = quantile(t.widths, 0.5);
      const move95 = quantile(t.moves, 0.95);
      return { op, pairs: t.pairs, coverage: t.inside / t.pairs, width, move95, ratio: width / move95 };
    });
  const pairs = rows.reduce((a, r) => a + r.pairs, 0);
  return { byOp: rows, all: { pairs, coverage: rows.reduce((a, r) => a + r.coverage * r.pairs, 0) / pairs } };
}

/** The in-run comparisons' half-widths per operation, over repeat runs (the A/A twin left out). */
export function pairedWidths(/** @type {any[]} */ docs) {
  const bound = Object.fromEntries(OPS.map((o) => [o.name, o.bound]));
  const byOp = /** @type {Record<string, { halves: number[], decided: number }>} */ ({});
  for (const doc of docs)
    for (const c of doc.comparisons ?? []) {
      if (c.id === 'self-check') continue;
      const t = (byOp[c.op] ??= { halves: [], decided: 0 });
      t.halves.push((Math.log1p(c.high) - Math.log1p(c.low)) / 2);
      t.decided += Number(c.verdict !== 'too noisy to tell');
    }
  return Object.entries(byOp).map(([op, t]) => ({
    op,
    bound: bound[op] ?? 'io',
    comparisons: t.halves.length,
    halfWidth: Math.expm1(quantile(t.halves, 0.5)),
    decided: t.decided,
  }));
}
