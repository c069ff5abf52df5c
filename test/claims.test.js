import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { verdictOf } from '../bench/claims/verdict.js';
import { claimRows, claimedText, metricChange } from '../aggregate/render/claims-table.js';
import { mechanismOf } from '../aggregate/render/mechanism.js';
import { analyseRun } from '../bench/result/analysis.js';

const claimsOf = (/** @type {any[]} */ cases) => analyseRun(cases).claims;
import { CLAIMS, CLAIM_PAIRS, judgedPair } from '../bench/data/production-claims.js';
import { validate } from '../bench/result/document.js';
import { render, renderBlockClaims } from '../aggregate/sections/claims.js';
import { ROOT, childEnv } from './helpers.js';

const change = (/** @type {number} */ low, high = low) => /** @type {const} */ ({ kind: 'change', low, high });
const iv = (/** @type {number} */ low, /** @type {number} */ high) => ({ low, high });

test('verdict on a claimed number: holds, smaller, larger, opposite, too noisy to tell', () => {
  const plus12 = change(0.12);
  assert.equal(verdictOf(plus12, iv(0.08, 0.15)), 'holds');
  assert.equal(verdictOf(plus12, iv(0.01, 0.05)), 'smaller than claimed');
  assert.equal(
    verdictOf(plus12, iv(-0.03, 0.04)),
    'smaller than claimed',
    'holds 0 but not the claim: whatever the effect, it is under the claim',
  );
  assert.equal(verdictOf(plus12, iv(0.2, 0.3)), 'larger than claimed');
  assert.equal(verdictOf(plus12, iv(-0.2, -0.01)), 'opposite');
  assert.equal(verdictOf(plus12, iv(-0.05, 0.2)), 'too noisy to tell', 'holds both 0 and the claim');
  // a claimed cost is judged on its own side: a bigger cost is larger, a gain is opposite
  const minus5 = change(-0.05);
  assert.equal(verdictOf(minus5, iv(-0.07, -0.04)), 'holds');
  assert.equal(verdictOf(minus5, iv(-0.3, -0.2)), 'larger than claimed');
  assert.equal(verdictOf(minus5, iv(-0.03, -0.01)), 'smaller than claimed');
  assert.equal(verdictOf(minus5, iv(0.01, 0.03)), 'opposite');
  assert.equal(verdictOf(minus5, iv(-0.1, 0.02)), 'too noisy to tell');
  // a claimed range: met anywhere is holds
  const range = change(-0.75, -0.7);
  assert.equal(verdictOf(range, iv(-0.72, -0.6)), 'holds');
  assert.equal(verdictOf(range, iv(-0.65, -0.5)), 'smaller than claimed');
  assert.equal(verdictOf(range, iv(-0.9, -0.8)), 'larger than claimed');
  assert.throws(() => verdictOf(plus12, iv(0.2, 0.1)), /bad interval/);
});

test('verdict on a claim with no number: a direction, "minimal", none', () => {
  const slower = /** @type {const} */ ({ kind: 'direction', sign: -1 });
  assert.equal(verdictOf(slower, iv(-0.3, -0.01)), 'holds');
  assert.equal(verdictOf(slower, iv(0.01, 0.3)), 'opposite');
  assert.equal(verdictOf(slower, iv(-0.3, 0.01)), 'too noisy to tell');
  const faster = /** @type {const} */ ({ kind: 'direction', sign: 1 });
  assert.equal(verdictOf(faster, iv(0.01, 0.3)), 'holds');
  const minimal = /** @type {const} */ ({ kind: 'minimal', bound: 0.05 });
  assert.equal(verdictOf(minimal, iv(-0.02, 0.04)), 'holds');
  assert.equal(verdictOf(minimal, iv(0.06, 0.2)), 'larger than claimed');
  assert.equal(verdictOf(minimal, iv(-0.2, -0.06)), 'opposite');
  assert.equal(verdictOf(minimal, iv(-0.01, 0.09)), 'too noisy to tell');
  assert.equal(verdictOf({ kind: 'none' }, iv(-0.5, 0.5)), 'context');
});

test('a claim about time is judged in ops/s and shown in time: less time is more ops/s', () => {
  const check = /** @type {any} */ (CLAIMS.find((e) => e.id === 'temp-storage')?.checks[0]);
  assert.equal(claimedText(check), '−65.2% time');
  const t = metricChange('time', { change: 1, low: 0.5, high: 3 });
  assert.deepEqual([t.change, t.low, t.high], [-0.5, -0.75, 1 / 1.5 - 1]);
});

