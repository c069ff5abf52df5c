// The PRAGMA catalogue: how each PRAGMA a configuration may set is written, read back
// and compared. Data, not code paths: a new PRAGMA is a new row here.

/** @typedef {{ kind: 'enum', values: Record<string, number|string> } | { kind: 'int' } | { kind: 'text' } | { kind: 'action' }} PragmaType */

/**
 * @typedef {object} PragmaSpec
 * @property {PragmaType} type how the value is written and compared
 * @property {string} [column] the column `PRAGMA name` answers with (defaults to the name)
 * @property {number|string|null} [sqliteDefault] SQLite's own default, in read-back form (undefined: none to compare; null: unset, no row)
 * @property {string} [note] why the PRAGMA is special
 */

/** @type {PragmaType & { kind: 'enum' }} */
const onOff = { kind: 'enum', values: { OFF: 0, ON: 1, FALSE: 0, TRUE: 1, NO: 0, YES: 1, 0: 0, 1: 1 } };

/** @type {Record<string, PragmaSpec>} */
export const PRAGMAS = {
  auto_vacuum: {
    type: { kind: 'enum', values: { NONE: 0, FULL: 1, INCREMENTAL: 2, 0: 0, 1: 1, 2: 2 } },
    sqliteDefault: 0,
    note: 'only takes effect on an empty database: set it before journal_mode=WAL and before any table',
  },
  journal_mode: {
    type: {
      kind: 'enum',
      values: { DELETE: 'delete', TRUNCATE: 'truncate', PERSIST: 'persist', MEMORY: 'memory', WAL: 'wal', OFF: 'off' },
    },
    sqliteDefault: 'delete',
  },
  secure_delete: {
    type: { kind: 'enum', values: { ...onOff.values, FAST: 2, 2: 2 } },
    sqliteDefault: 0,
  },
  busy_timeout: { type: { kind: 'int' }, column: 'timeout', sqliteDefault: 0 },
  synchronous: {
    type: { kind: 'enum', values: { OFF: 0, NORMAL: 1, FULL: 2, EXTRA: 3, 0: 0, 1: 1, 2: 2, 3: 3 } },
    sqliteDefault: 2,
  },
  foreign_keys: { type: onOff, sqliteDefault: 0 },
  encoding: { type: { kind: 'text' }, sqliteDefault: 'UTF-8' },
  optimize: {
    type: { kind: 'action' },
    note: 'an action, not a setting: nothing to read back; recorded as run',
  },
  temp_store: {
    type: { kind: 'enum', values: { DEFAULT: 0, FILE: 1, MEMORY: 2, 0: 0, 1: 1, 2: 2 } },
    sqliteDefault: 0,
  },
  temp_store_directory: {
    type: { kind: 'text' },
    sqliteDefault: null,
    note: "deprecated in SQLite; builds with SQLITE_OMIT_DEPRECATED ignore it, which the read-back catches. One setting for the whole process, not per connection: a config that wants SQLite's default directory sets it to '' (which reads back no row)",
  },
  wal_autocheckpoint: { type: { kind: 'int' }, sqliteDefault: 1000 },
  cache_size: { type: { kind: 'int' }, sqliteDefault: -2000 },
  mmap_size: { type: { kind: 'int' }, sqliteDefault: 0 },
  analysis_limit: { type: { kind: 'int' }, sqliteDefault: 0 },
};

/**
 * The form a value takes when SQLite reads it back, for comparison.
 * @param {string} name
 * @param {unknown} value as written in a config, or as read back
 * @returns {number|string|null}
 */
export function normalise(name, value) {
  const spec = PRAGMAS[name];
  if (!spec) throw new Error(`unknown PRAGMA '${name}'; known: ${Object.keys(PRAGMAS).join(', ')}`);
  if (value === undefined || value === null) return null;
  const { type } = spec;
  if (type.kind === 'int') {
    const n = typeof value === 'bigint' ? Number(value) : Number(value);
    return Number.isFinite(n) ? n : null;
  }
  if (type.kind === 'enum') {
    const key = String(value).toUpperCase();
    if (key in type.values) return type.values[key];
    // read-backs of journal_mode come back lower case
    const hit = Object.values(type.values).find((v) => String(v) === String(value).toLowerCase());
    return hit === undefined ? null : hit;
  }
  // an empty text setting is no setting: it reads back no row
  return String(value) === '' ? null : String(value);
}

/** The SQL that sets a PRAGMA. Text values are quoted; enum and int values are written bare. */
export function pragmaSql(/** @type {string} */ name, /** @type {number|string} */ value) {
  const spec = PRAGMAS[name];
  if (!spec) throw new Error(`unknown PRAGMA '${name}'; known: ${Object.keys(PRAGMAS).join(', ')}`);
  const written = spec.type.kind === 'text' ? `'${String(value).replaceAll("'", "''")}'` : String(value);
  return `PRAGMA ${name} = ${written}`;
}
