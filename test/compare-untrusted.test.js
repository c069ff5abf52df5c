// compare.json is written by a pull request's code: every field is untrusted. Generated documents,
// seeded (lib/prng.js): valid ones with random values over every field's range, and crafted ones
// with one field of a wrong type or size, or left out. The check either accepts a document, and
// then the report renders without throwing and inert under GFM (no link, image, raw HTML, mention
// or extra table cell from a value; each value reads as itself), or refuses it in one line naming
// the field. The comment command, run as the workflow runs it, never exits on an uncaught error and
// writes nothing but its one comment.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { createRandom, randomInt } from '../lib/prng.js';
import { PHASES, compareProblem } from '../compare/check.js';
import { report } from '../compare/report.js';
import { MARKER, commentBody, reportFrom } from '../compare/comment.js';
import { RANKED } from '../lib/verdicts.js';
import { IO } from '../lib/costs.js';
import { COUNT_VERDICTS } from '../lib/verdicts.js';

const COUNTED = Object.values(COUNT_VERDICTS);
import {
  CRAFTED_TEXT,
  craftedString,
  crafted,
  html,
  inertProblems,
  pointers,
  withValue,
  wrongValues,
} from './hostile.js';
import { ROOT, childEnv, entries, scratch } from './helpers.js';

/** The tags the report writes itself; any other came from a value. */
const TAGS = ['h2', 'p', 'strong', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'details', 'summary'];
const HEAD = 'a'.repeat(40);

/**
 * A valid compare.json with random values in every field's range, and its strings by the token each
 * starts with (so the rendered text can be matched to them).
 * @param {number} seed
 */
