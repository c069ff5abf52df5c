import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CIPHERS } from '../bench/data/ciphers.js';
import { CONFIGS } from '../bench/data/configs.js';
import { PLAIN_HEADER, openConfigured, proveEncryption, sqliteCode } from '../bench/engine/database.js';
import { MAIL_SCHEMA } from '../bench/data/mail.js';
import { driver, scratch } from './helpers.js';

const production = CONFIGS[0].pragmas;
const header = (/** @type {string} */ f) => fs.readFileSync(f).subarray(0, 16);

/**
 * Make a closed, seeded file with the production PRAGMAs.
 * @param {import('../bench/engine/database.js').LoadedDriver} d
 * @param {string} file
 * @param {import('../bench/data/ciphers.js').Cipher} cipher
 */
function make(d, file, cipher, key = 'secret') {
  const { conn } = openConfigured(d, file, {
    pragmas: production,
    cipher,
    key,
    tempdir: path.dirname(file),
    schema: MAIL_SCHEMA,
  });
  conn.exec("INSERT INTO mailboxes (id, path, uidvalidity, uidnext) VALUES (1, 'INBOX', 1, 1)");
  conn.close();
}

for (const cipher of CIPHERS.filter((c) => c.sqlite3mc)) {
  test(`${cipher.name}: the file on disk has no plain header and a keyless open fails with SQLITE_NOTADB`, async () => {
    const mc = await driver('better-sqlite3-multiple-ciphers');
    const file = path.join(scratch(), `${cipher.name}.db`);
    try {
      make(mc, file, cipher);
    } catch (err) {
      // an older SQLite3MC may not have every cipher; the suite reports that as skipped
      assert.match(String(/** @type {Error} */ (err).message), /Cipher '.*' unknown/);
      return;
    }
    assert.notDeepEqual(header(file), PLAIN_HEADER);
    assert.deepEqual(proveEncryption(mc, file, cipher), {
      encrypted: true,
      plainHeader: false,
      keylessOpen: 'SQLITE_NOTADB',
    });
    // the right key still opens it
    const conn = mc.open(file);
    conn.exec(`PRAGMA cipher = '${cipher.sqlite3mc}'`);
    conn.exec("PRAGMA key = 'secret'");
    assert.equal(conn.prepare('SELECT path FROM mailboxes').get()?.path, 'INBOX');
    conn.close();
  });
}

test('unencrypted files, from both packages, have the plain header and open without a key', async () => {
  const none = /** @type {any} */ (CIPHERS.find((c) => c.name === 'none'));
  for (const name of ['better-sqlite3-multiple-ciphers', 'better-sqlite3']) {
    const d = await driver(name);
    const file = path.join(scratch(), 'plain.db');
    make(d, file, none);
    assert.deepEqual(header(file), PLAIN_HEADER);
    assert.deepEqual(proveEncryption(d, file, none), { encrypted: false, plainHeader: true, keylessOpen: 'ok' });
  }
});

test('a plain file that claims a cipher is caught, and so is an encrypted file that claims none', async () => {
  const mc = await driver('better-sqlite3-multiple-ciphers');
  const chacha = /** @type {any} */ (CIPHERS.find((c) => c.name === 'chacha20'));
  const none = /** @type {any} */ (CIPHERS.find((c) => c.name === 'none'));
  const dir = scratch();
  make(mc, path.join(dir, 'plain.db'), none);
  assert.throws(() => proveEncryption(mc, path.join(dir, 'plain.db'), chacha), /not encrypting/);
  make(mc, path.join(dir, 'enc.db'), chacha);
  assert.throws(() => proveEncryption(mc, path.join(dir, 'enc.db'), none), /unreadable/);
});

test('a wrong key is refused as SQLITE_NOTADB too', async () => {
  const mc = await driver('better-sqlite3-multiple-ciphers');
  const chacha = /** @type {any} */ (CIPHERS.find((c) => c.name === 'chacha20'));
  const file = path.join(scratch(), 'k.db');
  make(mc, file, chacha, 'right');
  const conn = mc.open(file);
  conn.exec("PRAGMA cipher = 'chacha20'");
  conn.exec("PRAGMA key = 'wrong'");
  assert.throws(
    () => conn.prepare('SELECT count(*) FROM mailboxes').get(),
    (e) => sqliteCode(e) === 'SQLITE_NOTADB',
  );
  conn.close();
});