/** A case with paired rounds: each block's rate. */
const timedCase = (
  /** @type {string} */ config,
  /** @type {string} */ op,
  /** @type {number[]} */ rates,
  cipher = 'chacha20',
) => ({
  config,
  driver: 'better-sqlite3-multiple-ciphers',
  cipher,
  op,
  status: 'ok',
  stats: { rounds: rates, slots: rates.map((_, i) => `r${i}/${op}`), opsPerSec: { median: rates[0] } },
});

test('a run pairs each check of a claim by block and judges it; a case missing, skipped or with one round is "not compared", one with fewer than 8 pairs "too noisy to tell", with the reason', () => {
  const base = [1000, 1010, 990, 1005, 995, 1002, 1007, 998];
  const cases = [
    timedCase('production', 'select', base),
    timedCase(
      'cache-size-64mb',
      'select',
      base.map((x, i) => x * (1.08 + (i % 2 ? 0.005 : -0.005))),
    ),
    timedCase(
      'mmap-256mb',
      'select',
      base.map((x, i) => x * (1.3 + (i % 2 ? 0.01 : -0.01))),
    ),
    {
      config: 'blob-first',
      driver: 'better-sqlite3-multiple-ciphers',
      cipher: 'chacha20',
      op: 'select',
      status: 'skipped',
      reason: 'crafted reason',
    },
    // 30% faster in 6 blocks: clear, but fewer pairs than a claim's verdict takes
    timedCase(
      'wal-autocheckpoint-0',
      'insert',
      base.slice(0, 6).map((x) => x * 1.3),
    ),
    timedCase('production', 'insert', base),
    { ...timedCase('analysis-limit-400', 'select', [1000]), stats: { rounds: [1000], opsPerSec: { median: 1000 } } },
    { ...timedCase('analysis-limit-1000', 'select', [1000]), stats: { rounds: [1000], opsPerSec: { median: 1000 } } },
  ];
  const run = analyseRun(cases);
  const got = run.claims;
  const by = (/** @type {string} */ id) => got.find((e) => e.id === id);
  // a measured check names its judged pair: the run's comparison of its reference, member and op
  const pair = (/** @type {any} */ check) => judgedPair(run, check);
  assert.equal(by('cache-size')?.checks[0].verdict, 'holds');
  assert.deepEqual(
    [pair(by('cache-size')?.checks[0])?.id, pair(by('cache-size')?.checks[0])?.pairs],
    ['config', 8],
    "cache-size's pair is the config comparison's",
  );
  assert.equal(by('cache-size')?.checks[0].reason, undefined);
  const six = /** @type {any} */ (by('wal-autocheckpoint-0')?.checks[0]);
  assert.deepEqual(
    [pair(six)?.id, pair(six)?.pairs, six?.verdict, six?.reason],
    ['claims', 6, 'too noisy to tell', "6 pairs: a claim's verdict needs 8"],
    'a claim-only pair is judged among the comparisons too; its verdict waits for 8 pairs',
  );
  assert.ok(pair(six).low > 0.25 && pair(six).verdict === 'faster', "the interval is kept, with the judge's verdict");
  assert.equal(six.low, undefined, 'the figures are stored once, in comparisons');
  // a claim with only one side of a check in the run is not in it (production/select is a reference of claim 1 too)
  assert.equal(by('wal-autocheckpoint-1000'), undefined);
  assert.equal(by('mmap')?.checks[0].verdict, 'larger than claimed');
  assert.match(
    String(by('blob-last')?.checks[0].reason),
    /blob-first\/better-sqlite3-multiple-ciphers\/chacha20\/select skipped: crafted reason/,
  );
  assert.match(String(by('analysis-limit')?.checks[0].reason), /fewer than 3 rounds/);
  assert.equal(
    by('analysis-limit')?.checks[1].verdict,
    'not compared',
    'production has paired rounds, analysis-limit-400 has none',
  );
  // claims of which the run has no case are left out; a claim that cannot be measured is listed with why
  assert.equal(by('cipher'), undefined);
  assert.equal(by('wal-concurrency')?.checks[0].verdict, 'not compared');
  assert.deepEqual(claimsOf([]), []);
  // every check of a listed claim is there, measured or not
  for (const e of got)
    assert.equal(e.checks.length, /** @type {any} */ (CLAIMS.find((x) => x.id === e.id)).checks.length, e.id);
});

