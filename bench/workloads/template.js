// A workload's template: a database opened, keyed and configured (every PRAGMA read back), seeded
// with the mail data and proven on disk (encrypted or not), which every round copies. Large ones are
// generated and committed in chunks, so memory stays flat whatever the size.
import { openConfigured, proveEncryption, readPragma } from '../engine/database.js';
import { scalar } from '../../lib/sqlite.js';
import { seedMail, sizeFacts, sizeOf } from '../engine/templates.js';
import { MAIL_SCHEMA, generateMessages } from '../data/mail.js';

/** Messages generated and committed at a time. */
const CHUNK = 5_000;

/**
 * The messages of a template, chunk by chunk. Up to CHUNK messages they are the suite's
 * (generateMessages(seed, n)); beyond, each chunk has a seed of its own and later dates.
 * @param {number} seed
 * @param {number} count
 * @returns {Generator<import('../data/mail.js').Message[]>}
 */
function* messageChunks(seed, count) {
  if (count <= CHUNK) {
    yield generateMessages(seed, count);
    return;
  }
  for (let k = 0; k * CHUNK < count; k++) {
    const n = Math.min(CHUNK, count - k * CHUNK);
    const shift = k * CHUNK * 60_000;
    yield generateMessages((seed + 0x10000 * (k + 1)) >>> 0, n).map((m) => ({ ...m, date: m.date + shift }));
  }
}

export function buildTemplate(
  /** @type {{ name: string, open: (file: string) => import('../engine/database.js').Conn }} */ driver,
  /** @type {string} */ file,
  /** @type {{ pragmas: [string, number | string][], cipher: { name: string, sqlite3mc: string | null }, key: string, tempdir: string, messages: number, seed: number }} */ o,
) {
  const { conn, pragmas } = openConfigured(driver, file, {
    pragmas: o.pragmas,
    cipher: o.cipher,
    key: o.key,
    tempdir: o.tempdir,
    schema: MAIL_SCHEMA,
  });
  let closed = false;
  try {
    seedMail(conn, messageChunks(o.seed, o.messages));
    // what production's `optimize` at open would do to a database of this size, done once here, so a
    // round's connections find nothing to analyse when they run it (no write before the start)
    conn.exec('PRAGMA optimize=0x10002');
    const count = Number(scalar(conn, 'SELECT count(*) FROM messages'));
    if (count !== o.messages) throw new Error(`the template holds ${count} messages, expected ${o.messages}`);
    const journalMode = String(readPragma(conn, 'journal_mode'));
    const size = sizeFacts(conn, file, count);
    conn.close(); // the last connection: the WAL is checkpointed into the file and removed
    closed = true;
    return {
      pragmas,
      size: { ...size, mainBytes: sizeOf(file), walBytes: sizeOf(`${file}-wal`) },
      journalMode,
      encryption: proveEncryption(driver, file, o.cipher),
    };
  } finally {
    if (!closed) conn.close();
  }
}
