#!/usr/bin/env node
// npm run ci:comment — compare-comment.yml's one step: post or update the single compare comment
// on a PR, from the compare artifact. Runs the default branch's code only; the artifact is
// untrusted data: the PR it names must have the workflow run's head commit, the text is posted as
// it is (with @-mentions defused), never run. Uses only Node built-ins (no install needed).
import fs from 'node:fs';
import path from 'node:path';
import { CommandError, UsageError, command, parseStrict } from '../lib/command.js';

export const MARKER = '<!-- sqlite-node-bench:compare -->';
const MAX_BODY = 60_000;

/**
 * The comment text: marker, the report (capped, mentions defused), a link to the run.
 * @param {string} md
 * @param {{ runUrl?: string, conclusion?: string }} meta
 */
export function commentBody(md, meta) {
  let text = md.replace(/@(?=[A-Za-z0-9-])/g, '@\u200b');
  if (text.length > MAX_BODY) text = `${text.slice(0, MAX_BODY)}\n\n… (cut; the whole table is in the run's artifact)`;
  const link = meta.runUrl ? `\n\n[The run](${meta.runUrl})${meta.conclusion ? `: ${meta.conclusion}` : ''}.` : '';
  return `${MARKER}\n${text}${link}\n`;
}

/**
 * GitHub REST call.
 * @param {string} method
 * @param {string} url
 * @param {string} token
 * @param {any} [body]
 */
async function gh(method, url, token, body) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', ...(body ? { 'content-type': 'application/json' } : {}) },
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
    throw new CommandError(`${path.join(dir, 'pr.json')} is missing or not JSON (${/** @type {Error} */ (err).message.split('\n')[0]})`);
  }
  if (!Number.isInteger(pr?.number) || pr.number < 1) throw new CommandError(`pr.json /number ${JSON.stringify(pr?.number)} is not a pull request number`);
  const md = fs.readFileSync(path.join(dir, 'compare.md'), 'utf8');
  const pull = await gh('GET', `${api}/repos/${repo}/pulls/${pr.number}`, token);
  if (pull?.head?.sha !== headSha) throw new CommandError(`PR #${pr.number} has head ${pull?.head?.sha}, not the run's ${headSha}; not commenting`);
  const body = commentBody(md, { runUrl: env.RUN_URL, conclusion: env.RUN_CONCLUSION });
  for (let page = 1; page <= 50; page++) {
    const comments = await gh('GET', `${api}/repos/${repo}/issues/${pr.number}/comments?per_page=100&page=${page}`, token);
    const mine = comments.find((/** @type {any} */ c) => c.user?.type === 'Bot' && typeof c.body === 'string' && c.body.startsWith(MARKER));
    if (mine) {
      const c = await gh('PATCH', `${api}/repos/${repo}/issues/comments/${mine.id}`, token, { body });
      return { action: 'updated', url: c.html_url };
    }
    if (comments.length < 100) break;
  }
  const c = await gh('POST', `${api}/repos/${repo}/issues/${pr.number}/comments`, token, { body });
  return { action: 'created', url: c.html_url };
}

async function main(/** @type {string[]} */ argv) {
  parseStrict(argv, {});
  const r = await postComment(process.env);
  console.log(`ci:comment: ${r.action} ${r.url}`);
}

command('ci:comment', import.meta.url, main);
