// The counts of two sides compared (the compare's base and head; a claim's reference and variant):
// what each case costs per operation on either side (instructions under callgrind; fsyncs, writes
// and bytes under strace; bench/counts/), side by side, and whether the cost changed. Counts do not move with the machine: a change beyond what two processes of the same
// code disagree by is a change in the code's cost, found where wall time is too noisy to tell.
// Whether a change is one (beyondRepeat) is the compare's and the shootout's alike.
// Pure functions over each side's `npm run counts` output (bench/counts/cli.js); built-ins only
// (the PR comment renders them). The words are lib/verdicts.js's COUNT_VERDICTS.
import { sig } from './format.js';
import { COUNT_VERDICTS as W } from './verdicts.js';

/**
 * The one rule on a count (instructions per operation, in total or in one component) measured
 * twice on each of two sides: it changed when its change exceeds its tolerance, the largest of
 * - a floor: COUNT_FLOOR, 0.1%, for the total (above the repeat spread of 99% of the cases on
 *   Node 20, docs/counting.md: p99 0.044%, so two counts that each repeated exactly still need to
 *   differ by this much); a component's, COMPONENT_FLOORS;
 * - SPREAD_TIMES × the larger of the case's own two repeat spreads (|repeat / first − 1|);
 * - OP_SPREAD_TIMES × the largest repeat spread of any case of its operation, where the family has
 *   others (the repeat runs with the heap laid out differently, bench/counts/cli.js, and a select's
 *   count moves with the layout by about 1% either way, so two layouts may lie twice that apart).
 * Calibrated by `npm run compare -- --calibrate-counts` (docs/compare.md); the compare and the
 * shootout judge by it.
 */
export const COUNT_FLOOR = 0.001;
const SPREAD_TIMES = 3;
const OP_SPREAD_TIMES = 2;

/**
 * A count's tolerance: the smallest |change| that is a change.
 * @param {number} spread the larger of the case's two sides' repeat spreads
 * @param {number} [opSpread] the largest repeat spread of any case of its operation, either side
 * @param {number} [floor] COUNT_FLOOR, or a component's (in the component's own units)
 */
export const countTolerance = (spread, opSpread = 0, floor = COUNT_FLOOR) =>
  Math.max(floor, SPREAD_TIMES * spread, OP_SPREAD_TIMES * opSpread);

/**
 * A component's floor, as a share of the operation's instructions (bench/data/components.js
 * names the components): SQLite's, the cipher's and the binding's machine code runs the same
 * whatever the heap looks like (Node 24's calibration, docs/compare.md: cipher and binding moved
 * by no instruction between any two processes, SQLite's part of a select by at most 0.21% of
 * itself, 0.1% of the select, which its spreads then cover); the runtime has the total's floor;
 * libc 0.3%, twice the 0.15% of a select its malloc moved by between A/A checkouts on Node 24,
 * which no repeat within a side sees (docs/compare.md).
 * @type {Readonly<Record<string, number>>}
 */
export const COMPONENT_FLOORS = Object.freeze({ sqlite: 0.0005, cipher: 0.0005, binding: 0.0005, libc: 0.003 });

/**
 * The PR check fails on an increase in instructions/op of this much or more (beyond the
 * tolerance), or in bytes written per operation; smaller increases are reported, not failed.
 */
const FAIL_INCREASE = 0.01;

/**
 * The amount a component's change is taken over: the component, or 1% of the operation's
 * instructions where the component is smaller (a component of a few instructions moves by whole
 * instructions).
 */
export const componentScale = (/** @type {number} */ part, /** @type {number} */ instructions) =>
  Math.max(Math.abs(part), 0.01 * instructions, 1);

/**
 * How far a case's repeat is from its first count in one component (bench/data/components.js):
 * |repeat - first| over componentScale; null where either count has no components.
 * @param {any} counts a case's `counts`
 * @param {string} component
 * @returns {number | null}
 */
export function componentDifference(counts, component) {
  const a = counts?.components?.[component];
  const b = counts?.repeat?.components?.[component];
  if (typeof a !== 'number' || typeof b !== 'number') return null;
  return Math.abs(b - a) / componentScale(a, counts.instructions);
}