export function validCompare(seed) {
  const random = createRandom(seed);
  const int = (/** @type {number} */ n) => randomInt(random, n);
  const pick = (/** @type {readonly any[]} */ xs) => xs[int(xs.length)];
  /** @type {Map<string, string>} */
  const values = new Map();
  const str = (/** @type {number} */ max) => {
    const token = `Tk${values.size}k=`;
    const s = token + craftedString(random, max - token.length);
    values.set(token, s.slice(token.length));
    return s;
  };
  /** A number in [lo, hi]: an end now and then, else spread over the range's orders of magnitude. */
  const num = (/** @type {number} */ lo, /** @type {number} */ hi) => {
    const r = random();
    if (r < 0.1) return lo;
    if (r < 0.2) return hi;
    const x = lo + (hi - lo) * random() ** 6;
    return Math.min(hi, Math.max(lo, x));
  };
  const orNull = (/** @type {() => any} */ f) => (random() < 0.2 ? null : f());
  const commit = () => orNull(() => pick(['0123456789abcdef'.repeat(4).slice(0, 40), HEAD, 'f'.repeat(64)]));
  const driver = () => {
    const status = pick(['ok', 'ok', 'skipped', 'error']);
    return {
      name: str(100),
      status,
      ...(status === 'ok' ? { version: str(100), sqlite: str(100) } : { reason: str(1000) }),
      ...(random() < 0.5 ? { sqlite3mc: pick([str(100), null]) } : {}),
    };
  };
  const keys = Array.from({ length: int(4) === 0 ? 0 : 1 + int(random() < 0.1 ? 300 : 12) }, () => str(200));
  const rows = keys.map((key) => {
    const verdict = pick(RANKED);
    const low = orNull(() => num(-1, 1e15));
    const high = low === null ? null : num(low, 1e15);
    return {
      key,
      op: 'op',
      unit: pick(['ops/s', 'bytes']),
      pairs: int(20),
      base: orNull(() => num(0, 1e15)),
      head: orNull(() => num(0, 1e15)),
      change: orNull(() => num(-1, 1e15)),
      low,
      high,
      p: orNull(() => random()),
      pAdjusted: orNull(() => random()),
      significant: random() < 0.5,
      sd: null,
      verdict,
      ...(verdict === 'not compared' && random() < 0.8 ? { reason: str(10_000) } : {}),
    };
  });
  const sideCost = () =>
    orNull(() => ({
      instructions: num(0, 1e15),
      spread: random() / 100,
      exact: random() < 0.8,
      io: Object.fromEntries(IO.map(([f]) => [f, num(0, 1e15)])),
    }));
  const costRow = () => ({
    key: random() < 0.5 && keys.length ? pick(keys) : str(200),
    op: 'op',
    verdict: pick(COUNTED),
    ...(random() < 0.3 ? { reason: str(10_000) } : {}),
    base: sideCost(),
    head: sideCost(),
    change: orNull(() => num(-1, 1e15)),
    tolerance: orNull(() => num(0, 1e15)),
    io: IO.filter(() => random() < 0.3).map(([field]) => ({ field, base: num(0, 1e15), head: num(0, 1e15) })),
    fails: random() < 0.3,
  });
  const costs = () => {
    const status = pick(['ok', 'ok', 'unavailable', 'error']);
    if (status !== 'ok') return { status, ...(random() < 0.8 ? { reason: str(10_000) } : {}) };
    const n = int(8);
    return {
      status,
      seconds: num(0, 1e4),
      tally: Object.fromEntries([...COUNTED, 'fails'].map((k) => [k, int(n + 1)])),
      rows: Array.from({ length: n }, costRow),
    };
  };
  const phase = () => ({
    phase: pick(PHASES),
    seconds: num(0, 1e7),
    ...(random() < 0.5 ? { rounds: 1 + int(1000), cases: int(10_001) } : {}),
    ...(random() < 0.3 ? { base: num(0, 1e7), head: num(0, 1e7), together: random() < 0.5 } : {}),
  });
  const doc = {
    kind: 'sqlite-node-bench/compare',
    version: 1,
    base: { given: str(4096), commit: commit() },
    head: { given: str(4096), commit: commit() },
    method: str(1000),
    rounds: 1 + int(1000),
    threshold: num(0, 1),
    alpha: num(0, 1),
    engine: Array.from({ length: int(random() < 0.1 ? 1001 : 6) }, () => str(200)),
    seconds: num(0, 1e7),
    environment: {
      node: pick(['v18.18.0', 'v24.11.0', 'v25.0.0-nightly20250101abcdef', 'v24.0.0-rc.1', 'v20']),
      v8: str(50),
      platform: pick(['linux', 'darwin', 'win32']),
      arch: pick(['x64', 'arm64', 'loong64']),
      cpuModel: str(200),
      cores: int(random() < 0.1 ? 65537 : 64),
      ci: pick([
        null,
        undefined,
        { provider: 'github-actions', imageOs: str(100), imageVersion: orNull(() => str(100)) },
        { provider: 'unknown-ci' },
      ]),
    },
    drivers: { base: Array.from({ length: int(4) }, driver), head: Array.from({ length: int(4) }, driver) },
    tally: {},
    rows,
    costs: costs(),
    phases: Array.from({ length: int(21) }, phase),
  };
  return { doc: JSON.parse(JSON.stringify(doc)), values };
}

test('the inertness check itself finds a live link, raw HTML, emphasis, a mention and a value split across cells', () => {
  const found = (/** @type {string} */ md, /** @type {string} */ value) =>
    inertProblems(md, { tags: TAGS, values: new Map([['Tk0k=', value]]) });
  assert.ok(found('Tk0k=[x](http://e)', '[x](http://e)').includes('tag <a>'));
  assert.ok(found('Tk0k=<b>x</b>', '<b>x</b>').includes('tag <b>'));
  assert.equal(found('Tk0k=**b**', '**b**').length, 1);
  assert.match(found('Tk0k= @octocat', ' @octocat').join(), /a mention/);
  assert.equal(found('| a |\n| - |\n| Tk0k=x | y |', 'x | y').length, 1);
  assert.deepEqual(found('Tk0k=\\*\\*b\\*\\* @\u200bo x…', '**b** @o xyz'), [], 'escaped, and cut');
});

/** One line naming a field as a JSON pointer, saying what it must be. */
const REFUSAL = /^\/[^\n]{0,100} must be [^\n]{1,300}$/;

/** Whether two JSON pointers lie on one path, or are fields of one object (a rule between them). */
function related(/** @type {string} */ named, /** @type {string} */ changed) {
  const a = named.split('/');
  const b = changed.split('/');
  const n = Math.min(a.length, b.length);
  const common = a.slice(0, n).every((x, i) => x === b[i]);
  return common || a.slice(0, -1).join('/') === b.slice(0, -1).join('/');
}

