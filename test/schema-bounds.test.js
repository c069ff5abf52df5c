// Issue #36, "the schema is the whole contract": every string of both document schemas has a
// length and, where it names something, one pattern shared with the file and release names; every
// number a range; every object its keys (or a bounded map); every array a length; whatever a
// renderer reads is required where it reads it. The structure is checked by walking the schemas;
// each fault found against the aggregate is a crafted document, made from a synthetic one, that
// aggregate/read.js now refuses on one line naming the field.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { releaseOf } from '../aggregate/assets.js';
import { readResult } from '../aggregate/read.js';
import { fileFor } from '../aggregate/store.js';
import { syntheticDoc, syntheticShootout } from '../bench/meta/synthetic.js';
import { SCHEMA } from '../bench/result/document.js';
import { RUNTIME, straceIntervals } from '../bench/counts/strace.js';
import { NAMES_SCHEMA, isName } from '../lib/names.js';
import { scratch } from './helpers.js';

/** Keywords whose subschemas only match (a condition), never define what a value may be. */
const MATCHERS = new Set(['if', 'not', 'contains']);
/** Keywords whose subschemas narrow a value already defined beside them. */
const BRANCHES = new Set(['then', 'else', 'allOf', 'anyOf', 'oneOf']);

/**
 * Every problem of a schema's structure: a string without maxLength, a number without a range, an
 * object whose keys are not listed (nor a bounded map), an array without maxItems, a property that
 * declares nothing.
 * @param {any} schema
 * @param {string} name
 */
function unbounded(schema, name) {
  /** @type {string[]} */
  const problems = [];
  const visit = (/** @type {any} */ s, /** @type {string} */ at, /** @type {boolean} */ defining) => {
    if (!s || typeof s !== 'object' || Array.isArray(s)) return;
    // a branch (then, allOf...) only narrows what its value's own schema bounds
    const types = defining ? [s.type ?? []].flat() : [];
    const fixed = ['enum', 'const', '$ref', 'anyOf', 'oneOf'].some((k) => k in s);
    if (defining && !types.length && !fixed) problems.push(`${name}${at} declares no type`);
    if (types.includes('string') && !fixed && s.maxLength === undefined)
      problems.push(`${name}${at} is a string without maxLength`);
    if (types.some((t) => t === 'number' || t === 'integer')) {
      if (s.minimum === undefined && s.exclusiveMinimum === undefined)
        problems.push(`${name}${at} is a number without a minimum`);
      if (s.maximum === undefined && s.exclusiveMaximum === undefined)
        problems.push(`${name}${at} is a number without a maximum`);
    }
    if (types.includes('object') && s.additionalProperties !== false) {
      const names = s.propertyNames;
      if (!names || !(names.pattern || names.$ref || names.enum) || s.maxProperties === undefined)
        problems.push(`${name}${at} is an object that lists no keys and is not a bounded map`);
    }
    if (types.includes('array') && s.maxItems === undefined) problems.push(`${name}${at} is an array without maxItems`);
    for (const [k, v] of Object.entries(s)) {
      if (MATCHERS.has(k)) continue;
      const branch = BRANCHES.has(k);
      if (k === 'properties' || k === '$defs')
        for (const [p, sub] of Object.entries(v)) visit(sub, `${at}/${k}/${p}`, k === '$defs' || defining);
      else if (k === 'items' || k === 'additionalProperties' || k === 'propertyNames') visit(v, `${at}/${k}`, defining);
      else if (k === 'prefixItems' || (branch && Array.isArray(v)))
        v.forEach((/** @type {any} */ sub, /** @type {number} */ i) => visit(sub, `${at}/${k}/${i}`, !branch));
      else if (branch) visit(v, `${at}/${k}`, false);
    }
  };
  visit(schema, '', 'type' in schema);
  return problems;
}

test('every string, number, object and array of the document schema (both kinds) and the names is bounded', () => {
  const problems = [...unbounded(SCHEMA, 'document.schema.json'), ...unbounded(NAMES_SCHEMA, 'names.schema.json')];
  assert.deepEqual(problems, []);
});

