// What a quick run counts (bench/data/quick-counts.js): a few cases that stand for the rest, as
// data, and the sentence the document gives for the others (bench/run/bench-run.js withSelection). The run
// itself, counting these and not the others, is test/e2e/quick-counts.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withSelection } from '../bench/run/bench-run.js';
import { countingLine } from '../aggregate/render/counts-text.js';
import { CIPHERS, PRODUCTION_CIPHER } from '../bench/data/ciphers.js';
import { PRODUCTION_CONFIG } from '../bench/data/configs.js';
import { PRODUCTION_DRIVER } from '../bench/data/drivers.js';
import { OPS } from '../bench/data/ops.js';
import { CIPHER_FAMILIES, QUICK_COUNTS, quickCountSelection, quickCounted } from '../bench/data/quick-counts.js';
import { caseKey, cases } from '../bench/data/suite.js';

test('the quick set: every timed operation on production, every cipher family on production PRAGMAs, all cases of the suite', () => {
  const suite = new Set(cases().map(caseKey));
  for (const c of QUICK_COUNTS) assert.ok(suite.has(caseKey(c)), `${caseKey(c)} is a case of the suite`);
  assert.equal(new Set(QUICK_COUNTS.map(caseKey)).size, QUICK_COUNTS.length, 'no case twice');
  const timed = OPS.filter((o) => o.count).map((o) => o.name);
  const prod = QUICK_COUNTS.filter((c) => c.cipher === PRODUCTION_CIPHER).map((c) => c.op);
  assert.deepEqual(prod.sort(), [...timed].sort(), 'every timed operation on production');
  assert.ok(QUICK_COUNTS.every((c) => c.config === PRODUCTION_CONFIG && c.driver === PRODUCTION_DRIVER));
  // every cipher is counted, or shares its family (its code: AES-CBC at two key sizes) with one that is
  const counted = new Set(QUICK_COUNTS.map((c) => c.cipher));
  const family = (/** @type {string} */ name) => name.replace(/\d+cbc$/, 'cbc');
  for (const c of CIPHERS)
    assert.ok(
      [...counted].some((x) => family(x) === family(c.name)),
      `${c.name}: neither it nor its family is counted`,
    );
  assert.equal(CIPHER_FAMILIES.length, new Set(CIPHER_FAMILIES.map(family)).size, 'one cipher per family');
  assert.ok(QUICK_COUNTS.length <= 16, `a handful: ${QUICK_COUNTS.length}`);
});

test('a quick run of the whole suite counts the quick set, and its reason names what it left out', () => {
  const timed = cases().filter((c) => OPS.find((o) => o.name === c.op)?.count);
  const { counted, reason } = quickCountSelection(timed);
  assert.deepEqual(counted.map(caseKey).sort(), QUICK_COUNTS.map(caseKey).sort());
  assert.equal(
    reason?.split(';').slice(-1)[0].trim(),
    'a full run counts every timed case',
    'says what counts everything',
  );
  assert.match(
    reason ?? '',
    new RegExp(
      `^quick run: counted ${counted.length} of ${timed.length} timed cases .*not counted: ${timed.length - counted.length},`,
    ),
  );
  assert.ok(!quickCounted({ config: 'baseline', driver: PRODUCTION_DRIVER, cipher: PRODUCTION_CIPHER, op: 'select' }));
  // a run narrowed to counted cases only leaves nothing out, and says nothing
  assert.deepEqual(quickCountSelection(QUICK_COUNTS.slice(0, 3)), { counted: QUICK_COUNTS.slice(0, 3), reason: null });
});

test('the counting section carries the reason beside an ok count, and the summary shows it (the e2e test validates the document)', () => {
  /** @type {import('../bench/counts/pass.js').CountingSection} */
  const ok = JSON.parse(
    '{"status":"ok","tools":{"valgrind":"3.19.0","strace":"6.1"},"processes":4,"seconds":20,' +
      '"repeat":{"cases":14,"within":{"0.1%":14},"quantiles":{"p50":0,"p90":0,"p99":0,"max":0},"syscallsSame":14}}',
  );
  const r = withSelection(ok, 'quick run: counted 14 of 207 timed cases');
  assert.equal(r.reason, 'quick run: counted 14 of 207 timed cases');
  assert.match(countingLine(r), /: quick run: counted 14 of 207 timed cases\. Each counted twice in new processes/);
  assert.match(countingLine(ok), /: every case counted twice in new processes/);
  // a failure keeps its own reason first; a machine that cannot count keeps only its own
  assert.equal(
    withSelection({ ...ok, status: 'error', reason: 'strace exited 1' }, 'quick').reason,
    'strace exited 1; quick',
  );
  const long = withSelection({ ...ok, status: 'error', reason: 'x'.repeat(5000) }, 'quick run: counted 14');
  assert.equal(long.reason?.length, 2000, "within the schema's maxLength");
  assert.ok(long.reason?.endsWith('; quick run: counted 14'));
  const none = { status: /** @type {const} */ ('unavailable'), reason: 'no valgrind' };
  assert.deepEqual(withSelection(none, 'quick'), none);
  assert.deepEqual(withSelection(ok, null), ok);
});