/** The system-call counts compared exactly, as [field, label]. */
export const IO = /** @type {const} */ ([
  ['fsync', 'fsync'],
  ['write', 'writes'],
  ['read', 'reads'],
  ['written', 'bytes written'],
  ['bytesRead', 'bytes read'],
]);

/** @typedef {typeof IO[number][0]} IoField */

/**
 * @typedef {object} SideCost one side's counts of a case, per operation
 * @property {number} instructions the mean of its two counts (first and repeat, in new processes)
 * @property {number} spread |repeat / first - 1| of its instructions
 * @property {boolean} exact whether its two counts made the same system calls and bytes
 * @property {Record<IoField, number>} io
 * @property {Record<string, number>} [components] instructions per operation by component, the mean of
 *   its two counts (bench/data/components.js), where both counts have them
 * @property {Record<string, number>} [componentSpreads] each component's repeat spread (componentDifference)
 */

/**
 * @typedef {object} ComponentChange one component of a case's instructions, compared
 * @property {string} component
 * @property {number} delta instructions/op, head less base
 * @property {number} change delta over the base's component (or 1% of its operation, where larger)
 * @property {number} tolerance the smallest |change| called a change (countTolerance with its floor)
 */

/**
 * @typedef {object} CostRow
 * @property {string} key
 * @property {string} op
 * @property {import('./verdicts.js').CountVerdict} verdict
 * @property {string} [reason] why not counted
 * @property {SideCost | null} base
 * @property {SideCost | null} head
 * @property {number | null} change instructions/op, head over base, less 1
 * @property {number | null} tolerance the smallest |change| called a change for this case
 * @property {ComponentChange[]} [components] every component both sides counted, compared by the same rule
 * @property {{ field: IoField, base: number, head: number }[]} io the system-call counts that differ
 * @property {boolean} fails whether this case fails the PR check (FAIL_INCREASE of the total, an added
 *   fsync or write; a component's change alone is reported, not failed)
 */

/**
 * One side's counts of a case, or why there are none.
 * @param {any} counts a case's `counts` (bench/counts/counts.js CaseCounts)
 * @returns {SideCost | { reason: string }}
 */
function sideCost(counts) {
  if (!counts) return { reason: 'not counted' };
  if (counts.status !== 'ok') return { reason: String(counts.reason ?? 'not counted') };
  const a = counts.instructions;
  const b = counts.repeat?.instructions ?? a;
  if (!(a > 0) || !(b > 0)) return { reason: 'no instructions counted' };
  return {
    instructions: (a + b) / 2,
    spread: Math.abs(b / a - 1),
    exact: counts.repeat?.syscallsSame !== false,
    io: {
      fsync: counts.syscalls?.fsync ?? 0,
      write: counts.syscalls?.write ?? 0,
      read: counts.syscalls?.read ?? 0,
      written: counts.bytes?.written ?? 0,
      bytesRead: counts.bytes?.read ?? 0,
    },
    ...componentsOf(counts),
  };
}

/**
 * A case's instructions per operation by component, the mean of its two counts, and each
 * component's repeat spread (componentDifference); nothing where a count has no components.
 * @param {any} counts a case's `counts`
 * @returns {{ components?: Record<string, number>, componentSpreads?: Record<string, number> }}
 */
function componentsOf(counts) {
  const a = counts?.components;
  const b = counts?.repeat ? counts.repeat.components : a;
  if (!a || !b) return {};
  const keys = Object.keys(a);
  return {
    components: Object.fromEntries(keys.map((k) => [k, ((a[k] ?? 0) + (b[k] ?? 0)) / 2])),
    componentSpreads: Object.fromEntries(keys.map((k) => [k, componentDifference(counts, k) ?? 0])),
  };
}

/** Two exact counts per operation are the same (they are ratios of whole numbers). */
const same = (/** @type {number} */ a, /** @type {number} */ b) => Math.abs(a - b) <= 1e-9 * Math.max(1, a, b);

