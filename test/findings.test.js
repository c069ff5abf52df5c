// The README block's findings (aggregate/sections/findings.js): per machine class, the largest
// PRAGMA and cipher effects with their intervals and, where both sides were counted, the counted
// mechanism; the shootout's verdict; the claims tally; the newest change point. From documents
// the synthetic generator makes (bench/meta/synthetic.js), with counts added to two of its cases.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { syntheticDoc, syntheticShootout } from '../bench/meta/synthetic.js';
import { findingsOf, largestEffect } from '../aggregate/sections/findings.js';

const counts = (/** @type {number} */ instructions, /** @type {number} */ fsync) => ({
  status: 'ok',
  ops: 60,
  warmup: 20,
  instructions,
  syscalls: { fsync, write: 2, read: 0, other: 0, runtime: 0 },
  calls: {},
  bytes: { read: 0, written: 8192 },
  repeat: { instructions, difference: 0, syscallsSame: true },
});

test('findings: the largest clear PRAGMA effect, with its interval and its counted mechanism', () => {
  /** @type {any} */
  const doc = syntheticDoc({ node: 'v24.11.0' });
  const clear = doc.comparisons.filter((/** @type {any} */ c) => c.id === 'config' && (c.low > 0 || c.high < 0));
  assert.ok(clear.length, 'the synthetic run has a clear config effect');
  const size = (/** @type {any} */ c) => Math.abs(Math.log(1 + c.change));
  const best = clear.reduce((/** @type {any} */ a, /** @type {any} */ c) => (size(c) > size(a) ? c : a));
  const text = largestEffect(doc, 'config', (k) => k);
  assert.ok(text?.startsWith(`${best.member}, `), text ?? 'none');
  assert.match(String(text), /[+−]\d+(\.\d)?% \[[+−]\d+(\.\d)?%, [+−]\d+(\.\d)?%\]$/, 'the change and its interval');
  // counted: the reference syncs once per thousand operations, the member on every one
  const caseOf = (/** @type {string} */ setup) =>
    doc.cases.find((/** @type {any} */ c) => `${c.config}/${c.driver}/${c.cipher}/${c.op}` === `${setup}/${best.op}`);
  caseOf(best.reference).counts = counts(77000, 0.001);
  caseOf(best.member).counts = counts(80100, 1);
  assert.match(
    String(largestEffect(doc, 'config', (k) => k)),
    / \(fsync\/op 1 against 0\.001; instructions\/op 80\.1k against 77k \(\+4\.0%\)\)$/,
  );
});

test('findings: one item per machine class, with the shootout, the claims and the history, in that order', () => {
  /** @type {any} */
  const doc = syntheticDoc({ node: 'v24.11.0' });
  /** @type {any} */
  const shootout = syntheticShootout({});
  /** @type {Map<string, any>} */
  const docs = new Map([
    ['a.json', doc],
    ['s.json', shootout],
  ]);
  /** @returns {any} a store entry (aggregate/store.js) */
  const entry = (/** @type {string} */ file, /** @type {any} */ d, /** @type {string} */ kind) => ({
    file,
    kind,
    node: d.environment.node,
    mode: d.run.mode,
    status: 'complete',
    finishedAt: d.run.finishedAt,
    sha256: file,
  });
  const item = findingsOf(
    { machine: 'linux-x64 · test', entries: [entry('a.json', doc, 'result'), entry('s.json', shootout, 'shootout')] },
    {
      load: (e) => docs.get(e.file),
      resultsLink: 'results',
      nights: {
        of: () => /** @type {any} */ ({ figures: {}, counts: {}, finishedAt: doc.run.finishedAt, node: 'v24.11.0' }),
      },
    },
  );
  assert.ok(item, 'an item');
  assert.match(
    String(item),
    /^- \*\*linux-x64 · test\*\* \(v24\.11\.0, \d{4}-\d\d-\d\d\): largest PRAGMA effect: .*; largest cipher cost: .*; shootout: against .*; claims: \d+ .* of \d+; (newest change point: .*|no change point in the history shown)\.$/,
  );
});
