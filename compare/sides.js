// How the compare makes its sides (bench/paired/ counts and measures them as it does the
// shootout's): each side is a checkout with its own installed dependencies (a directory, or a git
// ref checked out into a temporary worktree and installed), whose engine interleave.js starts on
// the running Node, with the same flags and seed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { npmCommand } from '../bench/tools/install-drivers.js';
import { SideError } from '../bench/paired/interleave.js';
import { UsageError } from '../lib/command.js';
import { ROOT } from '../lib/root.js';

/** @import { Side } from '../bench/paired/interleave.js' */

const git = (/** @type {string} */ cwd, /** @type {string[]} */ args) =>
  spawnSync('git', args, { cwd, encoding: 'utf8' });

/** The commit a directory is checked out at, or null. */
export function commitOf(/** @type {string} */ dir) {
  const r = git(dir, ['rev-parse', 'HEAD']);
  return r.status === 0 ? r.stdout.trim() : null;
}

/**
 * What a --base / --head value names: an existing directory (a checkout of this project), or else a
 * git ref of this repository; naming neither is bad usage (exit 2), not a failed run.
 * @param {string} flag
 * @param {string} value
 * @returns {{ dir: string } | { ref: string, commit: string }}
 */
function resolveSide(flag, value) {
  const st = fs.statSync(value, { throwIfNoEntry: false });
  if (st?.isDirectory()) {
    const dir = path.resolve(value);
    if (!fs.existsSync(path.join(dir, 'bench', 'cli.js')))
      throw new UsageError(
        `--${flag} '${value}': no bench/cli.js there; valid: a checkout of this project, or a git ref`,
      );
    return { dir };
  }
  const r = git(ROOT, ['rev-parse', '--verify', '--quiet', `${value}^{commit}`]);
  if (r.status !== 0)
    throw new UsageError(
      `--${flag} '${value}' is neither a directory nor a git ref of ${ROOT}; valid: a checkout of this project, or a git ref (branch, tag, commit)`,
    );
  return { ref: value, commit: r.stdout.trim() };
}

/** The merge-base of two commits. */
function mergeBase(/** @type {string} */ a, /** @type {string} */ b) {
  const r = git(ROOT, ['merge-base', a, b]);
  if (r.status !== 0)
    throw new SideError(`git merge-base ${a} ${b} failed in ${ROOT}: ${r.stderr.trim().split('\n')[0]}`);
  return r.stdout.trim();
}

/**
 * Check out `commit` into a new detached worktree at `dir` and install it (`npm ci`, which builds
 * or fetches the drivers for the running Node through the project's postinstall).
 * @param {string} commit
 * @param {string} dir
 * @param {(line: string) => void} log
 * @param {string} [reuseFrom] an installed checkout whose driver build may be reused
 */
