// A run's engine flags (bench/run/server-args.js): a quick run keys its templates and their copies
// with the ciphers' cheap key derivation, as the counting pass does, and only a quick run without
// --keep-db: a full run measures with the real one, and kept files open with the key alone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseFlags } from '../bench/engine/flags.js';
import { createSession } from '../bench/engine/session.js';
import { SERVE_OPTIONS } from '../bench/engine/server.js';
import { serverArgs } from '../bench/run/server-args.js';
import { applyKey } from '../bench/engine/database.js';
import { CIPHERS } from '../bench/tables/ciphers.js';
import { drivers, scratch } from './helpers.js';

const run = (/** @type {object} */ o) =>
  parseFlags(serverArgs(/** @type {any} */ ({ mode: 'quick', filters: {}, seed: 1, ...o }), '/t'), SERVE_OPTIONS);

test('only a quick run without --keep-db asks its engines for the cheap key derivation', () => {
  assert.equal(run({}).cheapKdf, true);
  assert.equal(run({ mode: 'full' }).cheapKdf, false);
  assert.equal(run({ keepDb: '/tmp/kept' }).cheapKdf, false);
});

test('with it, a copy opens only with the cheap derivation, and the setup operation makes its file with the real one', async () => {
  const d = await drivers();
  const driver = d.get('better-sqlite3-multiple-ciphers');
  if (!driver?.open) return;
  const open = /** @type {(file: string) => any} */ (driver.open);
  const key = 'a-test-key';
  const chacha = /** @type {import('../bench/tables/ciphers.js').Cipher} */ (
    CIPHERS.find((c) => c.name === 'chacha20')
  );
  /** Whether the file opens with this key derivation: 'ok', or the error's code. */
  const opensWith = (/** @type {string} */ file, /** @type {[string, number][]} */ kdf) => {
    const conn = open(file);
    try {
      applyKey(conn, chacha, key, kdf);
      conn.prepare('SELECT count(*) FROM sqlite_master').get();
      return 'ok';
    } catch (err) {
      return /** @type {any} */ (err).code;
    } finally {
      conn.close();
    }
  };
  const c = { config: 'production', driver: 'better-sqlite3-multiple-ciphers', cipher: 'chacha20' };
  const s = createSession({
    mode: 'quick',
    filters: { config: [c.config], driver: [c.driver], cipher: [c.cipher], op: ['select', 'setup'] },
    seed: 1,
    drivers: d,
    key,
    workdir: scratch('bench-kdf-'),
    cheapKdf: true,
    budget: { seedMessages: 20 },
  });
  try {
    const t = s.templates.get(c);
    assert.equal(t.status, 'ok', t.reason);
    assert.equal(opensWith(t.file, [['kdf_iter', 1]]), 'ok', 'the template: the cheap derivation');
    assert.equal(opensWith(t.file, []), 'SQLITE_NOTADB', 'not the real one');
    const setup = s.prepare({ ...c, op: 'setup' });
    assert.ok('task' in setup, JSON.stringify(setup));
    setup.task.run(1); // opens a new file, as the timed operation does
    const [made] = fs.readdirSync(t.dir).filter((f) => /^setup-\d+\.db$/.test(f));
    assert.ok(made, fs.readdirSync(t.dir).join(', '));
    assert.equal(opensWith(path.join(t.dir, made), []), 'ok', "the setup operation's file: the real derivation");
    setup.task.after?.();
    setup.close();
  } finally {
    s.dispose();
  }
});