/**
 * Each component of a case's instructions compared by the one rule (countTolerance), where both
 * sides have components: its change over componentScale, its floor COMPONENT_FLOORS (or
 * COUNT_FLOOR) of the operation's instructions, its spreads componentDifference's.
 * @param {Pick<SideCost, 'instructions' | 'components' | 'componentSpreads'>} b
 * @param {Pick<SideCost, 'instructions' | 'components' | 'componentSpreads'>} h
 * @param {Record<string, number>} [opSpread] the operation's largest spread, by component (judgeSides)
 * @returns {ComponentChange[]}
 */
function componentChanges(b, h, opSpread = {}) {
  if (!b.components || !h.components) return [];
  const names = [...new Set([...Object.keys(b.components), ...Object.keys(h.components)])];
  return names.map((component) => {
    const was = b.components?.[component] ?? 0;
    const scale = componentScale(was, b.instructions);
    const delta = (h.components?.[component] ?? 0) - was;
    const spread = Math.max(b.componentSpreads?.[component] ?? 0, h.componentSpreads?.[component] ?? 0);
    const floor = ((COMPONENT_FLOORS[component] ?? COUNT_FLOOR) * b.instructions) / scale;
    return {
      component,
      delta,
      change: delta / scale,
      tolerance: countTolerance(spread, opSpread[component], floor),
    };
  });
}

/**
 * A judged case's components (judgeCase, on the mean of each side's two counts) in instructions per
 * operation: each one's delta, head less base, and the least |delta| that is a difference, in the
 * form of document.schema.json $defs/componentChange. The counted differences (countDifferences)
 * and the claims' mechanisms (aggregate/render/mechanism.js) both read them from here.
 * @param {Pick<SideCost, 'instructions' | 'components'>} b the base's (reference's) cost
 * @param {ComponentChange[]} components
 * @returns {Record<string, { delta: number, tolerance: number }>}
 */
export function componentDeltas(b, components) {
  const scale = (/** @type {string} */ k) => componentScale(b.components?.[k] ?? 0, b.instructions);
  return Object.fromEntries(
    components.map((x) => [x.component, { delta: x.delta, tolerance: x.tolerance * scale(x.component) }]),
  );
}

/** Whether a stored component's change (componentDeltas) is a difference: beyond its tolerance. */
export const componentMoved = (/** @type {{ delta: number, tolerance: number }} */ x) =>
  Math.abs(x.delta) > x.tolerance;

/**
 * The one rule on a case counted on two sides (the compare's base and head, a shootout's reference
 * and member): its instructions per operation changed when |head / base - 1| exceeds its
 * countTolerance, the operation's spread taken over every case of the two sides (a select's count
 * moves by about 1% with the heap's layout, as it does with any change of code: then no select is
 * trusted closer than that, between these sides); each of its components likewise
 * (componentChanges: SQLite's part of a select repeats where its runtime's does not, so a change
 * there is found that the total's tolerance hides). Its fsyncs, writes, reads and bytes per
 * operation changed when they differ at all, where both sides counted them the same twice (a field
 * a side did not store is not compared). Each side's instructions are the mean of its two counts
 * (docs/counting.md#one-rule).
 * @param {SideCost} b
 * @param {SideCost} h
 * @param {number | undefined} opSpread the operation's largest repeat spread (judgeSides)
 * @param {Record<string, number>} opComponentSpread the operation's, by component (judgeSides)
 */
function judgeCase(b, h, opSpread, opComponentSpread) {
  const change = h.instructions / b.instructions - 1;
  const tolerance = countTolerance(Math.max(b.spread, h.spread), opSpread);
  const components = componentChanges(b, h, opComponentSpread);
  const io =
    b.exact && h.exact
      ? IO.filter(([f]) => f in b.io && f in h.io && !same(b.io[f], h.io[f])).map(([field]) => ({
          field,
          base: b.io[field],
          head: h.io[field],
        }))
      : [];
  const moved = [{ change, tolerance }, ...components].filter(beyondRepeat);
  const ups = moved.filter((x) => x.change > 0).length + io.filter((x) => x.head > x.base).length;
  const downs = moved.filter((x) => x.change < 0).length + io.filter((x) => x.head < x.base).length;
  const fails =
    (Math.abs(change) > tolerance && change >= FAIL_INCREASE) ||
    io.some(
      (x) =>
        ((x.field === 'fsync' || x.field === 'write') && x.head > x.base) ||
        (x.field === 'written' && x.head >= x.base * (1 + FAIL_INCREASE)),
    );
  /** @type {import('./verdicts.js').CountVerdict} */
  const verdict = ups && downs ? W.changed : ups ? W.more : downs ? W.less : W.same;
  return { verdict, change, tolerance, components, io, fails };
}

