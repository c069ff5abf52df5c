// Opening a benchmark database: open, key, apply a config's PRAGMAs in order, read every one
// back, and prove on disk that encryption is (or is not) there.
import fs from 'node:fs';
import { PRAGMAS, normalise, pragmaSql } from '../data/pragmas.js';
import { scalar } from '../../lib/sqlite.js';

// the drivers' types live in lib/sqlite.js (with scalar()), for the operations of bench/data/ops.js too
/** @typedef {import('../../lib/sqlite.js').Stmt} Stmt */
/** @typedef {import('../../lib/sqlite.js').Conn} Conn */
/**
 * @typedef {object} LoadedDriver
 * @property {string} name
 * @property {(file: string) => Conn} open
 */
/**
 * @typedef {object} PragmaReading
 * @property {string} name
 * @property {string|number|null} requested as written in the config
 * @property {string|number|null} before what the connection had before it was set
 * @property {string|number|null} after what it read back after setup
 * @property {boolean} applied whether `after` is what was asked for (actions: whether it ran)
 * @property {string} [note]
 */

export const PLAIN_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * The value a PRAGMA reads back as, normalised for comparison; null when the build does not
 * know the PRAGMA (then it answers with no row at all).
 * @param {Conn} conn
 * @param {string} name
 */
export function readPragma(conn, name) {
  const row = conn.prepare(`PRAGMA ${name}`).get();
  if (row === undefined) return null;
  const col = PRAGMAS[name].column ?? name;
  return normalise(name, col in row ? row[col] : Object.values(row)[0]);
}

/** SQLite's result code name of an error from either driver, e.g. SQLITE_NOTADB. */
export function sqliteCode(/** @type {unknown} */ err) {
  const e = /** @type {any} */ (err);
  if (typeof e?.code === 'string' && e.code.startsWith('SQLITE_')) return e.code;
  if (e?.errcode === 26 || /file is not a database/.test(String(e?.message))) return 'SQLITE_NOTADB';
  return typeof e?.code === 'string' ? e.code : 'UNKNOWN';
}

/**
 * Key a fresh connection. SQLite3MC takes the cipher first, then its parameters, then the key; the
 * read-back of `PRAGMA cipher` and of each parameter proves they took.
 * @param {Conn} conn
 * @param {{ sqlite3mc: string|null, name: string }} cipher
 * @param {string} key
 * @param {[string, number][]} [kdf] key-derivation parameters (ciphers.js `countingKdf`), or none: the cipher's defaults
 */
export function applyKey(conn, cipher, key, kdf = []) {
  if (!cipher.sqlite3mc) return;
  conn.exec(`PRAGMA cipher = '${cipher.sqlite3mc}'`);
  for (const [name, value] of kdf) {
    conn.exec(`PRAGMA ${name} = ${Number(value)}`);
    const read = Number(scalar(conn, `PRAGMA ${name}`));
    if (read !== value)
      throw new Error(`cipher '${cipher.name}': PRAGMA ${name} = ${value} did not apply: it reads back ${read}`);
  }
  conn.exec(`PRAGMA key = '${key.replaceAll("'", "''")}'`);
  const got = scalar(conn, 'PRAGMA cipher');
  if (got !== cipher.sqlite3mc)
    throw new Error(`cipher '${cipher.name}' did not apply: PRAGMA cipher reads back ${JSON.stringify(got)}`);
}

/**
 * Apply a config's PRAGMAs in order, then read each back. Throws, naming every PRAGMA that did
 * not take, unless `check` is false (then the readings are returned for inspection).
 * @param {Conn} conn
 * @param {[string, number|string][]} pragmas
 * @param {{ tempdir: string, check?: boolean }} opts
 * @returns {PragmaReading[]}
 */
export function applyPragmas(conn, pragmas, { tempdir, check = true }) {
  // temp_store_directory is process-wide, not per connection: a config that does not set it would
  // otherwise inherit the directory the previous case in this process set (and maybe removed)
  if (!pragmas.some(([name]) => name === 'temp_store_directory')) conn.exec(pragmaSql('temp_store_directory', ''));
  const readings = pragmas.map(([name, raw]) => {
    const value = raw === '{tempdir}' ? tempdir : raw;
    const action = PRAGMAS[name].type.kind === 'action';
    const before = action ? null : readPragma(conn, name);
    conn.exec(pragmaSql(name, value));
    return { name, value, action, before };
  });
  const out = readings.map(({ name, value, action, before }) => {
    if (action)
      return {
        name,
        requested: value,
        before: null,
        after: null,
        applied: true,
        note: 'action: ran, nothing to read back',
      };
    const after = readPragma(conn, name);
    const wanted = normalise(name, value);
    /** @type {PragmaReading} */
    const r = { name, requested: value, before, after, applied: after === wanted };
    if (after === null && wanted !== null) r.note = 'this build does not know the PRAGMA: it reads back no row';
    return r;
  });
  const failed = out.filter((r) => !r.applied);
  if (check && failed.length) {
    const what = failed
      .map((r) => `${r.name}=${r.requested} reads back ${r.after === null ? 'nothing' : r.after}`)
      .join('; ');
    throw Object.assign(new Error(`PRAGMA did not apply: ${what}`), { pragmas: out });
  }
  return out;
}

/**
 * Open, key, apply PRAGMAs (checked), create the schema. The whole of "setup".
 * @param {LoadedDriver} driver
 * @param {string} file
 * @param {{ pragmas: [string, number|string][], cipher: { sqlite3mc: string|null, name: string }, key: string, kdf?: [string, number][], tempdir: string, schema: string }} o
 *   kdf: see applyKey
 */
export function openConfigured(driver, file, o) {
  const conn = driver.open(file);
  try {
    applyKey(conn, o.cipher, o.key, o.kdf);
    const pragmas = applyPragmas(conn, o.pragmas, { tempdir: o.tempdir });
    conn.exec(o.schema);
    return { conn, pragmas };
  } catch (err) {
    conn.close();
    throw err;
  }
}

/**
 * Prove what is on disk: an encrypted database has no plain header and cannot be read without
 * its key (SQLITE_NOTADB); an unencrypted one has the plain header and opens without a key.
 * Throws when the file contradicts the cipher.
 * @param {LoadedDriver} driver
 * @param {string} file a closed database file
 * @param {{ sqlite3mc: string|null, name: string }} cipher
 */
export function proveEncryption(driver, file, cipher) {
  const head = Buffer.alloc(16);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  const plainHeader = head.equals(PLAIN_HEADER);
  let keylessOpen = 'ok';
  const conn = driver.open(file);
  try {
    scalar(conn, 'SELECT count(*) FROM sqlite_schema');
  } catch (err) {
    keylessOpen = sqliteCode(err);
  } finally {
    conn.close();
  }
  const encrypted = cipher.sqlite3mc !== null;
  const proof = { encrypted, plainHeader, keylessOpen };
  if (encrypted && (plainHeader || keylessOpen !== 'SQLITE_NOTADB')) {
    throw new Error(
      `cipher '${cipher.name}' is not encrypting: header ${plainHeader ? 'is' : 'is not'} 'SQLite format 3', keyless open gives ${keylessOpen}`,
    );
  }
  if (!encrypted && (!plainHeader || keylessOpen !== 'ok')) {
    throw new Error(
      `unencrypted database is unreadable: header ${plainHeader ? 'is' : 'is not'} 'SQLite format 3', keyless open gives ${keylessOpen}`,
    );
  }
  return proof;
}
