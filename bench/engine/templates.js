// Templates: for each (config, driver, cipher) a database seeded once and proven (PRAGMAs read back,
// encryption on disk), which every round copies, so no round inherits another's writes.
//
// With a shared directory (a run's engines, one after another, with the same key and seed), a
// template is built and proven once per run: the engine that builds it writes what it found (PRAGMA
// readings, size, encryption proof) to a stamp beside it, and later engines copy that file instead
// of writing 300 MB of templates each, whose writeback would disturb the fsync-bound cases they
// measure. The run removes stale stamps before its first engine (removeStamps). Every round still
// reads every PRAGMA back on its own copy.
import fs from 'node:fs';
import path from 'node:path';
import { CIPHERS } from '../data/ciphers.js';
import { CONFIGS } from '../data/configs.js';
import { MAILBOXES, INSERT_MAILBOX, INSERT_MESSAGE, generateMessages, messageParams, schemaOf } from '../data/mail.js';
import { setupDir } from '../data/suite.js';
import { openConfigured, proveEncryption, readPragma } from './database.js';
import { scalar } from '../../lib/sqlite.js';
import { writeFileAtomic } from '../../lib/files.js';

/** Beside a shared template: what the engine that built and proved it found. */
const STAMP = 'template.json';

/** The RAM file system a config's `tempdir: 'shm'` puts its temp files on (configs.js). */
export const SHM = '/dev/shm';

/** A file's size in bytes, 0 when there is none. */
export const sizeOf = (/** @type {string} */ file) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** What a seeded database holds and weighs: file sizes, pages, free pages, messages. */
export function sizeFacts(
  /** @type {import('./database.js').Conn} */ conn,
  /** @type {string} */ file,
  /** @type {number} */ messages,
) {
  return {
    mainBytes: sizeOf(file),
    walBytes: sizeOf(`${file}-wal`),
    pageSize: Number(scalar(conn, 'PRAGMA page_size')),
    pageCount: Number(scalar(conn, 'PRAGMA page_count')),
    freelistCount: Number(scalar(conn, 'PRAGMA freelist_count')),
    messages,
  };
}

/**
 * Seed a database with the mailboxes and messages, uids from 1, a transaction per chunk of messages
 * (a workload's large templates are made in chunks: bench/workloads/template.js).
 * @param {import('./database.js').Conn} conn
 * @param {Iterable<import('../data/mail.js').Message[]>} chunks
 */
export function seedMail(conn, chunks) {
  const addMailbox = conn.prepare(INSERT_MAILBOX);
  MAILBOXES.forEach((p, i) => addMailbox.run(i + 1, p, 1_700_000_000 + i, 1));
  const insert = conn.prepare(INSERT_MESSAGE);
  let uid = 0;
  for (const chunk of chunks) {
    conn.exec('BEGIN');
    for (const m of chunk) insert.run(...messageParams(m, ++uid));
    conn.exec('COMMIT');
  }
}

/** Remove a database and its WAL, shared memory and journal files. */
export const removeDb = (/** @type {string} */ file) => {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
};

/** Remove the stamps an earlier run left in a shared directory (--keep-db), so its templates are rebuilt. */
export function removeStamps(/** @type {string} */ dir) {
  for (const d of fs.readdirSync(dir)) fs.rmSync(path.join(dir, d, STAMP), { force: true });
}

/**
 * @param {object} o
 * @param {Map<string, { info: import('./load-drivers.js').DriverInfo, open?: (file: string) => import('./database.js').Conn }>} o.drivers
 * @param {string} o.workdir this engine's own directory (round copies, temp files)
 * @param {string} [o.shared] the run's directory of shared templates
 * @param {string} o.key the encryption key
 * @param {(s: string) => string} o.hide removes the key from a message
 * @param {number} o.seed
 * @param {number} o.seedMessages
 * @param {boolean} [o.cheapKdf] key every template, and every copy of one, with its cipher's cheap key
 *   derivation (ciphers.js `countingKdf`): the counting pass's templates, and a quick run's
 *   (bench/run/run-suite.js sessionOptions), never a full run's
 */
