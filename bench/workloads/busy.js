// SQLITE_BUSY from either driver: better-sqlite3 sets `code` (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, …),
// node:sqlite `errcode` (5, or an extended code whose low byte is 5) and the message.

/** @param {unknown} err */
export function isBusy(err) {
  const e = /** @type {any} */ (err);
  if (typeof e?.code === 'string' && e.code.startsWith('SQLITE_BUSY')) return true;
  if (typeof e?.errcode === 'number' && (e.errcode & 0xff) === 5) return true;
  return e?.code === 'ERR_SQLITE_ERROR' && /database is locked/.test(String(e?.message));
}
