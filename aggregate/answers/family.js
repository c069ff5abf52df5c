// A declared question's answers are judged together, as one family (lib/judge.js: Holm over the
// family, each interval at the level its Holm step tested it at), never as the largest of many
// uncorrected comparisons (issue 38: that pick printed an effect in 96% of runs with none). A
// question is asked of a document's rounds, not of its stored per-comparison judgements (each a
// family of one): a summary over operations (writes, reads) is the geometric mean of the paired
// ratios, each round's figure the mean over the operations of that round's log ratio, so its
// interval is the judge's over the rounds.
import { judge, roundPairs, roundsOf } from '../../lib/judge.js';
import { caseKey } from '../../bench/data/suite.js';

/**
 * One round's log ratio per round id of a case against its reference, rounds paired by block as
 * the run's comparisons pair them (lib/judge.js roundPairs: the round's paired figure where its
 * slices gave one, else the ratio of the two rounds' figures).
 * @param {any} reference the reference case
 * @param {any} member
 * @param {string} referenceKey the reference's setup key
 */
function roundLogs(reference, member, referenceKey) {
  const [a, b] = [roundsOf(reference), roundsOf(member, referenceKey)];
  const logs =
    a && b ? roundPairs(a, b).map((p) => [p.slot.split('/')[0], p.log ?? Math.log(p.member / p.reference)]) : [];
  return new Map(/** @type {[string, number][]} */ (logs.filter(([, log]) => Number.isFinite(log))));
}

/** A run's case of a setup key (config/driver/cipher) and an operation. */
export const caseOf = (/** @type {any} */ doc, /** @type {string} */ key, /** @type {string} */ op) =>
  (doc.cases ?? []).find((/** @type {any} */ c) => caseKey(c) === `${key}/${op}`);

/**
 * The pairs of a question asked of a run: member against reference over these operations, a pair
 * per round measured for every one of them (the mean of its operations' log ratios).
 * @param {any} doc a result document
 * @param {string} referenceKey a setup key (config/driver/cipher)
 * @param {string} memberKey
 * @param {string[]} ops
 * @returns {import('../../lib/judge.js').PairedRound[]}
 */
export function runPairs(doc, referenceKey, memberKey, ops) {
  const ok = (/** @type {string} */ key, /** @type {string} */ op) => {
    const c = caseOf(doc, key, op);
    return c?.status === 'ok' ? c : undefined;
  };
  const perOp = ops.map((op) => roundLogs(ok(referenceKey, op), ok(memberKey, op), referenceKey));
  if (perOp.some((m) => !m.size)) return [];
  return [...perOp[0].keys()]
    .filter((r) => perOp.every((m) => m.has(r)))
    .map((r) => ({
      reference: 1,
      member: 1,
      log: perOp.reduce((s, m) => s + /** @type {number} */ (m.get(r)), 0) / ops.length,
    }));
}

/**
 * The pairs of a question asked of a shootout: head side against base side over these case keys,
 * round by round (its `cases` hold each side's figure of every round, in round order).
 * @param {any} doc a shootout document
 * @param {string} base a side's label
 * @param {string} head
 * @param {string[]} keys case keys
 * @returns {import('../../lib/judge.js').PairedRound[]}
 */
export function shootoutPairs(doc, base, head, keys) {
  const rounds = (/** @type {string} */ side, /** @type {string} */ key) =>
    doc.cases.find((/** @type {any} */ c) => c.side === side && caseKey(c) === key && c.status === 'ok')?.rounds;
  const both = keys.map((k) => [rounds(base, k), rounds(head, k)]);
  if (!keys.length || both.some(([b, h]) => !b || !h)) return [];
  const n = Math.min(...both.map(([b, h]) => Math.min(b.length, h.length)));
  return Array.from({ length: n }, (_, i) => ({
    reference: 1,
    member: 1,
    log: both.reduce((s, [b, h]) => s + Math.log(h[i] / b[i]), 0) / keys.length,
  })).filter((p) => Number.isFinite(p.log));
}

/**
 * @template Q
 * @typedef {Q & { judgement: import('../../lib/judge.js').Judgement | null }} Answered
 */

/**
 * Judge a declared family: every question with its pairs, Holm over all of them.
 * @template {{ pairs: import('../../lib/judge.js').PairedRound[] }} Q
 * @param {Q[]} questions
 * @returns {Answered<Q>[]} in order; judgement null where a question has too few pairs
 */
export function judgeFamily(questions) {
  const judged = judge(
    questions.map((q) => q.pairs),
    { minPairs: 3 },
  );
  return questions.map((q, i) => ({ ...q, judgement: judged[i] }));
}

/** A decided answer: its corrected interval excludes 0. */
export const decided = (/** @type {{ judgement: { verdict: string } | null }} */ a) =>
  a.judgement?.verdict === 'faster' || a.judgement?.verdict === 'slower';