function checkoutAndInstall(commit, dir, log, reuseFrom) {
  const add = git(ROOT, ['worktree', 'add', '--detach', dir, commit]);
  if (add.status !== 0)
    throw new SideError(`git worktree add ${commit} failed: ${add.stderr.trim().split('\n').pop()}`);
  const reuse = Boolean(
    reuseFrom && fs.existsSync(path.join(reuseFrom, '.drivers')) && sameDriverBuild(reuseFrom, dir),
  );
  if (reuse) {
    // the same lockfiles and the same install script build the same drivers: take the other
    // checkout's build as it is, and install only the JavaScript dependencies
    fs.cpSync(path.join(/** @type {string} */ (reuseFrom), '.drivers'), path.join(dir, '.drivers'), {
      recursive: true,
    });
    log(
      `drivers: ${path.basename(dir)} has the same driver lockfiles and install script as ${reuseFrom}; reusing its build`,
    );
  }
  log(`installing ${commit.slice(0, 12)} in ${dir} (npm ci${reuse ? ' --ignore-scripts' : ''})`);
  const t0 = Date.now();
  const { cmd, pre } = npmCommand();
  const r = spawnSync(cmd, [...pre, 'ci', '--no-audit', '--no-fund', ...(reuse ? ['--ignore-scripts'] : [])], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0)
    throw new SideError(
      `npm ci in ${dir} failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`,
    );
  log(`installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

/** Every file under dir, relative, sorted. */
const filesUnder = (/** @type {string} */ dir) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.relative(dir, path.join(e.parentPath ?? e.path, e.name)))
        .sort()
    : [];

/**
 * Whether two checkouts build the same drivers: drivers/ (lockfiles) and the install script are
 * byte for byte the same.
 * @param {string} a
 * @param {string} b
 */
function sameDriverBuild(a, b) {
  const drivers = filesUnder(path.join(a, 'drivers'));
  if (drivers.join('\n') !== filesUnder(path.join(b, 'drivers')).join('\n')) return false;
  const rel = ['bench/tools/install-drivers.js', 'bench/data/drivers.js', 'bench/data/node-ranges.js'];
  return [...rel, ...drivers.map((f) => path.join('drivers', f))].every((f) => {
    const x = fs.readFileSync(path.join(a, f), { flag: 'r' });
    const y = fs.existsSync(path.join(b, f)) ? fs.readFileSync(path.join(b, f)) : null;
    return y !== null && x.equals(y);
  });
}

/** What a copy of a checkout leaves out: its git, its outputs and its results, its cache of Nodes. */
const NOT_COPIED = ['.git', 'out', 'results', '.cache'];

/**
 * Copy a checkout, with its installed dependencies and drivers, into `to`: the same code in another
 * directory (the counts' calibration's A/A side; a made-up pull request's head in the tests).
 * @param {string} from
 * @param {string} to
 */
export function copyCheckout(from, to) {
  fs.cpSync(from, to, { recursive: true, filter: (src) => !NOT_COPIED.includes(path.relative(from, src)) });
}

/** Remove a worktree the compare made. */
function removeWorktree(/** @type {string} */ dir) {
  git(ROOT, ['worktree', 'remove', '--force', dir]);
  fs.rmSync(dir, { recursive: true, force: true });
  git(ROOT, ['worktree', 'prune']);
}

/**
 * Make the sides ready: directories as given, refs checked out and installed in temp worktrees
 * (one worktree for two sides at the same commit), the base at the merge base with --merge-base.
 */
export function makeSides(
  /** @type {{ base: string, head: string, mergeBase: boolean, keepWorktrees: boolean }} */ f,
  /** @type {string[]} */ labels,
  /** @type {(line: string) => void} */ log,
) {
  const given = labels.map((l) => (l === 'head' ? f.head : f.base));
  const resolved = given.map((g, i) => resolveSide(labels[i], g));
  if (f.mergeBase) {
    const [baseCommit, headCommit] = resolved.map((r) => ('commit' in r ? r.commit : commitOf(r.dir)));
    if (!headCommit || !baseCommit) throw new UsageError('--merge-base needs both sides in git');
    const mb = mergeBase(baseCommit, headCommit);
    log(`merge-base of ${given[0]} and ${given[1]}: ${mb.slice(0, 12)}`);
    resolved[0] = { ref: `merge-base(${given[0]}, ${given[1]})`, commit: mb };
  }
  const made = /** @type {string[]} */ ([]);
  const cleanup = () => {
    if (!f.keepWorktrees) for (const d of made) removeWorktree(d);
  };
  const sides = /** @type {Side[]} */ ([]);
  try {
    resolved.forEach((r, i) => {
      if ('dir' in r) {
        sides.push({ label: labels[i], dir: r.dir, given: given[i], commit: commitOf(r.dir), worktree: false });
        return;
      }
      const same = sides.find((s) => s.worktree && s.commit === r.commit);
      if (same) {
        sides.push({ ...same, label: labels[i], given: given[i] });
        return;
      }
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sqlite-bench-${labels[i]}-`));
      fs.rmdirSync(dir);
      made.push(dir);
      const installed = resolved.find((x) => 'dir' in x);
      checkoutAndInstall(r.commit, dir, log, installed && 'dir' in installed ? installed.dir : undefined);
      sides.push({ label: labels[i], dir, given: given[i], commit: r.commit, worktree: true });
    });
  } catch (err) {
    cleanup();
    throw err;
  }
  return { sides, cleanup };
}
