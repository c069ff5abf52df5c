// The PR comment step against a local stand-in for the GitHub REST API (node:http): it finds its
// one comment and updates it, creates it otherwise, and refuses an artifact that names another PR.
// The artifact comes from a pull request's code: the comment is rendered from its compare.json,
// every string inert, the body capped below GitHub's limit; its compare.md is never posted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { MARKER, MAX_BODY, commentBody, postComment, reportFrom } from '../compare/comment.js';
import { ROOT, scratch } from './helpers.js';
import { compareDoc, row } from './compare-doc.js';

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
      if (req.method === 'GET' && url === '/repos/o/r/pulls/7')
        return send(200, { number: 7, head: { sha: state.headSha ?? HEAD } });
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

/** compare.json, as compare/cli.js writes it: a compare's run document. */
const compareJson = (/** @type {Parameters<typeof compareDoc>[0]} */ over = {}) =>
  compareDoc({
    base: { given: 'b'.repeat(40), commit: 'b'.repeat(40) },
    head: { given: '/home/runner/work/r/r', commit: HEAD },
    method: 'interleaved',
    run: {
      budget: { rounds: 10, time: 80 },
      threshold: 0.1,
      alpha: 0.05,
      engine: ['--quick', '--time', '80'],
      seconds: 600,
    },
    environment: { node: 'v24.11.0', cpuModel: 'AMD EPYC 7763 64-Core Processor', cores: 4, ci: null },
    drivers: { base: [], head: [] },
    rows: [row('production/better-sqlite3/none/select')],
    counting: { status: 'unavailable', reason: 'valgrind is not installed' },
    phases: [{ phase: 'prepare', seconds: 30 }],
    ...over,
  });

function artifact(/** @type {any} */ pr, /** @type {any} */ json = compareJson()) {
  const dir = scratch('compare-artifact-');
  fs.writeFileSync(path.join(dir, 'pr.json'), JSON.stringify(pr));
  if (json !== null)
    fs.writeFileSync(path.join(dir, 'compare.json'), typeof json === 'string' ? json : JSON.stringify(json));
  // the PR's own Markdown: never posted
  fs.writeFileSync(
    path.join(dir, 'compare.md'),
    '## Benchmark compare\n\nNo regression. cc @someone <img src=x onerror=alert(1)>\n',
  );
  return dir;
}

const env = (/** @type {string} */ api, /** @type {string} */ dir) => ({
  GITHUB_API_URL: api,
  GITHUB_REPOSITORY: 'o/r',
  GITHUB_TOKEN: 't0ken',
  COMPARE_DIR: dir,
  RUN_HEAD_SHA: HEAD,
  RUN_URL: 'https://example/run/1',
  RUN_CONCLUSION: 'success',
});

test('creates the comment when there is none, with the marker, the report rendered from compare.json and the run link', async () => {
  const s = await server({ comments: [{ id: 1, user: { type: 'User' }, body: `${MARKER} a human quoting it` }] });
  try {
    const r = await postComment(env(s.api, artifact({ number: 7 })));
    assert.deepEqual(r, { action: 'created', url: 'https://example/c/99' });
    assert.equal(s.writes.length, 1);
    const { body } = s.writes[0].body;
    assert.ok(
      body.startsWith(`${MARKER}\n## Benchmark compare: head /home/runner/work/r/r (aaaaaaaaaaaa) against base bbbb`),
    );
    assert.match(body, /^0 slower, 0 faster, 1 no change, 0 too noisy to tell, 0 not compared\.$/m);
    assert.match(
      body,
      /^Node v24\.11\.0, linux x64, AMD EPYC 7763 64-Core Processor × 4; drivers\. 10 rounds per side; interleaved; engine `--quick --time 80`; 10\.0 min\.$/m,
    );
    assert.match(
      body,
      /^\| production\/better-sqlite3\/none\/select \| 1,000 \| 1,010 \| \+1\.0% \[−2\.0%, \+4\.0%\] \| {6}\| no change \|$/m,
    );
    assert.match(body, /\[The run\]\(https:\/\/example\/run\/1\): success\.\n$/);
    assert.ok(!body.includes('someone') && !body.includes('<img'), "the artifact's compare.md is not posted");
  } finally {
    s.close();
  }
});

test('updates its own comment instead of adding another', async () => {
  const s = await server({
    comments: [
      { id: 5, user: { type: 'User' }, body: 'hi' },
      { id: 6, user: { type: 'Bot' }, body: `${MARKER}\nold table` },
    ],
  });
  try {
    const r = await postComment(env(s.api, artifact({ number: 7 })));
    assert.equal(r.action, 'updated');
    assert.deepEqual(
      s.writes.map((w) => `${w.method} ${w.url}`),
      ['PATCH /repos/o/r/issues/comments/6'],
    );
  } finally {
    s.close();
  }
});

