// The counting's two C helpers, built on demand with the C compiler (no network, no node-gyp) into
// .cache/counting. instrument.c: a Node-API addon that switches callgrind's instrumentation on just
// before the first mark (docs/counting.md#how-a-case-is-counted); where it cannot be built, the pass
// instruments whole processes and says why. count-malloc.c: the counted processes' malloc
// (LD_PRELOAD), without which libc's count does not repeat: where it cannot be built, no counting.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from '../../lib/root.js';

const CACHE = path.join(ROOT, '.cache', 'counting');

/** A Node's own C headers (node_api.h): `include/node` beside its `bin/`, in a release tarball and a system install. */
const nodeHeaders = () => path.join(path.dirname(path.dirname(process.execPath)), 'include', 'node');

/**
 * @typedef {{ status: 'ok', file: string } | { status: 'unavailable', reason: string }} Helper
 */

/**
 * A helper's file, built if this source, these flags and this machine have none yet; or why there is none.
 * @param {string} name its source, bench/counts/NAME.c
 * @param {string} ext the built file's
 * @param {string[]} flags the compiler's, besides -O2 -shared -fPIC
 * @param {{ cache?: string, cc?: string }} o cc: the C compiler (default $CC or cc)
 * @returns {Helper}
 */
function built(name, ext, flags, o) {
  const cc = o.cc ?? (process.env.CC || 'cc');
  const sourceFile = path.join(ROOT, 'bench', 'counts', `${name}.c`);
  const id = crypto
    .createHash('sha256')
    .update(fs.readFileSync(sourceFile))
    .update(`${flags.join(' ')} ${process.version} ${process.platform} ${process.arch}`)
    .digest('hex')
    .slice(0, 16);
  const dir = o.cache ?? CACHE;
  const file = path.join(dir, `${name}-${id}${ext}`);
  if (fs.existsSync(file)) return { status: 'ok', file };
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true });
    execFileSync(cc, ['-O2', '-shared', '-fPIC', ...flags, '-o', tmp, sourceFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    fs.renameSync(tmp, file);
    return { status: 'ok', file };
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    const e = /** @type {{ stderr?: Buffer, code?: string, message: string }} */ (err);
    const said = String(e.stderr ?? '')
      .split('\n')
      .find((l) => /error/i.test(l));
    const why = e.code === 'ENOENT' ? `no C compiler '${cc}'` : (said ?? e.message.split('\n')[0]).trim();
    return { status: 'unavailable', reason: `could not build bench/counts/${name}.c: ${why}` };
  }
}

/**
 * The instrumentation addon's file, or why there is none (the pass then instruments whole processes).
 * @param {{ cache?: string, cc?: string, headers?: string }} [o] headers: this Node's (node_api.h)
 * @returns {Helper}
 */
export function instrumentHelper(o = {}) {
  const headers = o.headers ?? nodeHeaders();
  if (!fs.existsSync(path.join(headers, 'node_api.h')))
    return { status: 'unavailable', reason: `no node_api.h in ${headers} (this Node's headers)` };
  const r = built('instrument', '.node', ['-I', headers], o);
  if (r.status !== 'ok') return r;
  try {
    const fns = createRequire(import.meta.url)(r.file);
    if (typeof fns.start !== 'function') throw new Error('exports no start()');
  } catch (err) {
    return { status: 'unavailable', reason: `${r.file}: ${String(/** @type {Error} */ (err).message).split('\n')[0]}` };
  }
  return r;
}

/**
 * The counted processes' malloc (count-malloc.c, a shared object for LD_PRELOAD), or why there is none.
 * -fno-builtin: the compiler would otherwise make calloc's malloc and memset one call to calloc, itself.
 * @param {{ cache?: string, cc?: string }} [o]
 * @returns {Helper}
 */
export const mallocHelper = (o = {}) => built('count-malloc', '.so', ['-fno-builtin'], o);
