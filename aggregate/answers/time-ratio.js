// A judged change as the answers write it: the cost as × time per operation, with its interval,
// then the change in ops/s (−50% ops/s is 2.00× time, −59% is 2.44×: read as × they no longer
// look close); "≈" with the interval where the judge did not decide.
import { VERDICTS } from '../../lib/verdicts.js';
import { changePercent } from '../render/figure.js';

/** A time ratio: 2 decimals below 10 (1.03×, 2.44×), whole above (12×). */
const times = (/** @type {number} */ r) => (!Number.isFinite(r) ? '?' : r < 10 ? r.toFixed(2) : String(Math.round(r)));

/** A change in ops/s, signed, whole from 10%: −50%, +3.1%. */
export const opsPercent = (/** @type {number} */ x) => changePercent(x, 10);

/**
 * "2.00× [1.93, 2.08] −50%" (× time, its interval, the change in ops/s), or "≈ [0.97, 1.04]" where
 * undecided; the vocabulary's "not compared" without a judgement.
 * @param {{ change: number, low: number, high: number, verdict: string } | null} j ops/s: member / reference − 1
 */
export function timeText(j) {
  if (!j) return VERDICTS.notCompared;
  const [r, lo, hi] = [1 / (1 + j.change), 1 / (1 + j.high), 1 / (1 + j.low)];
  if (j.verdict !== 'faster' && j.verdict !== 'slower') return `≈ [${times(lo)}, ${times(hi)}]`;
  return `${times(r)}× [${times(lo)}, ${times(hi)}] ${opsPercent(j.change)}`;
}