test('refuses an artifact whose PR does not have the run head commit, or that names no PR; writes nothing', async () => {
  const s = await server({ comments: [], headSha: 'b'.repeat(40) });
  try {
    await assert.rejects(
      postComment(env(s.api, artifact({ number: 7 }))),
      /PR #7 has head b+, not the run's a+; not commenting/,
    );
    await assert.rejects(
      postComment(env(s.api, artifact({ number: '7; rm -rf' }))),
      /pr\.json \/number "7; rm -rf" is not a pull request number/,
    );
    await assert.rejects(
      postComment({ ...env(s.api, artifact({ number: 7 })), RUN_HEAD_SHA: 'main' }),
      /RUN_HEAD_SHA 'main' is not a 40-hex commit/,
    );
    assert.equal(s.writes.length, 0);
  } finally {
    s.close();
  }
});

test('a crafted compare.json is posted as inert text: no link, image, HTML, heading, fence, table break or mention', async () => {
  const crafted = compareJson({
    base: { given: '[base](http://evil.example)', commit: null },
    head: { given: '# @octocat\n```', commit: HEAD },
    method: '<img src=x onerror=alert(1)>',
    run: { budget: { rounds: 10, time: 80 }, threshold: 0.1, alpha: 0.05, engine: ['--op', '`x` | y'], seconds: 600 },
    environment: { node: 'v24.11.0', cpuModel: '![cpu](http://evil.example/i.png) \u202eevil', cores: 4 },
    drivers: {
      base: [
        {
          name: '@d [x](http://evil)|y',
          status: 'ok',
          version: '1.0',
          sqlite: 'www.evil.com',
          binary: { file: 'x', origin: 'built-from-source' },
          compileOptions: [],
        },
      ],
      head: [],
    },
    rows: [
      row('production/better-sqlite3/none/insert', 'slower', { change: -0.2, low: -0.3, high: -0.15, pAdjusted: 0.01 }),
      row('p/d/c/op', 'not compared', {
        reason: '@octocat <b>hi</b> | ### h',
        base: null,
        head: null,
        change: null,
        low: null,
        high: null,
        pAdjusted: null,
      }),
    ],
  });
  const s = await server({ comments: [] });
  try {
    await postComment(env(s.api, artifact({ number: 7 }, crafted)));
    const Z = '\u200b';
    assert.equal(
      s.writes[0].body.body,
      [
        MARKER,
        `## Benchmark compare: head \\#${Z} @${Z}octocat \\\`\\\`\\\` (aaaaaaaaaaaa) against base \\[base\\](http\\://evil.example)`,
        '',
        '**Counts**: not compared (valgrind is not installed); wall time alone decides.',
        '',
        '**1 slower**, 0 faster, 0 no change, 0 too noisy to tell, 1 not compared.',
        '',
        `Node v24.11.0, linux x64, \\!\\[cpu\\](http\\://evil.example/i.png) evil × 4; drivers base @${Z}d \\[x\\](http\\://evil)\\|y 1.0 (SQLite www\\.evil.com); head. 10 rounds per side; \\<img src=x onerror=alert(1)\\>; engine \\--op \\\`x\\\` \\| y; 10.0 min.`,
        "Base, Head: median ops/s over the rounds (size: bytes, exact). Change: head over base, from the 20%-trimmed mean of the 10 round pairs' log ratios, with its interval at the level Holm's correction tested it at (95% for one case alone, wider among many; it excludes 0 exactly when Sig.). Sig. (*): the trimmed-mean paired t-test, Holm-corrected over the 1 timed cases, α = 0.05. Slower, faster: significant, and the interval reaches a change of 10% or more (size: bigger, smaller by more than it); no change: the whole interval lies within ±10%; too noisy to tell: neither (more rounds would tell).",
        '',
        '**Where the time went** (0.5 min): preparing the sides 0.5 min.',
        '',
        '| Case (config/driver/cipher/op)        |  Base |  Head |       Change [interval] | Sig. | Verdict |',
        '| :------------------------------------ | ----: | ----: | ----------------------: | :--: | :------ |',
        '| production/better-sqlite3/none/insert | 1,000 | 1,010 | −20.0% [−30.0%, −15.0%] |   *  | slower  |',
        '',
        '<details><summary>1 case(s) not compared</summary>',
        '',
        '| Case (config/driver/cipher/op) | Base | Head | Change [interval] | Sig. | Verdict                                              |',
        '| :----------------------------- | ---: | ---: | ----------------: | :--: | :--------------------------------------------------- |',
        `| p/d/c/op                       |      |      |                   |      | not compared: @${Z}octocat \\<b\\>hi\\</b\\> \\| \\#${Z}\\#${Z}\\#${Z} h |`,
        '',
        '</details>',
        '',
        '',
        '[The run](https://example/run/1): success.',
        '',
      ].join('\n'),
    );
  } finally {
    s.close();
  }
});

