// Every driver this Node offers runs every operation on real files, node:sqlite included where the
// Node has it: a quick run of production, unencrypted, without the counting pass or workloads, as a
// user starts it. What differs from one Node to another (the npm run test:nodes -- --set node list,
// test/sets.js); the whole quick suite with its counts is test/e2e/quick-suite.test.js.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import semver from 'semver';
import { validate } from '../bench/result/document.js';
import { cases } from '../bench/data/suite.js';
import { ROOT, childEnv, entries, scratch } from './helpers.js';

test('every driver this Node offers runs every operation on a real file; node:sqlite exactly where Node has it', () => {
  const out = scratch('every-driver-out-');
  const tmp = scratch('every-driver-tmp-');
  const filters = ['--config', 'production', '--cipher', 'none'];
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bench/cli.js'), '--quick', ...filters, '--no-counts', '--workload', 'none', '--out', out],
    { cwd: ROOT, encoding: 'utf8', env: childEnv({ TMPDIR: tmp }) },
  );
  assert.equal(r.status, 0, r.stderr);
  const [file] = fs.readdirSync(out);
  const doc = JSON.parse(fs.readFileSync(path.join(out, file), 'utf8'));
  assert.deepEqual(validate(doc), []);
  const builtin = semver.satisfies(process.version, '^22.13.0 || >=23.4.0');
  const loaded = doc.sides[0].drivers
    .filter((/** @type {any} */ d) => d.status === 'ok')
    .map((/** @type {any} */ d) => d.name);
  assert.deepEqual(
    loaded.sort(),
    ['better-sqlite3', 'better-sqlite3-multiple-ciphers', ...(builtin ? ['node:sqlite'] : [])].sort(),
  );
  const want = cases({ config: ['production'], cipher: ['none'] });
  assert.equal(doc.cases.length, want.length);
  for (const c of doc.cases) {
    const key = `${c.driver}/${c.op}: ${c.reason ?? ''}`;
    if (loaded.includes(c.driver)) assert.equal(c.status, 'ok', key);
    else assert.equal(c.status, 'skipped', key);
  }
  assert.deepEqual(entries(tmp), [], 'the run left nothing in its temp dir');
});
