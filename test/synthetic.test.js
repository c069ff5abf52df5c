// The synthetic documents the aggregate's tests and its benchmark over a year (npm run
// meta:aggregate) are made of: they carry what a real nightly run commits (claims, workloads,
// a shootout per machine), pass the checks the aggregate reads real ones with, are stored with the
// bench's precision, and the same parameters give the same bytes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { aggregate } from '../aggregate/cli.js';
import { readResult, aggregateProblems } from '../aggregate/read.js';
import { isShootoutEntry, machineOf } from '../aggregate/store.js';
import { SYNTHETIC_PLATFORMS, realProfile, syntheticDoc, syntheticShootout } from '../bench/meta/synthetic.js';
import { COMMIT_PARTS, PER_NIGHT, artifactOf, inCell, night } from '../bench/meta/aggregate-year.js';
import { validate } from '../bench/result/document.js';
import { CLAIMS, judgedPair } from '../bench/data/production-claims.js';
import { WORKLOADS } from '../bench/data/workloads.js';
import { sig } from '../lib/format.js';
import { END, START } from '../lib/markers.js';
import { pairsOf, referenceOf } from '../bench/result/header.js';
import { aggregateWorkspace, TEST_NOW } from './helpers.js';

const NODES = ['v18.20.8', 'v20.20.2', 'v22.23.3', 'v24.21.0', 'v25.9.0'];

const workspace = () => aggregateWorkspace('synthetic-');
const put = (/** @type {string} */ file, /** @type {any} */ doc) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(doc));
};
const run = async (/** @type {ReturnType<typeof workspace>} */ ws) => {
  /** @type {string[]} */
  const warn = [];
  const code = await aggregate({ ...ws, now: TEST_NOW }, { log: () => {}, warn: (s) => warn.push(s) });
  assert.equal(code, 0, warn.join('\n'));
  assert.deepEqual(warn, []);
};

test('a synthetic result document carries claims and workloads as a real full one, and passes every check the aggregate reads documents with', () => {
  for (const platform of SYNTHETIC_PLATFORMS) {
    for (const node of NODES) {
      const doc = syntheticDoc({ platform, node, seed: node.length });
      assert.deepEqual(validate(doc), [], `${platform} ${node}`);
      assert.deepEqual(aggregateProblems(doc), [], `${platform} ${node}`);
      // every claim of the table is listed; the measurable ones with a figure, judged
      assert.deepEqual(
        doc.claims.map((/** @type {any} */ e) => e.id),
        CLAIMS.map((e) => e.id),
      );
      const judged = doc.claims
        .flatMap((/** @type {any} */ e) => e.checks)
        .filter((/** @type {any} */ c) => c.verdict !== 'not compared');
      assert.ok(
        judged.length >= 10 &&
          judged.every((/** @type {any} */ c) => {
            const j = judgedPair(doc, c);
            return j.low <= j.change && j.change <= j.high;
          }),
        `${platform} ${node}`,
      );
      // a workload check (WAL against DELETE) judged from the workloads' pair in the run's one list
      assert.ok(
        judged.some((/** @type {any} */ c) => judgedPair(doc, c)?.id === 'journal'),
        `${platform} ${node}: no claim checked on a workload`,
      );
      const w = doc.workloads;
      assert.ok(w, `${platform} ${node}: no workloads`);
      assert.equal(w.cases.length, WORKLOADS.filter((x) => x.default).length);
      const skipped = w.cases
        .filter((/** @type {any} */ c) => c.status === 'skipped')
        .map((/** @type {any} */ c) => c.setup.driver);
      assert.deepEqual([...new Set(skipped)], ['v18.20.8', 'v20.20.2'].includes(node) ? ['node:sqlite'] : []);
      const journal = doc.comparisons.filter((/** @type {any} */ c) => c.id === 'journal');
      assert.ok(journal.length >= 10, `${platform} ${node}`);
    }
  }
  // a quick run: the quick workloads, one round, nothing paired
  const quick = syntheticDoc({ mode: 'quick' });
  assert.deepEqual(validate(quick), []);
  assert.ok(quick.workloads);
  assert.equal(quick.workloads.budget.rounds, 1);
  assert.deepEqual(quick.comparisons, []);
  // a check judged on a pair the document lacks is refused: its figures are the pair's
  const doc = /** @type {any} */ (syntheticDoc({ node: 'v24.21.0' }));
  const at = (/** @type {string} */ id) => doc.claims.findIndex((/** @type {any} */ e) => e.id === id);
  const named = doc.claims[at('wal-autocheckpoint-0')].checks[0];
  const workload = doc.claims[at('wal-concurrency')].checks[0];
  const gone = [judgedPair(doc, named), judgedPair(doc, workload)];
  doc.comparisons = doc.comparisons.filter((/** @type {any} */ c) => !gone.includes(c));
  assert.deepEqual(aggregateProblems(doc), [
    `/claims/${at('wal-autocheckpoint-0')}/checks/0 has the verdict '${named.verdict}' but names no judged pair with an interval`,
    `/claims/${at('wal-concurrency')}/checks/0 has the verdict '${workload.verdict}' but names no judged pair with an interval`,
  ]);
  // a workload's judged pair is held to the figures of every judged pair, and names workloads of the run
  const [i, j] = doc.comparisons.flatMap((/** @type {any} */ c, /** @type {number} */ k) =>
    c.id === 'journal' ? [k] : [],
  );
  Object.assign(doc.comparisons[i], { verdict: 'faster', change: 0.5, low: -0.1, high: 0.2 });
  Object.assign(doc.comparisons[j], { change: null, reference: 'production/better-sqlite3-multiple-ciphers/none' });
  assert.deepEqual(
    aggregateProblems(doc).filter((p) => p.startsWith('/comparisons/')),
    [
      `/comparisons/${i}/change is outside its interval`,
      `/comparisons/${i} is 'faster' but its interval reaches 0 or below`,
      `/comparisons/${j} compares what the run does not have: its reference and member are setups (workloads of the run in 'journal')`,
      `/comparisons/${j} has the verdict '${doc.comparisons[j].verdict}' but no change, interval or p`,
    ],
  );
});

