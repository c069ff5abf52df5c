import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { aggregate } from '../aggregate/cli.js';
import { END, START, replaceBlock } from '../lib/markers.js';
import { newestPerMajor } from '../aggregate/sections/common.js';
import { num } from '../lib/format.js';
import { changeText, figureText, intervalText, marginText } from '../aggregate/render/figure.js';
import { comparisonTable } from '../aggregate/render/pair-table.js';
import { summarize } from '../bench/result/summary.js';
import { syntheticDoc } from '../bench/meta/synthetic.js';
import { validate } from '../bench/result/document.js';
import { parse as parseYaml } from 'yaml';
import { aggregateWorkspace, childEnv, ROOT, TEST_NOW } from './helpers.js';

const README = `# Title\n\nintro stays\n\n${START}\nold block\n${END}\n\nfooter stays\n`;

/** A fresh workspace: artifacts/, results/, README.md. */
const workspace = () => aggregateWorkspace('agg-', README);
const put = (/** @type {string} */ file, /** @type {any} */ content) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
};
/**
 * @param {{ artifacts: string, results: string, readme: string }} ws
 * @param {number} [now] the aggregate's clock: the tests' fixed one, or the real one for a document made now
 */
async function run(ws, now = TEST_NOW) {
  /** @type {string[]} */
  const log = [];
  /** @type {string[]} */
  const warn = [];
  const code = await aggregate(
    { artifacts: ws.artifacts, results: ws.results, readme: ws.readme, now },
    { log: (s) => log.push(s), warn: (s) => warn.push(s) },
  );
  return { code, log: log.join('\n'), warn };
}
/**
 * Every file under a directory with its bytes, for byte-for-byte comparisons.
 * @param {string} dir
 */
function snapshot(dir) {
  if (!fs.existsSync(dir)) return {};
  return Object.fromEntries(
    fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .sort()
      .filter((f) => fs.statSync(path.join(dir, f)).isFile())
      .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]),
  );
}
const block = (/** @type {string} */ readme) => readme.slice(readme.indexOf(START), readme.indexOf(END));
/** The stored result documents of a snapshot of results/ (not the index, results/README.md or the charts). */
const documents = (/** @type {Record<string, string>} */ snap) =>
  Object.keys(snap).filter((f) => /^\d{4}[\\/]/.test(f));

test('synthetic documents are schema-valid (else every test below proves nothing)', () => {
  for (const node of ['v18.20.8', 'v20.20.2', 'v22.23.3', 'v25.9.0'])
    assert.deepEqual(validate(syntheticDoc({ node })), [], node);
});

test('merges both download-artifact layouts, stores one file per document named by date, platform, arch and Node', async () => {
  const ws = workspace();
  // a cell's artifact (named for the cell its document names: aggregate/trust.js), and a loose document
  const cell = /** @type {any} */ (syntheticDoc({ node: 'v22.23.3' }));
  cell.environment.ci = { ...cell.environment.ci, cellRunner: 'ubuntu-24.04', cellNode: '22' };
  put(path.join(ws.artifacts, 'result-ubuntu-24.04-node22', 'linux-x64-node-v22.23.3.json'), cell);
  put(
    path.join(ws.artifacts, 'darwin-arm64-node-v20.20.2.json'),
    syntheticDoc({ platform: 'darwin-arm64', node: 'v20.20.2' }),
  );
  const r = await run(ws);
  assert.equal(r.code, 0, r.warn.join('\n'));
  assert.deepEqual(r.warn, []);
  const stored = documents(snapshot(ws.results));
  assert.equal(stored.length, 2);
  assert.ok(
    stored.some((f) => /^2026\/2026-11-20-linux-x64-node-v22\.23\.3-[0-9a-f]{8}\.json$/.test(f)),
    stored.join(' '),
  );
  assert.ok(
    stored.some((f) => /^2026\/2026-11-20-darwin-arm64-node-v20\.20\.2-[0-9a-f]{8}\.json$/.test(f)),
    stored.join(' '),
  );
  assert.match(r.log, /2 file\(s\) read, 2 valid, 2 stored, 0 skipped/);
  assert.match(r.log, /darwin-arm64 1, linux-x64 1/);
});

test('a second run with the same input changes nothing, byte for byte; the same document twice is stored once', async () => {
  const ws = workspace();
  const doc = syntheticDoc({ node: 'v24.11.0' });
  put(path.join(ws.artifacts, 'a', 'x.json'), doc);
  put(path.join(ws.artifacts, 'b', 'x.json'), doc); // same document, in two artifacts, formatted differently
  fs.writeFileSync(path.join(ws.artifacts, 'b', 'x.json'), JSON.stringify(doc));
  assert.equal((await run(ws)).code, 0);
  const results = snapshot(ws.results);
  const readme = fs.readFileSync(ws.readme, 'utf8');
  assert.equal(documents(results).length, 1);
  assert.ok(
    'index.json' in results && 'README.md' in results && Object.keys(results).some((f) => f.endsWith('.svg')),
    Object.keys(results).join(' '),
  );
  const again = await run(ws);
  assert.equal(again.code, 0);
  assert.deepEqual(snapshot(ws.results), results);
  assert.equal(fs.readFileSync(ws.readme, 'utf8'), readme);
  assert.match(again.log, /0 stored/);
  assert.match(again.log, /README\.md unchanged; index unchanged/);
  assert.ok(again.warn.every((w) => /already stored/.test(w)));
});