test('the structural check finds what it looks for', () => {
  const bad = {
    type: 'object',
    properties: {
      a: { type: 'string' },
      b: { type: 'number', minimum: 0 },
      c: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 1 } },
      d: { type: 'object', additionalProperties: { type: 'boolean' } },
      e: { description: 'nothing' },
    },
  };
  assert.deepEqual(unbounded(bad, 'x'), [
    'x is an object that lists no keys and is not a bounded map',
    'x/properties/a is a string without maxLength',
    'x/properties/b is a number without a maximum',
    'x/properties/c is an array without maxItems',
    'x/properties/d is an object that lists no keys and is not a bounded map',
    'x/properties/e declares no type',
  ]);
});

/** No string pattern of the document schemas is written out where a kind of name is meant: they refer to names.schema.json. */
test('the Node version and run id patterns live only in names.schema.json', () => {
  const nodePattern = NAMES_SCHEMA.$defs.nodeVersion.pattern;
  for (const [file, schema] of [['document', SCHEMA]]) {
    const text = JSON.stringify(schema);
    assert.ok(!text.includes(JSON.stringify(nodePattern).slice(1, -1)), `${file} writes the Node pattern out`);
    assert.ok(!text.includes('[0-9a-f]{8}-[0-9a-f]{4}'), `${file} writes the run id pattern out`);
  }
});

/** Write a document into a scratch directory and read it as the aggregate does. */
function read(/** @type {any} */ doc) {
  const file = path.join(scratch('schema-bounds-'), 'doc.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  return readResult(file);
}

/**
 * A refusal on one line, naming the field.
 * @param {any} doc
 * @param {RegExp} field
 */
function refused(doc, field) {
  const r = read(doc);
  assert.equal(r.ok, false, 'the crafted document was accepted');
  const reason = /** @type {{ reason: string }} */ (r).reason;
  assert.ok(!reason.includes('\n'), `more than one line: ${reason}`);
  assert.match(reason, field);
  return reason;
}

const copy = (/** @type {any} */ d) => JSON.parse(JSON.stringify(d));

test('the synthetic documents are valid', () => {
  for (const doc of [
    syntheticDoc(),
    syntheticDoc({ node: 'v24.0.0-rc.1' }),
    syntheticDoc({ node: 'v25.0.0-nightly20250101abcdef' }),
    syntheticShootout(),
  ]) {
    const r = read(doc);
    assert.equal(r.ok, true, /** @type {any} */ (r).reason);
  }
});

/** An ok workload case of a kind, in a copy of the synthetic document, and the copy. */
function workloadCase(/** @type {'concurrency' | 'scale'} */ kind) {
  const doc = copy(syntheticDoc());
  const i = doc.workloads.cases.findIndex((/** @type {any} */ c) => c.kind === kind && c.status === 'ok');
  assert.ok(i >= 0);
  return { doc, c: doc.workloads.cases[i], at: `/workloads/cases/${i}` };
}

test('fault 2: a workload setup whose messages is a string is refused, naming it', () => {
  const { doc, c, at } = workloadCase('scale');
  c.setup.messages = 'many';
  refused(doc, new RegExp(`${at}/setup/messages must be integer`));
});

for (const [kind, field] of /** @type {const} */ ([
  ['concurrency', 'busy'],
  ['concurrency', 'perReader'],
  ['scale', 'files'],
])) {
  test(`fault 2: an ok ${kind} workload case without ${field} is refused, naming it`, () => {
    const { doc, c, at } = workloadCase(kind);
    delete c[field];
    refused(doc, new RegExp(`${at} must have required property '${field}'`));
  });
}

test('fault 2: a Node version the release name cannot carry is refused at read time, naming the valid form', () => {
  const doc = syntheticDoc({ node: 'v22.23.3' });
  doc.environment.node = 'v22.23.3-RC1';
  const reason = refused(doc, /\/environment\/node must match pattern/);
  assert.ok(reason.includes(NAMES_SCHEMA.$defs.nodeVersion.pattern), reason);
  const shootout = copy(syntheticShootout());
  shootout.sides[0].node = 'v22.23.3-RC1';
  refused(shootout, /\/sides\/0\/node must match pattern/);
});

test('a run of several sides names one reference side, as its plan chose it; a run of one names none', () => {
  const shootout = copy(syntheticShootout());
  assert.deepEqual(
    shootout.sides.filter((/** @type {any} */ s) => s.reference).map((/** @type {any} */ s) => s.label),
    ['v22 12.x'],
    'the newest LTS whose 12.x side ran (12.x aborts on v24.21.0)',
  );
  const none = copy(shootout);
  for (const s of none.sides) delete s.reference;
  refused(none, /\/sides has 0 reference side\(s\): a run of several sides has one/);
  const two = copy(shootout);
  two.sides[0].reference = true;
  refused(two, /\/sides has 2 reference side\(s\)/);
  const one = copy(syntheticDoc());
  one.sides[0].reference = true;
  refused(one, /\/sides has 1 reference side\(s\): .*a run of one none/);
  const flagged = copy(shootout);
  flagged.sides[0].reference = false;
  refused(flagged, /\/sides\/0\/reference must be equal to constant/);
});

test('every Node version the schema admits names a stored file and a release', () => {
  for (const node of [
    'v18.20.8',
    'v22.23.3',
    'v24.0.0-rc.1',
    'v25.0.0-nightly20250101abcdef',
    'v0.10.48',
    'v9999.9999.9999',
  ]) {
    assert.ok(isName('nodeVersion', node), node);
    const doc = syntheticDoc({ node });
    assert.equal(read(doc).ok, true, node);
    const file = /** @type {string} */ (fileFor(doc));
    assert.ok(file, node);
    assert.match(releaseOf([{ file, sha256: '0'.repeat(64) }]), /^results-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}$/);
  }
  for (const node of ['v22.23.3-RC1', 'v22.23.3-rc..1', 'v22.23', '22.23.3', `v1.2.3-${'a'.repeat(60)}`])
    assert.equal(isName('nodeVersion', node), false, node);
});

