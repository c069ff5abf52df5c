// The Node answer: the newest shootout's Nodes ranked with the driver held constant (its
// same-driver comparisons: each Node against the reference Node with the same driver line), each
// a summary over production's operations (the geometric mean of the paired ratios round by round)
// judged as one family with Holm (family.js), with the instructions per operation beside it where
// the shootout counted them and the components the difference went to (each case's share of its
// difference per component beyond its repeat, averaged over the cases that differ: every case
// weighs alike, as in the geometric mean); and which Node the run's figures above ran on.
import { COMPONENT_LABELS } from '../../bench/data/components.js';
import { beyondRepeat, componentMoved } from '../../lib/costs.js';
import { inert } from '../../lib/markdown.js';
import { pairsOf, referenceOf } from '../../bench/result/header.js';
import { judgeFamily, shootoutPairs } from './family.js';
import { PRODUCTION_SETUP } from '../sections/common.js';
import { opsPercent, timeText } from './time-ratio.js';

/**
 * The geometric mean of head's instructions per operation over base's, over these keys; null
 * where a key was not counted on both sides.
 */
function instructions(
  /** @type {any} */ doc,
  /** @type {string} */ base,
  /** @type {string} */ head,
  /** @type {string[]} */ keys,
) {
  const count = (/** @type {string} */ side, /** @type {string} */ key) =>
    (doc.counting?.cases ?? []).find((/** @type {any} */ c) => c.side === side && c.key === key && c.status === 'ok')
      ?.instructions;
  const logs = keys.map((k) => Math.log(count(head, k) / count(base, k)));
  return keys.length && logs.every(Number.isFinite)
    ? Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length) - 1
    : null;
}

/**
 * Where head's instructions differ from base's over these keys, in words: the components holding
 * 10% or more of the difference on average over the keys whose difference is beyond its repeat,
 * largest first, "runtime 96%"; empty where none differs or the shootout has no components.
 */
function components(
  /** @type {any} */ doc,
  /** @type {string} */ base,
  /** @type {string} */ head,
  /** @type {string[]} */ keys,
) {
  /** @type {any[]} */
  const diffs = (doc.counting?.differences ?? []).filter(
    (/** @type {any} */ d) =>
      d.reference === base &&
      d.member === head &&
      keys.includes(`${d.setup}/${d.op}`) &&
      d.components &&
      beyondRepeat(d),
  );
  /** @type {Record<string, number>} */
  const share = {};
  for (const d of diffs) {
    const total = Object.values(d.components).reduce((s, /** @type {any} */ x) => s + x.delta, 0);
    for (const [c, x] of Object.entries(d.components))
      if (componentMoved(x)) share[c] = (share[c] ?? 0) + x.delta / total / diffs.length;
  }
  return Object.entries(share)
    .filter(([, x]) => x >= 0.1)
    .sort((a, b) => b[1] - a[1])
    .map(([c, x]) => `${COMPONENT_LABELS[/** @type {keyof typeof COMPONENT_LABELS} */ (c)]} ${Math.round(x * 100)}%`)
    .join(', ');
}

/**
 * The ranking: the reference and each Node compared with it on the same driver, fastest first.
 * @param {any} doc a shootout document
 */
function nodeRanking(doc) {
  const keys = [...new Set((doc.comparisons ?? []).map((/** @type {any} */ r) => `${r.setup}/${r.op}`))].filter((k) =>
    k.startsWith(`${PRODUCTION_SETUP}/`),
  );
  /** @type {any[]} */
  const same = pairsOf(doc).filter((c) => c.comparison === 'same-driver');
  const judged = judgeFamily(
    same.map((/** @type {any} */ c) => ({
      side: String(c.member),
      pairs: shootoutPairs(doc, c.reference, c.member, keys),
      instructions: instructions(doc, c.reference, c.member, keys),
      components: components(doc, c.reference, c.member, keys),
    })),
  ).filter((a) => a.judgement);
  const rank = (/** @type {{ judgement: any }} */ a) => (a.judgement ? -a.judgement.change : 0);
  return [
    { side: String(referenceOf(doc)), judgement: null, instructions: null, components: '', reference: true },
    ...judged,
  ].sort((a, b) => rank(a) - rank(b));
}

/**
 * @param {any | null} shootout the newest shootout document of the machine class
 * @param {any | null} run the run the other answers come from
 * @returns {{ text: string, line: string } | null}
 */
export function nodeAnswer(shootout, run) {
  const ran = run ? `the figures above ran on Node ${inert(run.environment.node)}` : '';
  if (!shootout) return run ? { text: `no shootout on this machine class yet; ${ran}`, line: '' } : null;
  const ranked = nodeRanking(shootout);
  const text = ranked
    .map((a) =>
      'reference' in a
        ? `${inert(a.side)} (reference)`
        : `${inert(a.side)} ${timeText(a.judgement)}${a.instructions === null ? '' : `, instructions/op ${opsPercent(a.instructions)}${a.components ? ` (of which ${a.components})` : ''}`}`,
    )
    .join(' · ');
  return {
    text: `fastest first, × time against the reference over Production's operations, the driver held constant: ${text}${ran ? `; ${ran}` : ''}`,
    line:
      ranked[0].judgement?.verdict === 'faster'
        ? `fastest ${ranked[0].side}`
        : `none decided faster than ${referenceOf(shootout)}`,
  };
}
