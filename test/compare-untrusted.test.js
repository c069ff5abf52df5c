// compare.json is written by a pull request's code: every field is untrusted. It is a run document
// (bench/result/document.schema.json, two sides base and head), checked by the one schema and
// document.js's checks, then report.js's compareProblem. Generated documents, seeded
// (lib/prng.js): valid ones with random values over every field's range, and crafted ones with one
// field of a wrong type or size, or left out. The check either accepts a document, and then the
// report renders without throwing and inert under GFM (no link, image, raw HTML, mention or extra
// table cell from a value; each value reads as itself), or refuses it in one line naming the
// field. The comment command, run as the workflow runs it, never exits on an uncaught error and
// writes nothing but its one comment.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { createRandom, randomInt } from '../lib/prng.js';
import { PHASES, report } from '../compare/report.js';
import { MARKER, commentBody, compareJsonProblem, reportFrom } from '../compare/comment.js';
import { RANKED } from '../lib/verdicts.js';
import { IO } from '../lib/costs.js';
import { COUNT_VERDICTS } from '../lib/verdicts.js';
import { COMPONENTS } from '../bench/data/components.js';

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
import { REAL_COMPARE } from './compare-doc.js';

/** The tags the report writes itself; any other came from a value. */
const TAGS = ['h2', 'p', 'strong', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'details', 'summary'];
const HEAD = 'a'.repeat(40);

