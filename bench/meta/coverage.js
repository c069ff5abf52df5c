// Whether the ± means what it says, measured over repeat runs (meta:precision): for every pair of
// runs and every case measured in both, does the later run's median land within the two figures'
// combined 95% intervals (lib/stats/interval.js `lands`)? And how often does the A/A self-check
// flag identical configs? Reported per operation, for the interval as it is now and for the
// earlier ± (1.96 × the rse of the rounds, symmetric), so the width is compared too.
import { lands } from '../../lib/stats/interval.js';
import { quantile } from '../../lib/stats/spread.js';
import { widerSide } from '../../lib/stats/headline.js';
import { caseKey } from '../tables/suite.js';

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
  /** @type {Map<string, any[]>} */
  const byCase = new Map();
  docs.forEach((doc, run) => {
    for (const c of doc.cases) {
      const o = c.stats?.opsPerSec;
      if (c.status !== 'ok' || typeof o?.low !== 'number' || typeof o?.rse !== 'number') continue;
      const k = caseKey(c);
      byCase.set(k, [...(byCase.get(k) ?? []), { run, op: c.op, o, modes: Boolean(c.stats.modes) }]);
    }
  });
  /** @type {Record<string, { pairs: number, landed: number, landedEarlier: number, widths: number[], widthsEarlier: number[], modes: number, figures: number }>} */
  const byOp = {};
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
    for (let i = 0; i < figures.length; i++) {
      for (let j = i + 1; j < figures.length; j++) {
        t.pairs++;
        t.landed += Number(lands(now(figures[i].o), now(figures[j].o)));
        t.landedEarlier += Number(lands(earlier(figures[i].o), earlier(figures[j].o)));
      }
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
