// The README block's first lines: what the numbers say, per machine class, before how to read them
// and before any chart. Each finding is a paired figure of one run on one machine with its 95%
// interval, and its counted mechanism where the run counted both sides (bench/claims/mechanism.js):
// the largest PRAGMA effect and the largest cipher effect whose interval excludes 0, the shootout's
// verdict, the claims tally, the newest change point of the nightly history. Machine classes are
// separate machines: nothing here compares one with another.
import { mechanismOf } from '../../bench/claims/mechanism.js';
import { claimRows } from '../../bench/claims/table.js';
import { parseSetupKey } from '../../bench/tables/suite.js';
import { inert } from '../../lib/markdown.js';
import { claimsRun } from './claims.js';
import { NOT_A_NUMBER, day } from '../../lib/format.js';
import { cipherLabel, comparisonRun, configLabel, opLabel } from './common.js';
import { MEASURES, historyOf, sizeText } from './history.js';
import { newestShootout, shootoutPoints, shootoutView } from './shootout.js';

/** A change in %, signed, with the interval: "−52% [−55%, −49%]". */
const pct = (/** @type {number} */ x) => {
  if (typeof x !== 'number' || !Number.isFinite(x)) return NOT_A_NUMBER;
  const a = Math.abs(100 * x);
  return `${x < 0 ? '−' : '+'}${a >= 10 ? Math.round(a) : a.toFixed(1)}%`;
};
const changeText = (/** @type {{ change: number, low: number, high: number }} */ c) =>
  `${pct(c.change)} [${pct(c.low)}, ${pct(c.high)}]`;

/**
 * The largest effect of a comparison's members whose 95% interval excludes 0, by the size of the
 * change as a ratio (a halving weighs as a doubling), with its mechanism.
 * @param {any} doc
 * @param {string} id the comparison (bench/tables/comparisons.js): 'config' or 'cipher'
 * @param {(setupKey: string) => string} name
 */
export function largestEffect(doc, id, name) {
  const cases = new Map(
    (doc.cases ?? []).map((/** @type {any} */ c) => [`${c.config}/${c.driver}/${c.cipher}/${c.op}`, c]),
  );
  const real = (doc.comparisons ?? []).filter(
    (/** @type {any} */ c) => c.id === id && c.verdict !== 'too noisy to tell' && (c.low > 0 || c.high < 0),
  );
  if (!real.length) return null;
  const size = (/** @type {any} */ c) => Math.abs(Math.log(Math.max(1e-3, 1 + c.change)));
  const best = real.reduce((/** @type {any} */ a, /** @type {any} */ c) => (size(c) > size(a) ? c : a));
  const mechanism = mechanismOf(cases.get(`${best.reference}/${best.op}`), cases.get(`${best.member}/${best.op}`));
  return `${name(best.member)}, ${opLabel(best.op)} ${changeText(best)}${mechanism ? ` (${mechanism})` : ''}`;
}

/**
 * The shootout in a clause: the largest clear difference each way against the reference Node, and
 * how many comparisons showed none or could not tell.
 * @param {any} doc a shootout document
 */
function shootoutClause(doc) {
  const view = shootoutView(doc);
  const { points } = shootoutPoints(view);
  const size = (/** @type {{ change: number }} */ p) => Math.abs(Math.log(Math.max(0.01, 1 + p.change / 100)));
  const largest = (/** @type {string} */ verdict) =>
    points.filter((p) => p.verdict === verdict).sort((a, b) => size(b) - size(a))[0];
  const clear = ['faster', 'slower']
    .map((v) => largest(v))
    .filter((p) => p !== undefined)
    .map((p) => `${inert(p.who)} ${inert(p.op)} ${pct(p.change / 100)} [${pct(p.low / 100)}, ${pct(p.high / 100)}]`);
  const n = (/** @type {string} */ v) => points.filter((p) => p.verdict === v).length;
  return `against ${inert(doc.reference)}, ${clear.length ? `largest ${clear.join(' and ')}` : 'no clear difference'} (${n('faster') + n('slower')} clear, ${n('no change')} no change, ${n('too noisy to tell')} too noisy to tell of ${points.length})`;
}

/**
 * One machine class's findings, as a list item; null when it has nothing to say yet.
 * @param {{ machine: string, entries: import('../store.js').Entry[] }} c
 * @param {{ load: (e: import('../store.js').Entry) => any, nights: import('./index.js').BlockContext['nights'], resultsLink: string }} o
 */
export function findingsOf(c, o) {
  const results = c.entries.filter((e) => (e.kind ?? 'result') === 'result');
  const parts = [];
  const doc = comparisonRun({ entries: results, load: o.load });
  let run = '';
  if (doc) {
    run = ` (${inert(doc.environment.node)}, ${day(doc.run.finishedAt)})`;
    const config = largestEffect(doc, 'config', (k) => configLabel(parseSetupKey(k).config));
    const cipher = largestEffect(doc, 'cipher', (k) => cipherLabel(parseSetupKey(k).cipher));
    parts.push(`largest PRAGMA effect: ${config ?? 'none clear'}`, `largest cipher cost: ${cipher ?? 'none clear'}`);
  }
  const shootout = newestShootout(c.entries);
  if (shootout) parts.push(`shootout: ${shootoutClause(o.load(shootout))}`);
  const claims = claimsRun({ entries: results, load: o.load });
  if (claims) {
    const rows = claimRows(claims).filter((r) => r.verdict !== 'context');
    /** @type {Map<string, number>} */
    const tally = new Map();
    for (const r of rows) tally.set(r.verdict, (tally.get(r.verdict) ?? 0) + 1);
    parts.push(
      `claims: ${[...tally]
        .sort((a, b) => b[1] - a[1])
        .map(([v, n]) => `${n} ${inert(String(v).replace(' than claimed', ''))}`)
        .join(', ')} of ${rows.length}`,
    );
  }
  const changes = historyOf({
    platform: '',
    machine: c.machine,
    entries: results,
    load: o.load,
    resultsLink: o.resultsLink,
    page: 'readme',
    nights: o.nights,
    chart: () => '',
  }).flatMap((h) => h.changes);
  if (results.some((e) => e.mode === 'full')) {
    const newest = changes.reduce(
      (/** @type {(typeof changes)[number] | null} */ a, x) => (!a || x.finishedAt > a.finishedAt ? x : a),
      null,
    );
    parts.push(
      newest
        ? `newest change point: ${day(newest.finishedAt)}, Node ${newest.major} ${opLabel(newest.op)} ${MEASURES.find((m) => m.name === newest.measure)?.label ?? newest.measure} ${sizeText(newest)}${newest.cause ? ` (${newest.cause})` : ''}`
        : 'no change point in the history shown',
    );
  }
  return parts.length ? `- **${inert(c.machine)}**${run}: ${parts.join('; ')}.` : null;
}

/**
 * The findings list: a heading line and one item per machine class that has something to say.
 * @param {import('./index.js').BlockContext} ctx
 * @returns {string[]}
 */
export function renderFindings(ctx) {
  const items = ctx.classes.map((c) => findingsOf(c, ctx)).filter((x) => x !== null);
  if (!items.length) return [];
  return [
    '**Findings**: changes in ops/s, each measured side by side in one run on one machine, with its 95% interval, and in parentheses what was counted per operation where it was. Each machine class is a separate machine.',
    '',
    ...items,
  ];
}
