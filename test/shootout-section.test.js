// "Node versions on one machine" as a reader gets it: the README's compact form (one line, the
// chart, a table of a row per operation and a column per compared side) within its budget, every
// cell with its ± and no cell claiming a difference its verdict does not; the chart's data (a bar
// per side and operation, a note where a side did not run), its alt text stating the finding, and
// the SVG drawn once for both pages. The real document is test/fixtures/real-linux-x64-shootout.json:
// a local `npm run shootout` over Node 18–25 (its figures cut to production's driver and cipher),
// in which v24 with 12.x did not run; the other documents are crafted from it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { aggregate } from '../aggregate/cli.js';
import { SYNTHETIC_PLATFORMS, syntheticShootout } from '../bench/meta/synthetic.js';
import { render, shootoutCell, shootoutPoints, shootoutView } from '../aggregate/sections/shootout.js';
import { documentProblems } from '../bench/result/document.js';
import { countDifferences } from '../lib/costs.js';
import { pairsOf } from '../bench/result/header.js';
import { planPairs, planSides, referenceSide } from '../bench/data/run-plan.js';
import { aggregateWorkspace, ROOT, TEST_NOW } from './helpers.js';

const REAL = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'real-linux-x64-shootout.json'), 'utf8'));
/**
 * The README budget of this section per machine class (issue #16), the first class's (it has the
 * table; the others a chart): every Node of the matrix with counts and the table's caption came
 * to 2,055 bytes.
 */
const LINES = 14;
const BYTES = 2100;
const html = (/** @type {string} */ md) => micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });

/**
 * The section of one document, as a page gets it; the charts it asks for are kept.
 * @param {any} doc
 * @param {'readme' | 'results'} page
 */
function section(doc, page = 'readme') {
  /** @type {{ name: string, spec: any, alt: string }[]} */
  const charts = [];
  const entry = /** @type {any} */ ({
    file: `2026/${doc.run.finishedAt.slice(0, 10)}-linux-x64-shootout-${doc.run.id.slice(0, 8)}.json`,
    mode: doc.run.mode,
    finishedAt: doc.run.finishedAt,
  });
  const lines = render({
    platform: 'linux-x64',
    machine: 'linux-x64 · AMD EPYC · 2 cores · local',
    entries: [entry],
    load: () => doc,
    resultsLink: 'results',
    page,
    chart: (name, spec, alt) => {
      charts.push({ name, spec, alt });
      return `![${alt}](results/charts/linux-x64/m-${name}.svg)`;
    },
    nights: /** @type {any} */ ({}),
  });
  const md = lines.join('\n');
  return { md, lines: md.split('\n'), bytes: Buffer.byteLength(md), charts };
}

/** The README table's cells: header and rows, split at the pipes. */
function tableOf(/** @type {string} */ md) {
  const rows = md
    .split('\n')
    .filter((l) => l.startsWith('| '))
    .map((l) => l.slice(2, -2).split(' | '));
  return { header: rows[0], body: rows.slice(2) };
}

/** Every Node of the matrix ran (the nightly plan): nine compared sides, the widest table. */
function everyNodeRan() {
  const d = structuredClone(REAL);
  const plan = planSides(['18.20.8', '20.20.2', '22.23.3', '24.21.0', '25.9.0']);
  d.sides = plan.map((p) => {
    const like = structuredClone(
      REAL.sides.find((/** @type {any} */ s) => s.generation === p.generation && s.status === 'ok'),
    );
    delete like.reason;
    delete like.reference;
    const reference = p === referenceSide(plan) ? { reference: true } : {};
    return { ...like, label: p.label, node: `v${p.version}`, override: p.override, ...reference, status: 'ok' };
  });
  const measured = [...new Set(REAL.comparisons.map((/** @type {any} */ r) => `${r.reference}|${r.member}`))];
  d.comparisons = planPairs(plan).flatMap((/** @type {any} */ c, /** @type {number} */ i) =>
    REAL.comparisons
      .filter((/** @type {any} */ r) => `${r.reference}|${r.member}` === measured[i % measured.length])
      .map((/** @type {any} */ r) => ({ ...r, id: c.comparison, reference: c.reference, member: c.member })),
  );
  d.cases = [];
  d.run.id = 'a0000000-0000-4000-8000-000000000001';
  return d;
}