test('fault 6: an object where a string belongs is refused, naming the field, instead of crashing the comment', () => {
  const { doc } = validCompare(1);
  const toStringless = JSON.parse('{"toString": 1, "valueOf": 1}');
  const cases = [
    ['/environment/cpuModel', toStringless, '/environment/cpuModel must be a string of at most 200 characters'],
    ['/environment/node', { v: 24 }, '/environment/node must be a string of at most 64 characters naming'],
    ['/environment/ci', { imageOs: toStringless }, '/environment/ci/imageOs must be a string of at most 100'],
    ['/drivers/base', [{ name: toStringless, status: 'ok' }], '/drivers/base/0/name must be a string'],
    [
      '/drivers/head',
      [{ name: 'd', status: 'ok', version: '1', sqlite: [] }],
      '/drivers/head/0/sqlite must be a string',
    ],
    ['/environment/cores', '4', '/environment/cores must be a whole number from 0 to 65,536'],
  ];
  for (const [pointer, value, named] of cases) {
    const bad = withValue(doc, String(pointer), value);
    const problem = String(compareProblem(bad));
    assert.ok(problem.startsWith(String(named)), `${pointer}: ${problem}`);
    assert.match(problem, REFUSAL);
    assert.doesNotThrow(() => reportFrom(artifact(bad)));
    assert.match(reportFrom(artifact(bad)), /^Nothing to show: compare\.json is not a compare result: \/\S+ must be /m);
  }
});

test('a counts section without its tally is refused, not rendered as "undefined case(s)"', () => {
  const { doc } = validCompare(2);
  const bad = { ...doc, costs: { status: 'ok', tally: {}, rows: [] } };
  assert.match(String(compareProblem(bad)), /^\/costs\/tally\/costs more must be a whole number from 0 to 10,000$/);
});

test('300 generated valid compare.json: accepted, rendered without throwing, inert under GFM, each value as itself', () => {
  let checked = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const { doc, values } = validCompare(seed);
    assert.equal(compareProblem(doc), null, `seed ${seed}`);
    const md = report(doc);
    const problems = inertProblems(md, { tags: TAGS, values });
    assert.deepEqual(problems, [], `seed ${seed}`);
    const body = commentBody(md, { runUrl: 'https://example/run/1', conclusion: 'success' });
    assert.ok(body.length < 65_536, `seed ${seed}: ${body.length}`);
    assert.doesNotMatch(body, /@[A-Za-z0-9-]/, `seed ${seed}: a mention`);
    checked += [...values.keys()].filter((t) => md.includes(t)).length;
  }
  assert.ok(checked > 3000, `only ${checked} values were found in the reports`);
});