/**
 * A valid compare.json (a compare's run document) with random values in every field's range, and
 * its free strings by the token each starts with (so the rendered text can be matched to them).
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
  /** A string of a name's pattern (letters, digits, and these), 1 to max characters. */
  const name = (/** @type {number} */ max, more = '') => {
    const chars = `abcdefghijklmnopqrstuvwxyz0123456789${more}`;
    return `v${Array.from({ length: int(max) }, () => pick([...chars])).join('')}`;
  };
  /** A table's name (config, driver, cipher), or with ops, an operation's. */
  const word = (/** @type {number} */ max, ops = false) =>
    `a${Array.from({ length: int(max) }, () => pick([...(ops ? 'abc0-' : 'abc0-:')])).join('')}`;
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
      name: str(200),
      status,
      ...(status === 'ok'
        ? {
            version: name(99, ' .+_~-'),
            sqlite: name(99, ' .+_~-'),
            binary: { file: 'x', origin: 'built-from-source' },
            compileOptions: [],
            ...(random() < 0.5 ? { sqlite3mc: name(99, ' .+_~-') } : {}),
          }
        : { reason: str(2000) }),
    };
  };
  const side = (/** @type {'base' | 'head'} */ label) => ({
    label,
    node: pick(['v18.18.0', 'v24.11.0', 'v25.0.0-nightly20250101abcdef', 'v24.0.0-rc.1']),
    ...(label === 'base' ? { reference: true } : {}),
    status: 'ok',
    drivers: Array.from({ length: int(5) }, driver),
    checkout: { given: str(4096), commit: commit() },
  });
  const n = int(4) === 0 ? 0 : 1 + int(random() < 0.1 ? 300 : 12);
  const keys = Array.from({ length: n }, (_, i) => ({
    setup: `${word(59)}/${word(59)}/${word(20)}${i}`,
    op: pick(['insert', 'select', 'size', word(39, true)]),
  }));
  const rounds = 1 + int(random() < 0.1 ? 1000 : 20);
  const comparisons = keys.map(({ setup, op }) => {
    const verdict = pick(RANKED);
    const base = { id: 'compare', reference: 'base', member: 'head', setup, op, pairs: int(100_001) };
    if (verdict === 'not compared')
      return {
        ...base,
        change: null,
        low: null,
        high: null,
        p: null,
        pAdjusted: null,
        verdict,
        reason: str(1000),
      };
    if (op === 'size') {
      const change = verdict === 'slower' ? num(1e-9, 1e15) : verdict === 'faster' ? -num(1e-9, 1) : num(-1, 1e15);
      return { ...base, change, low: change, high: change, p: null, pAdjusted: null, verdict };
    }
    const [lo, hi] = verdict === 'faster' ? [1e-9, 1e15] : verdict === 'slower' ? [-1, -1e-9] : [-1, 1e15];
    const change = num(lo, hi);
    const low = verdict === 'faster' ? num(1e-9, change) : num(-1e15, change);
    const high = verdict === 'slower' ? num(change, -1e-9) : num(change, 1e300);
    return { ...base, change, low, high, p: random(), pAdjusted: orNull(() => random()), verdict };
  });
  const cases = keys.flatMap(({ setup, op }) =>
    ['base', 'head'].map((label) => {
      const [config, drv, cipher] = setup.split('/');
      const ok = random() < 0.9;
      return {
        config,
        driver: drv,
        cipher,
        op,
        side: label,
        status: ok ? 'ok' : pick(['error', 'skipped']),
        ...(ok ? {} : { reason: str(2000) }),
        rounds: Array.from({ length: rounds }, () => orNull(() => num(0, 1e15))),
      };
    }),
  );
  const components = Object.fromEntries(COMPONENTS.map((c) => [c, num(0, 1e15)]));
  /** A case as a counted side stores it (counting.cases), ok with its counts or with why not. */
  const countedCase = (/** @type {'base' | 'head'} */ label, /** @type {string} */ key) =>
    random() < 0.8
      ? {
          side: label,
          key,
          status: 'ok',
          instructions: num(0, 1e15),
          difference: num(-1, 1e15),
          components,
          repeatComponents: components,
          ...Object.fromEntries(
            IO.filter(([f]) => f === 'fsync' || f === 'write' || random() < 0.8).map(([f]) => [f, num(0, 1e15)]),
          ),
          ...(random() < 0.9 ? { syscallsSame: random() < 0.8 } : {}),
        }
      : { side: label, key, status: 'error', reason: str(500) };
  /** A key of the judged pairs, or another one. */
  const countedKey = () =>
    random() < 0.5 && keys.length ? pick(keys) : { setup: `${word(59)}/${word(9)}/${word(9)}`, op: word(39, true) };
  /** One case's difference, head against base (counting.differences). */
  const difference = (/** @type {{ setup: string, op: string }} */ k) => ({
    id: 'compare',
    reference: 'base',
    member: 'head',
    setup: k.setup,
    op: k.op,
    verdict: pick(COUNTED.filter((w) => w !== COUNT_VERDICTS.notCounted)),
    change: num(-1, 1e15),
    spread: num(0, 1e15),
    tolerance: num(0, 1e15),
    components: Object.fromEntries(COMPONENTS.map((c) => [c, { delta: num(-1e15, 1e15), tolerance: num(0, 1e15) }])),
    io: IO.filter(() => random() < 0.3).map(([field]) => ({ field, reference: num(0, 1e15), member: num(0, 1e15) })),
    fails: random() < 0.3,
  });
  /** Each key counted on base, head, both or neither; its difference where both counted it (now and then none). */
  const countedCases = (/** @type {{ setup: string, op: string }[]} */ ks) => {
    const unique = [...new Map(ks.map((k) => [`${k.setup}/${k.op}`, k])).values()];
    const cases = unique.flatMap((k) =>
      /** @type {const} */ (['base', 'head'])
        .filter(() => random() < 0.85)
        .map((label) => countedCase(label, `${k.setup}/${k.op}`)),
    );
    const ok = (/** @type {string} */ side, /** @type {string} */ key) =>
      cases.some((c) => c.side === side && c.key === key && c.status === 'ok');
    const both = unique.filter((k) => ok('base', `${k.setup}/${k.op}`) && ok('head', `${k.setup}/${k.op}`));
    // a difference belongs to the judged pair, head against base: none without comparisons
    return { cases, differences: keys.length ? both.filter(() => random() < 0.9).map(difference) : [] };
  };
  const counting = () => {
    const status = pick(['ok', 'ok', 'unavailable', 'error']);
    if (status !== 'ok') return { status, reason: str(2000) };
    return {
      status,
      mode: 'quick',
      tools: { valgrind: '3.19.0', strace: '6.1' },
      method: str(4000),
      seconds: num(0, 1e7),
      sides: [],
      ...countedCases(Array.from({ length: int(8) }, countedKey)),
    };
  };
  const phase = () => ({
    phase: pick(PHASES),
    seconds: num(0, 1e7),
    ...(random() < 0.5 ? { rounds: 1 + int(1000), cases: int(20_001) } : {}),
    ...(random() < 0.3 ? { base: num(0, 1e7), head: num(0, 1e7), together: random() < 0.5 } : {}),
  });
  const doc = {
    schemaVersion: REAL_COMPARE.schemaVersion,
    kind: REAL_COMPARE.kind,
    run: {
      ...REAL_COMPARE.run,
      budget: { rounds, time: num(1e-3, 1e6) },
      threshold: num(0, 1),
      alpha: num(1e-9, 0.5),
      engine: Array.from({ length: int(random() < 0.1 ? 201 : 6) }, () => str(200)),
      seconds: num(0, 1e7),
      phases: Array.from({ length: int(21) }, phase),
    },
    environment: {
      ...REAL_COMPARE.environment,
      node: pick(['v18.18.0', 'v24.11.0', 'v25.0.0-nightly20250101abcdef', 'v24.0.0-rc.1']),
      platform: pick(['linux', 'darwin', 'win32']),
      arch: pick(['x64', 'arm64', 'loong64']),
      cpuModel: str(200),
      cores: 1 + int(random() < 0.1 ? 100_000 : 64),
      ci: pick([
        null,
        { provider: 'github-actions', imageOs: name(99, ' ._()/+-'), imageVersion: orNull(() => name(99, ' .')) },
        { provider: 'unknown-ci' },
      ]),
    },
    harness: { tinybench: REAL_COMPARE.harness.tinybench, method: str(4000) },
    sides: [side('base'), side('head')],
    comparisons,
    cases,
    counting: counting(),
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

/** One line naming a field as a JSON pointer (its first group), saying what is wrong with it. */
const REFUSAL = /^compare\.json is not a (?:run document|compare run): (\/\S*) [^\n]{1,400}$/;
/** The field a refusal names. */
const named = (/** @type {string} */ problem) => String(problem.match(REFUSAL)?.[1]);

/** Whether two JSON pointers lie on one path, or are fields of one object (a rule between them). */
/** The lists that other fields refer to, and the field that refers to them (bench/result/document.js). */
const DEPENDENTS = /** @type {Record<string, string>} */ ({
  '/comparisons': '/counting/differences/',
  '/counting/cases': '/counting/differences/',
});

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
    ['/environment/cpuModel', toStringless, '/environment/cpuModel must be string'],
    ['/environment/node', { v: 24 }, '/environment/node must be string'],
    [
      '/environment/ci',
      { provider: 'github-actions', imageOs: toStringless },
      '/environment/ci/imageOs must be string',
    ],
    [
      '/sides/0/drivers',
      [{ name: toStringless, status: 'error', reason: 'r' }],
      '/sides/0/drivers/0/name must be string',
    ],
    [
      '/sides/1/drivers',
      [
        {
          name: 'd',
          status: 'ok',
          version: '1',
          sqlite: [],
          binary: { file: 'x', origin: 'built-from-source' },
          compileOptions: [],
        },
      ],
      '/sides/1/drivers/0/sqlite must be string',
    ],
    ['/environment/cores', '4', '/environment/cores must be integer'],
    ['/sides/1/checkout/given', toStringless, '/sides/1/checkout/given must be string'],
  ];
  for (const [pointer, value, field] of cases) {
    const bad = withValue(doc, String(pointer), value);
    const problem = String(compareJsonProblem(bad));
    assert.ok(problem.startsWith(`compare.json is not a run document: ${field}`), `${pointer}: ${problem}`);
    assert.match(problem, REFUSAL);
    assert.doesNotThrow(() => reportFrom(artifact(bad)));
    assert.match(reportFrom(artifact(bad)), /^Nothing to show: compare\.json is not a run document: \/\S+ must /m);
  }
});