test('the real shootout in the README: heading, one line, the chart, a caption, one table, within 14 lines and 2,100 bytes', () => {
  const s = section(REAL);
  assert.ok(s.lines.length <= LINES, `${s.lines.length} lines`);
  assert.ok(s.bytes <= BYTES, `${s.bytes} bytes`);
  assert.equal(s.lines[0], '##### Node versions on one machine');
  assert.match(
    s.lines[1],
    /^Run of 2026-11-22 on this machine, 10 rounds: each Node against \*\*v22\*\* with the same driver release, better-sqlite3-multiple-ciphers, chacha20; Holm over 120 comparisons\./,
  );
  assert.match(s.lines[1], /v24 12\.x did not run\./);
  assert.match(s.lines[1], /\[Every driver, Node and driver versions, the document\]\(results\/README\.md\)/);
  // the table's caption right above it: what a cell shows, and the key to its verdicts
  assert.match(
    s.lines[3],
    /^Each cell: the change in % ops\/s ± the wider side of its 95% interval, its verdict; none: ≈ interval holds 0, \(noisy\) not significant, \(<5%\) under the 5% that counts\.$/,
  );
  assert.match(s.lines[2], /^!\[Against v22 12\.x: .*\]\(results\/charts\/linux-x64\/m-shootout\.svg\)$/);
  // rendered as GitHub does: the paragraph, the image, then the table (a table interrupts a paragraph)
  const h = html(s.md);
  assert.match(
    h,
    /<h5>Node versions on one machine<\/h5>\n<p>Run of [^]*<img src="results\/charts\/linux-x64\/m-shootout\.svg"[^]*<\/p>\n<table>/,
  );
  const t = tableOf(s.md);
  assert.deepEqual(t.header, [
    'Operation',
    'v20 12.x',
    'v24 13.x',
    'v25 12.x',
    'v25 13.x',
    'v22 13.x vs 12.x (driver)',
    'v25 13.x vs 12.x (driver)',
    'v18 11.x (other driver)',
  ]);
  assert.deepEqual(
    t.body.map((r) => r[0]),
    ['Setup', 'Insert', 'Insert batch', 'Select', 'Update', 'Delete', 'VACUUM', 'WAL checkpoint'],
  );
  // every cell has its ± (or n/a); a verdict word only where the verdict is one
  const view = shootoutView(REAL);
  t.body.forEach((row, i) =>
    row.slice(1).forEach((cell, j) => {
      assert.match(cell, /±\d|^n\/a$/, cell);
      const r = view.columns[j].rows.find(
        (/** @type {any} */ x) =>
          x.op === ['setup', 'insert', 'insert-batch', 'select', 'update', 'delete', 'vacuum', 'checkpoint'][i],
      );
      if (r.verdict === 'faster' || r.verdict === 'slower')
        assert.match(cell, new RegExp(`^[-+]\\d.*%\u00a0±[\\d.]+ ${r.verdict}$`), cell);
      else
        assert.match(cell, /^≈\u00a0±[\d.]+$|^[-+][\d.]+%\u00a0±[\d.]+ \((noisy|<5%)\)$/, `${cell} is '${r.verdict}'`);
    }),
  );
  assert.equal(t.body[3][1], '-58%\u00a0±2 slower', 'v20 with 12.x is slower at Select than v22 with 12.x');
  assert.equal(t.body[3][6], '+8.6%\u00a0±2.3 faster', 'the driver upgrade on v25');
  assert.equal(
    t.body[3][3],
    '-4.4%\u00a0±3.5 (noisy)',
    'an interval that excludes 0 without the verdict claims no change',
  );
});