test('600 crafted compare.json (one field of a wrong type or size, or left out): refused naming that field, or rendered inert', () => {
  let refused = 0;
  for (let seed = 1; seed <= 600; seed++) {
    const random = createRandom(seed * 7919);
    const { doc, values } = validCompare(seed);
    const c = crafted(doc, random);
    const why = `seed ${seed}: ${c.pointer} = ${JSON.stringify(c.value)?.slice(0, 60)}`;
    const problem = compareProblem(c.doc);
    if (problem === null) {
      // a field the report does not read, or a value still in range: it renders, inert
      const md = report(c.doc);
      assert.deepEqual(inertProblems(md, { tags: TAGS, values }), [], why);
      continue;
    }
    refused++;
    assert.match(problem, REFUSAL, why);
    assert.ok(related(problem.split(' must be ')[0], c.pointer), `${why}: named ${problem}`);
    assert.match(reportFrom(artifact(c.doc)), /^Nothing to show: compare\.json is not a compare result: \//m, why);
  }
  assert.ok(refused > 300, `${refused} of 600 refused`);
});

test('every field of a full compare.json, each replaced by every wrong value or left out: refused naming it, or rendered inert', () => {
  // a small document with every part: counts with rows, drivers that loaded, a CI image
  const { doc: generated, values } = validCompare(5);
  const io = { fsync: 1, write: 2, read: 0, written: 4096, bytesRead: 0 };
  const row = { op: 'a', unit: 'ops/s', pairs: 10, base: 1000, head: 800, change: -0.2, p: 0.01, pAdjusted: 0.01 };
  const doc = {
    ...generated,
    engine: ['--quick', '--time'],
    environment: { ...generated.environment, ci: { provider: 'github-actions', imageOs: 'u', imageVersion: '1' } },
    drivers: {
      base: [{ name: 'd', status: 'ok', version: '1', sqlite: '3', sqlite3mc: '2' }],
      head: [{ name: 'e', status: 'error', reason: 'r' }],
    },
    rows: [
      { ...row, key: 'k/a', significant: true, verdict: 'slower', low: -0.3, high: -0.1 },
      { ...row, key: 'k/b', significant: false, verdict: 'not compared', reason: 'why', low: null, high: null },
    ],
    costs: {
      status: 'ok',
      tally: { 'costs more': 1, 'costs less': 0, 'cost changed': 0, 'same cost': 0, 'not counted': 0, fails: 1 },
      rows: [
        {
          key: 'k/a',
          op: 'a',
          verdict: 'costs more',
          reason: 'r',
          base: { instructions: 1000, spread: 0, exact: true, io },
          head: { instructions: 1100, spread: 0, exact: true, io },
          change: 0.1,
          tolerance: 0.001,
          io: [{ field: 'write', base: 2, head: 3 }],
          fails: true,
        },
      ],
    },
    phases: [
      { phase: 'prepare', seconds: 30 },
      { phase: 'count', seconds: 60, base: 40, head: 20, together: true },
      { phase: 'timed', seconds: 90, rounds: 5, cases: 2 },
      { phase: 'timed', seconds: 60, rounds: 5, cases: 1 },
      { phase: 'report', seconds: 0.1 },
    ],
  };
  assert.equal(compareProblem(doc), null);
  let refused = 0;
  let rendered = 0;
  for (const pointer of pointers(doc))
    for (const value of [undefined, ...wrongValues()]) {
      const d = withValue(doc, pointer, value);
      const problem = compareProblem(d);
      const why = `${pointer} = ${JSON.stringify(value)?.slice(0, 60)}`;
      if (problem === null) {
        assert.deepEqual(inertProblems(report(d), { tags: TAGS, values }), [], why);
        rendered++;
        continue;
      }
      refused++;
      assert.match(problem, REFUSAL, why);
      assert.ok(related(problem.split(' must be ')[0], pointer), `${why}: named ${problem}`);
    }
  assert.ok(refused > 1000 && rendered > 100, `${refused} refused, ${rendered} rendered`);
});

test('every crafted string in every string field the report shows: accepted within its length, and inert', () => {
  const { doc } = validCompare(3);
  const fields = [
    '/base/given',
    '/head/given',
    '/method',
    '/engine/0',
    '/environment/cpuModel',
    '/rows/0/key',
    '/rows/0/reason',
  ];
  const base = {
    ...doc,
    engine: ['e'],
    rows: [{ ...doc.rows[0], key: 'k', verdict: 'not compared', reason: 'r' }],
    drivers: { base: [{ name: 'n', status: 'ok', version: 'v', sqlite: 's', sqlite3mc: 'm' }], head: [] },
  };
  for (const pointer of [...fields, '/drivers/base/0/name', '/drivers/base/0/version', '/drivers/base/0/sqlite3mc'])
    for (const [i, s] of CRAFTED_TEXT.entries()) {
      const token = `Tq${i}q=`;
      const d = withValue(base, pointer, token + s);
      assert.equal(compareProblem(d), null, pointer);
      const md = report(d);
      assert.ok(md.includes(token), `${pointer} is shown`);
      assert.deepEqual(inertProblems(md, { tags: TAGS, values: new Map([[token, s]]) }), [], `${pointer} = ${s}`);
    }
});

/** An artifact as compare.yml uploads it: pr.json and compare.json (and the PR's own compare.md). */
function artifact(/** @type {unknown} */ json) {
  const dir = scratch('compare-untrusted-');
  fs.writeFileSync(path.join(dir, 'pr.json'), JSON.stringify({ number: 7 }));
  fs.writeFileSync(path.join(dir, 'compare.json'), JSON.stringify(json));
  fs.writeFileSync(path.join(dir, 'compare.md'), 'cc @someone <img src=x>');
  return dir;
}

/** The GitHub API as the comment uses it: one PR at HEAD, no comment yet; the bodies posted. */
async function github() {
  /** @type {string[]} */
  const posted = [];
  const srv = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.method === 'GET' && req.url === '/repos/o/r/pulls/7')
        return res.end(JSON.stringify({ head: { sha: HEAD } }));
      if (req.method === 'GET') return res.end('[]');
      posted.push(JSON.parse(data).body);
      res.end(JSON.stringify({ id: 1, html_url: 'https://example/c/1' }));
    });
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', () => r(null)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
  return { api: `http://127.0.0.1:${port}`, posted, close: () => srv.close() };
}