test("an ok counting section without its parts is refused, not rendered as 'undefined case(s)'", () => {
  const { doc } = validCompare(2);
  const bad = { ...doc, counting: { status: 'ok', cases: [], differences: [] } };
  assert.match(
    String(compareJsonProblem(bad)),
    /^compare\.json is not a run document: \/counting must have required property '\w+' \(and \d+ more\)$/,
  );
});

test('300 generated valid compare.json: accepted, rendered without throwing, inert under GFM, each value as itself', () => {
  let checked = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const { doc, values } = validCompare(seed);
    assert.equal(compareJsonProblem(doc), null, `seed ${seed}`);
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
    // as the comment reads it from the file: a list's item left out is null there
    c.doc = JSON.parse(JSON.stringify(c.doc));
    const why = `seed ${seed}: ${c.pointer} = ${JSON.stringify(c.value)?.slice(0, 60)}`;
    const problem = compareJsonProblem(c.doc);
    if (problem === null) {
      // a field the report does not read, or a value still in range: it renders, inert
      const md = report(c.doc);
      assert.deepEqual(inertProblems(md, { tags: TAGS, values }), [], why);
      continue;
    }
    refused++;
    assert.match(problem, REFUSAL, why);
    assert.ok(related(named(problem), c.pointer), `${why}: named ${problem}`);
    assert.match(
      reportFrom(artifact(c.doc)),
      /^Nothing to show: compare\.json is not a (run document|compare run): \//m,
      why,
    );
  }
  assert.ok(refused > 300, `${refused} of 600 refused`);
});