test('a claim measured by a workload is judged from the run\'s WAL-against-DELETE comparison, and stays "not compared" with the reason without one', async () => {
  const { withWorkloadPairs } = await import('../bench/result/analysis.js');
  /** The claims of a run whose suite gave these claims and no pair, with these workload pairs. */
  const withWorkloadChecks = (/** @type {any[]} */ claims, /** @type {any} */ workloads) =>
    withWorkloadPairs({ comparisons: [], claims }, workloads).claims;
  const cmp = (/** @type {string} */ figure, /** @type {number} */ low, /** @type {number} */ high) => ({
    id: 'journal',
    reference: 'delete-w1r2',
    member: 'wal-w1r2',
    op: figure,
    pairs: 8,
    change: (low + high) / 2,
    low,
    high,
    p: 0.01,
    verdict: 'faster',
  });
  const none = withWorkloadChecks([], null);
  assert.deepEqual(none, [], 'no workloads, no other claims: nothing to list');
  const pairs = [cmp('writes', 0.3, 0.5), cmp('reads', 2, 4), { ...cmp('writes', -0.5, -0.3), member: 'wal-r4' }];
  const run = withWorkloadPairs(
    { comparisons: [{ ...cmp('select', 0.1, 0.2), id: 'config' }], claims: [] },
    { cases: [], comparisons: pairs },
  );
  assert.deepEqual(
    [run.comparisons.map((c) => c.id), run.workloads],
    [['config', 'journal', 'journal', 'journal'], { cases: [] }],
    "the workloads' pairs follow the suite's in the run's one list, and leave the workloads",
  );
  const judged = run.claims;
  const wal = /** @type {any} */ (judged.find((e) => e.id === 'wal-concurrency'));
  assert.equal(wal.checks[0].verdict, 'holds');
  assert.deepEqual(
    [wal.checks[0].reference, wal.checks[0].member, wal.checks[0].op],
    ['delete-w1r2', 'wal-w1r2', 'writes'],
    'a workload check names its judged pair as a suite check does',
  );
  assert.equal(judgedPair({ comparisons: [cmp('writes', 0.3, 0.5)] }, wal.checks[0])?.low, 0.3);
  assert.equal(wal.checks[1].verdict, 'larger than claimed');
  const five = withWorkloadChecks([], { comparisons: [{ ...cmp('writes', 0.3, 0.5), pairs: 5 }] });
  assert.deepEqual(
    [five[0].checks[0].verdict, /** @type {any} */ (five[0].checks[0]).reason],
    ['too noisy to tell', "5 pairs: a claim's verdict needs 8"],
  );
  // an claims list from the suite gets the claim's checks filled in, the others untouched
  const suite = claimsOf([
    timedCase('production', 'select', [1, 2, 3]),
    timedCase('cache-size-64mb', 'select', [1, 2, 3]),
  ]);
  const partial = withWorkloadChecks(suite, { comparisons: [cmp('reads', -0.2, -0.1)] });
  const w = /** @type {any} */ (partial.find((e) => e.id === 'wal-concurrency'));
  assert.equal(w.checks[0].verdict, 'not compared');
  assert.match(w.checks[0].reason, /concurrency workload/);
  assert.equal(w.checks[1].verdict, 'opposite');
  assert.deepEqual(
    partial.find((e) => e.id === 'cache-size'),
    suite.find((e) => e.id === 'cache-size'),
  );
  assert.deepEqual(
    validate(docWith(partial)).filter((p) => p.startsWith('/claims')),
    [],
  );
});

/** A minimal valid result document around crafted claims. */
function docWith(/** @type {any[]} */ claims, /** @type {any[]} */ comparisons = []) {
  return {
    schemaVersion: 1,
    kind: 'sqlite-node-bench/result',
    run: {
      id: '00000000-0000-4000-8000-000000000000',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:10:00.000Z',
      status: 'complete',
      mode: 'full',
      commit: null,
      seed: 1,
      budget: { time: 1, warmupTime: 1, minSamples: 1, minSampleMs: 0.02, rounds: 5, seedMessages: 10 },
      filters: { claim: ['cache-size'] },
      order: [],
    },
    environment: {},
    harness: {},
    drivers: [],
    configs: [],
    setups: [],
    cases: [],
    comparisons,
    claims,
  };
}

test('the document carries the claims: the schema takes what the analysis writes and refuses an unknown verdict', () => {
  const base = [1000, 1010, 990, 1005, 995];
  const claims = claimsOf([
    timedCase('production', 'select', base),
    timedCase(
      'cache-size-64mb',
      'select',
      base.map((x) => x * 1.1),
    ),
  ]);
  const problems = (/** @type {any} */ doc) =>
    validate(doc).filter((p) => p.startsWith('/claims') || p.startsWith('/run/filters'));
  assert.deepEqual(problems(docWith(claims)), []);
  const bad = structuredClone(claims);
  /** @type {any} */ (bad[0].checks[0]).verdict = 'proven';
  assert.ok(
    problems(docWith(bad)).some((p) => /^\/claims\/0\/checks\/0\/verdict/.test(p)),
    problems(docWith(bad)).join(),
  );
});

