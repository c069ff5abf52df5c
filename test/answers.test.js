// The README block's answers (aggregate/answers/): per machine class, encryption, PRAGMAs, Node,
// driver and changes, each present, each derived from the documents (change a figure, the answer
// changes), each a declared question judged over its family with Holm: a crafted family whose
// largest raw effect is not significant after Holm offers nothing, and Synchronous OFF is never
// under "safe". From documents the synthetic generator makes (bench/meta/synthetic.js), and the
// mechanisms (in which components the instructions go) from real counted documents (test/fixtures/:
// how each was made is said where it is read).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { syntheticDoc, syntheticShootout } from '../bench/meta/synthetic.js';
import { CONFIGS, TUNINGS, durabilityOf } from '../bench/data/configs.js';
import { answersOf, renderAnswers } from '../aggregate/answers/index.js';
import { encryptionAnswer } from '../aggregate/answers/encryption.js';
import { tuningsAnswer, tuningsOf } from '../aggregate/answers/tunings.js';
import { judge } from '../lib/judge.js';
import { nodeAnswer } from '../aggregate/answers/node-ranking.js';
import { driverAnswer } from '../aggregate/answers/driver-choice.js';
import { changesAnswer } from '../aggregate/answers/recent-changes.js';
import { createRandom } from '../lib/prng.js';
import { countDifferences } from '../lib/costs.js';
import { pairsOf } from '../bench/result/header.js';
import { ROOT } from './helpers.js';

/** @returns {any} a store entry (aggregate/store.js; a shootout's file is named so: isShootoutEntry) */
const entry = (/** @type {string} */ file, /** @type {any} */ d) => ({
  file,
  node: d.environment.node,
  mode: d.run.mode,
  status: 'complete',
  finishedAt: d.run.finishedAt,
  sha256: file,
});
const nights = (/** @type {any} */ doc) => ({
  of: () =>
    /** @type {any} */ ({ figures: {}, counts: {}, finishedAt: doc.run.finishedAt, node: doc.environment.node }),
});
const caseOf = (/** @type {any} */ doc, /** @type {string} */ key) =>
  doc.cases.find((/** @type {any} */ c) => `${c.config}/${c.driver}/${c.cipher}/${c.op}` === key);

test('answers: all five per machine class, in order; the first class open, the others collapsed with a line', () => {
  /** @type {any} */
  const doc = syntheticDoc({ node: 'v24.11.0' });
  /** @type {any} */
  const shootout = syntheticShootout({});
  const docs = new Map([
    ['a.json', doc],
    ['x-shootout-0a1b2c3d.json', shootout],
  ]);
  const o = { load: (/** @type {any} */ e) => docs.get(e.file), resultsLink: 'results', nights: nights(doc) };
  const entries = [entry('a.json', doc), entry('x-shootout-0a1b2c3d.json', shootout)];
  const { answers } = answersOf({ machine: 'linux-x64 · test', entries }, o);
  assert.deepEqual(
    answers.map(([name, a]) => [name, Boolean(a?.text)]),
    ['Encryption', 'PRAGMAs', 'Node', 'Driver', 'Changes'].map((n) => [n, true]),
  );
  const lines = renderAnswers(
    /** @type {any} */ ({
      ...o,
      classes: [
        { platform: 'linux-x64', machine: 'linux-x64 · one', entries },
        { platform: 'linux-x64', machine: 'linux-x64 · two', entries },
      ],
    }),
  );
  const text = lines.join('\n');
  assert.match(text, /^\*\*linux-x64 · one \(run of \d{4}-\d\d-\d\d, Node v24\.11\.0\)\*\*$/m);
  assert.match(text, /^<details><summary><b>linux-x64 · two .*<\/b>: Encryption: ChaCha20-Poly1305 .*<\/summary>$/m);
  // the collapsed class's line whole, to its last answer: longer than one answer's text is kept
  const summary = /** @type {string} */ (lines.find((l) => l.startsWith('<details><summary>')));
  assert.ok(summary.length > 250, summary);
  assert.match(summary, /; Driver: [^;…]+; Changes: none in the last night<\/summary>$/);
  assert.equal(lines.filter((l) => l.startsWith('- **Encryption**')).length, 2);
  // the ranking names the reference and the Nodes with the driver held constant, and the run's Node
  assert.match(text, /- \*\*Node\*\*: fastest first.* v22 12\.x \(reference\).*ran on Node v24\.11\.0\.$/m);
  assert.doesNotMatch(text, /v18 11\.x/, 'a Node on another driver line is not ranked');
});