test('every field of a full compare.json, each replaced by every wrong value or left out: refused naming it, or rendered inert', () => {
  // a small document with every part: counts with rows, drivers that loaded, a CI image
  const { doc: generated, values } = validCompare(5);
  const parts = Object.fromEntries(COMPONENTS.map((c) => [c, 100]));
  const pair = {
    id: 'compare',
    reference: 'base',
    member: 'head',
    setup: 'k/d/c',
    pairs: 10,
    p: 0.01,
    pAdjusted: 0.01,
  };
  const figures = (/** @type {string} */ op, /** @type {string} */ side) => ({
    config: 'k',
    driver: 'd',
    cipher: 'c',
    op,
    side,
    status: 'ok',
    rounds: [1000, null, 800],
  });
  const doc = {
    ...generated,
    run: {
      ...generated.run,
      engine: ['--quick', '--time'],
      phases: [
        { phase: 'prepare', seconds: 30 },
        { phase: 'count', seconds: 60, base: 40, head: 20, together: true },
        { phase: 'timed', seconds: 90, rounds: 5, cases: 2 },
        { phase: 'timed', seconds: 60, rounds: 5, cases: 1 },
        { phase: 'report', seconds: 0.1 },
      ],
    },
    environment: { ...generated.environment, ci: { provider: 'github-actions', imageOs: 'u', imageVersion: '1' } },
    sides: [
      {
        ...generated.sides[0],
        drivers: [
          {
            name: 'd',
            status: 'ok',
            version: '1',
            sqlite: '3',
            sqlite3mc: '2',
            binary: { file: 'x', origin: 'built-from-source' },
            compileOptions: [],
          },
        ],
      },
      { ...generated.sides[1], drivers: [{ name: 'e', status: 'error', reason: 'r' }] },
    ],
    comparisons: [
      { ...pair, op: 'a', change: -0.2, low: -0.3, high: -0.1, verdict: 'slower' },
      {
        ...pair,
        op: 'b',
        change: null,
        low: null,
        high: null,
        p: null,
        pAdjusted: null,
        verdict: 'not compared',
        reason: 'why',
      },
    ],
    cases: [figures('a', 'base'), figures('a', 'head'), figures('b', 'base')],
    counting: {
      status: 'ok',
      mode: 'quick',
      tools: { valgrind: '3.19.0', strace: '6.1' },
      method: 'm',
      seconds: 10,
      sides: [],
      cases: [
        {
          side: 'base',
          key: 'k/d/c/a',
          status: 'ok',
          instructions: 1000,
          difference: 0,
          components: parts,
          repeatComponents: parts,
          fsync: 0,
          write: 2,
          syscallsSame: true,
        },
        {
          side: 'head',
          key: 'k/d/c/a',
          status: 'ok',
          instructions: 1100,
          difference: 0,
          components: parts,
          repeatComponents: parts,
          fsync: 0,
          write: 3,
          syscallsSame: true,
        },
        { side: 'head', key: 'k/d/c/b', status: 'error', reason: 'r' },
      ],
      differences: [
        {
          id: 'compare',
          reference: 'base',
          member: 'head',
          setup: 'k/d/c',
          op: 'a',
          verdict: 'costs more',
          change: 0.1,
          spread: 0,
          tolerance: 0.001,
          components: Object.fromEntries(COMPONENTS.map((c) => [c, { delta: 0, tolerance: 1 }])),
          io: [{ field: 'write', reference: 2, member: 3 }],
          fails: true,
        },
      ],
    },
  };
  assert.equal(compareJsonProblem(doc), null);
  let refused = 0;
  let rendered = 0;
  for (const pointer of pointers(doc))
    for (const value of [undefined, ...wrongValues()]) {
      const d = JSON.parse(JSON.stringify(withValue(doc, pointer, value))); // as the file holds it
      const problem = compareJsonProblem(d);
      const why = `${pointer} = ${JSON.stringify(value)?.slice(0, 60)}`;
      if (problem === null) {
        assert.deepEqual(inertProblems(report(d), { tags: TAGS, values }), [], why);
        rendered++;
        continue;
      }
      refused++;
      assert.match(problem, REFUSAL, why);
      // a counted difference refers to its judged pair and to its two counted cases: emptying
      // either is refused naming the difference it leaves without them
      const refersTo = DEPENDENTS[pointer] && named(problem).startsWith(DEPENDENTS[pointer]);
      assert.ok(related(named(problem), pointer) || refersTo, `${why}: named ${problem}`);
    }
  assert.ok(refused > 1000 && rendered > 100, `${refused} refused, ${rendered} rendered`);
});

