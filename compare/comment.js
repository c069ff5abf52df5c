#!/usr/bin/env node
// npm run ci:comment — compare-comment.yml's one step: post or update the single compare comment
// on a PR, from the compare artifact. Runs the default branch's code only. The artifact is
// untrusted data, written by the pull request's code: the PR it names must have the workflow run's
// head commit, and the comment is rendered here, by this code, from compare.json: a run document
// checked by the one schema and its semantic checks (bench/result/document.js, with the default
// branch's lockfile installed by `npm run ci:install-js`, no script run), refused unless it is a
// compare of two sides (report.js compareProblem), every string in it escaped (report.js,
// lib/markdown.js); the artifact's own Markdown is never posted. The body stays below GitHub's
// 65,536-character limit: a longer report is cut, with a link to the run's artifacts.
import fs from 'node:fs';
import path from 'node:path';
import { CommandError, UsageError, command, firstLine } from '../lib/command.js';
import { inert } from '../lib/markdown.js';
import { documentProblems } from '../bench/result/document.js';
import { compareProblem, report } from './report.js';

export const MARKER = '<!-- sqlite-node-bench:compare -->';
/** The report's share of a comment: GitHub refuses one over 65,536 characters. */
export const MAX_BODY = 60_000;
/** A compare.json over this is not read. */
const MAX_JSON_BYTES = 20 * 1024 * 1024;

/** The run's page, when it is a plain https URL (it goes into a link). */
const safeUrl = (/** @type {unknown} */ u) =>
  typeof u === 'string' && u.length <= 500 && /^https:\/\/[A-Za-z0-9.-]+(:\d+)?(\/[A-Za-z0-9._~%/-]*)?$/.test(u)
    ? u
    : null;

/**
 * Why a parsed compare.json cannot be rendered, in one line naming the first field that is wrong;
 * null when it can: a run document (the one schema and document.js's checks, the case names
 * excepted: they are the pull request's data, which may add one this checkout does not know),
 * of a compare (report.js compareProblem).
 * @param {unknown} json
 * @returns {string | null}
 */
export function compareJsonProblem(json) {
  const problems = documentProblems(json, { names: false });
  if (problems.length)
    return `compare.json is not a run document: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`;
  const problem = compareProblem(json);
  return problem ? `compare.json is not a compare run: ${problem}` : null;
}

/**
 * compare.json, parsed and checked, or why it cannot be shown.
 * @param {string} file
 * @returns {{ result: import('./report.js').CompareDocument } | { problem: string }}
 */
function readCompare(file) {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st?.isFile())
    return { problem: "there is no compare.json (the compare did not finish; the run's log says why)" };
  if (st.size > MAX_JSON_BYTES)
    return { problem: `compare.json is ${st.size} bytes, over the ${MAX_JSON_BYTES}-byte limit` };
  let json;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    return { problem: `compare.json is not JSON (${firstLine(err)})` };
  }
  const problem = compareJsonProblem(json);
  return problem ? { problem } : { result: json };
}

/**
 * The report, rendered by this code from the artifact's compare.json; or one line saying why not.
 * @param {string} dir the artifact
 */
export function reportFrom(dir) {
  const r = readCompare(path.join(dir, 'compare.json'));
  let problem = 'problem' in r ? r.problem : '';
  if ('result' in r)
    try {
      return report(r.result);
    } catch (err) {
      // the checks let through only what report.js renders; were that ever wrong, the PR still
      // gets a comment naming the failure instead of none at all
      problem = `compare.json passed its check but could not be rendered (${firstLine(err)})`;
    }
  return `## Benchmark compare\n\nNothing to show: ${inert(problem, 300)}.\n`;
}

/**
 * Text cut at a line end to at most max characters, any <details> it leaves open closed, and a
 * last line saying where the whole is.
 * @param {string} text
 * @param {number} max
 * @param {string} where Markdown naming the artifact
 */
