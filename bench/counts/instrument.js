// Callgrind instrumenting from the first mark on. Only the windows between marks are counted
// (marks.js), yet a counted process paid callgrind's instrumentation for its whole life: its start,
// loading the drivers, warming every case up (worker.js warmProcess). With `--instr-atstart=no`
// callgrind instruments nothing until the process asks it to, through a client request;
// instrument.c makes it callable from JavaScript (a Node-API addon of one function), and the worker
// calls it just before its first mark. (Switching off again between cases was measured slower:
// each switch discards valgrind's translations; docs/counting.md.) Built here on demand with the C
// compiler against the running Node's own headers (no network, no node-gyp), cached under
// .cache/counting; where it cannot be built, the pass instruments the whole process as before, and
// says why.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from '../../lib/root.js';

const INSTRUMENT_SOURCE = path.join(ROOT, 'bench', 'counts', 'instrument.c');
const CACHE = path.join(ROOT, '.cache', 'counting');

/**
 * The directory of a Node's own C headers (node_api.h): `include/node` beside its `bin/`, in a
 * release tarball and in a system install alike.
 * @param {string} [execPath]
 */
function nodeHeaders(execPath = process.execPath) {
  return path.join(path.dirname(path.dirname(execPath)), 'include', 'node');
}

/**
 * @typedef {{ status: 'ok', file: string } | { status: 'unavailable', reason: string }} Helper
 */

/**
 * The addon's file, built if this Node, this source and this architecture have none yet; or why
 * there is none (the pass then instruments whole processes).
 * @param {{ cache?: string, cc?: string, headers?: string }} [o] cc: the C compiler (default $CC or cc)
 * @returns {Helper}
 */
export function instrumentHelper(o = {}) {
  const headers = o.headers ?? nodeHeaders();
  const cc = o.cc ?? (process.env.CC || 'cc');
  if (!fs.existsSync(path.join(headers, 'node_api.h')))
    return { status: 'unavailable', reason: `no node_api.h in ${headers} (this Node's headers)` };
  const source = fs.readFileSync(INSTRUMENT_SOURCE);
  const id = crypto
    .createHash('sha256')
    .update(source)
    .update(`${process.version} ${process.platform} ${process.arch} ${headers}`)
    .digest('hex')
    .slice(0, 16);
  const dir = o.cache ?? CACHE;
  const file = path.join(dir, `instrument-${id}.node`);
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(dir, { recursive: true });
      execFileSync(cc, ['-O2', '-shared', '-fPIC', '-I', headers, '-o', tmp, INSTRUMENT_SOURCE], {
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      });
      fs.renameSync(tmp, file);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      const e = /** @type {{ stderr?: Buffer, code?: string, message: string }} */ (err);
      const said = String(e.stderr ?? '')
        .split('\n')
        .find((l) => /error/i.test(l));
      const why = e.code === 'ENOENT' ? `no C compiler '${cc}'` : (said ?? e.message.split('\n')[0]).trim();
      return { status: 'unavailable', reason: `could not build ${path.relative(ROOT, INSTRUMENT_SOURCE)}: ${why}` };
    }
  }
  try {
    const fns = createRequire(import.meta.url)(file);
    if (typeof fns.start !== 'function') throw new Error('exports no start()');
  } catch (err) {
    return { status: 'unavailable', reason: `${file}: ${String(/** @type {Error} */ (err).message).split('\n')[0]}` };
  }
  return { status: 'ok', file };
}