test('a conflicting duplicate (same run id, other content) is refused, the stored one kept, and the exit status says so', async () => {
  const ws = workspace();
  const doc = syntheticDoc({ node: 'v22.23.3' });
  put(path.join(ws.artifacts, 'x.json'), doc);
  await run(ws);
  const before = snapshot(ws.results);
  const changed = structuredClone(doc);
  changed.cases.find((c) => c.status === 'ok' && c.stats).stats.opsPerSec.median *= 2;
  fs.rmSync(ws.artifacts, { recursive: true });
  put(path.join(ws.artifacts, 'y.json'), changed);
  const r = await run(ws);
  assert.equal(r.code, 1);
  assert.equal(r.warn.length, 2, r.warn.join('\n'));
  assert.match(
    r.warn[0],
    /y\.json: \/run\/id .* is already stored as results\/.* with different content; refused, the stored one stays$/,
  );
  assert.match(r.warn[1], /^aggregate: 1 valid document\(s\) refused/);
  assert.match(r.log, /0 stored, 0 skipped, 1 refused/);
  assert.deepEqual(snapshot(ws.results), before);
});

test('results/ is history: older runs stay, and the README shows the newest run per Node major, in semver order', async () => {
  const ws = workspace();
  put(path.join(ws.artifacts, '1.json'), syntheticDoc({ node: 'v22.9.0', finishedAt: '2026-11-01T03:00:00.000Z' }));
  put(path.join(ws.artifacts, '2.json'), syntheticDoc({ node: 'v22.23.3', finishedAt: '2026-11-02T03:00:00.000Z' }));
  put(path.join(ws.artifacts, '3.json'), syntheticDoc({ node: 'v20.20.2', finishedAt: '2026-11-02T03:00:00.000Z' }));
  put(path.join(ws.artifacts, '4.json'), syntheticDoc({ node: 'v18.20.8', finishedAt: '2026-11-02T03:00:00.000Z' }));
  put(path.join(ws.artifacts, '5.json'), syntheticDoc({ node: 'v25.9.0', finishedAt: '2026-11-02T03:00:00.000Z' }));
  assert.equal((await run(ws)).code, 0);
  assert.equal(documents(snapshot(ws.results)).length, 5);
  const b = block(fs.readFileSync(ws.readme, 'utf8'));
  assert.ok(!b.includes('v22.9.0'), 'an older run of v22 is shown');
  // the line under the machine class's heading: the newest run per Node major with its driver, in semver order
  const intro = b.split('\n').find((l) => /^5 run\(s\) of this machine class/.test(l)) ?? '';
  const order = ['v18.20.8', 'v20.20.2', 'v22.23.3', 'v25.9.0'].map((v) => intro.indexOf(`${v} · `));
  assert.ok(
    order.every((i, k) => i > 0 && (k === 0 || i > order[k - 1])),
    intro,
  );
  assert.match(
    b,
    /Last updated \d{4}-\d{2}-\d{2} \(the aggregate's clock, UTC; the newest run finished 2026-11-02T03:00:00Z\)/,
  );
  // the machines table (CPU, image, every driver) is on results/README.md, linked from that line
  assert.match(intro, /\[machines\]\(results\/README\.md#linux-x64--/);
  const page = fs.readFileSync(path.join(ws.results, 'README.md'), 'utf8');
  const order2 = ['v18.20.8', 'v20.20.2', 'v22.23.3', 'v25.9.0'].map((v) => page.indexOf(`| ${v}`));
  assert.ok(
    order2.every((i, k) => i > 0 && (k === 0 || i > order2[k - 1])),
    order2.join(' '),
  );
  assert.ok(!page.includes('| v22.9.0'), 'an older run of v22 is in the machines table');
});

test('Node versions order by semver, not as strings: v22.9 before v22.23, v9 before v10', () => {
  const entries = ['v22.23.3', 'v22.9.0', 'v10.0.0', 'v9.11.2', 'v18.20.8'].map((node, i) => ({
    file: `${i}`,
    id: `${i}`,
    sha256: '',
    finishedAt: '2026-01-01T00:00:00Z',
    status: 'complete',
    mode: 'full',
    platform: 'p',
    node,
    machine: 'm',
  }));
  assert.deepEqual(
    newestPerMajor(/** @type {any} */ (entries)).map((e) => e.node),
    ['v9.11.2', 'v10.0.0', 'v18.20.8', 'v22.23.3'],
  );
  // per major the newest run wins, whatever its version
  const two = [
    { ...entries[0], finishedAt: '2026-01-01T00:00:00Z' },
    { ...entries[1], finishedAt: '2026-02-01T00:00:00Z' },
  ];
  assert.deepEqual(
    newestPerMajor(/** @type {any} */ (two)).map((e) => e.node),
    ['v22.9.0'],
  );
});

test('platforms and machine classes never share a table', async () => {
  const ws = workspace();
  put(path.join(ws.artifacts, 'l.json'), syntheticDoc({ platform: 'linux-x64', node: 'v22.23.3' }));
  put(path.join(ws.artifacts, 'a.json'), syntheticDoc({ platform: 'linux-arm64', node: 'v22.23.3' }));
  put(path.join(ws.artifacts, 'd.json'), syntheticDoc({ platform: 'darwin-arm64', node: 'v24.11.0' }));
  const other = syntheticDoc({ platform: 'linux-x64', node: 'v20.20.2' });
  other.environment.cpuModel = 'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz';
  put(path.join(ws.artifacts, 'o.json'), other);
  assert.equal((await run(ws)).code, 0);
  const b = block(fs.readFileSync(ws.readme, 'utf8'));
  // the platforms' sections (a section of the whole block, e.g. the claims across machine classes, may follow)
  const sections = b
    .split(/^### /m)
    .slice(1)
    .filter((s) => /^[a-z0-9]+-[a-z0-9]+\n/.test(s));
  assert.deepEqual(
    sections.map((s) => s.split('\n')[0]),
    ['darwin-arm64', 'linux-arm64', 'linux-x64'],
  );
  const linux = sections[2].split(/^#### /m).slice(1);
  assert.equal(linux.length, 2, 'two machine classes in linux-x64');
  for (const m of linux) {
    // the line naming the machine class's runs names only its own
    const nodes = new Set([...m.split('\n')[1].matchAll(/(v\d+\.\d+\.\d+) · /g)].map((x) => x[1]));
    assert.equal(nodes.size, 1, `a machine class's runs mix ${[...nodes].join(', ')}`);
  }
  assert.ok(!sections[0].includes('AMD EPYC') && !sections[0].includes('ubuntu24'));
});

test('the block is computed: figures carry ±, comparisons carry their uncertainty, cells without figures say why', async () => {
  const ws = workspace();
  put(path.join(ws.artifacts, 'a.json'), syntheticDoc({ node: 'v20.20.2' }));
  put(path.join(ws.artifacts, 'b.json'), syntheticDoc({ node: 'v22.23.3' }));
  await run(ws);
  const readme = fs.readFileSync(ws.readme, 'utf8');
  assert.ok(readme.startsWith('# Title\n\nintro stays\n\n') && readme.endsWith('\n\nfooter stays\n'));
  const b = block(readme);
  assert.match(b, /\*\*How to read\.\*\* .*"\+14% ±3\.4".*"≈ ±22"/, 'the short how-to-read explains the cells');
  assert.match(b, /What encryption costs, against better-sqlite3-multiple-ciphers without a key/);
  assert.match(b, /Comparisons below: paired within one run \(v22\.23\.3, run of/, 'from the newest full run');
  // a comparison carries the wider side of its interval, or "≈" with the size of difference it rules
  // out; in a table without its "%" (the caption says "% ops/s": the table fits GitHub's column)
  assert.match(b, /\|[+-]\d+(\.\d+)?\u00a0±\d+(\.\d+)?\|/, 'a difference with its ±');
  assert.match(b, /^Each cell: the change in % ops\/s /m);
  assert.match(b, /\|≈\u00a0±\d+(\.\d+)?\|/, 'too noisy to tell, with its ±');
  assert.doesNotMatch(
    b,
    /\[[−+-]\d+\.\d%?, [−+-]\d+\.\d%?\]/,
    'the README cells are compact: the chart and results/README.md give the interval',
  );
  assert.match(
    b,
    /▲: against better-sqlite3 without encryption \(\[table\]\(results\/README\.md#/,
    'the second reference is linked',
  );
  assert.match(b, /\(not a tuning\)/, 'a config that equals production is said to be one');
  assert.match(b, /\[results\/README\.md\]\(results\/README\.md\)/, 'the block links the long form');
  assert.ok(!/\|\s*-\s*\|/.test(b), 'a bare - in a table');
  // the absolute per-config tables are in results/README.md
  const page = fs.readFileSync(path.join(ws.results, 'README.md'), 'utf8');
  assert.doesNotMatch(b, /##### Production — /);
  assert.match(page, /##### Production — better-sqlite3-multiple-ciphers, ChaCha20-Poly1305/);
  assert.match(page, /_not a tuning: wal\\_autocheckpoint=1000 is SQLite's default/);
  assert.match(
    page,
    /What encryption costs, against better-sqlite3 \(unencrypted\)/,
    'the second reference as a table',
  );
  assert.match(page, /[+−]\d+\.\d% \[[+−]\d+\.\d%, [+−]\d+\.\d%\]/, 'a comparison carries its interval');
  const rows = page.split('\n').filter((l) => /^\| v2\d\.\d+\.\d+ +\| +\d/.test(l));
  assert.ok(rows.length > 20, String(rows.length));
  for (const row of rows) assert.match(row, /±|MB/, row);
  // node:sqlite does not exist on v20: its cells point at the reason, never a bare '-'
  assert.match(page, /n\/a \[1\]/);
  assert.match(page, /^- \[1\] skipped: node:sqlite needs Node/m);
  assert.ok(!/\|\s*-\s*\|/.test(page), 'a bare - in a table');
  assert.equal(num(12345.6), '12,300');
  assert.equal(num(7.777), '7.78');
});

test('± of a figure is the wider side of its 95% interval when the document has one, else 1.96 × rse, else the pooled rme; modes are shown as modes', () => {
  const c = (/** @type {number} */ median, /** @type {object} */ o = {}, /** @type {object} */ extra = {}) => ({
    status: 'ok',
    op: 'select',
    stats: {
      opsPerSec: { median, mean: median, rme: 0.2, ...o },
      latencyMs: { median: 1000 / median },
      rme: 0.3,
      ...extra,
    },
  });
  assert.equal(figureText(c(1000, { low: 970, high: 1050 }), num).text, '1,000 ±5.0%', 'the wider side');
  assert.equal(figureText(c(1000, { rse: 2 }), num).text, '1,000 ±3.9%', 'a document from before the interval');
  assert.equal(figureText(c(1000), num).text, '1,000 ±0.2%', 'a quick run (one round) has no rse');
  assert.equal(
    figureText(
      c(
        8000,
        { low: 5000, high: 12000 },
        {
          modes: [
            { rate: 6010, share: 4 / 7, rounds: 4 },
            { rate: 10600, share: 3 / 7, rounds: 3 },
          ],
        },
      ),
      num,
    ).text,
    'modes 6,010 (57%) / 10,600 (43%)',
  );
  assert.equal(
    figureText({ ...c(50, { low: 45, high: 52 }), op: 'vacuum' }, num).text,
    '20 ms ±10.0%',
    'ms operations: the latency median with the same relative margin',
  );
  assert.equal(figureText({ status: 'skipped', reason: 'why' }, num).reason, 'skipped: why');
  assert.equal(changeText({ change: -0.1234, low: -0.15, high: -0.09, verdict: 'slower' }), '−12.3% [−15.0%, −9.0%]');
  assert.equal(
    changeText({ change: 0.01, low: -0.02, high: 0.04, verdict: 'too noisy to tell' }),
    '≈ +1.0% [−2.0%, +4.0%]',
  );
  // one rule for a change and its interval: the claims (whole from 100%), the findings (from 10%),
  // the shootout's and the PR comment's interval cells; what is not a number shows as NOT_A_NUMBER
  assert.equal(intervalText({ change: 1.234, low: 0.5, high: -0.05 }, 100), '+123% [+50.0%, −5.0%]');
  assert.equal(intervalText({ change: -0.52, low: -0.551, high: -0.049 }, 10), '−52% [−55%, −4.9%]');
  assert.equal(intervalText(/** @type {any} */ ({ change: 0.01, low: null, high: Infinity })), '+1.0% [?, ?]');
  assert.deepEqual([0.04, 9.94, 10, 999.4, 1000].map(marginText), ['±0.0%', '±9.9%', '±10%', '±999%', '±>999%']);
});

test("the terminal summary writes a comparison as results/README.md does: its rows, columns and cells, then the counts' change", () => {
  const doc = syntheticDoc({ real: true });
  /** A table's rows after a line starting with `caption`: cells trimmed, the delimiter row dropped. */
  const rows = (/** @type {string} */ md, /** @type {string} */ caption) => {
    const lines = md.split('\n');
    const at = lines.findIndex((l) => l.startsWith(caption));
    const end = lines.findIndex((l, i) => i > at + 1 && !l.startsWith('|'));
    return lines
      .slice(at + 1, end < 0 ? undefined : end)
      .filter((l, i) => i !== 1)
      .map((l) =>
        l
          .slice(1, -1)
          .split(' | ')
          .map((x) => x.trim()),
      );
  };
  const page = rows(
    comparisonTable(doc, 'cipher', (m) => m),
    'Each cell:',
  );
  const terminal = rows(summarize(doc), 'What encryption costs');
  assert.ok(page.length > 2, 'a header and rows');
  assert.deepEqual(terminal[0], page[0], 'the same columns: the operations by their labels');
  assert.deepEqual(
    terminal.slice(1).map((r) => r[0].split(', ').at(-1)),
    page.slice(1).map((r) => r[0].split('/').at(-1)),
    'the same rows, in table order',
  );
  terminal.slice(1).forEach((r, i) =>
    r.slice(1).forEach((cell, j) => {
      const time = page[i + 1][j + 1];
      assert.ok(cell === time || cell.startsWith(`${time}; `), `${cell} is ${time}, then what the counts say`);
    }),
  );
});

test('the README block shows paired comparisons and the self-check from the newest full run, none from quick runs', async () => {
  const ws = workspace();
  const full = syntheticDoc({});
  fs.writeFileSync(path.join(ws.artifacts, 'full.json'), JSON.stringify(full));
  assert.equal(await aggregate({ ...ws, now: TEST_NOW }, { log: () => {}, warn: () => {} }), 0);
  const b = block(fs.readFileSync(ws.readme, 'utf8'));
  assert.match(
    b,
    /^Comparisons below: paired within one run \(v22\.23\.3, run of \d{4}-\d\d-\d\d\), each interval on its own\. (Self-check \(Production measured twice\): passed \(p 0\.\d\d; catches ± 2× too narrow in 45%\+ of runs\)|\*\*Self-check FAILED\*\*)/m,
  );
  assert.match(
    b,
    /##### What each PRAGMA change does, against Production\n!\[[^\]]+\]\([^)]+config-[0-9a-f]{6}\.svg\)\nEach cell: the change in % ops\/s \(\+ is faster\) ± [^\n]+\n\|Config\|/,
  );
  assert.match(b, /^\|A\/A twin\|/m, "the A/A twin row: the run's noise");
  assert.match(b, /^\|Memory Temp Storage(\|(≈\u00a0±\d+(\.\d+)?|[+-]\d+(\.\d+)?\u00a0±\d+(\.\d+)?|n\/a)){8}\|$/m);
  // the long form keeps the whole interval and the twin's changes
  const page = fs.readFileSync(path.join(ws.results, 'README.md'), 'utf8');
  assert.match(
    page,
    /\*\*Self-check\*\* \(Production measured twice, as two cases\): (passed|\*\*FAILED\*\*) \(its operations' p-values combined: [\d.]+, failing below 0\.05; it fails by chance in ≤ 2% of runs; catches intervals 2× too narrow in 45%\+ of runs, 4× in 95%\+: \[calibration\]\([^)]+\)\); they differ by Setup (≈ )?[+−]/,
  );
  assert.doesNotMatch(b, /Node versions, /, 'no comparison of Node versions across matrix cells');
  const ws2 = workspace();
  fs.writeFileSync(path.join(ws2.artifacts, 'quick.json'), JSON.stringify(syntheticDoc({ mode: 'quick' })));
  assert.equal(await aggregate({ ...ws2, now: TEST_NOW }, { log: () => {}, warn: () => {} }), 0);
  const q = block(fs.readFileSync(ws2.readme, 'utf8'));
  assert.match(q, /_No comparisons: quick runs are smoke tests/);
  assert.doesNotMatch(q, /\[[−+-]\d+\.\d%?, [−+-]\d+\.\d%?\]/, 'no interval of a comparison anywhere');
});

const bad = {
  'not-json.json': 'this is not json',
  'truncated.json': () => JSON.stringify(syntheticDoc()).slice(0, 500),
  'empty.json': '',
  'nan.json': () => JSON.stringify(syntheticDoc()).replace(/"median":[0-9.e+-]+/, '"median":NaN'),
  'infinity.json': () => JSON.stringify(syntheticDoc()).replace(/"median":[0-9.e+-]+/, '"median":1e999'),
  'negative.json': () => JSON.stringify(syntheticDoc()).replace(/"median":[0-9.e+-]+/, '"median":-5'),
  'absurd.json': () => JSON.stringify(syntheticDoc()).replace(/"median":[0-9.e+-]+/, '"median":1e15'),
  'no-version.json': () => {
    /** @type {any} a document made invalid */
    const d = syntheticDoc();
    delete d.schemaVersion;
    return d;
  },
  'wrong-version.json': () => ({ ...syntheticDoc(), schemaVersion: 2 }),
  'missing-field.json': () => {
    /** @type {any} a document made invalid */
    const d = syntheticDoc();
    delete d.run.finishedAt;
    return d;
  },
  'unknown-config.json': () => {
    const d = syntheticDoc();
    d.cases[0].config = 'turbo';
    return d;
  },
  'unknown-op.json': () => {
    const d = syntheticDoc();
    d.cases[0].op = 'truncate';
    return d;
  },
  'repeated-case.json': () => {
    const d = syntheticDoc();
    d.cases.push(d.cases[0]);
    return d;
  },
  'not-a-result.json': { name: 'some-package', version: '1.0.0' },
};
const expectations = {
  'not-json.json': /is not JSON/,
  'truncated.json': /is not JSON/,
  'empty.json': /is empty/,
  'nan.json': /is not JSON/,
  'infinity.json': /\/cases\/\d+\/stats\/opsPerSec\/median must be (number|<=)/,
  'negative.json': /\/cases\/\d+\/stats\/opsPerSec\/median must be >/,
  'absurd.json': /\/cases\/\d+\/stats\/opsPerSec\/median must be <=/,
  'no-version.json': /\/schemaVersion is undefined; this aggregate reads documents of version 1$/,
  'wrong-version.json': /\/schemaVersion is 2; this aggregate reads documents of version 1$/,
  'missing-field.json': /\/run must have required property 'finishedAt'/,
  'unknown-config.json': /\/cases\/0\/config unknown config 'turbo' \(valid: production/,
  'unknown-op.json': /\/cases\/0\/op unknown op 'truncate' \(valid: setup/,
  'repeated-case.json': /\/cases\/\d+ repeats case production\//,
  'not-a-result.json': /\/kind is not 'sqlite-node-bench\/result': not a result document/,
  'huge.json': /over the 4194304-byte limit/,
  'link.json': /is a symbolic link; not followed/,
};

test('every bad file gets one line naming the file and the field, is skipped, and the rest is processed', async () => {
  const ws = workspace();
  for (const [name, content] of Object.entries(bad))
    put(path.join(ws.artifacts, 'bad', name), typeof content === 'function' ? content() : content);
  fs.writeFileSync(path.join(ws.artifacts, 'bad', 'huge.json'), `{"pad":"${'x'.repeat(10 * 1024 * 1024)}"}`);
  put(path.join(ws.artifacts, 'good', 'target.json'), syntheticDoc({ node: 'v24.11.0' }));
  fs.symlinkSync(path.join(ws.artifacts, 'good', 'target.json'), path.join(ws.artifacts, 'bad', 'link.json'));
  const r = await run(ws);
  assert.equal(r.code, 0);
  assert.equal(r.warn.length, Object.keys(expectations).length, r.warn.join('\n'));
  for (const [name, re] of Object.entries(expectations)) {
    const line = r.warn.find((w) => w.startsWith(path.join(ws.artifacts, 'bad', name) + ':'));
    assert.ok(line, `no line for ${name}`);
    assert.match(line, re, name);
    assert.ok(!line.includes('\n'));
  }
  assert.match(r.log, /1 stored/);
});

test('no valid document: exit 1, nothing stored; a README that cannot be written: exit 1', async () => {
  const ws = workspace();
  put(path.join(ws.artifacts, 'x.json'), 'nope');
  const r = await run(ws);
  assert.equal(r.code, 1);
  assert.deepEqual(
    Object.keys(snapshot(ws.results)).filter((f) => f !== 'index.json'),
    [],
    'no document, and no page or chart for an empty store',
  );
  const ws2 = workspace();
  put(path.join(ws2.artifacts, 'x.json'), syntheticDoc());
  fs.writeFileSync(ws2.results, 'a file where the results directory should be');
  const cli = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'aggregate/cli.js'),
      '--artifacts',
      ws2.artifacts,
      '--results',
      ws2.results,
      '--readme',
      ws2.readme,
    ],
    { encoding: 'utf8', env: childEnv() },
  );
  assert.equal(cli.status, 1);
  assert.match(cli.stderr.trim().split('\n').at(-1) ?? '', /^aggregate: /);
  assert.equal(fs.readFileSync(ws2.readme, 'utf8'), README);
});

for (const [what, text] of Object.entries({
  missing: '# no markers\n',
  'start only': `x\n${START}\ny\n`,
  duplicated: `${START}\na\n${END}\n${START}\nb\n${END}\n`,
  'wrong order': `${END}\nx\n${START}\n`,
  nested: `${START}\n${START}\nx\n${END}\n${END}\n`,
})) {
  test(`README with markers ${what}: refused with a clear error, README and results/ untouched`, () => {
    const ws = workspace();
    fs.writeFileSync(ws.readme, text);
    put(path.join(ws.artifacts, 'x.json'), syntheticDoc());
    const cli = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'aggregate/cli.js'),
        '--artifacts',
        ws.artifacts,
        '--results',
        ws.results,
        '--readme',
        ws.readme,
      ],
      { encoding: 'utf8', env: childEnv() },
    );
    assert.equal(cli.status, 1);
    assert.match(cli.stderr, /README\.md (must contain|has).*not changed/);
    assert.equal(fs.readFileSync(ws.readme, 'utf8'), text);
    assert.equal(fs.existsSync(ws.results), false);
  });
}

test('replaceBlock touches nothing outside the markers', () => {
  assert.equal(replaceBlock(`a\n${START}\nold\n${END}\nb`, 'new'), `a\n${START}\nnew\n${END}\nb`);
});

test('killed half-way, aggregate leaves only whole files, and a re-run reaches the same state as an uninterrupted run', async () => {
  const ws = workspace();
  for (let i = 0; i < 120; i++) {
    put(
      path.join(ws.artifacts, `${i}.json`),
      syntheticDoc({
        node: ['v18.20.8', 'v20.20.2', 'v22.23.3', 'v24.11.0', 'v25.9.0'][i % 5],
        platform: ['linux-x64', 'darwin-arm64'][i % 2],
        finishedAt: new Date(Date.UTC(2026, 0, 1 + Math.floor(i / 10))).toISOString(),
        seed: i,
      }),
    );
  }
  const clean = workspace();
  fs.cpSync(ws.artifacts, clean.artifacts, { recursive: true });
  assert.equal((await run(clean)).code, 0);
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'aggregate/cli.js'), '--artifacts', ws.artifacts, '--results', ws.results, '--readme', ws.readme],
    { env: childEnv() },
  );
  await new Promise((resolve) => {
    const poll = setInterval(() => {
      const n = fs.existsSync(path.join(ws.results, '2026')) ? fs.readdirSync(path.join(ws.results, '2026')).length : 0;
      if (n >= 5) {
        child.kill('SIGKILL');
        clearInterval(poll);
      }
    }, 1);
    child.on('exit', () => {
      clearInterval(poll);
      resolve(undefined);
    });
  });
  for (const [f, content] of Object.entries(snapshot(ws.results))) {
    // the documents (the charts are drawn and written before them: aggregate/cli.js)
    if (f.endsWith('.json') && f !== 'index.json' && !path.basename(f).startsWith('.'))
      assert.deepEqual(validate(JSON.parse(content)), [], f);
  }
  const readme = fs.readFileSync(ws.readme, 'utf8');
  assert.ok(readme === README || readme.includes('Last updated'), 'README half-written');
  assert.equal((await run(ws)).code, 0);
  assert.deepEqual(
    Object.keys(snapshot(ws.results)).filter((f) => f.endsWith('.tmp')),
    [],
    'temp files left after the re-run',
  );
  assert.deepEqual(
    fs.readdirSync(ws.dir).filter((f) => f.endsWith('.tmp')),
    [],
  );
  assert.deepEqual(snapshot(ws.results), snapshot(clean.results));
  assert.equal(
    fs.readFileSync(ws.readme, 'utf8').replaceAll(clean.results, ws.results),
    fs.readFileSync(clean.readme, 'utf8').replaceAll(clean.results, ws.results),
  );
});

test('stale temp files of the README and of results/ are removed, nothing else is', async () => {
  const ws = workspace();
  put(path.join(ws.artifacts, 'x.json'), syntheticDoc());
  fs.writeFileSync(path.join(ws.dir, '.README.md.123.1700000000000.tmp'), 'half');
  fs.writeFileSync(path.join(ws.dir, '.README.md.keep.tmp'), 'not ours');
  fs.mkdirSync(path.join(ws.results, '2026'), { recursive: true });
  fs.writeFileSync(path.join(ws.results, '2026', '.x.json.9.1700000000000.tmp'), 'half');
  const r = await run(ws);
  assert.equal(r.code, 0);
  assert.equal(r.warn.filter((w) => /removed, left by an interrupted aggregate/.test(w)).length, 2, r.warn.join('\n'));
  assert.deepEqual(
    fs.readdirSync(ws.dir).filter((f) => f.endsWith('.tmp')),
    ['.README.md.keep.tmp'],
  );
  assert.deepEqual(
    fs.readdirSync(path.join(ws.results, '2026')).filter((f) => f.endsWith('.tmp')),
    [],
  );
});

/** The text of a page as a reader sees it: without the escapes inert() adds. */
const unescaped = (/** @type {string} */ file) => fs.readFileSync(file, 'utf8').replace(/\\/g, '');

test('a cell killed at its step timeout leaves a failure document the aggregate shows, naming the bench step and its timeout', async () => {
  const ws = workspace();
  const major = process.versions.node.split('.')[0];
  const out = path.join(ws.artifacts, `result-ubuntu-24.04-node${major}`);
  const job = parseYaml(fs.readFileSync(path.join(ROOT, '.github/workflows/benchmark.yml'), 'utf8')).jobs.bench;
  const stepOf = (/** @type {string} */ run) => job.steps.find((/** @type {any} */ s) => s.run === run);
  // the job's environment as the runner gives it, for the cell (ubuntu-24.04, this Node) in which
  // every step before the bench succeeded and the bench failed (its outcome is failure on a timeout too)
  const matrix = /** @type {Record<string, string>} */ ({ node: major, runner: 'ubuntu-24.04' });
  const actions = {
    GITHUB_ACTIONS: 'true',
    GITHUB_RUN_ID: '777',
    GITHUB_RUN_ATTEMPT: '1',
    BENCH_OUT: out,
    BENCH_QUICK: 'true',
  };
  const value = (/** @type {unknown} */ v) =>
    String(v)
      .replace(/^\$\{\{ matrix\.(\w+) \}\}$/, (_, k) => matrix[k])
      .replace(/^\$\{\{ steps\.(\w+)\.outcome \}\}$/, (_, id) => (id === 'bench' ? 'failure' : 'success'));
  const envOf = (/** @type {any} */ step) =>
    childEnv({
      ...Object.fromEntries(Object.entries({ ...job.env, ...step.env }).map(([k, v]) => [k, value(v)])),
      ...actions,
    });
  // the bench step: its entry process gets SIGTERM, then its whole process tree SIGKILL, as the
  // runner ends a step at its timeout; the bench (a child) never sees a signal it could handle
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/ci/bench-cell.js')], {
    env: envOf(stepOf('npm run ci:bench')),
    detached: true, // a process group of its own: the tree
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal)));
  await new Promise((resolve) => {
    child.stderr.on('data', (b) => {
      err += b;
      // measuring: the first block is done
      if (/\[\s*[1-9]\d*\/\d+\]/.test(err)) resolve(undefined);
    });
    child.on('exit', resolve);
  });
  process.kill(/** @type {number} */ (child.pid), 'SIGTERM');
  process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
  assert.ok(await exited, `killed by a signal: ${err.slice(-600)}`);
  assert.deepEqual(fs.existsSync(out) ? fs.readdirSync(out) : [], [], 'killed before it wrote a document');

  const failure = spawnSync(process.execPath, [path.join(ROOT, 'bench/ci/failure.js')], {
    env: envOf(stepOf('npm run ci:failure')),
    encoding: 'utf8',
  });
  assert.equal(failure.status, 0, failure.stderr);
  const minutes = stepOf('npm run ci:bench')['timeout-minutes'];
  const reason = `not measured: the bench (npm run ci:bench) failed or hit its step timeout of ${minutes} minutes and wrote no document, on ubuntu-24.04 with Node ${process.version}; see the job log`;

  const r = await run(ws, Date.now()); // ci:failure stamps its document with the real clock
  assert.equal(r.code, 0, r.warn.join('\n'));
  assert.match(r.log, /1 stored/);
  // the cell under its Node, on results/README.md with the reason, in the README as an error
  const page = unescaped(path.join(ws.results, 'README.md'));
  const row = page.split('\n').find((l) => l.startsWith(`| ${process.version} |`));
  assert.ok(row?.includes(`error: ${reason}`), row ?? page.slice(0, 2000));
  assert.match(block(unescaped(ws.readme)), new RegExp(`${process.version.replace(/\./g, '\\.')} · error \\(quick\\)`));
});

test('two attempts of one run for one cell: the pages and the nights show the newer attempt only; the older stays stored', async () => {
  const ws = workspace();
  const node = 'v22.23.3';
  /** @param {{ day: number, hour?: number, runId: string, attempt: string, scale?: number, driverVersion?: string }} o */
  const night = (o) => {
    const doc = /** @type {any} */ (
      syntheticDoc({
        node,
        finishedAt: `2026-11-${String(o.day).padStart(2, '0')}T0${o.hour ?? 3}:40:00.000Z`,
        seed: o.day * 10 + (o.hour ?? 3),
        scale: o.scale,
        driverVersion: o.driverVersion,
      })
    );
    doc.environment.ci = { ...doc.environment.ci, runId: o.runId, runAttempt: o.attempt };
    return doc;
  };
  for (let day = 12; day <= 19; day++)
    put(path.join(ws.artifacts, `night-${day}.json`), night({ day, runId: String(100 + day), attempt: '1' }));
  // attempt 1 of run 200 measured a third of the figures (it would be far outside the band), attempt 2 the same cell again
  put(
    path.join(ws.artifacts, 'attempt-1.json'),
    night({ day: 20, runId: '200', attempt: '1', scale: 1 / 3, driverVersion: '12.0.1' }),
  );
  put(
    path.join(ws.artifacts, 'attempt-2.json'),
    night({ day: 20, hour: 9, runId: '200', attempt: '2', driverVersion: '12.0.2' }),
  );
  const r = await run(ws);
  assert.equal(r.code, 0, r.warn.join('\n'));
  assert.equal(documents(snapshot(ws.results)).length, 10, 'both attempts are stored');
  const readme = unescaped(ws.readme);
  // 8 nights and the run of the 20th once: attempt 2
  assert.match(readme, /Node 22, 9 night\(s\) 2026-11-12 to 2026-11-20: /);
  assert.match(readme, new RegExp(`${node.replace(/\./g, '\\.')} · 12\\.0\\.2[ ,(.]`));
  assert.doesNotMatch(readme, /12\.0\.1/);
  // attempt 1 is no night: had it been one, it would be listed, far below the band, with its driver
  assert.doesNotMatch(unescaped(path.join(ws.results, 'README.md')), /12\.0\.1/);

  // a newer attempt supersedes even when it is interrupted and the older one complete; only in its
  // own machine class (aggregate/trust.js): the older one, on another CPU, stays its class's
  const third = night({ day: 21, hour: 9, runId: '300', attempt: '2', driverVersion: '12.0.4' });
  third.run.status = 'interrupted';
  third.run.interruptedBy = 'SIGTERM';
  const first = night({ day: 21, runId: '300', attempt: '1', driverVersion: '12.0.3' });
  first.environment.cpuModel = 'another VM of the same label';
  put(path.join(ws.artifacts, 'run-300-1.json'), first);
  put(path.join(ws.artifacts, 'run-300-2.json'), third);
  assert.equal((await run(ws)).code, 0);
  // attempt 1 is shown in its own machine class only (in the README and results/README.md), not in the class of attempt 2
  const classOf = (/** @type {string} */ text, /** @type {string} */ cpu) => {
    const at = text.indexOf(`#### linux-x64 · ${cpu}`);
    assert.ok(at >= 0, cpu);
    return text.slice(at, text.indexOf('\n#### ', at + 1) >>> 0);
  };
  for (const page of [ws.readme, path.join(ws.results, 'README.md')]) {
    assert.match(classOf(unescaped(page), 'another VM of the same label'), /12\.0\.3/, page);
    assert.doesNotMatch(classOf(unescaped(page), 'AMD EPYC'), /12\.0\.3/, page);
  }
});
