// The PR comment step against a local stand-in for the GitHub REST API (node:http): it finds its
// one comment and updates it, creates it otherwise, and refuses an artifact that names another PR.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { MARKER, commentBody, postComment } from '../compare/comment.js';
import { scratch } from './helpers.js';

const HEAD = 'a'.repeat(40);

/** A GitHub API stand-in with one PR and its comments; records every write. */
async function server(/** @type {{ comments: any[], headSha?: string }} */ state) {
  /** @type {{ method: string, url: string, body: any }[]} */
  const writes = [];
  const srv = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const send = (/** @type {number} */ code, /** @type {any} */ obj) => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(obj));
      };
      if (req.headers.authorization !== 'Bearer t0ken') return send(401, { message: 'bad token' });
      const url = String(req.url);
      if (req.method === 'GET' && url === '/repos/o/r/pulls/7') return send(200, { number: 7, head: { sha: state.headSha ?? HEAD } });
      if (req.method === 'GET' && url.startsWith('/repos/o/r/issues/7/comments')) return send(200, state.comments);
      if (req.method === 'POST' && url === '/repos/o/r/issues/7/comments') {
        writes.push({ method: 'POST', url, body: JSON.parse(data) });
        return send(201, { id: 99, html_url: 'https://example/c/99' });
      }
      const m = url.match(/^\/repos\/o\/r\/issues\/comments\/(\d+)$/);
      if (req.method === 'PATCH' && m) {
        writes.push({ method: 'PATCH', url, body: JSON.parse(data) });
        return send(200, { id: Number(m[1]), html_url: `https://example/c/${m[1]}` });
      }
      send(404, { message: `no route ${req.method} ${url}` });
    });
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', () => r(null)));
  const addr = /** @type {import('node:net').AddressInfo} */ (srv.address());
  return { api: `http://127.0.0.1:${addr.port}`, writes, close: () => srv.close() };
}

function artifact(/** @type {any} */ pr) {
  const dir = scratch('compare-artifact-');
  fs.writeFileSync(path.join(dir, 'pr.json'), JSON.stringify(pr));
  fs.writeFileSync(path.join(dir, 'compare.md'), '## Benchmark compare\n\nNo regression. cc @someone\n');
  return dir;
}

const env = (/** @type {string} */ api, /** @type {string} */ dir) => ({ GITHUB_API_URL: api, GITHUB_REPOSITORY: 'o/r', GITHUB_TOKEN: 't0ken', COMPARE_DIR: dir, RUN_HEAD_SHA: HEAD, RUN_URL: 'https://example/run/1', RUN_CONCLUSION: 'success' });

test('creates the comment when there is none, with the marker, the run link and mentions defused', async () => {
  const s = await server({ comments: [{ id: 1, user: { type: 'User' }, body: `${MARKER} a human quoting it` }] });
  try {
    const r = await postComment(env(s.api, artifact({ number: 7 })));
    assert.deepEqual(r, { action: 'created', url: 'https://example/c/99' });
    assert.equal(s.writes.length, 1);
    const { body } = s.writes[0].body;
    assert.ok(body.startsWith(MARKER));
    assert.match(body, /No regression/);
    assert.match(body, /\[The run\]\(https:\/\/example\/run\/1\): success/);
    assert.ok(body.includes('@\u200bsomeone') && !body.includes('@someone'));
  } finally {
    s.close();
  }
});

test('updates its own comment instead of adding another', async () => {
  const s = await server({ comments: [{ id: 5, user: { type: 'User' }, body: 'hi' }, { id: 6, user: { type: 'Bot' }, body: `${MARKER}\nold table` }] });
  try {
    const r = await postComment(env(s.api, artifact({ number: 7 })));
    assert.equal(r.action, 'updated');
    assert.deepEqual(s.writes.map((w) => `${w.method} ${w.url}`), ['PATCH /repos/o/r/issues/comments/6']);
  } finally {
    s.close();
  }
});

test('refuses an artifact whose PR does not have the run head commit, or that names no PR; writes nothing', async () => {
  const s = await server({ comments: [], headSha: 'b'.repeat(40) });
  try {
    await assert.rejects(postComment(env(s.api, artifact({ number: 7 }))), /PR #7 has head b+, not the run's a+; not commenting/);
    await assert.rejects(postComment(env(s.api, artifact({ number: '7; rm -rf' }))), /pr\.json \/number "7; rm -rf" is not a pull request number/);
    await assert.rejects(postComment({ ...env(s.api, artifact({ number: 7 })), RUN_HEAD_SHA: 'main' }), /RUN_HEAD_SHA 'main' is not a 40-hex commit/);
    assert.equal(s.writes.length, 0);
  } finally {
    s.close();
  }
});

test('a long report is cut to fit a comment', () => {
  const body = commentBody('x'.repeat(100_000), {});
  assert.ok(body.length < 65_536 && body.includes('(cut; the whole table is in the run'));
});