test('every crafted string in every string field the report shows: accepted within its length, and inert', () => {
  const { doc } = validCompare(3);
  const fields = [
    '/sides/0/checkout/given',
    '/sides/1/checkout/given',
    '/harness/method',
    '/run/engine/0',
    '/environment/cpuModel',
    '/comparisons/0/reason',
    '/counting/reason',
  ];
  const base = {
    ...doc,
    run: { ...doc.run, engine: ['e'] },
    comparisons: [
      {
        id: 'compare',
        reference: 'base',
        member: 'head',
        setup: 'k/d/c',
        op: 'o',
        pairs: 0,
        change: null,
        low: null,
        high: null,
        p: null,
        pAdjusted: null,
        verdict: 'not compared',
        reason: 'r',
      },
    ],
    cases: [],
    counting: { status: 'error', reason: 'r' },
    sides: [
      {
        ...doc.sides[0],
        drivers: [
          {
            name: 'n',
            status: 'ok',
            version: 'v',
            sqlite: 's',
            sqlite3mc: 'm',
            binary: { file: 'x', origin: 'built-from-source' },
            compileOptions: [],
          },
        ],
      },
      doc.sides[1],
    ],
  };
  for (const pointer of [...fields, '/sides/0/drivers/0/name'])
    for (const [i, text] of CRAFTED_TEXT.entries()) {
      const token = `Tq${i}q=`;
      const d = withValue(base, pointer, token + text);
      assert.equal(compareJsonProblem(d), null, pointer);
      const md = report(d);
      assert.ok(md.includes(token), `${pointer} is shown`);
      assert.deepEqual(inertProblems(md, { tags: TAGS, values: new Map([[token, text]]) }), [], `${pointer} = ${text}`);
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
          /^Nothing to show: compare\.json is not a run document: \/environment\/cpuModel must be string\.$/m,
        );
      assert.deepEqual(snapshot(dir), before, `artifact ${i}: the artifact is unchanged`);
      assert.deepEqual([entries(cwd), entries(tmp)], [[], []], `artifact ${i}: no file written`);
    }
  } finally {
    gh.close();
  }
});
