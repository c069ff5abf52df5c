// One verdict vocabulary (lib/verdicts.js): every verdict a schema admits, a judge gives, a chart
// colours or the code compares against is one of its words, a claim's own on top; none of the
// words of the five lists it replaced comes back. A sixth list fails here.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CLAIM_VERDICTS, COUNT_VERDICTS, RANKED, VERDICTS, tally } from '../lib/verdicts.js';
import { judgeRounds, verdictOfInterval } from '../lib/judge.js';
import { verdictOf } from '../bench/claims/verdict.js';
import { VERDICT } from '../aggregate/charts/theme.js';
import { ROOT } from './helpers.js';

const WORDS = Object.values(VERDICTS);
const CLAIM = [...Object.values(CLAIM_VERDICTS), VERDICTS.unclear, VERDICTS.notCompared];
const ALL = new Set(/** @type {string[]} */ ([...WORDS, ...CLAIM]));
/** The words of the lists before this one: none is a verdict any more. */
const OLD = ['regression', 'improvement', 'within noise', 'too noisy', 'no difference', 'not measured', 'same'];

test('one list: the compare ranks each word once, the tally counts each, a claim adds words of its own', () => {
  assert.deepEqual([...RANKED].sort(), [...WORDS].sort());
  assert.deepEqual(Object.keys(tally([{ verdict: 'slower' }, { verdict: 'slower' }])).sort(), [...WORDS].sort());
  assert.equal(tally([{ verdict: 'slower' }, { verdict: 'slower' }]).slower, 2);
  assert.equal(RANKED[0], 'slower', 'the report ranks slower first');
  for (const w of Object.values(CLAIM_VERDICTS)) assert.ok(!WORDS.includes(/** @type {any} */ (w)), w);
  for (const w of OLD) assert.ok(!ALL.has(w), w);
});

/**
 * Every `enum` of a property named verdict in a JSON Schema, with where it is.
 * @param {any} node
 * @param {string} at
 * @returns {{ at: string, values: string[] }[]}
 */
function verdictEnums(node, at = '') {
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => [
    ...(k === 'verdict' && Array.isArray(v?.enum) ? [{ at: `${at}/${k}`, values: v.enum }] : []),
    ...verdictEnums(v, `${at}/${k}`),
  ]);
}

test("the schemas' verdict enums are the vocabulary's words: every judged pair's all, a claim's its own on top", () => {
  const load = (/** @type {string} */ f) => JSON.parse(fs.readFileSync(path.join(ROOT, f), 'utf8'));
  const schema = load('bench/result/document.schema.json');
  const { comparison, ...defs } = schema.$defs;
  // a run of several sides' counted differences (lib/costs.js countDifferences): the count words
  // but 'not counted' (a case counted on one side alone has no difference)
  const { differences, ...counting } = schema.properties.counting.properties;
  assert.deepEqual(
    verdictEnums(differences, '/properties/counting/properties/differences').map((e) => e.values),
    [Object.values(COUNT_VERDICTS).filter((w) => w !== COUNT_VERDICTS.notCounted)],
  );
  const properties = { ...schema.properties, counting: { ...schema.properties.counting, properties: counting } };
  const result = verdictEnums({ $defs: defs, properties });
  const shootout = verdictEnums(comparison, '/$defs/comparison');
  assert.ok(result.length >= 1 && shootout.length >= 1, 'the enums are found');
  assert.equal(schema.properties.comparisons.items.$ref, '#/$defs/comparison', 'one list of judged pairs');
  assert.equal(schema.$defs.workloads.properties.comparisons, undefined, "the workloads' pairs are in it");
  for (const e of [...result, ...shootout]) for (const v of e.values) assert.ok(ALL.has(v), `${v} at ${e.at}`);
  const sorted = (/** @type {string[]} */ xs) => [...xs].sort();
  assert.deepEqual(sorted(shootout[0].values), sorted(WORDS));
  assert.ok(
    result.some((e) => sorted(e.values).join() === sorted(CLAIM).join()),
    'the claims enum',
  );
  for (const v of VERDICT.domain) assert.ok(ALL.has(v), `the charts colour ${v}`);
});

test('the judges give only the vocabulary: the paired verdict, a comparison within a run, a claim of every kind', () => {
  const ends = [-0.5, -0.12, -0.1, -0.05, -0.01, 0, 0.01, 0.05, 0.1, 0.12, 0.5];
  /** @type {import('../bench/claims/verdict.js').ClaimedChange[]} */
  const claims = [
    { kind: 'change', low: 0.12, high: 0.12 },
    { kind: 'change', low: -0.3, high: -0.1 },
    { kind: 'direction', sign: -1 },
    { kind: 'minimal', bound: 0.05 },
    { kind: 'none' },
  ];
  const given = new Set();
  for (const low of ends)
    for (const high of ends.filter((h) => h >= low)) {
      for (const threshold of [0.1, null]) given.add(verdictOfInterval({ low, high }, threshold));
      for (const c of claims) given.add(verdictOf(c, { low, high }));
    }
  // a run's comparisons: 20% more, 20% fewer ops/s in every block, and ±30% about no change
  const ref = [1, 2, 3, 4, 5, 6].map((i) => ({ slot: `${i}`, opsPerSec: 1000 }));
  for (const [k, noise] of [
    [1.2, 0.01],
    [0.8, 0.01],
    [1, 0.3],
  ])
    given.add(
      judgeRounds(
        ref,
        ref.map((r, i) => ({ slot: r.slot, opsPerSec: 1000 * k * (1 + (i % 2 ? noise : -noise)) })),
      )?.verdict,
    );
  for (const v of given) assert.ok(ALL.has(v), String(v));
  for (const w of [...WORDS.filter((x) => x !== VERDICTS.notCompared), ...Object.values(CLAIM_VERDICTS)])
    assert.ok(given.has(w), `${w} is given`);
});

test("the code compares verdicts with, and writes, only the vocabulary (the counts' words among it)", () => {
  const dirs = ['aggregate', 'bench', 'compare', 'lib', 'publish'];
  const files = dirs.flatMap((d) =>
    fs
      .readdirSync(path.join(ROOT, d), { recursive: true })
      .map((f) => path.join(d, String(f)))
      .filter((f) => f.endsWith('.js') || f.endsWith('.json')),
  );
  assert.ok(files.length > 100, 'the source is found');
  const costs = new Set(/** @type {string[]} */ (Object.values(COUNT_VERDICTS)));
  /** @type {string[]} */
  const bad = [];
  for (const f of files) {
    const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
    text.split('\n').forEach((line, i) => {
      // `verdict === 'x'`, `verdict: 'x'`, `verdict = c ? 'x' : 'y'`: the words up to the next && || , ;
      for (const m of line.matchAll(/verdict\s*(?:===|!==|=|:)\s*([^&|,;]*)/g))
        for (const w of m[1].matchAll(/'([a-z][a-z ]*)'/g))
          if (!ALL.has(w[1]) && !costs.has(w[1])) bad.push(`${f}:${i + 1}: ${w[1]}`);
      // the old words, as a string anywhere (a schema's enum, a map's key, a helper's argument)
      for (const w of OLD.filter((o) => o !== 'same'))
        if (line.includes(`'${w}'`) || line.includes(`"${w}"`)) bad.push(`${f}:${i + 1}: ${w}`);
    });
  }
  assert.deepEqual(bad, []);
});