test("the claims section: on results/README.md each check linked to its source with the measured change, the verdict, and a document's reason shown inert; in the README one table for every machine class", () => {
  const base = [1000, 1010, 990, 1005, 995, 1002, 1007, 998];
  const run = analyseRun([
    timedCase('production', 'select', base),
    timedCase(
      'cache-size-64mb',
      'select',
      base.map((x) => x * 1.1),
    ),
    timedCase('blob-first', 'select', base),
  ]);
  const claims = run.claims;
  const blob = /** @type {any} */ (claims.find((e) => e.id === 'blob-last'));
  blob.checks[0] = {
    index: 0,
    metric: 'ops/s',
    verdict: 'not compared',
    reason: '[click](https://evil.example) | <b>x</b>',
  };
  const doc = docWith(claims, run.comparisons);
  const entry = /** @type {import('../aggregate/store.js').Entry} */ ({
    mode: 'full',
    status: 'complete',
    node: '22.0.0',
    finishedAt: doc.run.finishedAt,
    file: 'a.json',
  });
  doc.environment = { node: '22.0.0' };
  const lines = render(
    /** @type {any} */ ({
      platform: 'linux',
      machine: 'm',
      entries: [entry],
      load: () => doc,
      resultsLink: '.',
      page: 'results',
    }),
  );
  const text = lines.join('\n');
  assert.match(text, /^##### Claims checked$/m);
  assert.match(
    text,
    /\| 8 \| \[cache_size=-64000: 8% faster reads\]\(https:\/\/forwardemail\.net\/en\/blog\/docs\/sqlite-performance-optimization-pragma-chacha20-production-guide\)/,
  );
  assert.match(text, /\(\.\.\/docs\/claims\.md\)/, 'the results page links the rules from results/');
  assert.match(text, /\+10\.0% \[\+10\.0%, \+10\.0%\] ops\/s, 8 pairs/);
  assert.ok(
    !text.includes('](https://evil.example)') && !text.includes('<b>'),
    'a reason from a document opened a link or HTML',
  );
  for (const line of text.split('\n').filter((l) => l.startsWith('|')))
    assert.equal(line.split(/(?<!\\)\|/).length, 9, line);
  // the README: no per-class section; one table (renderBlockClaims) that links the source once and the rules from the root
  assert.deepEqual(
    render(
      /** @type {any} */ ({
        platform: 'linux',
        machine: 'm',
        entries: [entry],
        load: () => doc,
        resultsLink: 'results',
        page: 'readme',
      }),
    ),
    [],
  );
  const readme = renderBlockClaims({
    machines: [{ platform: 'linux-x64', machine: 'linux-x64 · m', entries: [entry], load: () => doc }],
    resultsLink: 'results',
  }).join('\n');
  assert.match(
    readme,
    /^\| 8 \| cache_size=-64000: 8% faster reads \| larger than claimed: \+10%\u00a0±0 \|$/m,
    'claimed +8%, measured +10% in every pair',
  );
  assert.match(readme, /^\| 11 \| BLOB columns last \| not compared \|$/m, 'the reason is on results/README.md only');
  assert.equal(readme.split('](https://forwardemail.net/').length - 1, 1);
  assert.match(readme, /\]\(docs\/claims\.md\)/);
  // a machine class with no full run with claims has no section
  assert.deepEqual(
    render(
      /** @type {any} */ ({
        platform: 'linux',
        machine: 'm',
        entries: [{ ...entry, mode: 'quick' }],
        load: () => doc,
        resultsLink: '.',
        page: 'results',
      }),
    ),
    [],
  );
  assert.equal(
    claimRows(doc).length,
    CLAIMS.filter((e) => claims.some((x) => x.id === e.id)).reduce((n, e) => n + e.checks.length, 0),
  );
});

test('npm run claims refuses an unknown claim with one line naming the valid ones', () => {
  const r = spawnSync(process.execPath, ['bench/claims/cli.js', '--claim', 'nope'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: childEnv(),
  });
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.match(
    r.stderr,
    /^claims: unknown --claim 'nope'; valid: wal-autocheckpoint-1000, .*blob-last, wal-concurrency$/m,
    'the claim the concurrency workload measures is one too',
  );
  const b = spawnSync(process.execPath, ['bench/claims/cli.js', '--rounds', '2'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: childEnv(),
  });
  assert.equal(b.status, 2);
  assert.match(b.stderr, /^claims: bad --rounds '2'; valid: a whole number from 8 to 100$/m);
  assert.ok(CLAIM_PAIRS.some((p) => p.claim.id === CLAIMS[0].id));
});

