// The email-shaped schema and its deterministic data: mailboxes, and messages with the raw
// RFC 822 body as the last column, with the indexes a mail store needs.
import { createRandom, randomInt } from '../../lib/prng.js';

export const MAIL_SCHEMA = `
CREATE TABLE mailboxes (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  uidvalidity INTEGER NOT NULL,
  uidnext INTEGER NOT NULL,
  subscribed INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  mailbox INTEGER NOT NULL REFERENCES mailboxes(id) ON DELETE CASCADE,
  uid INTEGER NOT NULL,
  modseq INTEGER NOT NULL,
  date INTEGER NOT NULL,
  flags TEXT NOT NULL,
  size INTEGER NOT NULL,
  message_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  from_addr TEXT NOT NULL,
  to_addr TEXT NOT NULL,
  raw BLOB NOT NULL
);
CREATE UNIQUE INDEX messages_mailbox_uid ON messages(mailbox, uid);
CREATE INDEX messages_mailbox_date ON messages(mailbox, date);
CREATE INDEX messages_message_id ON messages(message_id);
`;

/**
 * The messages table with its BLOB first instead of last: every small column then sits behind
 * the BLOB, so reading one walks the BLOB's overflow pages (claim 11 of bench/data/production-claims.js).
 * The same columns, indexes and data; only the order of the columns differs.
 */
export const SCHEMA_BLOB_FIRST = MAIL_SCHEMA.replace(',\n  raw BLOB NOT NULL\n);', '\n);').replace(
  'id INTEGER PRIMARY KEY,\n  mailbox',
  'id INTEGER PRIMARY KEY,\n  raw BLOB NOT NULL,\n  mailbox',
);

/** The schemas a config may use (configs.js `schema`), by name; every config but one uses 'blob-last'. */
const SCHEMAS = { 'blob-last': MAIL_SCHEMA, 'blob-first': SCHEMA_BLOB_FIRST };

/** @typedef {keyof typeof SCHEMAS} SchemaName */

/**
 * @param {{ schema?: string }} config
 */
export const schemaOf = (config) => SCHEMAS[/** @type {SchemaName} */ (config.schema ?? 'blob-last')];

export const MAILBOXES = ['INBOX', 'Sent', 'Drafts', 'Archive', 'Junk', 'Trash', 'Lists/node', 'Lists/sqlite'];

export const INSERT_MAILBOX = 'INSERT INTO mailboxes (id, path, uidvalidity, uidnext) VALUES (?, ?, ?, ?)';
export const INSERT_MESSAGE =
  'INSERT INTO messages (mailbox, uid, modseq, date, flags, size, message_id, subject, from_addr, to_addr, raw) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

const WORDS =
  'invoice meeting report update release patch review lunch travel offer order ticket build deploy schema cipher backup quota weekly notes agenda draft'.split(
    ' ',
  );
const FLAGS = ['[]', '["\\\\Seen"]', '["\\\\Seen","\\\\Answered"]', '["\\\\Flagged"]', '["\\\\Seen","\\\\Flagged"]'];
const START = Date.UTC(2025, 0, 1);

/**
 * @typedef {object} Message
 * @property {number} mailbox 1-based mailbox id
 * @property {number} date ms since the epoch
 * @property {string} flags JSON array
 * @property {string} messageId
 * @property {string} subject
 * @property {string} from
 * @property {string} to
 * @property {Buffer} raw
 */

/**
 * Deterministic messages. Bodies are 1–16 KiB of text, skewed small as mail is.
 * @param {number} seed
 * @param {number} count
 * @returns {Message[]}
 */
export function generateMessages(seed, count) {
  const random = createRandom(seed);
  const out = [];
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 3 + randomInt(random, 6) }, () => WORDS[randomInt(random, WORDS.length)]);
    const subject = words.join(' ');
    const from = `${WORDS[randomInt(random, WORDS.length)]}${randomInt(random, 1000)}@example.com`;
    const to = `user${randomInt(random, 100)}@example.org`;
    const size = Math.round(1024 * 2 ** (random() * random() * 4)); // 1 KiB .. 16 KiB
    const header = `From: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\nMessage-ID: <${seed}.${i}@example.com>\r\n\r\n`;
    const body = Buffer.alloc(Math.max(size, header.length));
    body.write(header, 'latin1');
    for (let p = header.length; p < body.length; p++) body[p] = 97 + randomInt(random, 26);
    out.push({
      mailbox: 1 + (i % MAILBOXES.length),
      date: START + i * 60_000 + randomInt(random, 60_000),
      flags: FLAGS[randomInt(random, FLAGS.length)],
      messageId: `<${seed}.${i}@example.com>`,
      subject,
      from,
      to,
      raw: body,
    });
  }
  return out;
}

/** The parameters of INSERT_MESSAGE for a message with a given uid. */
export function messageParams(/** @type {Message} */ m, /** @type {number} */ uid) {
  return [
    m.mailbox,
    uid,
    uid,
    m.date + uid,
    m.flags,
    m.raw.length,
    `${uid}.${m.messageId}`,
    m.subject,
    m.from,
    m.to,
    m.raw,
  ];
}
