// Comparisons a run reports: each a reference setup and the setups compared with it, on every
// timed operation (its pairs: bench/data/run-plan.js). Both sides are measured in the same run on
// the same machine, in the same round and block (bench/run/run-suite.js blocksOf), and judged paired (lib/judge.js).
import { PRODUCTION_CIPHER } from './ciphers.js';
import { PRODUCTION_CONFIG, TWIN_CONFIG } from './configs.js';
import { PRODUCTION_DRIVER } from './drivers.js';

/**
 * @typedef {object} Comparison
 * @property {string} id
 * @property {string} title what it answers
 * @property {import('./suite.js').Setup} reference
 * @property {{ configs: string[] | '*', drivers: string[] | '*', ciphers: string[] | '*' }} members the setups compared with it (as suite.js RULES), the reference itself left out
 */

/** @type {Comparison[]} */
export const COMPARISONS = [
  {
    id: 'self-check',
    title: `A/A self-check: ${PRODUCTION_CONFIG} measured twice as two independent cases`,
    reference: { config: PRODUCTION_CONFIG, driver: PRODUCTION_DRIVER, cipher: PRODUCTION_CIPHER },
    members: { configs: [TWIN_CONFIG], drivers: [PRODUCTION_DRIVER], ciphers: [PRODUCTION_CIPHER] },
  },
  {
    id: 'config',
    title: 'What each PRAGMA change does, against Production',
    reference: { config: PRODUCTION_CONFIG, driver: PRODUCTION_DRIVER, cipher: PRODUCTION_CIPHER },
    members: { configs: '*', drivers: [PRODUCTION_DRIVER], ciphers: [PRODUCTION_CIPHER] },
  },
  {
    id: 'cipher',
    title: `What encryption costs, against ${PRODUCTION_DRIVER} without a key`,
    reference: { config: PRODUCTION_CONFIG, driver: PRODUCTION_DRIVER, cipher: 'none' },
    members: { configs: [PRODUCTION_CONFIG], drivers: [PRODUCTION_DRIVER], ciphers: '*' },
  },
  {
    id: 'cipher-vs-better-sqlite3',
    title: 'What encryption costs, against better-sqlite3 (unencrypted)',
    reference: { config: PRODUCTION_CONFIG, driver: 'better-sqlite3', cipher: 'none' },
    members: { configs: [PRODUCTION_CONFIG], drivers: [PRODUCTION_DRIVER], ciphers: '*' },
  },
  {
    id: 'driver',
    title: `Drivers without encryption, against ${PRODUCTION_DRIVER}`,
    reference: { config: PRODUCTION_CONFIG, driver: PRODUCTION_DRIVER, cipher: 'none' },
    members: { configs: [PRODUCTION_CONFIG], drivers: '*', ciphers: ['none'] },
  },
];