// the 4 MB one is now refused by its size too (aggregate/trust.js): the length is what is tested here
test('fault 5: a cpuModel of 100,000 characters is refused, naming it', () => {
  const doc = syntheticDoc();
  doc.environment.cpuModel = 'x'.repeat(100_000);
  refused(doc, /\/environment\/cpuModel must NOT have more than \d+ characters/);
  const shootout = copy(syntheticShootout());
  shootout.environment.cpuModel = 'x'.repeat(100_000);
  refused(shootout, /\/environment\/cpuModel must NOT have more than \d+ characters/);
});

test('every system call name the counting pass writes is one the schema admits (mmap:anonymous included)', async () => {
  // the names strace.js makes: strace's own (letters, digits, underscores) and its qualified anonymous mmap
  const log = path.join(scratch('strace-names-'), 'strace.log');
  fs.writeFileSync(
    log,
    [
      '100 mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000',
      '100 pwrite64(12, ""..., 4096, 0) = 4096',
      '100 _llseek(3, 0, [0], SEEK_SET) = 0',
      '100 getppid() = 1',
    ].join('\n'),
  );
  const [, first] = await straceIntervals(log);
  const names = [...Object.keys(first.calls), ...RUNTIME];
  assert.ok(names.includes('mmap:anonymous'));
  for (const n of names) assert.ok(isName('syscallName', n), `${n} is not a syscallName`);
});

test('a computed change, interval end or spread is bounded far past what few rounds can make, never at a million-fold', () => {
  // an interval from two or three pairs can end past 1e6 (a shootout with --rounds 2 did): a bound
  // there makes the run's own document invalid at its end, and the run's results are lost
  const STATISTICS = new Set(['change', 'low', 'high', 'sd', 'drift', 'difference', 'spread']);
  /** @type {string[]} */
  const tight = [];
  const visit = (/** @type {any} */ s, /** @type {string} */ key, /** @type {string} */ at) => {
    if (Array.isArray(s)) s.forEach((v, i) => visit(v, key, `${at}/${i}`));
    if (!s || typeof s !== 'object' || Array.isArray(s)) return;
    if (STATISTICS.has(key) && typeof s.maximum === 'number' && s.maximum < 1e12) tight.push(`${at} ≤ ${s.maximum}`);
    // an interval's upper end at a Holm-corrected level from three pairs on a busy machine went past
    // 1e15 too (four shootout tests here, load 14): any finite number is admitted there
    if (key === 'high' && typeof s.maximum === 'number' && s.maximum < Number.MAX_VALUE)
      tight.push(`${at} ≤ ${s.maximum}`);
    if (['low', 'high'].includes(key) && typeof s.minimum === 'number' && s.minimum > -1e12)
      tight.push(`${at} ≥ ${s.minimum}`);
    for (const [k, v] of Object.entries(s)) visit(v, k === 'properties' ? key : k, `${at}/${k}`);
  };
  visit(SCHEMA, '', 'document');
  assert.deepEqual(tight, []);
});
