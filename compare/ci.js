#!/usr/bin/env node
// npm run ci:compare — the PR check's one step (compare.yml): this checkout (the PR head) against
// the merge-base of BASE_SHA and it, with the default rounds and threshold. Writes pr.json beside
// the report, for compare-comment.yml. Exit code: the compare's (1 = regression or failure,
// 2 = bad usage); 2 also when BASE_SHA or PR_NUMBER is bad.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/root.js';
import { writeFileAtomic } from '../lib/files.js';
import { UsageError, command } from '../lib/command.js';
import { commitOf } from './sides.js';

const OUT = path.join(ROOT, 'out', 'compare');

function readEnv(/** @type {NodeJS.ProcessEnv} */ env) {
  const base = env.BASE_SHA ?? '';
  const pr = env.PR_NUMBER ?? '';
  if (!/^[0-9a-f]{40}$/.test(base))
    throw new UsageError(`BASE_SHA '${base}' is not a 40-hex commit; valid: github.event.pull_request.base.sha`);
  if (!/^[1-9]\d{0,9}$/.test(pr)) throw new UsageError(`PR_NUMBER '${pr}' is not a pull request number`);
  return { base, pr: Number(pr) };
}

const HELP = {
  usage: 'npm run ci:compare',
  summary:
    "The PR check's one step: this checkout against the merge base of BASE_SHA and it, with the default rounds and threshold; writes pr.json (PR_NUMBER) beside the report. No flags.",
};

function main() {
  const { base, pr } = readEnv(process.env);
  fs.mkdirSync(OUT, { recursive: true });
  writeFileAtomic(path.join(OUT, 'pr.json'), `${JSON.stringify({ number: pr, head: commitOf(ROOT), base })}\n`);
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, 'compare', 'cli.js'), '--base', base, '--merge-base', '--head', ROOT, '--out', OUT],
    { stdio: 'inherit', cwd: ROOT },
  );
  if (!fs.existsSync(path.join(OUT, 'compare.md'))) {
    writeFileAtomic(
      path.join(OUT, 'compare.md'),
      `## Benchmark compare\n\nThe compare did not finish (exit ${r.status ?? r.signal}); the run's log says why.\n`,
    );
  }
  return r.status ?? 1;
}

command('ci:compare', import.meta.url, main, HELP);
