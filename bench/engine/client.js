// A client of the engine server (bench/engine/server.js): starts one, reads its JSON lines, sends
// it requests. Used by the run (a new server for every round, see bench/run/run-suite.js) and by the
// compare (one per side and round, possibly of another checkout).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { ROOT } from '../../lib/root.js';
import { ENGINE_TMP_ENV, PROTOCOL } from './protocol.js';

/** Where a checkout keeps its engine server. */
const SERVER = 'bench/engine/server.js';

/**
 * @typedef {object} Engine
 * @property {any} ready the server's ready message
 * @property {(request: object) => Promise<any>} request send one request, read its one reply
 * @property {(key: string) => Promise<any>} measure one round of one case (see server.js)
 * @property {() => Promise<number | null>} stop ask it to quit (it removes its databases); resolves with its exit code
 * @property {() => void} kill
 */

/**
 * Start a server and wait for its ready message. The server gets a temp directory of its own as
 * TMPDIR (its databases, its drivers' probe, SQLite's temp files): it removes it when it stops,
 * and this process removes it when the server exits however it ends (killed, crashed), so an
 * engine leaves nothing in the temp dir on any path.
 * @param {string[]} args engine flags
 * @param {{ dir?: string, fail?: (what: string, stderr: string) => Error, env?: NodeJS.ProcessEnv, node?: string }} [o]
 *   dir: the checkout whose engine server runs (default this one); fail: makes the error thrown
 *   when the server stops, or says something that is not its protocol; node: the Node executable
 *   that runs it (default this one: the shootout runs one per Node version); env: its environment
 * @returns {Promise<Engine>}
 */
export async function startEngine(args, o = {}) {
  const dir = o.dir ?? ROOT;
  const fail =
    o.fail ??
    ((what, stderr) =>
      new Error(`engine server ${what}: ${stderr.trim().split('\n').slice(-2).join(' | ') || 'no message'}`));
  const server = path.join(dir, SERVER);
  if (!fs.existsSync(server)) throw fail('not found', `${dir} has no ${SERVER}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-engine-'));
  const removeTmp = () => {
    try {
      fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    } catch (err) {
      process.stderr.write(`engine client: could not remove ${tmp}: ${/** @type {Error} */ (err).message}\n`);
    }
  };
  /** @type {import('node:child_process').ChildProcessWithoutNullStreams} */
  let child;
  try {
    child = spawn(o.node ?? process.execPath, [server, ...args], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...(o.env ?? process.env), TMPDIR: tmp, TMP: tmp, TEMP: tmp, [ENGINE_TMP_ENV]: tmp },
    });
  } catch (err) {
    removeTmp();
    throw err;
  }
  child.once('exit', removeTmp);
  child.once('error', removeTmp); // it could not be started: no exit follows
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  child.stdin.on('error', () => {}); // a server that died is reported by the next read
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const read = async () => {
    const { value, done } = await lines.next();
    if (done) {
      if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
      throw fail(`stopped (${child.signalCode ? `signal ${child.signalCode}` : `exit ${child.exitCode}`})`, stderr);
    }
    try {
      return JSON.parse(value);
    } catch {
      throw fail(`wrote a line that is not JSON: ${String(value).slice(0, 80)}`, stderr);
    }
  };
  const request = async (/** @type {object} */ req) => {
    child.stdin.write(`${JSON.stringify(req)}\n`);
    return read();
  };
  const ready = await read();
  if (!ready.ready || ready.protocol !== PROTOCOL) {
    child.kill('SIGTERM'); // a server of another protocol is not left running
    throw fail(`did not say ready with protocol ${PROTOCOL}`, stderr);
  }
  return {
    ready,
    request,
    measure: async (key) => {
      const r = await request({ measure: key });
      if (r.key !== key) throw fail(`answered for ${r.key} when asked for ${key}`, stderr);
      return r;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', resolve);
        child.stdin.end(`${JSON.stringify({ quit: true })}\n`);
      }),
    kill: () => child.kill('SIGTERM'),
  };
}
