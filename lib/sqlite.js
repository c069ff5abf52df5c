// The part of the SQLite drivers the benchmark uses (better-sqlite3 and node:sqlite both provide it
// as it is, so measured calls go straight to the driver), and the one query helper on it. Imports
// nothing: the data (bench/data/ops.js) use it as the engine (bench/engine/database.js) does.

/** @typedef {null | number | bigint | string | Uint8Array} SqlValue a value both drivers bind to a `?` */
/**
 * @typedef {object} Stmt
 * @property {(...params: SqlValue[]) => { changes: number|bigint, lastInsertRowid: number|bigint }} run
 * @property {(...params: SqlValue[]) => Record<string, unknown>[]} all
 * @property {(...params: SqlValue[]) => Record<string, unknown> | undefined} get
 */
/**
 * @typedef {object} Conn
 * @property {(sql: string) => void} exec
 * @property {(sql: string) => Stmt} prepare
 * @property {() => void} close
 */

/** The first column of the first row of a query. */
export function scalar(/** @type {Conn} */ conn, /** @type {string} */ sql) {
  const row = conn.prepare(sql).get();
  return row === undefined ? undefined : Object.values(row)[0];
}
