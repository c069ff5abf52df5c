// The cases a quick run counts (npm run bench -- --quick): a few that stand for the rest, so the
// counting pass (bench/counts/), whose processes run many times slower under valgrind, fits in a
// quick run's minute. A full run counts every timed case. The other cases of a quick run have no
// `counts`, and the document's `counting.reason` says which were counted and why.
//
// Why these: what one operation costs differs most between operations (counted here, quick K,
// production: ~0.3 M instructions per update, ~1 M per insert or select, ~170 M per VACUUM, ~470 M
// per setup, most of it the key derivation), then between ciphers (each enciphers every page it
// writes), and less between PRAGMA configs or drivers doing the same work. So: every timed
// operation once, on production (its config, driver and cipher); then each cipher family once, on
// insert, with the production PRAGMAs. Insert, because every commit enciphers the pages it writes,
// while a select, after its warm-up, mostly reads pages the page cache holds deciphered. AES-128
// and AES-256 CBC are one family (wxSQLite3's AES-CBC, the same code with more rounds): AES-256
// stands for both. `none` is the control: the same package, no key.
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