/**
 * A Node script run to its end: exit status and output.
 * @param {string} script
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} o
 * @returns {Promise<{ status: number | null, stdout: string, stderr: string }>}
 */
const run = (script, o) =>
  new Promise((resolve) => {
    execFile(process.execPath, [script], { ...o, encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
  });

/** A directory's files and their bytes. */
const snapshot = (/** @type {string} */ dir) =>
  entries(dir).map((f) => `${f}:${fs.readFileSync(path.join(dir, f)).toString('base64')}`);

test('npm run ci:comment on 16 generated artifacts, fault 6 among them: posts one inert comment each, exits 0, writes no file', async () => {
  const gh = await github();
  try {
    const random = createRandom(36);
    const docs = [withValue(validCompare(1).doc, '/environment/cpuModel', JSON.parse('{"toString": 1}'))];
    for (let seed = 1; docs.length < 16; seed++)
      docs.push(seed % 2 ? validCompare(seed).doc : crafted(validCompare(seed).doc, random).doc);
    for (const [i, doc] of docs.entries()) {
      const dir = artifact(doc);
      const before = snapshot(dir);
      const cwd = scratch('comment-cwd-');
      const tmp = scratch('comment-tmp-');
      // as compare-comment.yml's step runs `npm run ci:comment`: node compare/comment.js, from the checkout
      // async: the stand-in API answers from this process
      const r = await run(path.join(ROOT, 'compare', 'comment.js'), {
        cwd,
        env: childEnv({
          GITHUB_API_URL: gh.api,
          GITHUB_REPOSITORY: 'o/r',
          GITHUB_TOKEN: 't',
          COMPARE_DIR: dir,
          RUN_HEAD_SHA: HEAD,
          RUN_URL: 'https://example/run/1',
          RUN_CONCLUSION: 'failure',
          TMPDIR: tmp,
        }),
      });
      assert.equal(r.status, 0, `artifact ${i}: ${r.stderr}`);
      assert.equal(r.stdout, 'ci:comment: created https://example/c/1\n');
      assert.doesNotMatch(r.stderr, /Error|\n\s+at /, `artifact ${i}`);
      assert.equal(gh.posted.length, i + 1);
      const body = gh.posted[i];
      assert.ok(body.startsWith(`${MARKER}\n## Benchmark compare`) && body.length < 65_536, `artifact ${i}`);
      assert.doesNotMatch(body, /@[A-Za-z0-9-]|someone/, `artifact ${i}`);
      assert.deepEqual(inertProblems(body, { tags: [...TAGS, 'a'], values: new Map() }), [], `artifact ${i}`);
      const links = [...html(body).matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);
      assert.ok(
        links.length >= 1 && links.every((l) => l.startsWith('https://example/run/1')),
        `artifact ${i}: the run's links only, ${links}`,
      );
      if (i === 0)
        assert.match(
          body,
          /^Nothing to show: compare\.json is not a compare result: \/environment\/cpuModel must be a string of at most 200 characters\.$/m,
        );
      assert.deepEqual(snapshot(dir), before, `artifact ${i}: the artifact is unchanged`);
      assert.deepEqual([entries(cwd), entries(tmp)], [[], []], `artifact ${i}: no file written`);
    }
  } finally {
    gh.close();
  }
});
