// The GitHub CLI, for the releases the documents are archived in (aggregate/assets.js): one call,
// its output, or an error naming the call and gh's first line. A call GitHub turns away for a
// while (its rate limits, a 5xx, a connection cut off) is tried again after 5 s, 10 s, 20 s, 40 s
// and 80 s (SQLITE_BENCH_GH_BACKOFF_MS sets the first wait), each retry logged: gh itself paces
// nothing and retries only an asset upload's 5xx (3 times, 200 ms apart), never a rate limit. `gh` on the runners; SQLITE_BENCH_GH names another executable (the tests'
// model of GitHub, test/fixtures/fake-gh.js).
import { spawnSync } from 'node:child_process';
import { CommandError } from '../lib/command.js';

/** The gh executable: SQLITE_BENCH_GH, else gh on PATH. */
export const ghBin = (/** @type {Record<string, string | undefined>} */ env = process.env) =>
  env.SQLITE_BENCH_GH || 'gh';

/** Messages of a refusal that passes: rate limits, server errors, a cut connection. */
export const TRANSIENT =
  /rate limit|HTTP 429|HTTP 5\d\d|Bad Gateway|Service Unavailable|connection reset|i\/o timeout|timed out|unexpected EOF/i;
/** Tries of one call in all. */
export const TRIES = 6;

/** Wait, without a timer: the archive's steps run one after another anyway. */
export const sleep = (/** @type {number} */ ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** The first wait before a retry, in ms. */
export const backoffMs = (/** @type {Record<string, string | undefined>} */ env = process.env) =>
  Number(env.SQLITE_BENCH_GH_BACKOFF_MS ?? 5000);

/** A failed gh call; `said` is what gh printed, on one line. */
export class GhError extends CommandError {
  /** @param {string} message @param {string} said */
  constructor(message, said) {
    super(message);
    this.said = said;
  }
}

/**
 * Run gh; a failure is a GhError (or, when `missing` matches its message, null). A transient
 * refusal (TRANSIENT) is tried again, up to TRIES in all, waiting twice as long each time.
 * @param {string[]} args
 * @param {{ bin?: string, missing?: RegExp, log?: (s: string) => void, tries?: number }} [o] missing:
 *   a message that means "no such release"; tries: of a transient refusal, TRIES by default (1: the
 *   caller looks at what is there before it tries again)
 * @returns {string | null} stdout
 */
export function gh(args, o = {}) {
  const bin = o.bin ?? ghBin();
  for (let attempt = 1; ; attempt++) {
    const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.error)
      throw new CommandError(
        `${bin} ${args.slice(0, 2).join(' ')}: ${r.error.message} (the GitHub CLI is needed to reach the archive; set SQLITE_BENCH_GH to another executable)`,
      );
    if (r.status === 0) return r.stdout;
    const lines = `${r.stderr}`
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const said = lines.join(' ') || `exit ${r.status}`;
    if (o.missing?.test(said)) return null;
    if (TRANSIENT.test(said) && attempt < (o.tries ?? TRIES)) {
      const wait = backoffMs() * 2 ** (attempt - 1);
      (o.log ?? ((s) => console.error(s)))(
        `gh ${args.slice(0, 3).join(' ')}: ${said.slice(0, 120)}; try ${attempt + 1} of ${o.tries ?? TRIES} in ${wait / 1000} s`,
      );
      sleep(wait);
      continue;
    }
    throw new GhError(`${bin} ${args.slice(0, 3).join(' ')} failed: ${said.slice(0, 300)}`, said);
  }
}
