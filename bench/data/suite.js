// Which cases a run measures: rules over the data, expanded, then filtered by name.
import { CIPHERS, PRODUCTION_CIPHER } from './ciphers.js';
import { CONFIGS, DEFAULT_CONFIGS, PRODUCTION_CONFIG } from './configs.js';
import { DRIVERS, PRODUCTION_DRIVER } from './drivers.js';
import { CLAIM_PAIRS } from './production-claims.js';
import { OPS } from './ops.js';

/** @typedef {{ configs: string[] | '*', drivers: string[] | '*', ciphers: string[] | '*' }} Rule */

/**
 * Every PRAGMA config on the production driver and cipher; every cipher (and no key) with the
 * production PRAGMAs; every driver without encryption with the production PRAGMAs and with none.
 * Each on every operation. '*' of configs is every config but the claim-only variants, which
 * are measured only in the cases of the claims (bench/data/production-claims.js, `claimCases`).
 * @type {Rule[]}
 */
export const RULES = [
  { configs: '*', drivers: [PRODUCTION_DRIVER], ciphers: [PRODUCTION_CIPHER] },
  { configs: [PRODUCTION_CONFIG], drivers: [PRODUCTION_DRIVER], ciphers: '*' },
  { configs: [PRODUCTION_CONFIG, 'baseline'], drivers: '*', ciphers: ['none'] },
];

/** @typedef {{ config: string, driver: string, cipher: string }} Setup */
/** @typedef {Setup & { op: string }} Case */

/** A case's own fields, as its entry in a document starts, whatever else the object carries. */
export const caseFields = (/** @type {Case} */ c) => ({
  config: c.config,
  driver: c.driver,
  cipher: c.cipher,
  op: c.op,
});

/** A case's name in results, orders and the compare: config/driver/cipher/op. */
export const caseKey = (/** @type {Case} */ c) => `${c.config}/${c.driver}/${c.cipher}/${c.op}`;

/** A setup's name: config/driver/cipher. */
export const setupKey = (/** @type {Setup} */ s) => `${s.config}/${s.driver}/${s.cipher}`;

/** A setup's directory name (--keep-db shows it): config__driver__cipher, each part with every character but letters, digits and '-' as '_'. */
export const setupDir = (/** @type {Setup} */ s) =>
  [s.config, s.driver, s.cipher].map((x) => x.replace(/[^a-z0-9-]/gi, '_')).join('__');

/**
 * The case a key names (the inverse of caseKey; no table name contains '/').
 * @param {string} key
 * @returns {Case}
 */
export function parseCaseKey(key) {
  const [config, driver, cipher, op] = key.split('/');
  return { config, driver, cipher, op };
}

/**
 * The setup a key names (the inverse of setupKey).
 * @param {string} key
 * @returns {Setup}
 */
export const parseSetupKey = (key) => {
  const { config, driver, cipher } = parseCaseKey(key);
  return { config, driver, cipher };
};

/**
 * The engine flags that select these filters (--config NAME … per table): what a run passes to its
 * engine processes, and the compare to both sides' engines.
 * @param {Partial<Record<string, string[]>>} filters
 */
export const filterArgs = (filters) =>
  Object.entries(filters).flatMap(([table, names]) => (names ?? []).flatMap((n) => [`--${table}`, n]));

/** The names each part of a case may take (config, driver, cipher, op), from the data. */
export const CASE_NAMES = {
  config: CONFIGS.map((c) => c.name),
  driver: DRIVERS.map((d) => d.name),
  cipher: CIPHERS.map((c) => c.name),
  op: OPS.map((o) => o.name),
};

/**
 * The (config, driver, cipher) combinations, in table order, without duplicates.
 * @returns {Setup[]}
 */
export function setups() {
  const pick = (/** @type {string[] | '*'} */ sel, /** @type {string[]} */ all) => (sel === '*' ? all : sel);
  const seen = new Set();
  const out = /** @type {Setup[]} */ ([]);
  for (const rule of RULES) {
    for (const config of pick(rule.configs, DEFAULT_CONFIGS)) {
      for (const driver of pick(rule.drivers, CASE_NAMES.driver)) {
        for (const cipher of pick(rule.ciphers, CASE_NAMES.cipher)) {
          const d = DRIVERS.find((x) => x.name === driver);
          if (!d?.encryption && cipher !== 'none') continue;
          const key = setupKey({ config, driver, cipher });
          if (seen.has(key)) continue;
          seen.add(key);
          out.push({ config, driver, cipher });
        }
      }
    }
  }
  return out;
}

/**
 * The cases of the claims (bench/data/production-claims.js) that the rules do not already give:
 * the claim-only variants, on the operations of their claims.
 * @param {string[]} [ids] only these claims' cases (all of theirs, also those the rules give)
 * @returns {Case[]}
 */
function claimCases(ids) {
  const given = new Set(ids ? [] : setups().flatMap((s) => CASE_NAMES.op.map((op) => caseKey({ ...s, op }))));
  const out = new Map();
  for (const p of CLAIM_PAIRS.filter((x) => !ids || ids.includes(x.claim.id)))
    for (const c of [p.reference, p.member]) if (!given.has(caseKey(c))) out.set(caseKey(c), c);
  return [...out.values()];
}

/**
 * Every case the rules give, then the claims' own; filtered by table, and with a claim
 * filter only the cases of those claims.
 * @param {{ config?: string[], driver?: string[], cipher?: string[], op?: string[], claim?: string[] }} filters empty or missing: all
 * @returns {Case[]}
 */
export function cases(filters = {}) {
  const all = filters.claim?.length
    ? claimCases(filters.claim)
    : [...setups().flatMap((s) => CASE_NAMES.op.map((op) => ({ ...s, op }))), ...claimCases()];
  const parts = /** @type {const} */ (['config', 'driver', 'cipher', 'op']);
  return all.filter((c) => parts.every((t) => !filters[t]?.length || filters[t]?.includes(c[t])));
}
