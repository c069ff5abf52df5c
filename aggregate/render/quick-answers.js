// A quick run's answers to the README's questions (aggregate/answers/), from its one round: each a
// ratio of two cases' typical figures as × time per operation, with no interval. One round is no
// evidence: a smoke test that every question can be asked of this machine, not figures to compare
// (a full run judges each over its family; the README answers per machine class). Encryption per
// cipher, each tuning by what a commit survives, node:sqlite against the two packages; which Node
// and what changed are not one run's to answer, and say where they are answered.
import { CIPHERS, PRODUCTION_CIPHER } from '../../bench/data/ciphers.js';
import { DURABILITY_WORDS, PRODUCTION_CONFIG, TUNINGS } from '../../bench/data/configs.js';
import { PRODUCTION_DRIVER } from '../../bench/data/drivers.js';
import { OPS, OP_GROUPS } from '../../bench/data/ops.js';
import { setupKey } from '../../bench/data/suite.js';
import { inert } from '../../lib/markdown.js';

/**
 * × time of member against reference over these operations: the geometric mean of the ratios of
 * their typical figures (ops/s); null where a case did not run.
 * @param {any} doc
 * @param {string} reference a setup key (config/driver/cipher)
 * @param {string} member
 * @param {readonly string[]} ops
 */
function timeRatio(doc, reference, member, ops) {
  const rate = (/** @type {string} */ key, /** @type {string} */ op) =>
    doc.cases.find((/** @type {any} */ c) => c.status === 'ok' && c.op === op && setupKey(c) === key)?.stats?.opsPerSec
      ?.median;
  const logs = ops.map((op) => Math.log(rate(reference, op) / rate(member, op)));
  return logs.length && logs.every(Number.isFinite) ? Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length) : null;
}

/** writes, reads, opening as × time, those that ran. */
const groups = (/** @type {any} */ doc, /** @type {string} */ reference, /** @type {string} */ member) =>
  Object.entries(OP_GROUPS)
    .flatMap(([group, ops]) => {
      const r = timeRatio(doc, reference, member, ops);
      return r === null ? [] : [`${group} ${r.toFixed(2)}×`];
    })
    .join(', ');

/**
 * The answers' lines (Markdown, the summary's): a heading line marking them as a smoke test, then
 * one item per question.
 * @param {any} doc a quick run's result document
 */
export function quickAnswers(doc) {
  const key = (/** @type {string} */ config, /** @type {string} */ driver, /** @type {string} */ cipher) =>
    setupKey({ config, driver, cipher });
  const noKey = key(PRODUCTION_CONFIG, PRODUCTION_DRIVER, 'none');
  const production = key(PRODUCTION_CONFIG, PRODUCTION_DRIVER, PRODUCTION_CIPHER);
  const ciphers = CIPHERS.filter((c) => c.name !== 'none').flatMap((c) => {
    const text = groups(doc, noKey, key(PRODUCTION_CONFIG, PRODUCTION_DRIVER, c.name));
    return text ? [`${c.label}${c.name === PRODUCTION_CIPHER ? ' (Production)' : ''}: ${text}`] : [];
  });
  const tunings = Object.entries(DURABILITY_WORDS).flatMap(([durability, words]) => {
    const mine = TUNINGS.filter((c) => c.durability === durability).flatMap((c) => {
      const text = groups(doc, production, key(c.name, PRODUCTION_DRIVER, PRODUCTION_CIPHER));
      return text ? [`${c.label}: ${text}`] : [];
    });
    return mine.length ? [`${words}: ${mine.join('; ')}`] : [];
  });
  const drivers = ['better-sqlite3', PRODUCTION_DRIVER].flatMap((driver) => {
    const per = OPS.filter((op) => op.kind === 'timed').flatMap((op) => {
      const r = timeRatio(doc, key(PRODUCTION_CONFIG, driver, 'none'), key(PRODUCTION_CONFIG, 'node:sqlite', 'none'), [
        op.name,
      ]);
      return r === null ? [] : [`${op.label} ${r.toFixed(2)}×`];
    });
    return per.length ? [`against ${driver}: ${per.join(', ')}`] : [];
  });
  const sqlite = doc.sides[0].drivers.find((/** @type {any} */ d) => d.name === 'node:sqlite');
  const node = inert(doc.environment?.node);
  return [
    'Answers from this one round, as × time per operation (SMOKE TEST: one round has no interval and is no evidence; a full run judges each answer, the README gives them per machine class):',
    '',
    `- Encryption, against ${PRODUCTION_DRIVER} without a key: ${ciphers.join('; ') || 'no cipher ran with its reference'}.`,
    `- PRAGMAs, each tuning against Production: ${tunings.join('; ') || 'no tuning ran with its reference'}.`,
    `- Node: this run is Node ${node} alone; \`npm run shootout\` ranks every Node on one machine.`,
    `- Driver, node:sqlite: ${drivers.join('; ') || `not measured on Node ${node} (${inert(sqlite?.status ?? 'absent')})`}.`,
    '- Changes: one run has none; `npm run compare` compares two commits, the nightly history the nights.',
  ];
}
