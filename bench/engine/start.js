// Starts an engine (bench/engine/engine.js, whose head comment lists its messages) with
// child_process.fork, gives it its session options, and sends it requests one at a time. Used by
// the round loop of every run (bench/run/runner.js): the suite's, a new engine every round; the
// compare's and the shootout's, one per side (another checkout, another Node) and round.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../../lib/root.js';

/** Where a checkout keeps its engine. */
const ENGINE = 'bench/engine/engine.js';

/**
 * The environment variable naming the temp directory made here for one engine (and given it as
 * TMPDIR): everything the engine puts in the temp dir lands there, the engine removes it when it
 * stops, and this process removes it when the engine dies without doing so.
 */
export const ENGINE_TMP_ENV = 'SQLITE_BENCH_ENGINE_TMP';
const TMP_PREFIX = 'sqlite-bench-engine-';

/**
 * The temp directory made here for this engine (its TMPDIR), or null: only a directory that is
 * this process's temp dir and named as startEngine names it, never one a user could point at.
 */
export function ownTempDir(env = process.env) {
  const dir = env[ENGINE_TMP_ENV];
  if (!dir || path.resolve(dir) !== path.resolve(os.tmpdir()) || !path.basename(dir).startsWith(TMP_PREFIX))
    return null;
  return path.resolve(dir);
}

/**
 * @typedef {object} Engine
 * @property {any} ready the engine's ready message
 * @property {(request: object) => Promise<any>} request send one request, wait for its one reply
 * @property {() => Promise<number | null>} stop ask it to quit (it removes its databases); resolves with its exit code
 * @property {() => boolean} kill
 */

/**
 * Start an engine and wait for its ready message; its temp directory (ENGINE_TMP_ENV) is removed
 * however it ends (killed, crashed), so an engine leaves nothing in the temp dir on any path.
 * @param {Omit<import('./session.js').SessionOptions, 'drivers'>} options its session options, its first message
 * @param {{ dir?: string, fail?: (what: string, stderr: string) => Error, env?: NodeJS.ProcessEnv, node?: string }} [o]
 *   dir: the checkout whose engine runs (default this one); fail: makes the error thrown when the
 *   engine stops or answers something unexpected; node: the Node executable that runs it (default
 *   this one: the shootout runs one per Node version); env: its environment
 * @returns {Promise<Engine>}
 */
export async function startEngine(options, o = {}) {
  const dir = o.dir ?? ROOT;
  const fail =
    o.fail ??
    ((what, stderr) => new Error(`engine ${what}: ${stderr.trim().split('\n').slice(-2).join(' | ') || 'no message'}`));
  const file = path.join(dir, ENGINE);
  if (!fs.existsSync(file)) throw fail('not found', `${dir} has no ${ENGINE}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), TMP_PREFIX));
  const removeTmp = () => {
    try {
      fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    } catch (err) {
      process.stderr.write(`engine start: could not remove ${tmp}: ${/** @type {Error} */ (err).message}\n`);
    }
  };
  /** @type {import('node:child_process').ChildProcess} */
  let child;
  try {
    child = fork(file, [], {
      cwd: dir,
      execPath: o.node ?? process.execPath,
      execArgv: [],
      env: { ...(o.env ?? process.env), TMPDIR: tmp, TMP: tmp, TEMP: tmp, [ENGINE_TMP_ENV]: tmp },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
  } catch (err) {
    removeTmp();
    throw err;
  }
  child.once('exit', removeTmp);
  let stderr = '';
  /** @type {string | null} how it ended, once it has */
  let ended = null;
  let waiting = /** @type {{ resolve: (m: any) => void, reject: (err: Error) => void } | null} */ (null);
  const end = (/** @type {string} */ how) => {
    ended ??= how;
    waiting?.reject(fail(ended, stderr));
    waiting = null;
  };
  child.stderr?.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  child.on('message', (m) => {
    const w = waiting;
    waiting = null;
    w?.resolve(m);
  });
  child.once('error', (err) => {
    removeTmp(); // it could not be started: no exit follows
    end(`could not start: ${err.message}`);
  });
  // after its stderr is read to the end, so the error has its last lines
  child.once('close', (code, signal) => end(`stopped (${signal ? `signal ${signal}` : `exit ${code}`})`));
  const request = (/** @type {object} */ req) =>
    new Promise((resolve, reject) => {
      if (ended) return reject(fail(ended, stderr));
      waiting = { resolve, reject };
      child.send(req, () => {}); // an engine that died is reported by its close
    });
  const ready = await request(options);
  if (!ready?.ready) {
    // an engine that answers something else is not left running, nor its temp dir
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.kill('SIGTERM')) await exited;
    throw fail(`answered ${JSON.stringify(ready).slice(0, 80)} instead of ready`, stderr);
  }
  return {
    ready,
    request,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', resolve);
        child.send({ quit: true }, () => {});
      }),
    kill: () => child.kill('SIGTERM'),
  };
}
