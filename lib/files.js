// File helpers shared by bench, compare and aggregate: atomic writes and their leftovers.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Write a file so a reader sees the old content or the new, never half: temp file in the same
 * directory, fsync, rename.
 * @param {string} file
 * @param {string | Buffer} data
 */
export function writeFileAtomic(file, data) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** The temp files writeFileAtomic leaves when killed between write and rename. */
export const TEMP_FILE = /^\..+\.\d+\.\d+\.tmp$/;

/**
 * Remove such leftovers under dir (recursively), returning their paths.
 * @param {string} dir
 */
export function removeStaleTemps(dir) {
  if (!fs.existsSync(dir)) return [];
  const found = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => TEMP_FILE.test(path.basename(f)));
  for (const f of found) fs.rmSync(path.join(dir, f), { force: true });
  return found.map((f) => path.join(dir, f));
}

/**
 * Remove the leftovers writeFileAtomic may have left for one file, returning their paths.
 * @param {string} file
 */
export function removeStaleTempsOf(file) {
  const dir = path.dirname(path.resolve(file));
  const found = fs
    .readdirSync(dir)
    .filter((f) => TEMP_FILE.test(f) && f.startsWith(`.${path.basename(file)}.`))
    .map((f) => path.join(dir, f));
  for (const f of found) fs.rmSync(f, { force: true });
  return found;
}