test('every Node of the matrix ran: nine compared sides stay within the budget', () => {
  const d = everyNodeRan();
  assert.deepEqual(documentProblems(d), [], 'the crafted document is a valid one');
  const s = section(d);
  assert.equal(tableOf(s.md).header.length, 10);
  assert.ok(s.lines.length <= LINES, `${s.lines.length} lines`);
  assert.ok(s.bytes <= BYTES, `${s.bytes} bytes`);
  assert.ok(s.charts[0].alt.length <= 200, s.charts[0].alt);
});

test("the synthetic year's shootouts (bench/meta/synthetic.js) stay within the budget on every platform", () => {
  for (const platform of SYNTHETIC_PLATFORMS) {
    const s = section(syntheticShootout({ platform }));
    assert.ok(s.lines.length <= LINES, `${platform}: ${s.lines.length} lines`);
    assert.ok(s.bytes <= BYTES, `${platform}: ${s.bytes} bytes`);
    for (const row of tableOf(s.md).body) for (const cell of row.slice(1)) assert.match(cell, /±\d|^n\/a$/, cell);
  }
});

test('cells: the verdict follows a change only where it is one; otherwise ≈ or why there is none', () => {
  const row = (/** @type {number[]} */ [change, low, high], /** @type {string} */ verdict) => ({
    change,
    low,
    high,
    verdict,
  });
  assert.equal(shootoutCell(row([0.086, 0.063, 0.11], 'faster'), 5), '+8.6%\u00a0±2.4 faster');
  assert.equal(shootoutCell(row([-0.6, -0.62, -0.58], 'slower'), 5), '-60%\u00a0±2 slower');
  assert.equal(shootoutCell(row([0.012, -0.004, 0.028], 'no change'), 5), '≈\u00a0±2.8');
  assert.equal(shootoutCell(row([0.02, 0.005, 0.035], 'no change'), 5), '+2%\u00a0±1.5 (<5%)');
  assert.equal(shootoutCell(row([-0.044, -0.078, -0.009], 'too noisy to tell'), 5), '-4.4%\u00a0±3.5 (noisy)');
  assert.equal(shootoutCell(row([2.02, -0.46, 15.9], 'too noisy to tell'), 5), '≈\u00a0±1590');
  assert.equal(shootoutCell({ change: null, low: null, high: null, verdict: 'not compared' }, 5), 'n/a');
  assert.equal(shootoutCell(undefined, 5), 'n/a');
});

