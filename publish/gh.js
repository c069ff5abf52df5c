// The GitHub CLI, for the release assets the documents are archived as (assets.js): one call, its
// output, or an error naming the call and gh's first line. `gh` on the runners; SQLITE_BENCH_GH
// names another executable (the tests' stand-in for GitHub, test/fixtures/fake-gh.js).
import { spawnSync } from 'node:child_process';
import { CommandError } from '../lib/command.js';

/** The gh executable: SQLITE_BENCH_GH, else gh on PATH. */
export const ghBin = (/** @type {Record<string, string | undefined>} */ env = process.env) =>
  env.SQLITE_BENCH_GH || 'gh';

/**
 * Run gh; a failure is a CommandError (or, when `missing` matches its message, null).
 * @param {string[]} args
 * @param {{ bin?: string, missing?: RegExp }} [o] missing: a message that means "no such release"
 * @returns {string | null} stdout
 */
export function gh(args, o = {}) {
  const bin = o.bin ?? ghBin();
  const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error)
    throw new CommandError(
      `${bin} ${args.slice(0, 2).join(' ')}: ${r.error.message} (the GitHub CLI is needed to reach the archive; set SQLITE_BENCH_GH to another executable)`,
    );
  if (r.status === 0) return r.stdout;
  const message =
    `${r.stderr}`
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? `exit ${r.status}`;
  if (o.missing?.test(message)) return null;
  throw new CommandError(`${bin} ${args.slice(0, 3).join(' ')} failed: ${message}`);
}