function fit(text, max, where) {
  if (text.length <= max) return text;
  const end = text.lastIndexOf('\n', max);
  const kept = text.slice(0, end > 0 ? end : max);
  const open = (kept.match(/<details>/g) ?? []).length - (kept.match(/<\/details>/g) ?? []).length;
  return `${kept}${'\n\n</details>'.repeat(Math.max(0, open))}\n\n… cut at ${kept.length.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters: the whole report is in ${where} (compare.md).`;
}

/** The comment text: marker, the report (cut to fit, mentions defused), a link to the run. */
export function commentBody(/** @type {string} */ md, /** @type {{ runUrl?: string, conclusion?: string }} */ meta) {
  const run = safeUrl(meta.runUrl);
  const text = fit(
    md.replace(/@(?=[A-Za-z0-9-])/g, '@\u200b'),
    MAX_BODY,
    run ? `[the run's artifacts](${run}#artifacts)` : "the run's artifacts",
  );
  const link = run ? `\n\n[The run](${run})${meta.conclusion ? `: ${inert(meta.conclusion, 40)}` : ''}.` : '';
  return `${MARKER}\n${text}${link}\n`;
}

/**
 * GitHub REST call.
 * @param {string} method
 * @param {string} url
 * @param {string} token
 * @param {any} [body]
 * @returns {Promise<any>} GitHub's JSON answer, read by its documented fields
 */
async function gh(method, url, token, body) {
  const res = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new CommandError(`${method} ${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return res.json();
}

/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ action: 'created' | 'updated', url: string }>}
 */
export async function postComment(env) {
  const api = env.GITHUB_API_URL || 'https://api.github.com';
  const repo = env.GITHUB_REPOSITORY ?? '';
  const token = env.GITHUB_TOKEN ?? '';
  const dir = env.COMPARE_DIR ?? '';
  const headSha = env.RUN_HEAD_SHA ?? '';
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new UsageError(`GITHUB_REPOSITORY '${repo}' is not owner/name`);
  if (!token) throw new UsageError('GITHUB_TOKEN is empty');
  if (!/^[0-9a-f]{40}$/.test(headSha)) throw new UsageError(`RUN_HEAD_SHA '${headSha}' is not a 40-hex commit`);
  let pr;
  try {
    pr = JSON.parse(fs.readFileSync(path.join(dir, 'pr.json'), 'utf8'));
  } catch (err) {
    throw new CommandError(`${path.join(dir, 'pr.json')} is missing or not JSON (${firstLine(err)})`);
  }
  if (!Number.isInteger(pr?.number) || pr.number < 1)
    throw new CommandError(`pr.json /number ${JSON.stringify(pr?.number)} is not a pull request number`);
  const md = reportFrom(dir);
  const pull = await gh('GET', `${api}/repos/${repo}/pulls/${pr.number}`, token);
  if (pull?.head?.sha !== headSha)
    throw new CommandError(`PR #${pr.number} has head ${pull?.head?.sha}, not the run's ${headSha}; not commenting`);
  const body = commentBody(md, { runUrl: env.RUN_URL, conclusion: env.RUN_CONCLUSION });
  for (let page = 1; page <= 50; page++) {
    const comments = await gh(
      'GET',
      `${api}/repos/${repo}/issues/${pr.number}/comments?per_page=100&page=${page}`,
      token,
    );
    const mine = comments.find(
      (/** @type {any} */ c) => c.user?.type === 'Bot' && typeof c.body === 'string' && c.body.startsWith(MARKER),
    );
    if (mine) {
      const c = await gh('PATCH', `${api}/repos/${repo}/issues/comments/${mine.id}`, token, { body });
      return { action: 'updated', url: c.html_url };
    }
    if (comments.length < 100) break;
  }
  const c = await gh('POST', `${api}/repos/${repo}/issues/${pr.number}/comments`, token, { body });
  return { action: 'created', url: c.html_url };
}

const HELP = {
  usage: 'npm run ci:comment',
  summary:
    "Posts or updates the one compare comment on a pull request, rendered here from the compare artifact's compare.json, checked against the one document schema. No flags: the environment names the artifact and the PR.",
};

async function main() {
  const r = await postComment(process.env);
  console.log(`ci:comment: ${r.action} ${r.url}`);
}

command('ci:comment', import.meta.url, main, HELP);
