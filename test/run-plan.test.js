// The plan of a run (bench/data/run-plan.js): its cases are the suite's, and its pairs are what the
// run compares, counted here from the tables themselves, so a change to a table that drops or adds
// a pair shows as a count.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CIPHERS } from '../bench/data/ciphers.js';
import { DEFAULT_CONFIGS } from '../bench/data/configs.js';
import { DRIVERS } from '../bench/data/drivers.js';
import { OPS } from '../bench/data/ops.js';
import { CLAIMS } from '../bench/data/production-claims.js';
import { runPlan } from '../bench/data/run-plan.js';
import { caseKey, cases } from '../bench/data/suite.js';

const TIMED = OPS.filter((o) => o.kind === 'timed').length;
const count = (/** @type {import('../bench/data/run-plan.js').Pair[]} */ pairs) => {
  /** @type {Record<string, number>} */
  const n = {};
  for (const p of pairs) {
    const k = p.claim ? `claim ${p.claim.id}` : p.comparison;
    n[k] = (n[k] ?? 0) + 1;
  }
  return n;
};

test('the plan of the whole suite: its cases, and a pair per comparison member and timed operation, and per measured check of a claim', () => {
  const plan = runPlan();
  assert.deepEqual(plan.cases.map(caseKey), cases().map(caseKey));
  assert.deepEqual(plan.sides, [{ node: process.version }]);
  const measured = (/** @type {(typeof CLAIMS)[number]} */ e) =>
    e.checks.filter((c) => c.op && c.member && c.claim && !c.notMeasured).length;
  assert.deepEqual(count(plan.pairs), {
    'self-check': TIMED, // the twin
    config: (DEFAULT_CONFIGS.length - 1) * TIMED, // every config but production
    cipher: (CIPHERS.length - 1) * TIMED, // every key against none
    'cipher-vs-better-sqlite3': CIPHERS.length * TIMED, // every cipher, none included
    driver: (DRIVERS.length - 1) * TIMED, // the other drivers, unencrypted
    ...Object.fromEntries(CLAIMS.filter(measured).map((e) => [`claim ${e.id}`, measured(e)])),
  });
  assert.equal(
    plan.pairs.length,
    281,
    'the count before the plan (bench/data/comparisons.js and the claims queried apart)',
  );
  const have = new Set(plan.cases.map(caseKey));
  for (const p of plan.pairs) {
    assert.equal(p.member.op, p.reference.op);
    assert.ok(have.has(caseKey(p.member)) && have.has(caseKey(p.reference)), caseKey(p.member));
    assert.ok(p.claim || DEFAULT_CONFIGS.includes(p.member.config), 'a claim-only variant is compared in its claims');
  }
  // a claim's pair is judged as the comparison with its two cases, or in 'claims' where none has them
  const sides = (/** @type {import('../bench/data/run-plan.js').Pair} */ p) =>
    `${caseKey(p.reference)}|${caseKey(p.member)}`;
  const compared = new Map(plan.pairs.filter((p) => !p.claim).map((p) => [sides(p), p.comparison]));
  const claims = plan.pairs.filter((p) => p.claim);
  for (const p of claims) assert.equal(p.comparison, compared.get(sides(p)) ?? 'claims', sides(p));
  assert.deepEqual(
    [claims.filter((p) => p.comparison !== 'claims').length, claims.filter((p) => p.comparison === 'claims').length],
    [9, 16],
    "9 checks' pairs are a comparison's (6 config, 3 cipher), 16 the claims' own",
  );
});

test("a filtered run's plan has the pairs both of whose cases it has", () => {
  const all = runPlan().pairs;
  for (const filters of [
    { config: ['production'] },
    { op: ['insert'] },
    { claim: ['cipher'] },
    { driver: ['node:sqlite'] },
  ]) {
    const plan = runPlan(filters);
    const have = new Set(plan.cases.map(caseKey));
    const expected = all.filter((p) => have.has(caseKey(p.reference)) && have.has(caseKey(p.member)));
    assert.deepEqual(plan.pairs, expected, JSON.stringify(filters));
  }
  // --claim cipher: AES-256, ChaCha20 and no key on insert; the cipher comparison pairs the two keys with none
  assert.deepEqual(count(runPlan({ claim: ['cipher'] }).pairs), { cipher: 2, 'claim cipher': 4 });
});