test('synthetic figures are stored as the bench stores them: 6 significant figures, never a full double', () => {
  const doc = syntheticDoc({ node: 'v24.21.0' });
  /** @type {number[]} */
  const figures = [];
  for (const c of doc.cases.filter((/** @type {any} */ x) => x.stats)) {
    figures.push(
      ...c.stats.rounds,
      ...Object.values(c.stats.opsPerSec),
      ...Object.values(c.stats.latencyMs),
      c.stats.rme,
      c.stats.totalMs,
    );
  }
  const { workloads } = doc;
  assert.ok(workloads);
  for (const c of workloads.cases) {
    if (!('figures' in c) || !c.figures) continue;
    for (const f of Object.values(c.figures))
      figures.push(.../** @type {any} */ (f).rounds, /** @type {any} */ (f).median);
  }
  for (const c of doc.comparisons) figures.push(c.change, c.low, c.high, c.p);
  assert.ok(figures.length > 5000);
  const full = figures.filter((x) => x !== sig(x));
  assert.deepEqual(full, [], `${full.length} figures with more than 6 significant digits`);
  // the suite's extra rounds: a noisy case gets more than the budget's rounds, up to maxRounds
  const rounds = doc.cases
    .filter((/** @type {any} */ x) => x.stats)
    .map((/** @type {any} */ c) => c.stats.rounds.length);
  assert.ok(rounds.some((n) => n > doc.run.budget.rounds) && Math.max(...rounds) <= Number(doc.run.budget.maxRounds));
});

