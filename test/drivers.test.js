import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import semver from 'semver';
import { DRIVERS, GENERATIONS } from '../bench/data/drivers.js';
import { builtinUnavailable, generationFor } from '../bench/data/node-ranges.js';
import { binaryOrigin } from '../bench/engine/load-drivers.js';
import { drivers, ROOT } from './helpers.js';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

test('every Node from 18 to 26 has exactly one driver generation, and 13.x never goes below 22.14', () => {
  for (let major = 18; major <= 26; major++) {
    for (let minor = 0; minor <= 30; minor++) {
      const v = `${major}.${minor}.0`;
      const hits = GENERATIONS.filter((g) => semver.satisfies(v, g.node));
      assert.equal(hits.length, 1, v);
    }
  }
  for (const v of ['18.20.8', '20.0.0', '22.13.1', '23.5.0']) assert.notEqual(generationFor(v)?.id, 'napi10', v);
  for (const v of ['22.14.0', '23.6.0', '24.0.0', '25.9.0']) assert.equal(generationFor(v)?.id, 'napi10', v);
  assert.equal(generationFor('18.20.8')?.id, 'node18');
});

test('each generation pins exact versions of both packages, and only 13.x in the N-API generation', () => {
  for (const g of GENERATIONS) {
    const p = JSON.parse(fs.readFileSync(path.join(ROOT, 'drivers', g.id, 'package.json'), 'utf8'));
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'drivers', g.id, 'package-lock.json'), 'utf8'));
    assert.deepEqual(
      Object.keys(p.dependencies).sort(),
      DRIVERS.filter((d) => d.package)
        .map((d) => d.package)
        .sort(),
    );
    for (const [name, version] of Object.entries(p.dependencies)) {
      assert.ok(semver.valid(version), `${g.id}: ${name}@${version} is not exact`);
      assert.equal(lock.packages[`node_modules/${name}`].version, version, `${g.id}: lockfile disagrees on ${name}`);
      assert.equal(semver.major(version) >= 13, g.id === 'napi10', `${g.id}: ${name}@${version}`);
    }
  }
  assert.equal(
    GENERATIONS.find((g) => g.id === 'node18') &&
      JSON.parse(fs.readFileSync(path.join(ROOT, 'drivers/node18/package.json'), 'utf8')).dependencies[
        'better-sqlite3'
      ],
    '11.10.0',
  );
});

test('one tinybench for every Node: pinned to 4.1.0, whose engines include Node 18', () => {
  assert.equal(pkg.dependencies.tinybench, '4.1.0');
  const tb = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/tinybench/package.json'), 'utf8'));
  assert.equal(tb.version, '4.1.0');
  assert.ok(semver.satisfies('18.18.0', tb.engines.node));
});

test('node:sqlite is offered exactly where Node has it unflagged', () => {
  const d = /** @type {any} */ (DRIVERS.find((x) => x.name === 'node:sqlite'));
  assert.match(String(builtinUnavailable(d, 'v20.20.2')), /needs Node .* this is v20.20.2/);
  assert.match(String(builtinUnavailable(d, 'v22.12.0')), /needs Node/);
  assert.equal(builtinUnavailable(d, 'v22.13.0'), null);
  assert.match(String(builtinUnavailable(d, 'v23.3.0')), /needs Node/);
  assert.equal(builtinUnavailable(d, 'v23.4.0'), null);
});

test('the loaded drivers record version, SQLite version, compile options and the binary actually loaded', async () => {
  const loaded = await drivers();
  for (const name of ['better-sqlite3-multiple-ciphers', 'better-sqlite3']) {
    const { info } = /** @type {any} */ (loaded.get(name));
    assert.equal(info.status, 'ok', info.reason);
    assert.equal(info.generation, generationFor(process.version)?.id);
    const installed = JSON.parse(fs.readFileSync(path.join(ROOT, 'drivers', info.generation, 'package.json'), 'utf8'))
      .dependencies[name];
    assert.equal(info.version, installed);
    assert.match(info.sqlite, /^3\.\d+\.\d+$/);
    assert.ok(info.compileOptions.some((/** @type {string} */ o) => o.startsWith('DEFAULT_CACHE_SIZE')));
    assert.ok(['built-from-source', 'bundled-prebuild', 'downloaded-prebuild'].includes(info.binary.origin));
    assert.ok(info.binary.file.includes(`node_modules/${name}/`), info.binary.file);
  }
  assert.match(
    /** @type {any} */ (loaded.get('better-sqlite3-multiple-ciphers')).info.sqlite3mc,
    /SQLite3 Multiple Ciphers \d/,
  );
});

test('binary origin is read from where the binary sits', () => {
  const dir = fs.mkdtempSync(path.join(ROOT, '.tmp-origin-'));
  try {
    assert.equal(binaryOrigin(dir, path.join(dir, 'prebuilds', 'linux-x64.node')), 'bundled-prebuild');
    assert.equal(binaryOrigin(dir, path.join(dir, 'build', 'Release', 'better_sqlite3.node')), 'downloaded-prebuild');
    fs.mkdirSync(path.join(dir, 'build'));
    fs.writeFileSync(path.join(dir, 'build', 'config.gypi'), '{}');
    assert.equal(binaryOrigin(dir, path.join(dir, 'build', 'Release', 'better_sqlite3.node')), 'built-from-source');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