/**
 * Every case counted on both of two sides judged by the one rule (judgeCase), its operation's
 * spreads taken over every counted case of the two sides: the member's cases in their order.
 * @param {Map<string, { op: string, cost: SideCost | { reason: string } }>} reference cases by key
 * @param {Map<string, { op: string, cost: SideCost | { reason: string } }>} member
 */
function judgeSides(reference, member) {
  const all = [...reference.values(), ...member.values()].flatMap(({ op, cost }) =>
    'instructions' in cost ? [{ op, cost }] : [],
  );
  /** @type {Map<string, number>} the largest repeat spread per operation */
  const opSpread = new Map();
  for (const { op, cost } of all) opSpread.set(op, Math.max(opSpread.get(op) ?? 0, cost.spread));
  return [...member].flatMap(([key, { op, cost: h }]) => {
    const b = reference.get(key)?.cost;
    if (!b || !('instructions' in b) || !('instructions' in h)) return [];
    // per component, the largest repeat spread of the operation's cases on either side
    const opComponentSpread = /** @type {Record<string, number>} */ ({});
    for (const c of all.filter((x) => x.op === op))
      for (const [k, x] of Object.entries(c.cost.componentSpreads ?? {}))
        opComponentSpread[k] = Math.max(opComponentSpread[k] ?? 0, x);
    return [{ key, op, b, h, ...judgeCase(b, h, opSpread.get(op), opComponentSpread) }];
  });
}

/**
 * The cases of both sides, compared by the one rule (judgeSides), from each side's raw `counts`
 * (bench/counts/counts.js CaseCounts): the claims' mechanism (aggregate/render/mechanism.js) and
 * the count rule's calibration (compare/calibrate-counts.js). A run document's are countDifferences.
 * @param {{ key: string, op: string, counts: any }[]} base
 * @param {{ key: string, op: string, counts: any }[]} head
 * @returns {CostRow[]}
 */
export function costRows(base, head) {
  const sides = [base, head].map((cs) => new Map(cs.map((c) => [c.key, { op: c.op, cost: sideCost(c.counts) }])));
  const judged = new Map(judgeSides(sides[0], sides[1]).map((j) => [j.key, j]));
  const keys = [...new Set([...sides[0].keys(), ...sides[1].keys()])].sort();
  return keys.map((key) => {
    const j = judged.get(key);
    if (j) {
      const { b: base, h: head, components, ...rest } = j;
      return { ...rest, base, head, ...(components.length ? { components } : {}) };
    }
    const op = /** @type {{ op: string }} */ (sides[0].get(key) ?? sides[1].get(key)).op;
    const [bc, hc] = sides.map((m) => m.get(key)?.cost ?? { reason: 'not in this side' });
    const why = 'reason' in bc ? `base: ${bc.reason}` : `head: ${/** @type {{ reason: string }} */ (hc).reason}`;
    return {
      key,
      op,
      verdict: W.notCounted,
      reason: why,
      base: 'instructions' in bc ? bc : null,
      head: 'instructions' in hc ? hc : null,
      change: null,
      tolerance: null,
      io: [],
      fails: false,
    };
  });
}

