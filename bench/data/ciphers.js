// Ciphers of SQLite3 Multiple Ciphers, as measured with the production PRAGMAs. `none` is the same
// package with no key: the fair control for the cost of encryption.

/**
 * @typedef {object} Cipher
 * @property {string} name slug on the command line and in result documents
 * @property {string} label what users call it
 * @property {string|null} sqlite3mc the value of `PRAGMA cipher`, or null for no encryption
 * @property {string} description
 * @property {[string, number][]} [countingKdf] PRAGMAs, run between the cipher and the key, that make the
 *   key derivation cheap, for the counting pass's copies of a template (docs/counting.md, "The key derivation")
 */

/** @type {Cipher[]} */
export const CIPHERS = [
  {
    name: 'chacha20',
    label: 'ChaCha20-Poly1305',
    sqlite3mc: 'chacha20',
    description: 'sqleet: ChaCha20 with Poly1305 MAC (production cipher)',
    countingKdf: [['kdf_iter', 1]],
  },
  { name: 'aes128cbc', label: 'AES-128-CBC', sqlite3mc: 'aes128cbc', description: 'wxSQLite3 AES 128-bit CBC, no MAC' },
  { name: 'aes256cbc', label: 'AES-256-CBC', sqlite3mc: 'aes256cbc', description: 'wxSQLite3 AES 256-bit CBC, no MAC' },
  {
    name: 'sqlcipher',
    label: 'SQLCipher',
    sqlite3mc: 'sqlcipher',
    description: 'SQLCipher: AES-256-CBC with HMAC-SHA512, version 4 defaults',
    countingKdf: [['kdf_iter', 1]],
  },
  {
    name: 'rc4',
    label: 'RC4',
    sqlite3mc: 'rc4',
    description: 'System.Data.SQLite RC4: broken, for compatibility only',
  },
  {
    name: 'ascon128',
    label: 'Ascon-128',
    sqlite3mc: 'ascon128',
    description: 'Ascon-128 AEAD',
    countingKdf: [['kdf_iter', 1]],
  },
  {
    name: 'aegis',
    label: 'AEGIS',
    sqlite3mc: 'aegis',
    description: 'AEGIS AEAD (SQLite3MC 2.0+)',
    countingKdf: [
      ['tcost', 1],
      ['mcost', 8],
      ['pcost', 1],
    ],
  },
  { name: 'none', label: 'no encryption', sqlite3mc: null, description: 'no key: plain SQLite file' },
];

export const PRODUCTION_CIPHER = 'chacha20';
