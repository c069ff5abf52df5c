// Load each driver the running Node can use, and record what was loaded: package version,
// SQLite (and SQLite3MC) version, compile options, and the native binary file with its origin.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { DRIVERS, GENERATION_ENV } from '../data/drivers.js';
import { builtinUnavailable, chosenGeneration } from '../data/node-ranges.js';
import { scalar } from '../../lib/sqlite.js';
import { ROOT } from '../../lib/root.js';

/**
 * Where the drivers for one Node build live: one directory per platform, arch and exact version,
 * so several Node versions can share a checkout. A generation other than the Node's default
 * (SQLITE_BENCH_GENERATION, see chosenGeneration) lives beside it, in ...-gen-<id>.
 * @param {string} [version]
 * @param {string} [generation] an explicitly chosen generation id (default: $SQLITE_BENCH_GENERATION)
 */
export function driversDir(version = process.version, generation = process.env[GENERATION_ENV]) {
  const chosen = chosenGeneration(version, generation || undefined);
  const suffix = 'gen' in chosen && chosen.override ? `-gen-${chosen.gen.id}` : '';
  return path.join(
    process.env.SQLITE_BENCH_DRIVERS_DIR || path.join(ROOT, '.drivers'),
    `${process.platform}-${process.arch}-node-${version}${suffix}`,
  );
}

/**
 * @typedef {object} DriverInfo
 * @property {string} name
 * @property {'ok'|'skipped'|'error'} status
 * @property {string} [reason]
 * @property {string} [version] package version, or the Node version for node:sqlite
 * @property {string} [sqlite]
 * @property {string} [sqlite3mc]
 * @property {string} [generation]
 * @property {{ file: string, origin: 'built-from-source'|'bundled-prebuild'|'downloaded-prebuild'|'built-into-node', sha256?: string }} [binary]
 * @property {string[]} [compileOptions]
 */

/** Where a native binary came from, judged from where it sits in its package. */
export function binaryOrigin(/** @type {string} */ pkgDir, /** @type {string} */ file) {
  const rel = path.relative(pkgDir, file).split(path.sep).join('/');
  if (rel.startsWith('prebuilds/')) return 'bundled-prebuild';
  // node-gyp leaves its config and makefiles beside the binary; prebuild-install only the binary
  if (fs.existsSync(path.join(pkgDir, 'build', 'config.gypi'))) return 'built-from-source';
  return 'downloaded-prebuild';
}

/**
 * @param {import('../data/drivers.js').Driver} driver
 * @param {string} scratch a directory for the probe database
 * @returns {Promise<{ info: DriverInfo, open?: (file: string) => import('./database.js').Conn }>}
 */
async function loadOne(driver, scratch) {
  const unavailable = builtinUnavailable(driver, process.version);
  if (unavailable) return { info: { name: driver.name, status: 'skipped', reason: unavailable } };
  if (driver.api === 'node:sqlite') {
    const { DatabaseSync } = await import('node:sqlite');
    return {
      info: {
        name: driver.name,
        status: 'ok',
        version: process.version,
        binary: { file: process.execPath, origin: 'built-into-node' },
      },
      open: (file) => new DatabaseSync(file),
    };
  }
  const chosen = chosenGeneration(process.version, process.env[GENERATION_ENV] || undefined);
  // a generation refused for this Node is never loaded (13.x below Node 22.14 segfaults)
  if ('error' in chosen)
    return {
      info: { name: driver.name, status: process.env[GENERATION_ENV] ? 'error' : 'skipped', reason: chosen.error },
    };
  const gen = chosen.gen;
  const dir = driversDir();
  const pkgName = /** @type {string} */ (driver.package);
  const require = createRequire(path.join(dir, 'package.json'));
  let pkgJson;
  try {
    pkgJson = require.resolve(`${pkgName}/package.json`);
  } catch {
    return {
      info: {
        name: driver.name,
        status: 'error',
        generation: gen.id,
        reason: `not installed for ${process.version} in ${path.relative(ROOT, dir) || dir}: run 'npm install' (or 'npm run drivers') with this Node`,
      },
    };
  }
  const pkgDir = path.dirname(pkgJson);
  const version = JSON.parse(fs.readFileSync(pkgJson, 'utf8')).version;
  const before = new Set(Object.keys(require.cache));
  const Database = require(pkgName);
  // 13.x loads its bundled prebuild before a locally built binary; a binary built here wins.
  const built = path.join(pkgDir, 'build', 'Release', 'better_sqlite3.node');
  const options = fs.existsSync(path.join(pkgDir, 'prebuilds')) && fs.existsSync(built) ? { nativeBinding: built } : {};
  const open = (/** @type {string} */ file) => new Database(file, options);
  const probe = path.join(scratch, `${pkgName}-probe.db`);
  open(probe).close(); // loads the native binary
  const file = Object.keys(require.cache).find(
    (k) => !before.has(k) && k.endsWith('.node') && k.startsWith(pkgDir + path.sep),
  );
  return {
    info: {
      name: driver.name,
      status: 'ok',
      version,
      generation: gen.id,
      binary: file
        ? {
            file: path.relative(ROOT, file),
            origin: binaryOrigin(pkgDir, file),
            sha256: crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
          }
        : undefined,
    },
    open,
  };
}

/**
 * Load every driver; one that cannot be used is reported with the reason, never left out.
 * @returns {Promise<Map<string, { info: DriverInfo, open?: (file: string) => import('./database.js').Conn }>>}
 */
export async function loadDrivers() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-probe-'));
  const out = new Map();
  try {
    for (const driver of DRIVERS) {
      let loaded;
      try {
        loaded = await loadOne(driver, scratch);
      } catch (err) {
        loaded = {
          info: {
            name: driver.name,
            status: /** @type {const} */ ('error'),
            reason: `failed to load: ${String(/** @type {Error} */ (err)?.message ?? err).split('\n')[0]}`,
          },
        };
      }
      if (loaded.open)
        Object.assign(
          loaded.info,
          describeSqlite(loaded.open, path.join(scratch, `${driver.name.replace(/\W/g, '_')}.db`)),
        );
      out.set(driver.name, loaded);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return out;
}

function describeSqlite(
  /** @type {(file: string) => import('./database.js').Conn} */ open,
  /** @type {string} */ file,
) {
  const conn = open(file);
  try {
    /** @type {{ sqlite: string, sqlite3mc?: string, compileOptions: string[] }} */
    const d = {
      sqlite: String(scalar(conn, 'SELECT sqlite_version()')),
      compileOptions: conn
        .prepare('PRAGMA compile_options')
        .all()
        .map((r) => String(Object.values(r)[0])),
    };
    try {
      d.sqlite3mc = String(scalar(conn, 'SELECT sqlite3mc_version()'));
    } catch {
      // not SQLite3MC
    }
    return d;
  } finally {
    conn.close();
  }
}
