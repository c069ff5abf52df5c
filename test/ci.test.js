import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wanted } from '../bench/ci/select-cell.js';
import { failureDocument } from '../bench/ci/failure.js';
import { verify } from '../bench/ci/verify-drivers.js';
import { validate } from '../bench/result/document.js';
import { cases } from '../bench/tables/suite.js';
import { drivers } from './helpers.js';

test('workflow_dispatch inputs narrow the matrix; empty inputs run every cell', () => {
  assert.equal(wanted({ node: '22', runner: 'macos-15' }), true);
  assert.equal(wanted({ node: '22', runner: 'macos-15', wantNodes: '18, 25' }), false);
  assert.equal(wanted({ node: '25', runner: 'macos-15', wantNodes: 'v18,v25' }), true);
  assert.equal(wanted({ node: '25', runner: 'macos-15', wantNodes: '25', wantRunners: 'ubuntu-24.04' }), false);
  assert.equal(wanted({ node: '25', runner: 'ubuntu-24.04', wantNodes: '25', wantRunners: 'ubuntu-24.04 ubuntu-24.04-arm' }), true);
});

test('a failed cell still produces a valid document in which every driver and case says what failed', () => {
  const doc = failureDocument('the driver build failed on macos-15-intel with Node 18', { mode: 'quick' });
  assert.deepEqual(validate(doc), []);
  assert.equal(doc.cases.length, cases().length);
  for (const x of [...doc.cases, ...doc.drivers]) {
    assert.equal(x.status, 'error');
    assert.equal(x.reason, 'not measured: the driver build failed on macos-15-intel with Node 18');
  }
});

test('ci:verify-drivers accepts the binaries built here and refuses a bundled or downloaded one', async () => {
  const loaded = await drivers();
  assert.deepEqual(verify(loaded), [], 'the drivers installed for this Node were built here');
  const forged = new Map([...loaded].map(([k, v]) => [k, { info: { ...v.info, binary: v.info.binary && v.info.binary.origin !== 'built-into-node' ? { ...v.info.binary, origin: 'bundled-prebuild', file: v.info.binary.file.replace('build/Release/better_sqlite3.node', 'prebuilds/linux-x64.node') } : v.info.binary } }]));
  const problems = verify(/** @type {any} */ (forged));
  assert.ok(problems.some((p) => /better-sqlite3-multiple-ciphers: loaded a bundled-prebuild/.test(p)), problems.join('\n'));
  assert.ok(problems.some((p) => /not node-gyp's build\/Release/.test(p)));
});