test('the chart: a bar per compared side and operation within its interval, the side that did not run as a note, the finding in its alt text', () => {
  const s = section(REAL);
  assert.equal(s.charts.length, 1);
  const { name, spec, alt } = s.charts[0];
  assert.equal(name, 'shootout');
  assert.equal(spec.description, alt);
  const bars = spec.data.values.filter((/** @type {any} */ v) => v.change !== undefined);
  const view = shootoutView(REAL);
  assert.equal(bars.length, view.columns.length * 8);
  assert.equal(
    new Set(bars.map((/** @type {any} */ b) => `${b.member}|${b.op}`)).size,
    bars.length,
    'one bar per side and operation',
  );
  for (const b of bars) assert.ok(b.low <= b.change && b.change <= b.high, JSON.stringify(b));
  assert.deepEqual(
    spec.vconcat.flatMap((/** @type {any} */ r) => r.hconcat.map((/** @type {any} */ p) => p.title.text)),
    ['Setup', 'Insert', 'Insert batch', 'Select', 'Update', 'Delete', 'VACUUM', 'WAL checkpoint'],
  );
  // the groups named so a driver change is not read as a Node's
  const members = spec.vconcat[0].hconcat[0].layer[0].encoding.y.scale.domain;
  assert.deepEqual(members, [
    'v20 12.x vs v22 12.x',
    'v24 13.x vs v22 13.x',
    'v25 12.x vs v22 12.x',
    'v25 13.x vs v22 13.x',
    'v22 13.x vs 12.x (driver)',
    'v25 13.x vs 12.x (driver)',
    'v18 11.x vs v22 12.x (other driver)',
    'v24 12.x (did not run)',
  ]);
  // v24 with 12.x aborted: a note in every panel, no bar
  assert.ok(!bars.some((/** @type {any} */ b) => b.member.startsWith('v24 12.x')));
  assert.equal(
    spec.data.values.filter((/** @type {any} */ v) => v.note === 'did not run' && v.member === 'v24 12.x (did not run)')
      .length,
    8,
  );
  // the finding in words: the clear differences, largest first, how many are noise, who did not run
  assert.equal(
    alt,
    'Against v22 12.x: slower: v18 11.x (other driver) Select −61%, v20 12.x Select −58%; faster: v25 13.x vs 12.x (driver) Select +8.6%; 4 no change, 49 too noisy to tell of 56; v24 12.x did not run.',
  );
  // the results page draws the same chart (same name, same spec: drawn once) above the long tables
  const page = section(REAL, 'results');
  assert.deepEqual(page.charts, s.charts);
  assert.match(page.md, /^##### Node versions on one machine\n!\[Against v22 12\.x[^\n]*\n\nMeasured 2026-11-22/);
  assert.match(page.md, /\*\*Driver upgrade on the same Node: 13\.x against 12\.x\*\*/);
  assert.match(page.md, / · Production, better-sqlite3, no encryption \|/, 'every driver on the results page');
});

/**
 * A document with counts for every compared row: a third of the cases within their repeat, a
 * third 25% more instructions on the head side, a third 5% fewer, all in the runtime (a side that is
 * one pair's member and another's reference keeps the last count written to its case), judged by
 * the one rule.
 * @param {any} doc
 */
function withCounts(doc) {
  /** Every instruction in the runtime. */
  const runtime = (/** @type {number} */ n) => ({ sqlite: 0, cipher: 0, runtime: n, binding: 0, libc: 0, other: 0 });
  const d = structuredClone(doc);
  /** @type {Map<string, any>} */
  const cases = new Map();
  d.comparisons.forEach((/** @type {any} */ r, /** @type {number} */ i) => {
    const key = `${r.setup}/${r.op}`;
    const change = [0.0001, 0.25, -0.05][i % 3];
    for (const [side, instructions] of [
      [r.reference, 1e6],
      [r.member, 1e6 * (1 + change)],
    ])
      cases.set(`${side}|${key}`, {
        side,
        key,
        status: 'ok',
        instructions,
        difference: 0.0002,
        components: runtime(instructions),
        repeatComponents: runtime(instructions),
        fsync: 0,
        write: 1,
        syscallsSame: true,
      });
  });
  const ran = d.sides.filter((/** @type {any} */ s) => s.status === 'ok');
  d.counting = {
    status: 'ok',
    mode: 'quick',
    tools: { valgrind: '3.19.0', strace: '6.1' },
    method: 'counted',
    seconds: 300,
    sides: ran.map((/** @type {any} */ s) => ({ side: s.label, node: s.node, status: 'ok', seconds: 60 })),
    cases: [...cases.values()],
    // judged by the one rule (lib/costs.js)
    differences: countDifferences([...cases.values()], pairsOf(d)),
  };
  return d;
}

test("counts: the chart puts each counted bar's instructions on its row as a diamond, the README says in one sentence how many differ, within the budget", () => {
  for (const [name, doc] of [
    ['the real shootout', withCounts(REAL)],
    ['every Node', withCounts(everyNodeRan())],
  ]) {
    assert.deepEqual(documentProblems(doc), [], 'the crafted document is a valid one');
    const s = section(doc);
    assert.ok(s.lines.length <= LINES, `${name}: ${s.lines.length} lines`);
    assert.ok(s.bytes <= BYTES, `${name}: ${s.bytes} bytes (${section(everyNodeRan()).bytes} without counts)`);
    const bars = s.charts[0].spec.data.values.filter((/** @type {any} */ v) => v.change !== undefined);
    const counted = bars.filter((/** @type {any} */ b) => b.instr !== undefined);
    assert.equal(counted.length, bars.length, 'every compared bar was counted');
    // + is fewer instructions, as + is faster: 25% more instructions reads −20%
    assert.ok(counted.some((/** @type {any} */ b) => b.instr === -20));
    assert.ok(counted.some((/** @type {any} */ b) => Math.abs(b.instr - 5.3) < 1e-9));
    const layers = s.charts[0].spec.vconcat.flatMap((/** @type {any} */ r) =>
      r.hconcat.flatMap((/** @type {any} */ p) => p.layer),
    );
    assert.equal(layers.filter((/** @type {any} */ l) => l.mark.shape === 'diamond').length, 8, 'one per panel');
    assert.ok(s.charts[0].spec.title.subtitle.some((/** @type {string} */ t) => t.startsWith('◆: instructions')));
  }
  const s = section(withCounts(REAL));
  const rows = shootoutView(withCounts(REAL)).columns.flatMap((c) => c.rows);
  // beyond the floor, 0.1% (the crafted cases' spreads are smaller)
  const beyond = rows.filter((/** @type {any} */ r) => Math.abs(r.instr.change) > 0.001).length;
  assert.ok(beyond > 0 && beyond < rows.length);
  assert.ok(
    s.lines[1].includes(` ◆: instructions/op under valgrind, ${beyond}/${rows.length} beyond their tolerance. `),
  );
  // no counts: nothing said; a machine that cannot count: why, in one sentence
  assert.doesNotMatch(section(REAL).md, /instructions/i);
  const off = structuredClone(REAL);
  off.counting = {
    status: 'unavailable',
    reason: 'counting runs under valgrind and strace, which run on Linux only; this machine is darwin',
  };
  assert.deepEqual(documentProblems(off), []);
  const o = section(off);
  assert.equal(o.lines.length, section(REAL).lines.length);
  assert.match(
    o.lines[1],
    /Instructions not counted: counting runs under valgrind and strace, which run on Linux only; this machine is darwin\./,
  );
  assert.ok(!o.charts[0].spec.title.subtitle.some((/** @type {string} */ t) => t.startsWith('◆')));
  // the results page: the counts' tables after the time's
  const page = section(withCounts(REAL), 'results');
  assert.match(page.md, /\*\*Instructions: Same driver: each Node against the reference Node/);
  assert.match(page.md, /\| +\+25% ±0\.02% +\|/);
  assert.match(page.md, /\+0\.01% ±0\.02% \(within repeat\)/);
  assert.match(page.md, /: \+25% instructions\/op, of which runtime \+250k \(100%\)$/m);
});

test('crafted shootouts: a case not compared, a quick run, a machine with one Node, a machine where nothing was compared', () => {
  // a case not compared: n/a in the table, a note in the chart, no bar
  const gap = structuredClone(REAL);
  const i = gap.comparisons.findIndex(
    (/** @type {any} */ r) =>
      r.member === 'v20 12.x' && r.op === 'select' && r.setup.includes('/better-sqlite3-multiple-ciphers/'),
  );
  Object.assign(gap.comparisons[i], {
    change: null,
    low: null,
    high: null,
    p: null,
    pAdjusted: null,
    verdict: 'not compared',
    reason: 'the case failed on v20 12.x in round 3',
  });
  assert.deepEqual(documentProblems(gap), []);
  const g = section(gap);
  assert.equal(tableOf(g.md).body[3][1], 'n/a');
  const data = shootoutPoints(shootoutView(gap));
  assert.ok(!data.points.some((p) => p.member === 'v20 12.x vs v22 12.x' && p.op === 'Select'));
  assert.deepEqual(
    data.notes.filter((n) => n.note === 'not compared'),
    [{ member: 'v20 12.x vs v22 12.x', op: 'Select', note: 'not compared' }],
  );
  assert.match(g.md, /Holm over 119 comparisons/);

  // a quick run says so, in the line and in the chart
  const quick = structuredClone(REAL);
  quick.run.mode = 'quick';
  const q = section(quick);
  assert.match(q.lines[1], /10 rounds \(a quick run: a smoke test\):/);
  assert.match(q.charts[0].spec.title.subtitle[0], /a quick run: a smoke test/);
  assert.ok(q.lines.length <= LINES && q.bytes <= BYTES);

  // a machine with one Node (v22, both drivers): the driver upgrade alone, labelled as a driver change
  const one = structuredClone(REAL);
  one.sides = REAL.sides.filter((/** @type {any} */ s) => s.label.startsWith('v22 '));
  one.comparisons = REAL.comparisons.filter(
    (/** @type {any} */ r) => r.member === 'v22 13.x' && r.id === 'driver-upgrade',
  );
  one.cases = REAL.cases.filter((/** @type {any} */ f) => f.side.startsWith('v22 '));
  one.environment.node = 'v22.23.3';
  assert.deepEqual(documentProblems(one), []);
  const o = section(one);
  assert.deepEqual(tableOf(o.md).header, ['Operation', 'v22 13.x vs 12.x (driver)']);
  assert.doesNotMatch(o.md, /did not run/);
  assert.match(
    o.charts[0].alt,
    /^Against v22 12\.x: no clear difference; \d+ no change, \d+ too noisy to tell of 8\.$/,
  );

  // nothing of production's driver compared (one side only): the line, no chart, no table
  const alone = structuredClone(one);
  alone.sides = one.sides.filter((/** @type {any} */ s) => s.label === 'v22 12.x');
  alone.comparisons = [];
  alone.cases = one.cases.filter((/** @type {any} */ f) => f.side === 'v22 12.x');
  const a = section(alone);
  assert.deepEqual(a.charts, []);
  assert.equal(a.lines.length, 2);
  assert.match(a.lines[1], /Nothing of better-sqlite3-multiple-ciphers with chacha20 was compared\./);
});

test('the aggregate draws the shootout chart once: both pages show the same SVG, with the finding as its title', async () => {
  const ws = aggregateWorkspace('shootout-section-');
  fs.writeFileSync(path.join(ws.artifacts, 'shootout.json'), JSON.stringify(REAL));
  /** @type {string[]} */
  const log = [];
  assert.equal(await aggregate({ ...ws, now: TEST_NOW }, { log: (l) => log.push(l), warn: () => {} }), 0);
  const images = (/** @type {string} */ file) =>
    [...html(fs.readFileSync(file, 'utf8')).matchAll(/<img src="([^"]*)" alt="([^"]*)"/g)].map((m) => ({
      file: path.resolve(path.dirname(file), decodeURIComponent(m[1])),
      alt: m[2],
    }));
  const [readme] = images(ws.readme);
  const [page] = images(path.join(ws.results, 'README.md'));
  assert.ok(readme && page, 'a chart on each page');
  assert.equal(readme.file, page.file);
  assert.match(readme.file, /results\/charts\/linux-x64\/[a-z0-9-]+-shootout-[0-9a-f]{6}\.svg$/);
  const svg = fs.readFileSync(readme.file, 'utf8');
  assert.match(svg, /^<!-- sqlite-node-bench chart [0-9a-f]{64} /);
  assert.match(svg, /<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* width="\d+" height="\d+"/);
  assert.ok(svg.includes(`<title>${readme.alt}</title>`), 'the alt text is the SVG title');
  assert.match(svg, />Select</);
  assert.match(svg, />did not run</);
  assert.match(svg, />change, % \(log scale\)</);
  assert.deepEqual(
    fs.readdirSync(path.join(ws.results, 'charts', 'linux-x64')).filter((f) => /-shootout-[0-9a-f]{6}\.svg$/.test(f))
      .length,
    1,
  );
});