test('no compare.json, or one that is not a compare run: one line saying why, nothing of it shown', () => {
  assert.equal(
    reportFrom(artifact({ number: 7 }, null)),
    "## Benchmark compare\n\nNothing to show: there is no compare.json (the compare did not finish; the run's log says why).\n",
  );
  assert.equal(
    reportFrom(artifact({ number: 7 }, '{"kind": "sqlite-node-bench/compare", "version": 1, "method": [')),
    '## Benchmark compare\n\nNothing to show: compare.json is not JSON (Unexpected end of JSON input).\n',
  );
  const bad = compareJson({ rows: [row('a/b/c/d', '<script>'), row('x/y/z/w')] });
  assert.equal(
    reportFrom(artifact({ number: 7 }, bad)),
    '## Benchmark compare\n\nNothing to show: compare.json is not a run document: /comparisons/0/verdict must be equal to one of the allowed values (faster, slower, no change, too noisy to tell, not compared).\n',
  );
  const rounds = compareJson();
  rounds.run.budget.rounds = '<b>10</b>';
  assert.match(
    reportFrom(artifact({ number: 7 }, rounds)),
    /Nothing to show: compare\.json is not a run document: \/run\/budget\/rounds must be integer\.$/m,
  );
  const head = compareJson();
  head.sides[1] = null;
  assert.match(reportFrom(artifact({ number: 7 }, head)), /: \/sides\/1 must be object/);
  assert.match(reportFrom(artifact({ number: 7 }, [])), /: \/ must be object/);
  // a run document of another kind of run: a shootout's, or a compare whose sides lost their checkouts
  const shootout = fs.readFileSync(path.join(ROOT, 'test/fixtures/real-linux-x64-v20-counted-shootout.json'), 'utf8');
  assert.equal(
    reportFrom(artifact({ number: 7 }, shootout)),
    '## Benchmark compare\n\nNothing to show: compare.json is not a compare run: /sides must be two sides, base (reference: true) and head.\n',
  );
  const lost = compareJson();
  delete lost.sides[1].checkout;
  assert.match(
    reportFrom(artifact({ number: 7 }, lost)),
    /Nothing to show: compare\.json is not a compare run: \/sides\/1\/checkout is missing: a compare's side says its checkout\.$/m,
  );
});

test("a long report is cut below GitHub's 65,536 characters, at a line end, with a link to the run's artifacts", () => {
  const md = `## Benchmark compare\n\n<details><summary>many</summary>\n\n${Array.from({ length: 5000 }, (_, i) => `| row ${i} | ${'x'.repeat(40)} |`).join('\n')}\n\n</details>\n`;
  const body = commentBody(md, { runUrl: 'https://github.com/o/r/actions/runs/42', conclusion: 'failure' });
  assert.ok(body.length < 65_536 && body.length > MAX_BODY - 100, String(body.length));
  assert.match(
    body,
    /\| row \d+ \| x{40} \|\n\n<\/details>\n\n… cut at [\d,]+ of [\d,]+ characters: the whole report is in \[the run's artifacts\]\(https:\/\/github\.com\/o\/r\/actions\/runs\/42#artifacts\) \(compare\.md\)\.\n\n\[The run\]\(https:\/\/github\.com\/o\/r\/actions\/runs\/42\): failure\.\n$/,
  );
  // a run URL that is not a plain https URL is not made a link
  const odd = commentBody('x\n'.repeat(40_000), { runUrl: 'javascript:alert(1)//https://x', conclusion: 'success' });
  assert.ok(
    odd.length < 65_536 &&
      !odd.includes('](') &&
      odd.includes("the whole report is in the run's artifacts (compare.md)."),
  );
});

test('a huge crafted compare.json still fits one comment', async () => {
  // case names this checkout does not know: a pull request's own, rendered as any other
  const rows = Array.from({ length: 2000 }, (_, i) =>
    row(`c${i}-${'a'.repeat(50)}/d/c/op`, 'not compared', {
      reason: `${'@a<b>'.repeat(100)}`,
      base: null,
      head: null,
      change: null,
      low: null,
      high: null,
      pAdjusted: null,
    }),
  );
  const s = await server({ comments: [] });
  try {
    await postComment(env(s.api, artifact({ number: 7 }, compareJson({ rows }))));
    const { body } = s.writes[0].body;
    assert.ok(body.length < 65_536, String(body.length));
    assert.match(
      body,
      /cut at [\d,]+ of [\d,]+ characters: the whole report is in \[the run's artifacts\]\(https:\/\/example\/run\/1#artifacts\)/,
    );
    assert.doesNotMatch(body, /@[A-Za-z0-9]|<b>/);
  } finally {
    s.close();
  }
});