test('a synthetic shootout is a valid shootout document of the same machine class, stored by the aggregate as a shootout', async () => {
  const ws = workspace();
  for (const platform of SYNTHETIC_PLATFORMS) {
    const shootout = syntheticShootout({ platform, nodes: NODES });
    const file = path.join(ws.artifacts, `shootout-${platform}`, 'shootout.json');
    put(file, shootout);
    const read = readResult(file);
    assert.ok(read.ok, read.ok ? '' : read.reason);
    assert.deepEqual(
      shootout.sides.filter((/** @type {any} */ s) => s.status === 'ok').map((/** @type {any} */ s) => s.label),
      ['v18 11.x', 'v20 12.x', 'v22 12.x', 'v22 13.x', 'v24 13.x', 'v25 12.x', 'v25 13.x'],
    );
    assert.equal(referenceOf(shootout), 'v22 12.x');
    // every pair of the plan has a row per operation of its scope; the cases hold each side's rounds
    assert.equal(pairsOf(shootout).length, 7);
    assert.ok(
      pairsOf(shootout).every(
        (/** @type {any} */ c) =>
          shootout.comparisons.filter((/** @type {any} */ r) => r.reference === c.reference && r.member === c.member)
            .length >= 16,
      ),
    );
    assert.ok(shootout.cases.every((/** @type {any} */ c) => c.rounds.length === shootout.run.budget.rounds));
    const result = syntheticDoc({ platform, node: 'v22.23.3' });
    put(path.join(ws.artifacts, artifactOf(inCell(result))), result); // its cell's artifact (aggregate/trust.js)
    assert.equal(machineOf(shootout), machineOf(result), 'the shootout lands in its machine class');
  }
  await run(ws);
  const entries = JSON.parse(fs.readFileSync(path.join(ws.results, 'index.json'), 'utf8')).entries;
  // a shootout is told by its file's name (store.js isShootoutEntry): one of each per machine class
  assert.deepEqual(
    entries.map((/** @type {any} */ e) => isShootoutEntry(e)).sort(),
    [...SYNTHETIC_PLATFORMS.map(() => false), ...SYNTHETIC_PLATFORMS.map(() => true)].sort(),
  );
});

