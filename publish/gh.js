// The GitHub CLI, for the releases the documents are archived in (aggregate/assets.js): one call,
// its output, or an error naming the call and gh's first line. And the one way publish/ tries
// again (p-retry, the policy in RETRIES; docs/pipeline.md#where-the-documents-are). `gh` on the
// runners; SQLITE_BENCH_GH names another executable (the tests' model of GitHub, test/fixtures/fake-gh.js).
import { spawnSync } from 'node:child_process';
import pRetry, { AbortError } from 'p-retry';
import { CommandError } from '../lib/command.js';

/** Messages of a refusal that passes: rate limits, server errors, a cut connection. */
const TRANSIENT =
  /rate limit|HTTP 429|HTTP 5\d\d|Bad Gateway|Service Unavailable|connection reset|i\/o timeout|timed out|unexpected EOF/i;

/**
 * Every retry in publish/: its tries in all, and whether it waits SQLITE_BENCH_GH_BACKOFF_MS (5 s)
 * before its second try and twice as long before each next one (else it goes on at once).
 */
export const RETRIES = {
  call: { tries: 6, backoff: true }, // a gh call GitHub turned away for a while
  round: { tries: 4, backoff: true }, // looking at a release, then making or completing it (archive.js)
  look: { tries: 5, backoff: true }, // a release whose asset GitHub's listing does not show yet (archive.js)
  push: { tries: 5, backoff: false }, // another run's commit taken and the pages aggregated in between (publish.js)
};

/**
 * Run `step` (given its try's number, from 1) until it returns. A failure `retryable` accepts is
 * tried again, up to the policy's tries, `onRetry` told first; any other failure, and the last
 * try's, is thrown as it is (an AbortError: p-retry would otherwise throw its most frequent one).
 * @template T
 * @param {(n: number) => T | Promise<T>} step
 * @param {{ tries: number, backoff: boolean }} policy
 * @param {{ retryable: (err: Error) => boolean, onRetry?: (err: Error, n: number, wait: number) => void | Promise<void> }} o
 *   onRetry: after try n, waiting `wait` ms; what it throws is thrown
 * @returns {Promise<T>}
 */
export function retrying(step, policy, o) {
  const first = policy.backoff ? Number(process.env.SQLITE_BENCH_GH_BACKOFF_MS ?? 5000) : 0;
  return pRetry(
    async (n) => {
      try {
        return await step(n);
      } catch (err) {
        if (n >= policy.tries || !(err instanceof Error) || !o.retryable(err))
          throw new AbortError(/** @type {Error} */ (err));
        throw err;
      }
    },
    {
      retries: policy.tries - 1,
      minTimeout: first,
      factor: 2,
      onFailedAttempt: async (err) => o.onRetry?.(err, err.attemptNumber, first * 2 ** (err.attemptNumber - 1)),
    },
  );
}

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
 * refusal (TRANSIENT) is tried again (RETRIES.call).
 * @param {string[]} args
 * @param {{ missing?: RegExp, log?: (s: string) => void, tries?: number }} [o] missing: a message
 *   that means "no such release"; tries: of a transient refusal, RETRIES.call's by default (1: the
 *   caller looks at what is there before it tries again)
 * @returns {Promise<string | null>} stdout
 */
export function gh(args, o = {}) {
  const bin = process.env.SQLITE_BENCH_GH || 'gh';
  const call = args.slice(0, 3).join(' ');
  const tries = o.tries ?? RETRIES.call.tries;
  return retrying(
    () => {
      const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (r.error)
        throw new CommandError(
          `${bin} ${args.slice(0, 2).join(' ')}: ${r.error.message} (the GitHub CLI is needed to reach the archive; set SQLITE_BENCH_GH to another executable)`,
        );
      if (r.status === 0) return r.stdout;
      const said = r.stderr.trim().replace(/\s*\n\s*/g, ' ') || `exit ${r.status}`; // one line
      if (o.missing?.test(said)) return null;
      throw new GhError(`${bin} ${call} failed: ${said.slice(0, 300)}`, said);
    },
    { ...RETRIES.call, tries },
    {
      retryable: (err) => err instanceof GhError && TRANSIENT.test(err.said),
      onRetry: (err, n, wait) =>
        (o.log ?? ((s) => console.error(s)))(
          `gh ${call}: ${/** @type {GhError} */ (err).said.slice(0, 120)}; try ${n + 1} of ${tries} in ${wait / 1000} s`,
        ),
    },
  );
}