export function createTemplates(o) {
  /** @type {ReturnType<typeof generateMessages> | null} the seed data, made when a template is built (a fifth of a second) */
  let messages = null;
  const built = /** @type {Map<string, any>} */ (new Map());
  /** @type {string | null} this engine's directory on /dev/shm, made on first use */
  let shm = null;

  /** Build, seed and prove a new template file; what it found, for the stamp. */
  const build = (
    /** @type {{ name: string, open: (file: string) => import('./database.js').Conn }} */ loaded,
    /** @type {string} */ file,
    /** @type {import('../data/configs.js').Config} */ config,
    /** @type {import('../data/ciphers.js').Cipher} */ cipher,
    /** @type {string} */ tempdir,
    /** @type {[string, number][] | undefined} */ kdf,
  ) => {
    const { conn, pragmas } = openConfigured(loaded, file, {
      pragmas: config.pragmas,
      cipher,
      key: o.key,
      kdf,
      tempdir,
      schema: schemaOf(config),
    });
    try {
      messages ??= generateMessages(o.seed, o.seedMessages);
      seedMail(conn, [messages]);
      const size = sizeFacts(conn, file, messages.length);
      const journalMode = String(readPragma(conn, 'journal_mode'));
      conn.close();
      return { pragmas, size, journalMode, encryption: proveEncryption(loaded, file, cipher) };
    } catch (err) {
      conn.close();
      throw err;
    }
  };

  /** The template of a (config, driver, cipher), built on first use. */
  const get = (/** @type {import('../data/suite.js').Setup} */ s) => {
    const id = setupDir(s);
    if (built.has(id)) return built.get(id);
    const config = /** @type {import('../data/configs.js').Config} */ (CONFIGS.find((c) => c.name === s.config));
    const cipher = /** @type {import('../data/ciphers.js').Cipher} */ (CIPHERS.find((c) => c.name === s.cipher));
    const driver = o.drivers.get(s.driver);
    const dir = path.join(o.workdir, id);
    const onShm = config.tempdir === 'shm';
    if (onShm && !shm && fs.existsSync(SHM)) shm = fs.mkdtempSync(path.join(SHM, 'sqlite-bench-'));
    const tempdir = onShm && shm ? path.join(shm, id) : path.join(dir, 'tmp');
    const file = path.join(o.shared ?? o.workdir, id, 'template.db');
    const stamp = path.join(path.dirname(file), STAMP);
    const kdf = o.cheapKdf ? cipher.countingKdf : undefined;
    let t;
    if (!driver?.open) {
      t = {
        status: driver?.info.status === 'error' ? 'error' : 'skipped',
        reason: driver?.info.reason ?? `driver ${s.driver} not loaded`,
      };
    } else if (onShm && !shm) {
      t = {
        status: 'skipped',
        reason: `config ${s.config} puts its temp files on ${SHM}, which this machine (${process.platform}) does not have`,
      };
    } else {
      fs.mkdirSync(tempdir, { recursive: true });
      fs.mkdirSync(dir, { recursive: true }); // with its temp files on /dev/shm, not its parent
      const ok = { status: 'ok', file, dir, tempdir, config, cipher, kdf, open: driver.open };
      if (o.shared && fs.existsSync(stamp)) t = { ...ok, ...JSON.parse(fs.readFileSync(stamp, 'utf8')) };
      else {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        removeDb(file); // --keep-db: an earlier run left its template here
        try {
          const found = build({ name: s.driver, open: driver.open }, file, config, cipher, tempdir, kdf);
          t = { ...ok, ...found };
          if (o.shared) writeFileAtomic(stamp, JSON.stringify(found));
        } catch (err) {
          const e = /** @type {any} */ (err);
          const unknownCipher = /Cipher '.*' unknown/i.test(String(e?.message));
          t = {
            status: unknownCipher ? 'skipped' : 'error',
            reason: o.hide(
              unknownCipher
                ? `cipher not supported by this SQLite3MC build: ${e.message}`
                : String(e?.message ?? e).split('\n')[0],
            ),
            pragmas: e?.pragmas,
          };
        }
      }
    }
    t.setup = { config: s.config, driver: s.driver, cipher: s.cipher };
    built.set(id, t);
    return t;
  };

  /** Remove this engine's directory on /dev/shm (its databases are in workdir, removed by the session). */
  const dispose = () => {
    if (shm) fs.rmSync(shm, { recursive: true, force: true });
    shm = null;
  };

  return { get, all: () => [...built.values()], dispose };
}
