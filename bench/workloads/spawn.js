// Start one round process (round.js) and read its one JSON line. A process that crashes, writes
// something else, or outlives its limit (killed) gives {status: 'error', reason}; its work
// directory is removed however it ended.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROUND = fileURLToPath(new URL('./round.js', import.meta.url));

/** @type {Set<import('node:child_process').ChildProcess>} the round processes running now */
export const running = new Set();

/**
 * @param {import('./round.js').RoundSpec} spec
 * @param {{ env: NodeJS.ProcessEnv, limitMs: number }} o
 * @returns {Promise<any>}
 */
export function runRoundProcess(spec, o) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ROUND, JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: o.env,
    });
    running.add(child);
    let out = '';
    let err = '';
    let killed = false;
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err = (err + d).slice(-2000);
    });
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, o.limitMs);
    const done = (/** @type {any} */ r) => {
      clearTimeout(timer);
      running.delete(child);
      fs.rmSync(spec.workdir, { recursive: true, force: true, maxRetries: 3 });
      resolve(r);
    };
    child.on('error', (e) => done({ status: 'error', reason: `could not start the round process: ${e.message}` }));
    child.on('close', (code, signal) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        const r = JSON.parse(line);
        if (r && typeof r.status === 'string') return done(r); // its result, even if it then had to be killed
      } catch {
        // not its line: reported below
      }
      if (killed)
        return done({
          status: 'error',
          reason: `the round process did not finish within ${Math.round(o.limitMs / 1000)} s and was killed`,
        });
      const tail = err.trim().split('\n').slice(-2).join(' | ');
      done({
        status: 'error',
        reason: `the round process ended (${signal ? `signal ${signal}` : `exit ${code}`}) without a result${tail ? `: ${tail}` : ''}`,
      });
    });
  });
}
