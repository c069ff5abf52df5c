// The cases a quick run counts (npm run bench -- --quick): a few that stand for the rest, so the
// counting pass fits in a quick run's minute; a full run counts every timed case. Why these (every
// timed operation on production, insert under each other cipher family): docs/counting.md, "What it
// costs, and where it runs". Insert, because every commit enciphers the pages it writes, while a
// select after its warm-up mostly reads pages the cache holds deciphered; AES-256 CBC stands for
// AES-128 CBC (the same code with more rounds); `none` is the control: the same package, no key.
import { PRODUCTION_CIPHER } from './ciphers.js';
import { PRODUCTION_CONFIG } from './configs.js';
import { PRODUCTION_DRIVER } from './drivers.js';
import { OPS } from './ops.js';
import { caseKey } from './suite.js';

/** The operation each cipher family is counted on. */
const CIPHER_OP = 'insert';

/** One cipher per family besides production's (chacha20, counted on every operation). */
export const CIPHER_FAMILIES = ['aes256cbc', 'sqlcipher', 'rc4', 'ascon128', 'aegis', 'none'];

const production = { config: PRODUCTION_CONFIG, driver: PRODUCTION_DRIVER };

/** @type {import('./suite.js').Case[]} */
export const QUICK_COUNTS = [
  ...OPS.filter((o) => o.count).map((o) => ({ ...production, cipher: PRODUCTION_CIPHER, op: o.name })),
  ...CIPHER_FAMILIES.map((cipher) => ({ ...production, cipher, op: CIPHER_OP })),
];

const KEYS = new Set(QUICK_COUNTS.map(caseKey));

/** Whether a quick run counts this case. */
export const quickCounted = (/** @type {import('./suite.js').Case} */ c) => KEYS.has(caseKey(c));

/**
 * What a quick run counts of its timed cases, and the sentence the document gives for the rest
 * (counting.reason); null when it counts them all.
 * @template {import('./suite.js').Case} C
 * @param {C[]} timed
 * @returns {{ counted: C[], reason: string | null }}
 */
export function quickCountSelection(timed) {
  const counted = timed.filter(quickCounted);
  const left = timed.length - counted.length;
  if (!left) return { counted, reason: null };
  return {
    counted,
    reason:
      `quick run: counted ${counted.length} of ${timed.length} timed cases (those of bench/data/quick-counts.js: every operation on ` +
      `${PRODUCTION_CONFIG}/${PRODUCTION_DRIVER}/${PRODUCTION_CIPHER}, and ${CIPHER_OP} under each other cipher family); ` +
      `not counted: ${left}, to keep a quick run quick; a full run counts every timed case`,
  };
}