test('npm run claims -- --quick checks the chosen claims end to end on real files and prints a verdict for each check', () => {
  const out = `${ROOT}/out/test-claims-${process.pid}`;
  try {
    const r = spawnSync(
      process.execPath,
      [
        'bench/claims/cli.js',
        '--quick',
        '--claim',
        'cache-size,wal-autocheckpoint-0',
        '--time',
        '5',
        '--no-counts',
        '--out',
        out,
      ],
      { cwd: ROOT, encoding: 'utf8', env: childEnv() },
    );
    assert.equal(r.status, 0, r.stderr.slice(-2000));
    assert.match(r.stdout, /quick run, 8 rounds per case/);
    assert.match(r.stdout, /\| 8 +\| cache_size=-64000: 8% faster reads/);
    const rows = r.stdout.split('\n').filter((l) => /^\| *\d* *\| /.test(l));
    assert.deepEqual(
      rows.map((l) => l.slice(2, 4).trim()).filter(Boolean),
      ['2', '8', '12'],
      'the chosen claims, and the one measured by a workload, which this run left out, with its reason',
    );
    assert.equal(rows.length, 3 + 1 + 2, rows.join('\n'));
    for (const row of rows)
      assert.match(
        row,
        /(holds|smaller than claimed|larger than claimed|opposite|too noisy to tell|context|not compared: .+) +\|[^|]*\|$/,
      );
  } finally {
    spawnSync('rm', ['-rf', out]);
  }
});

test("a verdict's mechanism: what the variant costs per operation against the reference, where both were counted", () => {
  const counts = (/** @type {number} */ instructions, /** @type {number} */ fsync, write = 2) => ({
    status: 'ok',
    instructions,
    syscalls: { fsync, write, read: 0, other: 0, runtime: 0 },
    calls: {},
    bytes: { read: 0, written: write * 4096 },
    repeat: { instructions, difference: 0, syscallsSame: true },
  });
  // synchronous=FULL against production's NORMAL: an fsync per insert, a few more instructions
  assert.equal(
    mechanismOf({ op: 'insert', counts: counts(77000, 0.001) }, { op: 'insert', counts: counts(80100, 1) }),
    'fsync/op 1 against 0.001; instructions/op 80.1k against 77k (+4.0%)',
  );
  // under 1% of instructions and the same system calls: nothing to name
  assert.equal(
    mechanismOf({ op: 'select', counts: counts(1e6, 0) }, { op: 'select', counts: counts(1.005e6, 0) }),
    null,
  );
  assert.equal(mechanismOf({ op: 'select', counts: counts(1e6, 0) }, { op: 'select' }), null, 'not counted: none');
  assert.equal(
    mechanismOf({ op: 'update', counts: counts(30000, 0, 2) }, { op: 'update', counts: counts(30000, 0, 3) }),
    'writes/op 3 against 2; bytes written/op 12.3k against 8192',
  );
});

test("a claim's mechanism says in which components its instructions go, from a real run's counts; moved, the words follow", () => {
  // test/fixtures/real-linux-x64-v20-counted-run.json: `npm run bench -- --quick --rounds 3 --config production
  // --driver better-sqlite3-multiple-ciphers --cipher chacha20,none,aes256cbc --op insert,select,setup
  // --workload none` on Linux, Node 20 (valgrind 3.19, strace 6.1)
  const real = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'real-linux-x64-v20-counted-run.json'), 'utf8'),
  );
  const mechanism = (/** @type {any} */ doc) =>
    String(claimRows(doc).find((r) => r.says.startsWith('ChaCha20 vs unencrypted'))?.mechanism);
  // the cipher pays the encrypted insert; the runtime and the binding do what they did without a key
  assert.match(
    mechanism(real),
    /instructions\/op 966k against 77\.1k \(\+1152\.5%\), of which cipher \+884k \(99%\), .*; runtime, binding within repeat$/,
  );
  // 800k of the cipher's instructions counted in SQLite instead, in both counts: the mechanism names SQLite first
  const doc = structuredClone(real);
  const insert = doc.cases.find((/** @type {any} */ c) => c.cipher === 'chacha20' && c.op === 'insert');
  for (const k of [insert.counts.components, insert.counts.repeat.components]) {
    k.sqlite += 800_000;
    k.cipher -= 800_000;
  }
  assert.match(mechanism(doc), /\(\+1152\.5%\), of which SQLite \+801k \(90%\), cipher \+84\.\dk \(9\.\d%\), /);
});
