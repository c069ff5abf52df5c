// How figures are written: significant figures, rates, sizes, percentages, durations, one of each
// for the summary, the README, the shootout and the PR comment.
// Built-ins only (no imports at all): the PR comment job (compare/report.js) runs it without
// installing anything.

/** 6 significant figures: more than any margin of error justifies, and a third of the bytes. */
export const sig = (/** @type {number} */ x) => Number(x.toPrecision(6));

/**
 * What a figure read from a document is written as when it is not a finite number (the schema says
 * it is; a renderer never writes a value of another type as its text).
 */
export const NOT_A_NUMBER = '?';

/** A whole number, thousands separated: 12,345; NOT_A_NUMBER for anything but a number. */
export const whole = (/** @type {unknown} */ n) =>
  typeof n === 'number' && Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : NOT_A_NUMBER;

/** A date as shown: the day of an ISO time, "2026-11-20"; NOT_A_NUMBER for anything else. */
export const day = (/** @type {unknown} */ iso) => /^\d{4}-\d{2}-\d{2}/.exec(String(iso))?.[0] ?? NOT_A_NUMBER;

/** 3 significant figures, thousands separated: 1,230,000; 45.6; 0.123. */
export function num(/** @type {number} */ n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return NOT_A_NUMBER;
  if (n >= 1000) return Math.round(Number(n.toPrecision(3))).toLocaleString('en-US');
  return String(Number(n.toPrecision(3)));
}

/** A rate (ops/s): whole and thousands separated from 100, else 1 or 2 decimals: 12,345; 45.6; 1.23. */
export const rate = (/** @type {number} */ n) =>
  n >= 100 ? Math.round(n).toLocaleString('en-US') : n >= 10 ? n.toFixed(1) : n.toFixed(2);

/** A size in bytes as megabytes with 2 decimals: "1.23 MB". */
export const megabytes = (/** @type {number} */ bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

/** A fraction as a percentage, one decimal unless told: 0.0123 → "1.2%", with digits 2 "1.23%". */
export const percent = (/** @type {number} */ x, digits = 1) => `${(x * 100).toFixed(digits)}%`;

/**
 * The minus sign of a change: U+2212, as wide as "+" (every table and prose line; the README's
 * compact cells alone write "-", see sign).
 */
export const MINUS = '\u2212';

/**
 * The sign of a change: "+" from 0 up, else `minus`.
 * @param {number} x
 * @param {string} [minus] MINUS (U+2212) unless told: the README's compact cells
 *   (aggregate/sections/common.js compactChange) pass "-"
 */
export const sign = (x, minus = MINUS) => (x >= 0 ? '+' : minus);

/**
 * A percentage with its sign: one decimal, whole from `whole` percent up: "+12.3%", "−3.4%" (U+2212).
 * @param {number} points the percentage (12.3 for +12.3%)
 * @param {number} [whole] whole from this absolute percentage up (default: never)
 */
export const signedPoints = (points, whole = Infinity) =>
  `${sign(points)}${Math.abs(points) >= whole ? Math.round(Math.abs(points)) : Math.abs(points).toFixed(1)}%`;

/**
 * A fraction as a signed percentage (signedPoints): 0.123 → "+12.3%", −0.034 → "−3.4%".
 * @param {number} x the fraction
 * @param {number} [whole] whole from this absolute percentage up (default: never)
 */
export const signedPercent = (x, whole = Infinity) => signedPoints(x * 100, whole);

/** A duration as mm:ss. */
export const clock = (/** @type {number} */ ms) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * A driver as every report names it: "better-sqlite3 12.4.1 (SQLite 3.50.4)", with SQLite3
 * Multiple Ciphers' version after SQLite's where it has one, or why it is not there ("node:sqlite
 * skipped: …"). Plain text: the caller escapes it. `name: false` leaves the name out (a table
 * whose column is the driver).
 * @param {{ name: string, status: string, version?: string, sqlite?: string, sqlite3mc?: string, reason?: string }} d
 */
export const driverText = (d, { name = true } = {}) =>
  `${name ? `${d.name} ` : ''}${d.status === 'ok' ? `${d.version} (SQLite ${d.sqlite}${d.sqlite3mc ? `, ${d.sqlite3mc}` : ''})` : `${d.status}: ${d.reason ?? ''}`}`;