/**
 * A case as a run of several sides stores it in `counting.cases` (bench/shootout/count-nodes.js):
 * the first count's instructions and components, the repeat's difference and components, the
 * system calls and bytes per operation (read, written and bytesRead absent in documents before
 * they were stored), whether every system call repeated.
 * @typedef {object} CountedCase
 * @property {string} side
 * @property {string} key
 * @property {'ok' | 'error'} status
 * @property {string} [reason]
 * @property {number} [instructions]
 * @property {number} [difference]
 * @property {Record<string, number>} [components]
 * @property {Record<string, number>} [repeatComponents]
 * @property {number} [fsync]
 * @property {number} [write]
 * @property {number} [read]
 * @property {number} [written]
 * @property {number} [bytesRead]
 * @property {boolean} [syscallsSame]
 */

/**
 * A stored counted case as its side's cost: the mean of its two counts, in total and by component
 * (the figures the rule judges, and the compare's report shows).
 * @param {CountedCase} c a case with status 'ok'
 * @returns {SideCost}
 */
export function storedCost(c) {
  const a = /** @type {number} */ (c.instructions);
  const d = c.difference ?? 0;
  const io = /** @type {Record<IoField, number>} */ (
    Object.fromEntries(IO.flatMap(([f]) => (typeof c[f] === 'number' ? [[f, c[f]]] : [])))
  );
  const counts = { instructions: a, components: c.components, repeat: { components: c.repeatComponents } };
  return {
    instructions: a * (1 + d / 2),
    spread: Math.abs(d),
    exact: c.syscallsSame !== false,
    io,
    ...componentsOf(counts),
  };
}

const sig6 = (/** @type {number} */ x) => (Number.isFinite(x) ? sig(x) : x);

/**
 * The document's `counting.differences` for a run of several sides (the compare's base and head,
 * a shootout's pairs): per judged pair and case counted on both its sides, the one rule's judgement
 * (judgeCase): the member's instructions per operation against its reference's (the mean of each
 * side's two counts; + is more), the larger of the two sides' repeat spreads, the tolerance, per
 * component the member's instructions less the reference's with the least |delta| that is a
 * difference (in instructions per operation), the system calls and bytes that differ, the count
 * verdict and whether the case fails the PR check.
 * @param {CountedCase[]} cases
 * @param {{ comparison: string, reference: string, member: string }[]} pairs
 */
export function countDifferences(cases, pairs) {
  const ok = cases.filter((c) => c.status === 'ok' && typeof c.instructions === 'number' && c.instructions > 0);
  const side = (/** @type {string} */ label) =>
    new Map(ok.filter((c) => c.side === label).map((c) => [c.key, { op: opOfKey(c.key), cost: storedCost(c) }]));
  return pairs.flatMap((cmp) =>
    judgeSides(side(cmp.reference), side(cmp.member)).map(({ key, op, b, h, ...j }) => {
      // named as a judged pair is (document.schema.json $defs/comparison)
      return {
        id: cmp.comparison,
        reference: cmp.reference,
        member: cmp.member,
        setup: key.slice(0, key.lastIndexOf('/')),
        op,
        verdict: j.verdict,
        change: sig6(j.change),
        spread: sig6(Math.max(b.spread, h.spread)),
        tolerance: sig6(j.tolerance),
        components: Object.fromEntries(
          Object.entries(componentDeltas(b, j.components)).map(([k, x]) => [
            k,
            { delta: sig6(x.delta), tolerance: sig6(x.tolerance) },
          ]),
        ),
        io: j.io.map((x) => ({ field: x.field, reference: x.base, member: x.head })),
        fails: j.fails,
      };
    }),
  );
}

/** A case key's operation (its last part: bench/data/suite.js caseKey). */
const opOfKey = (/** @type {string} */ key) => key.slice(key.lastIndexOf('/') + 1);

/** The components of a row that moved beyond their tolerance, largest first. */
export const movedComponents = (/** @type {CostRow} */ r) =>
  (r.components ?? []).filter(beyondRepeat).sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta));

/**
 * Whether a change in counts is one: beyond its tolerance (countTolerance; the shootout stores it
 * with each difference, bench/shootout/count-nodes.js). A case or component the compare could not
 * judge (null) is not.
 * @param {{ change: number | null, tolerance: number | null }} d
 */
export function beyondRepeat(d) {
  return d.change !== null && d.tolerance !== null && Math.abs(d.change) > d.tolerance;
}