test('answers: changes are derived from the nights: a driver bump that slows select is named with its cause', () => {
  // 40 nights of one Node; night 25 on: select 12% slower, with the driver's bump (as the synthetic year)
  let step = true;
  const day0 = Date.UTC(2026, 0, 1, 3, 17);
  const random = createRandom(7);
  const series = () =>
    Array.from({ length: 40 }, (_, i) => {
      const v = 5000 * (1 + 0.01 * (random() - 0.5)) * (step && i >= 25 ? 0.88 : 1);
      return {
        file: `n${i}.json`,
        sha256: `${step}-${i}`,
        finishedAt: new Date(day0 + i * 86_400_000).toISOString(),
        node: 'v24.11.0',
        image: null,
        driver: step && i >= 25 ? '13.0.4' : '13.0.3',
        sqlite: '3.51.0',
        sqlite3mc: null,
        commit: null,
        figures: { select: [v, v * 0.99, v * 1.01] },
      };
    });
  const answer = () => {
    const nights = series();
    const entries = nights.map((n) => ({ ...n, mode: 'full', status: 'complete' }));
    const byFile = new Map(nights.map((n) => [n.file, n]));
    const o = {
      load: () => assert.fail('the answer reads the nights, not the documents'),
      resultsLink: 'results',
      nights: /** @type {any} */ ({ now: day0 + 40 * 86_400_000, of: (/** @type {any} */ e) => byFile.get(e.file) }),
    };
    return changesAnswer({ machine: `linux-x64 · ${step}`, entries: /** @type {any} */ (entries) }, o);
  };
  assert.match(
    String(answer()?.text),
    /^2026-01-26, Node 24 Select ops\/s −1[1-3]% \[[^\]]+\] \(better-sqlite3-multiple-ciphers 13\.0\.3 → 13\.0\.4\)$/,
  );
  assert.equal(answer()?.line, 'newest change point 2026-01-26');
  step = false;
  assert.deepEqual(answer(), { text: 'none in the last 40 nights', line: 'none in the last 40 nights' });
});

test('answers: encryption is derived from the rounds: halve a cipher’s select and its reads cost doubles', () => {
  /** @type {any} */
  const doc = syntheticDoc({ node: 'v24.11.0' });
  const reads = () =>
    Number(/ChaCha20-Poly1305 \([^)]*\): .*?, reads (\d+\.\d+)× /.exec(String(encryptionAnswer(doc)?.text))?.[1]);
  const before = reads();
  assert.ok(before > 1, String(encryptionAnswer(doc)?.text));
  const sel = caseOf(doc, 'production/better-sqlite3-multiple-ciphers/chacha20/select');
  sel.stats.rounds = sel.stats.rounds.map((/** @type {number} */ x) => x / 2);
  assert.ok(Math.abs(reads() / before - 2) < 0.02, `${before} → ${reads()}`);
});

/**
 * A run where no tuning does anything (every tuning's rounds are production's, but for a small
 * alternating wobble) except one crafted effect on one operation.
 * @param {number[]} logs the crafted effect's log ratios, one per round
 * @param {string} config
 * @param {string} op
 */
function craftedRun(logs, config, op) {
  /** @type {any} */
  const doc = syntheticDoc({ node: 'v24.11.0' });
  for (const t of TUNINGS)
    for (const c of doc.cases.filter(
      (/** @type {any} */ x) =>
        x.config === t.name && x.driver === 'better-sqlite3-multiple-ciphers' && x.cipher === 'chacha20' && x.stats,
    )) {
      const ref = caseOf(doc, `production/better-sqlite3-multiple-ciphers/chacha20/${c.op}`);
      const n = Math.min(ref.stats.rounds.length, logs.length);
      const shift = (/** @type {number} */ i) =>
        t.name === config && c.op === op ? logs[i] : (i % 2 ? 0.004 : -0.004) * (1 + (i % 3));
      c.stats.rounds = ref.stats.rounds
        .slice(0, n)
        .map((/** @type {number} */ x, /** @type {number} */ i) => x * Math.exp(shift(i)));
      c.stats.slots = ref.stats.slots.slice(0, n);
    }
  return doc;
}

