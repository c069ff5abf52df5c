import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { CIPHERS } from '../bench/data/ciphers.js';
import { CONFIGS, describeChanges } from '../bench/data/configs.js';
import { applyKey, applyPragmas, openConfigured, readPragma } from '../bench/engine/database.js';
import { MAIL_SCHEMA } from '../bench/data/mail.js';
import { PRAGMAS, normalise } from '../bench/data/pragmas.js';
import { driver, scratch } from './helpers.js';

const chacha = /** @type {any} */ (CIPHERS.find((c) => c.name === 'chacha20'));

test('every config applies on a real encrypted file and every PRAGMA reads back as set', async () => {
  const mc = await driver('better-sqlite3-multiple-ciphers');
  const dir = scratch();
  for (const config of CONFIGS) {
    const file = path.join(dir, `${config.name}.db`);
    const { conn, pragmas } = openConfigured(mc, file, {
      pragmas: config.pragmas,
      cipher: chacha,
      key: 'k',
      tempdir: dir,
      schema: MAIL_SCHEMA,
    });
    conn.close();
    assert.equal(pragmas.length, config.pragmas.length, config.name);
    for (const r of pragmas) {
      assert.equal(r.applied, true, `${config.name}: ${r.name}`);
      if (PRAGMAS[r.name].type.kind !== 'action')
        assert.equal(
          r.after,
          normalise(r.name, r.requested === '{tempdir}' ? dir : r.requested),
          `${config.name}: ${r.name}`,
        );
    }
  }
});

test('auto_vacuum set after journal_mode=WAL does not take, and setup fails loudly naming it', async () => {
  const mc = await driver('better-sqlite3-multiple-ciphers');
  const conn = mc.open(path.join(scratch(), 'wrong-order.db'));
  try {
    applyKey(conn, chacha, 'k');
    assert.throws(
      () =>
        applyPragmas(
          conn,
          [
            ['journal_mode', 'WAL'],
            ['auto_vacuum', 'FULL'],
          ],
          { tempdir: '/tmp' },
        ),
      /PRAGMA did not apply: auto_vacuum=FULL reads back 0/,
    );
    assert.equal(readPragma(conn, 'auto_vacuum'), 0);
  } finally {
    conn.close();
  }
});

test('the read-back records what the connection had before, and check=false returns failures instead of throwing', async () => {
  const bs3 = await driver('better-sqlite3');
  const conn = bs3.open(path.join(scratch(), 'before.db'));
  try {
    conn.exec('CREATE TABLE t(x)');
    const [r] = applyPragmas(conn, [['auto_vacuum', 'FULL']], { tempdir: '/tmp', check: false });
    assert.deepEqual({ before: r.before, after: r.after, applied: r.applied }, { before: 0, after: 0, applied: false });
  } finally {
    conn.close();
  }
});

test('WAL Autocheckpoint 1000 is labelled as equal to the default, and no real tuning is', () => {
  const flagged = CONFIGS.filter((c) => describeChanges(c).equalsDefault).map((c) => c.name);
  assert.deepEqual(flagged, ['wal-autocheckpoint-1000']);
  const noOp = CONFIGS.find((c) => c.name === 'wal-autocheckpoint-1000');
  assert.ok(noOp);
  assert.match(String(describeChanges(noOp).note), /SQLite's default/);
  // and it is caught whatever the value's spelling: a made-up config setting cache_size to the default
  assert.equal(
    describeChanges({ name: 'x', label: 'x', description: '', pragmas: [...CONFIGS[0].pragmas, ['cache_size', -2000]] })
      .equalsDefault,
    true,
  );
  assert.equal(
    describeChanges({
      name: 'x',
      label: 'x',
      description: '',
      pragmas: [...CONFIGS[0].pragmas, ['cache_size', -64000]],
    }).equalsDefault,
    false,
  );
});

test('production sets auto_vacuum and encoding before journal_mode=WAL', () => {
  const names = CONFIGS[0].pragmas.map(([n]) => n);
  assert.ok(names.indexOf('auto_vacuum') < names.indexOf('journal_mode'));
  assert.ok(names.indexOf('encoding') < names.indexOf('journal_mode'));
  for (const c of CONFIGS)
    for (const [n] of c.pragmas) assert.ok(n in PRAGMAS, `${c.name} sets ${n}, which the catalogue does not describe`);
});

test('config names are unique slugs and labels are the published names', () => {
  assert.equal(new Set(CONFIGS.map((c) => c.name)).size, CONFIGS.length);
  for (const c of CONFIGS) assert.match(c.name, /^[a-z0-9-]+$/);
  for (const label of [
    'Production',
    'WAL Autocheckpoint 1000',
    'Memory Temp Storage',
    'Cache Size 64MB',
    'MMAP 256MB',
    'Synchronous OFF (Unsafe)',
    'Synchronous EXTRA (Safe)',
    'Incremental Vacuum',
    'No Auto Vacuum',
    'Analysis Limit 1000',
    'Busy Timeout 60s',
    'Cache + MMAP',
    'All Optimizations',
    'Baseline',
  ]) {
    assert.ok(
      CONFIGS.some((c) => c.label === label),
      label,
    );
  }
});

test("temp_store_directory is process-wide: a config that does not set it gets SQLite's default, not the previous case's directory", async () => {
  const mc = await driver('better-sqlite3-multiple-ciphers');
  const dir = scratch();
  const production = /** @type {any} */ (CONFIGS.find((c) => c.name === 'production'));
  const baseline = /** @type {any} */ (CONFIGS.find((c) => c.name === 'baseline'));
  const first = openConfigured(mc, path.join(dir, 'first.db'), {
    pragmas: production.pragmas,
    cipher: chacha,
    key: 'k',
    tempdir: dir,
    schema: MAIL_SCHEMA,
  });
  first.conn.close();
  const second = mc.open(path.join(dir, 'second.db'));
  try {
    // another connection of the same process sees the directory the first config set…
    assert.equal(readPragma(second, 'temp_store_directory'), dir);
    applyPragmas(second, baseline.pragmas, { tempdir: dir });
    // …until a config that does not set it is applied: SQLite's default again
    assert.equal(readPragma(second, 'temp_store_directory'), normalise('temp_store_directory', ''));
  } finally {
    second.close();
  }
});
