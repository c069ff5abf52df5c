// File helpers shared by bench, compare and aggregate: atomic writes and their leftovers, a
// folder made without node's recursive mkdir (which loops for ever on ENOENT under /proc), and a
// folder a flag names checked before any work goes into filling it.
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from './command.js';

/**
 * Make a folder and its missing parents, one level at a time. fs.mkdirSync(dir, { recursive: true })
 * spins at 100% CPU for ever when mkdir answers ENOENT although the parent exists (/proc/x on
 * Linux, node 18 to 22); this throws that error instead.
 * @param {string} dir
 */
function makeDir(dir) {
  const missing = [];
  for (let d = path.resolve(dir); !fs.existsSync(d); d = path.dirname(d)) {
    missing.push(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d);
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
    }
  }
}

/** Why a folder cannot be made or written, in words. */
const WHY = /** @type {Record<string, string>} */ ({
  EACCES: 'no permission to write there',
  EPERM: 'no permission to write there',
  EROFS: 'a read-only file system',
  ENOENT: 'it cannot be created there',
  ENOTDIR: 'a file is in its path',
  ENOSPC: 'no space left on the device',
});

/**
 * The folder a flag names, made if absent and proven writable (a probe file written and removed)
 * before any work goes into filling it; else a UsageError naming the flag and the reason.
 * @param {string} flag e.g. 'out'
 * @param {string} dir
 * @returns {string} the folder, absolute
 */
export function checkedDir(flag, dir) {
  const abs = path.resolve(dir);
  const bad = (/** @type {string} */ why) =>
    new UsageError(`bad --${flag} '${dir}': ${why}; give a folder you can write to (created if absent)`);
  const why = (/** @type {unknown} */ err) => {
    const code = /** @type {NodeJS.ErrnoException} */ (err).code ?? '';
    return `${WHY[code] ?? 'it cannot be written'} (${code || String(err)})`;
  };
  if (fs.existsSync(abs) && !fs.statSync(abs).isDirectory()) throw bad('a file, not a folder');
  try {
    makeDir(abs);
  } catch (err) {
    throw bad(why(err));
  }
  const probe = path.join(abs, `.write-probe.${process.pid}.${Date.now()}`);
  try {
    fs.writeFileSync(probe, '', { flag: 'wx' });
    fs.rmSync(probe);
  } catch (err) {
    throw bad(why(err));
  }
  return abs;
}

/**
 * A temp file beside `file` holding `data`, written and fsynced: the first step of both writes below.
 * @param {string} file
 * @param {string | Buffer} data
 * @returns {string} the temp file's path
 */
function writeTemp(file, data) {
  makeDir(path.dirname(file));
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const fd = fs.openSync(tmp, 'wx');
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return tmp;
}

/**
 * Write a file that must not exist yet, so a reader sees it whole or not at all and nothing is
 * replaced: temp file, fsync, then a hard link to the name (which fails if the name exists).
 * @param {string} file
 * @param {string | Buffer} data
 * @returns {boolean} false: the name exists (nothing written)
 */
export function writeFileNew(file, data) {
  const tmp = writeTemp(file, data);
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * A new pair of files in `out`, `<prefix>-<time>.md` and `.json` (`-1`, `-2`… after the time when
 * taken), never over another.
 * @param {string} out
 * @param {string} prefix
 * @param {string} md
 * @param {string} json
 * @param {Date} [now]
 * @returns {string} their path without the extension
 */
export function writeNewPair(out, prefix, md, json, now = new Date()) {
  makeDir(out);
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let i = 0; i < 100; i++) {
    const name = path.join(out, `${prefix}-${stamp}${i ? `-${i}` : ''}`);
    if (fs.existsSync(`${name}.json`) || !writeFileNew(`${name}.md`, md)) continue;
    if (writeFileNew(`${name}.json`, json)) return name;
    fs.rmSync(`${name}.md`); // ours, its .json taken in between: no half pair left
  }
  throw new Error(`${out}: 100 of ${prefix} already written at ${stamp}`);
}

/**
 * Write a file so a reader sees the old content or the new, never half: temp file in the same
 * directory, fsync, rename.
 * @param {string} file
 * @param {string | Buffer} data
 */
export function writeFileAtomic(file, data) {
  const tmp = writeTemp(file, data);
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** The temp files writeFileAtomic leaves when killed between write and rename. */
export const TEMP_FILE = /^\..+\.\d+\.\d+\.tmp$/;

/** Remove such leftovers under dir (recursively), returning their paths. */
export function removeStaleTemps(/** @type {string} */ dir) {
  if (!fs.existsSync(dir)) return [];
  const found = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => TEMP_FILE.test(path.basename(f)));
  for (const f of found) fs.rmSync(path.join(dir, f), { force: true });
  return found.map((f) => path.join(dir, f));
}

/** Remove the leftovers writeFileAtomic may have left for one file, returning their paths. */
export function removeStaleTempsOf(/** @type {string} */ file) {
  const dir = path.dirname(path.resolve(file));
  const found = fs
    .readdirSync(dir)
    .filter((f) => TEMP_FILE.test(f) && f.startsWith(`.${path.basename(file)}.`))
    .map((f) => path.join(dir, f));
  for (const f of found) fs.rmSync(f, { force: true });
  return found;
}