test('answers: the largest raw PRAGMA effect is not offered when Holm over the family does not decide it', () => {
  // −20% on average, but noisy: alone (a family of one) its interval excludes 0; over the family it does not
  const logs = [-0.325, -0.11, -0.29, -0.12, -0.25, -0.15, -0.23, -0.125];
  const alone = judge([logs.map((log) => ({ reference: 1, member: 1, log }))])[0];
  assert.ok(alone && alone.high < 0, `alone: [${alone?.low}, ${alone?.high}]`);
  const doc = craftedRun(logs, 'cache-size-64mb', 'select');
  const judged = tuningsOf(doc);
  const raw = (/** @type {any} */ a) =>
    Math.abs(a.pairs.reduce((/** @type {number} */ s, /** @type {any} */ p) => s + p.log, 0));
  const largest = judged.reduce((a, b) => (raw(b) > raw(a) ? b : a));
  assert.deepEqual([largest.config, largest.group], ['cache-size-64mb', 'reads'], 'the crafted effect is the largest');
  assert.equal(largest.judgement?.verdict, 'too noisy to tell');
  const text = JSON.stringify(tuningsAnswer(doc));
  assert.doesNotMatch(text, /Cache Size 64MB[^;]*reads/);
  assert.match(text, /≈: [^"]*Cache Size 64MB/);
  // the same effect, steady, is decided and offered, with its interval at the Holm level
  const steady = tuningsAnswer(
    craftedRun(
      logs.map(() => -0.2),
      'cache-size-64mb',
      'select',
    ),
  );
  assert.match(JSON.stringify(steady), /Cache Size 64MB: reads 1\.22× \[1\.\d\d, 1\.\d\d\] −18%/);
});

test('answers: Synchronous OFF is never under "safe", the A/A twin and Baseline are never asked', () => {
  const off = /** @type {any} */ (CONFIGS.find((c) => c.name === 'synchronous-off'));
  assert.equal(off.durability, 'unsafe');
  assert.equal(
    durabilityOf([
      ['journal_mode', 'WAL'],
      ['synchronous', 'NORMAL'],
    ]),
    'crash',
  );
  assert.equal(
    durabilityOf([
      ['journal_mode', 'WAL'],
      ['synchronous', 'EXTRA'],
    ]),
    'power loss',
  );
  assert.equal(durabilityOf([['journal_mode', 'MEMORY']]), 'unsafe');
  assert.equal(durabilityOf([]), 'power loss', "SQLite's defaults: a rollback journal, synchronous FULL");
  assert.deepEqual(
    ['production', 'production-twin', 'baseline', 'wal-autocheckpoint-1000'].filter((n) =>
      TUNINGS.some((t) => t.name === n),
    ),
    [],
  );
  // Synchronous OFF made much faster on insert: offered, under unsafe only
  const answer = tuningsAnswer(
    craftedRun(
      [-0.7, -0.7, -0.71, -0.69, -0.7, -0.7, -0.7, -0.7].map((x) => -x),
      'synchronous-off',
      'select',
    ),
  );
  const items = answer?.items ?? [];
  assert.match(items.find((i) => i.startsWith('unsafe')) ?? '', /Synchronous OFF \(Unsafe\): reads 0\.50×/);
  assert.ok(
    items.filter((i) => i.startsWith('safe')).every((i) => !i.includes('Synchronous OFF')),
    items.join('\n'),
  );
});

/** A real counted document of test/fixtures/. */
const fixture = (/** @type {string} */ name) =>
  JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', name), 'utf8'));

/** Move `n` instructions per operation from one component to another, in both counts of a case. */
function move(
  /** @type {any} */ counts,
  /** @type {string} */ from,
  /** @type {string} */ to,
  /** @type {number} */ n,
) {
  for (const k of [counts.components, counts.repeat.components]) {
    k[from] -= n;
    k[to] += n;
  }
}

test("answers: encryption's mechanism names the component an insert's extra instructions go to, from a real run's counts", () => {
  // real-linux-x64-v20-counted-run.json: `npm run bench -- --quick --rounds 3 --config production --driver
  // better-sqlite3-multiple-ciphers --cipher chacha20,none,aes256cbc --op insert,select,setup --workload none`
  const real = fixture('real-linux-x64-v20-counted-run.json');
  const text = (/** @type {any} */ doc) => String(encryptionAnswer(doc)?.text);
  assert.match(
    text(real),
    /^ChaCha20-Poly1305 \(Production's[^)]*\): .* \(insert: instructions\/op 966k against 77\.1k \(\+1152\.5%\), of which cipher \+884k \(99%\), /,
  );
  const doc = structuredClone(real);
  move(caseOf(doc, 'production/better-sqlite3-multiple-ciphers/chacha20/insert').counts, 'cipher', 'sqlite', 800_000);
  assert.match(
    text(doc),
    /\(insert: instructions\/op 966k against 77\.1k \(\+1152\.5%\), of which SQLite \+801k \(90%\), cipher /,
  );
});

test("answers: the Node ranking says in which component a Node's extra instructions go, from a real shootout's counts", () => {
  // real-linux-x64-v20-counted-shootout.json: `npm run shootout -- --node 20,20 --quick --op insert,select,update`
  // (the running Node twice, A/A), its one pair read as a same-driver one
  const real = fixture('real-linux-x64-v20-counted-shootout.json');
  for (const r of [...real.comparisons, ...real.counting.differences]) r.id = 'same-driver';
  const text = (/** @type {any} */ doc) => String(nodeAnswer(doc, null)?.text);
  assert.match(
    text(real),
    /v20 12\.x \(2\) .*, instructions\/op [−+]0\.0% · v20 12\.x \(reference\)$/,
    'A/A: no component',
  );
  // the head's select does 1.02M more instructions in the runtime: a third of production's operations
  const doc = structuredClone(real);
  const sel = doc.counting.cases.find(
    (/** @type {any} */ x) => x.side === 'v20 12.x (2)' && x.key.endsWith('/chacha20/select'),
  );
  sel.components.runtime += 1.02e6;
  sel.repeatComponents.runtime += 1.02e6;
  sel.instructions += 1.02e6;
  doc.counting.differences = countDifferences(doc.counting.cases, pairsOf(doc));
  assert.match(text(doc), /v20 12\.x \(2\) .*, instructions\/op \+25% \(of which runtime 100%\) · v20 12\.x/);
});

test('answers: node:sqlite against better-sqlite3 names the components of a decided operation, from counts', () => {
  /** @type {any} */
  const doc = syntheticDoc({ node: 'v24.11.0' });
  // better-sqlite3's update as the real shootout counted it; node:sqlite's with 3,000 more instructions
  // per operation in V8 and 2,000 in its binding (node::sqlite::)
  const real = fixture('real-linux-x64-v20-counted-shootout.json').counting.cases.find(
    (/** @type {any} */ x) => x.side === 'v20 12.x' && x.key === 'production/better-sqlite3/none/update',
  );
  const counts = (/** @type {Record<string, number>} */ more) => {
    const add = (/** @type {Record<string, number>} */ c) =>
      Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v + (more[k] ?? 0)]));
    const extra = Object.values(more).reduce((a, b) => a + b, 0);
    return {
      status: 'ok',
      instructions: real.instructions + extra,
      components: add(real.components),
      syscalls: { fsync: real.fsync, write: real.write, read: 0 },
      bytes: { written: 0, read: 0 },
      repeat: { instructions: real.instructions + extra, components: add(real.repeatComponents), syscallsSame: true },
    };
  };
  caseOf(doc, 'production/better-sqlite3/none/update').counts = counts({});
  const mine = caseOf(doc, 'production/node:sqlite/none/update');
  mine.counts = counts({ runtime: 3000, binding: 2000 });
  const update = () => {
    const text = String(driverAnswer(doc)?.text);
    return /Update [^(]*\((instructions[^;]*;[^)]*)\)/.exec(text)?.[1] ?? text;
  };
  assert.equal(
    update(),
    'instructions/op 33.8k against 28.8k (+17.3%), of which runtime +3000 (60%), binding +2000 (40%); SQLite, libc within repeat',
  );
  move(mine.counts, 'binding', 'sqlite', 2000);
  assert.equal(
    update(),
    'instructions/op 33.8k against 28.8k (+17.3%), of which runtime +3000 (60%), SQLite +2000 (40%); binding, libc within repeat',
  );
});

test('a quick run answers the same questions first, from its one round, marked a smoke test; derived from its figures', async () => {
  const { summarize } = await import('../bench/result/summary.js');
  /** @type {any} */
  const doc = syntheticDoc({ mode: 'quick', node: 'v24.11.0' });
  const text = summarize(doc);
  assert.match(text, /^Answers from this one round, as × time per operation \(SMOKE TEST: /);
  for (const q of ['Encryption', 'PRAGMAs', 'Node', 'Driver', 'Changes'])
    assert.match(text, new RegExp(`^- ${q}[,:] `, 'm'), q);
  assert.match(text, /^- PRAGMAs, .*safe across power loss: Synchronous EXTRA \(Safe\): writes \d\.\d\d×/m);
  assert.doesNotMatch(text, /safe across [^;]*Synchronous OFF/, 'Synchronous OFF is never under safe');
  const reads = () =>
    Number(/ChaCha20-Poly1305 \(Production\): writes \d\.\d\d×, reads (\d\.\d\d)×/.exec(summarize(doc))?.[1]);
  const before = reads();
  caseOf(doc, 'production/better-sqlite3-multiple-ciphers/chacha20/select').stats.opsPerSec.median /= 2;
  assert.ok(Math.abs(reads() / before - 2) < 0.01, `${before} → ${reads()}`);
  // every table names a config by its label: no config's name in a row
  assert.doesNotMatch(text, /^\| production /m);
});
