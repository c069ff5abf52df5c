// meta:same-cases: the check that a refactor measures the same cases with the same readings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { caseDifferences } from '../bench/meta/same-cases.js';
import { syntheticDoc } from '../bench/meta/synthetic.js';

test('two documents of the same cases agree; a changed status, reading, proof, verified kind or order is named', () => {
  const a = syntheticDoc({});
  assert.deepEqual(caseDifferences(a, structuredClone(a)), []);
  const timing = structuredClone(a);
  for (const c of timing.cases) if (c.stats) c.stats.opsPerSec.median *= 1.5;
  assert.deepEqual(caseDifferences(a, timing), [], 'timings are not compared');

  const b = structuredClone(a);
  const i = b.cases.findIndex(
    (/** @type {any} */ c) => c.status === 'ok' && c.verified && Object.keys(c.verified).length,
  );
  b.cases[i].status = 'error';
  b.cases[i].reason = 'boom';
  const [only] = caseDifferences(a, b);
  assert.match(only, /: ok vs error \(boom\)$/);

  const c = structuredClone(a);
  c.cases.pop();
  assert.match(caseDifferences(a, c).join('\n'), /only in the first/);

  const d = structuredClone(a);
  const s = d.setups.find((x) => 'encryption' in x);
  assert.ok(s && 'encryption' in s, 'a setup with an encryption proof');
  s.encryption.encrypted = !s.encryption.encrypted;
  assert.match(caseDifferences(a, d).join('\n'), /encryption proof/);

  const e = structuredClone(a);
  e.run.order.reverse();
  assert.match(caseDifferences(a, e).join('\n'), /case order differs/);
});