test('the aggregate renders the claims and the workloads of synthetic documents for every machine class', async () => {
  const ws = workspace();
  for (const platform of SYNTHETIC_PLATFORMS)
    for (const node of NODES)
      put(path.join(ws.artifacts, `${platform}-${node}.json`), syntheticDoc({ platform, node }));
  await run(ws);
  const page = fs.readFileSync(path.join(ws.results, 'README.md'), 'utf8');
  const count = (/** @type {string} */ text, /** @type {RegExp} */ re) => (text.match(re) ?? []).length;
  // results/README.md: per machine class
  assert.equal(
    count(page, /^#####[^\n]*[Cc]laims/gm),
    SYNTHETIC_PLATFORMS.length,
    'a claims section per machine class',
  );
  assert.equal(
    count(page, /^#####[^\n]*(Concurrency|[Ww]orkloads)/gm),
    SYNTHETIC_PLATFORMS.length,
    'a workloads section per machine class',
  );
  // the README block: the workloads per class (its claims are one table for all classes: render-pages.js)
  const readme = fs.readFileSync(ws.readme, 'utf8');
  const block = readme.slice(readme.indexOf(START), readme.indexOf(END));
  assert.equal(
    count(block, /^#####[^\n]*(Concurrency|[Ww]orkloads)/gm),
    SYNTHETIC_PLATFORMS.length,
    'a workloads section per machine class in the README block',
  );
});

test('the same parameters give byte-identical documents; another seed or night gives another', () => {
  const p = {
    platform: 'linux-arm64',
    node: 'v24.21.0',
    seed: 7,
    finishedAt: '2026-05-01T03:17:00.000Z',
    scale: 0.7,
    imageVersion: '20260427.1',
  };
  assert.equal(JSON.stringify(syntheticDoc(p)), JSON.stringify(syntheticDoc({ ...p })));
  assert.notEqual(JSON.stringify(syntheticDoc(p)), JSON.stringify(syntheticDoc({ ...p, seed: 8 })));
  const s = { platform: 'darwin-x64', nodes: NODES, seed: 3, finishedAt: '2026-05-01T03:17:00.000Z' };
  assert.equal(JSON.stringify(syntheticShootout(s)), JSON.stringify(syntheticShootout({ ...s })));
  assert.notEqual(JSON.stringify(syntheticShootout(s)), JSON.stringify(syntheticShootout({ ...s, seed: 4 })));
  assert.throws(
    () => syntheticDoc({ platform: 'win32-x64' }),
    /unknown synthetic platform 'win32-x64'; valid: linux-x64, linux-arm64, darwin-arm64, darwin-x64/,
  );
});

test('a synthetic night is what the nightly workflow commits: a result document per platform and Node major, a shootout per platform, each its own artifact', () => {
  const docs = night(3);
  assert.equal(docs.length, PER_NIGHT.results + PER_NIGHT.shootouts);
  assert.equal(docs.filter((d) => d.sides.length > 1).length, SYNTHETIC_PLATFORMS.length);
  assert.equal(new Set(docs.map(artifactOf)).size, docs.length, 'two documents of a night share an artifact');
  assert.equal(new Set(docs.map((d) => d.run.id)).size, docs.length);
  // the parts the report splits a night's commit into
  const part = (/** @type {string} */ f) => COMMIT_PARTS.find(([, , is]) => is(f))?.[0];
  assert.deepEqual(
    [
      'results/2026/2026-01-04-linux-x64-shootout-0a1b2c3d.json',
      'results/2026/2026-01-04-linux-x64-node-v22.23.3-0a1b2c3d.json',
      'README.md',
      'results/README.md',
      'results/index.json',
      'results/charts/linux-x64/a-config.svg',
      'results/notes.txt',
    ].map(part),
    ['shootoutDocuments', 'resultDocuments', 'readme', 'resultsPage', 'index', 'charts', 'other'],
  );
});

test("real-run.json has the shape realProfile makes of a real run's document", () => {
  const real = JSON.parse(fs.readFileSync(new URL('../bench/meta/real-run.json', import.meta.url), 'utf8'));
  const doc = JSON.parse(
    fs.readFileSync(new URL('./fixtures/real-linux-x64-v20-counted-run.json', import.meta.url), 'utf8'),
  );
  const made = realProfile(doc);
  assert.deepEqual(Object.keys(made.source).sort(), Object.keys(real.source).sort());
  assert.equal(made.source.run, doc.run.id.slice(0, 8));
  const timed = doc.cases.filter((/** @type {any} */ c) => c.stats?.rounds?.length);
  assert.ok(timed.length > 0);
  assert.equal(Object.keys(made.cases).length, timed.length);
  for (const [key, [figure, spread]] of Object.entries(made.cases)) {
    assert.ok(key in real.cases, `${key} is a case of real-run.json too`);
    assert.ok(figure > 0 && spread >= 0 && spread < 1, `${key}: ${figure}, ${spread}`);
  }
});

test("the synthetic year reads like a real one: a real run's effects and noise, a Node upgrade, a driver bump and a change in the first 30 nights", () => {
  const real = JSON.parse(fs.readFileSync(new URL('../bench/meta/real-run.json', import.meta.url), 'utf8'));
  assert.match(real.source.run, /^[0-9a-f]{8}$/, 'the real run it comes from');
  const doc = syntheticDoc({ node: 'v24.21.0', real: true });
  /** The typical figure of a case, in a document and in the real run. */
  const of = (/** @type {string} */ key) => [
    doc.cases.find((/** @type {any} */ c) => `${c.config}/${c.driver}/${c.cipher}/${c.op}` === key).stats.opsPerSec
      .median,
    real.cases[key][0],
  ];
  // a cipher's cost per operation is the real run's, within the noise: select costs nothing, setup (the key derivation) a lot
  for (const op of ['select', 'setup', 'insert']) {
    const [cipher, cipherReal] = of(`production/better-sqlite3-multiple-ciphers/chacha20/${op}`);
    const [none, noneReal] = of(`production/better-sqlite3-multiple-ciphers/none/${op}`);
    const ratio = cipher / none / (cipherReal / noneReal);
    assert.ok(ratio > 0.85 && ratio < 1.15, `${op}: ${ratio}`);
  }
  // the year: the Node upgrade on night 9, the driver bump on night 15 (13.x Nodes only), its select 12% slower
  const cell = (/** @type {number} */ n, /** @type {string} */ major) =>
    night(n, 1).find((/** @type {any} */ d) => d.sides.length === 1 && d.environment.node.startsWith(`v${major}.`));
  assert.notEqual(cell(8, '22').environment.node, cell(9, '22').environment.node);
  const driver = (/** @type {any} */ d) =>
    d.sides[0].drivers.find((/** @type {any} */ x) => x.name === 'better-sqlite3-multiple-ciphers').version;
  assert.deepEqual([driver(cell(14, '22')), driver(cell(15, '22'))], ['13.0.3', '13.0.4']);
  assert.equal(driver(cell(14, '20')), driver(cell(15, '20')), 'Node 20 loads 12.x: no bump');
  const select = (/** @type {any} */ d) =>
    d.cases.find(
      (/** @type {any} */ c) =>
        `${c.config}/${c.driver}/${c.cipher}/${c.op}` === 'production/better-sqlite3-multiple-ciphers/chacha20/select',
    ).stats.opsPerSec.median;
  const shift = select(cell(15, '22')) / select(cell(14, '22'));
  assert.ok(shift > 0.8 && shift < 0.95, String(shift));
  assert.equal(night(0, 1).length, 6, 'one machine class: 5 Node majors and a shootout');
});
