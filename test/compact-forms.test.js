// The README block's compact forms of "Claims checked" (one table for every machine class),
// "Concurrency and scale" and "Nightly history": within their budgets (issue #16) for a real
// document and for nights of every Node major, every figure with its ± ("≈ ±x" counts), and the
// long forms kept on results/README.md. The real document is test/fixtures/real-linux-x64-v20-claims-workloads.json:
// the run, environment, claims and workloads of a full local v20 run (the workload templates left out).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { CLAIMS } from '../bench/data/production-claims.js';
import { claimCell, renderBlockClaims, render as claimsPage } from '../aggregate/sections/claims.js';
import { render as workloads } from '../aggregate/sections/workload-tables.js';
import { growthOf } from '../aggregate/render/workload-rows.js';
import { LISTED, render as history } from '../aggregate/sections/history.js';
import { chartFile } from '../aggregate/charts/writer.js';
import { nightOf } from '../aggregate/nights.js';
import { entryOf } from '../aggregate/store.js';
import { syntheticDoc } from '../bench/meta/synthetic.js';
import { inert } from '../lib/markdown.js';
import { ROOT } from './helpers.js';
import { compactChange } from '../aggregate/render/pair-table.js';
import { ratioText } from '../aggregate/render/figure.js';

const REAL = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'real-linux-x64-v20-claims-workloads.json'), 'utf8'),
);
const html = (/** @type {string} */ md) => micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
const size = (/** @type {string[]} */ lines) => ({
  lines: lines.join('\n').split('\n').length,
  bytes: Buffer.byteLength(lines.join('\n')),
});

/** The machine classes of the synthetic year, each with the real document as its own. */
const ENVS = [
  ['linux', 'x64', 'AMD EPYC 7763 64-Core Processor', 4, 'ubuntu24'],
  ['linux', 'arm64', 'Neoverse-N2', 4, 'ubuntu24'],
  ['darwin', 'arm64', 'Apple M1 (Virtual)', 3, 'macos15'],
  ['darwin', 'x64', 'Intel(R) Core(TM) i7-8700B CPU @ 3.20GHz', 4, 'macos15'],
];
function machine(
  /** @type {any[]} */ [platform, arch, cpuModel, cores, imageOs],
  /** @type {(doc: any) => void} */ edit = () => {},
) {
  const doc = structuredClone(REAL);
  Object.assign(doc.environment, {
    platform,
    arch,
    cpuModel,
    cores,
    ci: { provider: 'github-actions', imageOs, imageVersion: '20261101.1' },
  });
  edit(doc);
  const e = entryOf(doc, `${platform}-${arch}.json`, JSON.stringify(doc));
  return { platform: e.platform, machine: e.machine, entries: [e], load: () => doc };
}
/** A section's context for one machine class. */
const ctxOf = (/** @type {ReturnType<typeof machine>} */ m, /** @type {'readme' | 'results'} */ page, extra = {}) =>
  /** @type {any} */ ({ ...m, resultsLink: page === 'readme' ? 'results' : '.', page, ...extra });

/** A change as compactChange writes it, or a ratio with its interval (the workloads' form). */
const FIGURE = /≈\u00a0±\d+(\.\d+)?|[+-]\d+(\.\d+)?%\u00a0±\d+(\.\d+)?|×[\d.,]+ \[×[\d.,]+, ×[\d.,]+\]/g;

test('claims in the README: one table, a column per machine class and a row per claim, every change with its ±, within 16 lines and 4,500 bytes for 4 machine classes', () => {
  const machines = ENVS.map((env) => machine(env));
  const lines = renderBlockClaims({ machines, resultsLink: 'results' }).join('\n').split('\n');
  const { lines: n, bytes } = size(lines);
  // 4,500: the verdicts in full ("larger than claimed", not "larger"), the vocabulary's words
  assert.ok(n <= 16 && bytes <= 4500, `claims: ${n} lines, ${bytes} bytes`);
  const rendered = html(lines.join('\n'));
  assert.equal(rendered.split('<table>').length - 1, 1, 'one table');
  const header = lines.find((l) => l.startsWith('| # |'));
  assert.deepEqual(
    header
      ?.split(' | ')
      .slice(2)
      .map((c) => c.replace(/ \|$/, '')),
    ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64'],
  );
  const rows = lines.filter((l) => /^\| \d+ \|/.test(l));
  assert.deepEqual(
    rows.map((r) => Number(r.split(' | ')[0].slice(2))),
    CLAIMS.map((x) => x.n),
    "a row per claim the run checked, in the table's order",
  );
  assert.match(lines[1], /separate machines.*not compared with each other/);
  for (const row of rows) {
    const cells = row.slice(2, -2).split(' | ');
    assert.equal(cells.length, 2 + machines.length, row);
    for (const cell of cells.slice(2)) {
      // "verdict: figure, figure; verdict: figure": every figure is a change with its ±, or ≈ ±x
      for (const part of cell.split('; ')) {
        const [word, figures] = part.split(': ');
        assert.match(
          word,
          /^(holds|smaller than claimed|larger than claimed|opposite|too noisy to tell|context)$/,
          cell,
        );
        for (const f of figures.split(/, (?![^[]*\])/))
          assert.match(f, new RegExp(`^(${FIGURE.source})$`), `${f} in ${cell}`);
      }
    }
  }
  // the figures are the document's: claim 2 (inserts −15.5% [−17.0%, −14.0%], larger; 10000: context)
  assert.equal(
    claimCell(/** @type {any} */ (CLAIMS.find((x) => x.n === 2)), REAL),
    'larger than claimed: -16%\u00a0±1.5; context: -14%\u00a0±2.8',
  );
  // a claim about time is shown in time: VACUUM +1.0% [−8.2%, +11.2%] time holds 0
  assert.match(
    claimCell(/** @type {any} */ (CLAIMS.find((x) => x.n === 6)), REAL),
    /^smaller than claimed: ≈\u00a0±11, /,
  );
});

test('claims in the README: a machine class without claims is named once, not a column; none at all, no section', () => {
  const machines = ENVS.map((env, i) =>
    machine(
      env,
      i === 3
        ? (d) => {
            delete d.claims;
          }
        : undefined,
    ),
  );
  const lines = renderBlockClaims({ machines, resultsLink: 'results' }).join('\n').split('\n');
  assert.equal(lines.join('\n').split('darwin-x64').length - 1, 1, 'named once');
  assert.match(lines[1], /No claims checked yet on darwin-x64 · Intel/);
  assert.equal(lines.find((l) => l.startsWith('| # |'))?.split(' | ').length, 5);
  // a claim not in a run, and one whose checks could not be measured
  const partial = machine(ENVS[0], (d) => {
    d.claims = d.claims.filter((/** @type {any} */ e) => e.id !== 'mmap');
  });
  assert.equal(claimCell(/** @type {any} */ (CLAIMS.find((x) => x.id === 'mmap')), partial.load()), 'not run');
  const unmeasured = structuredClone(REAL);
  for (const c of unmeasured.claims.find((/** @type {any} */ e) => e.id === 'cache-size').checks)
    Object.assign(c, { verdict: 'not compared', reason: 'x', change: undefined });
  assert.equal(claimCell(/** @type {any} */ (CLAIMS.find((x) => x.id === 'cache-size')), unmeasured), 'not compared');
  assert.deepEqual(
    renderBlockClaims({
      machines: machines.map((m) => ({ ...m, entries: m.entries.map((e) => ({ ...e, mode: 'quick' })) })),
      resultsLink: 'results',
    }),
    [],
  );
  // the per-class section: nothing in the README (the block's table), the long form on results/README.md
  assert.deepEqual(claimsPage(ctxOf(machines[0], 'readme')), []);
  const page = claimsPage(ctxOf(machines[0], 'results')).join('\n');
  assert.match(page, /\| Measured \(95% interval\) \|/);
  assert.match(page, /−15\.5% \[−17\.0%, −14\.0%\] ops\/s, 5 pairs \| larger than claimed \|/);
});

test("concurrency and scale in the README: two lines of production's setup within 5 lines and 700 bytes, every figure with its interval; the tables on results/README.md", () => {
  const m = machine(ENVS[0]);
  const lines = workloads(ctxOf(m, 'readme'));
  const { lines: n, bytes } = size(lines);
  assert.ok(n <= 5 && bytes <= 700, `workloads: ${n} lines, ${bytes} bytes`);
  assert.equal(lines[0], '##### Concurrency and scale');
  assert.match(lines[1], /\[results\/README\.md\]\(results\/README\.md\)/);
  const [conc, scale] = lines.slice(2);
  // WAL against DELETE per workload: 3 with a writer (reads and writes), the readers alone (reads)
  assert.equal(conc.match(/(reads|writes) /g)?.length, 7, conc);
  assert.match(
    conc,
    /writer \+ 1 reader: reads ×317 \[×168, ×596\], writes ×3\.28 \[×2\.79, ×3\.85\]/,
    'as the document: +31583% [+16748%, +59481%]',
  );
  assert.match(conc, /4 readers alone: reads \+15%\u00a0±12\.$/, '+14.5% [+3.9%, +26.2%]');
  assert.match(
    scale,
    /Select ≈\u00a0±\d+, Insert ≈\u00a0±\d+, Update \+30%\u00a0±\d+, Delete \+14%\u00a0±\d+, VACUUM ×10\.5 \[×[\d.]+, ×[\d.]+\]\.$/,
  );
  for (const line of [conc, scale]) {
    const rest = line.replace(FIGURE, '');
    assert.doesNotMatch(
      rest.replace(/2,000 to 200,000 messages|per 10× messages|95%|\d+ readers?/g, ''),
      /\d/,
      `a figure without its interval: ${rest}`,
    );
  }
  const page = workloads(ctxOf(m, 'results')).join('\n');
  assert.match(page, /\| 1 writer \+ 1 reader \| better-sqlite3-multiple-ciphers, chacha20 \|/);
  assert.match(page, /\| VACUUM \(ms\) \|/);
  assert.match(page, /Read p50 \/ p99/);
  // a quick run: a smoke test, said so, no figure
  const quick = machine(ENVS[0], (d) => {
    d.workloads.mode = 'quick';
  });
  const q = workloads(ctxOf(quick, 'readme'));
  assert.equal(q.length, 2);
  assert.match(q[1], /a quick run: .* without ±, so no figures here/);
});

test("growth per 10× messages: from the smallest to the largest size, its bounds from both sizes' intervals; a rate's cost is its time", () => {
  const size = (/** @type {number} */ messages, /** @type {any} */ figures) => ({ setup: { messages }, figures });
  // VACUUM 10 ms → 1,000 ms over 100× messages: ×10 per 10×; bounds (800/12)^½ and (1,200/8)^½
  const v = /** @type {any} */ (
    growthOf(
      [
        size(1000, { vacuum: { median: 10, low: 8, high: 12 } }),
        size(100000, { vacuum: { median: 1000, low: 800, high: 1200 } }),
      ],
      { id: 'vacuum', rate: false },
    )
  );
  assert.ok(
    Math.abs(v.change - 9) < 1e-9 &&
      Math.abs(v.low - (Math.sqrt(800 / 12) - 1)) < 1e-9 &&
      Math.abs(v.high - (Math.sqrt(1200 / 8) - 1)) < 1e-9,
    JSON.stringify(v),
  );
  // selects 1,000/s → 500/s over 10×: the time per select doubles; its bounds from the rates' other ends
  const s = /** @type {any} */ (
    growthOf(
      [
        size(1000, { select: { median: 1000, low: 900, high: 1100 } }),
        size(10000, { select: { median: 500, low: 400, high: 600 } }),
      ],
      { id: 'select', rate: true },
    )
  );
  assert.ok(
    Math.abs(s.change - 1) < 1e-9 &&
      Math.abs(s.low - (900 / 600 - 1)) < 1e-9 &&
      Math.abs(s.high - (1100 / 400 - 1)) < 1e-9,
    JSON.stringify(s),
  );
  assert.equal(
    growthOf([size(1000, { select: { median: 1000 } }), size(10000, { select: { median: 500 } })], {
      id: 'select',
      rate: true,
    }),
    null,
    'no interval (a quick run): no growth shown',
  );
});

/** Nights of every Node major on one machine class; night `slow` is slow on every VM, the last one on Node 22's after a runner image change. */
function nightsOf(/** @type {number} */ n, /** @type {number} */ slow) {
  const out = [];
  for (let i = 0; i < n; i++) {
    for (const node of ['v18.20.8', 'v20.20.2', 'v22.23.3', 'v24.21.0', 'v25.9.0']) {
      const last = i === n - 1 && node === 'v22.23.3';
      const doc = syntheticDoc({
        platform: 'linux-x64',
        node,
        seed: i * 10 + node.length,
        scale: i === slow || last ? 0.6 : 1,
        imageVersion: last ? '20261120.1' : '20261101.1',
        finishedAt: new Date(Date.UTC(2026, 10, 1 + i, 3, 17)).toISOString(),
      });
      out.push({ doc, entry: entryOf(doc, `${i}-${node}.json`, String(i)) });
    }
  }
  return out;
}

test('history in the README: a chart per Node major with its finding, the newest 3 nights outside the band in one line, within 10 lines and 1,500 bytes; every night on results/README.md', () => {
  const nights = nightsOf(12, 9);
  const docs = new Map(nights.map((x) => [x.entry.file, x.doc]));
  const m = {
    platform: 'linux-x64',
    machine: nights[0].entry.machine,
    entries: nights.map((x) => x.entry),
    load: (/** @type {any} */ e) => docs.get(e.file),
  };
  const ctx = (/** @type {'readme' | 'results'} */ page) =>
    ctxOf(/** @type {any} */ (m), page, {
      nights: { of: (/** @type {any} */ e) => nightOf(m.load(e), e) },
      chart: (/** @type {string} */ name, /** @type {any} */ _spec, /** @type {string} */ alt) =>
        `![${inert(alt, 400)}](${page === 'readme' ? 'results' : '.'}/charts/linux-x64/${chartFile(m.machine.slice('linux-x64'.length), name)})`,
    });
  const readme = history(ctx('readme'));
  const { lines: n, bytes } = size(readme);
  assert.ok(n <= 10 && bytes <= 1500, `history: ${n} lines, ${bytes} bytes`);
  const charts = readme.filter((l) => l.startsWith('!['));
  assert.equal(charts.length, 5, 'one chart per Node major');
  for (const c of charts) {
    const alt = c.match(/^!\[([^\]]*)\]/);
    assert.ok(alt && alt[1].length <= 150, c);
  }
  assert.ok(
    charts.some((c) =>
      /^!\[Node 22, 12 night\(s\) 2026-11-01 to 2026-11-12: 2 outside the band, newest 2026-11-12 \(8 operations slower\)\.\]/.test(
        c,
      ),
    ),
    charts.join('\n'),
  );
  assert.equal(readme.indexOf(''), 2, 'no blank line between the heading and its line');
  // Node 22's last night, then night 9 on every VM (and nights the noise put outside): the README names the newest 3
  const page = history(ctx('results'));
  const items = page.filter((l) => l.startsWith('- '));
  assert.ok(items.length >= 6, 'every night outside the band on results/README.md');
  const line = /** @type {string} */ (readme.at(-1));
  assert.ok(
    line.startsWith(
      `Outside the band (newest 3 of ${items.length}; all: [results/README.md](results/README.md)): 2026-11-12, Node v22.23.3: 8 operations slower; changed: runner image · 2026-11-10, Node v`,
    ),
    line,
  );
  assert.equal(line.match(/v\d+\.\d+\.\d+/g)?.length, LISTED);
  assert.match(
    items[0],
    /^- 2026-11-12, Node v22\.23\.3: .*below .*changed since the night before: runner image ubuntu24 20261101\.1 → ubuntu24 20261120\.1\.$/,
  );
});

test('history: majors with one night so far share one line in the README; each its own on results/README.md', () => {
  const nights = nightsOf(1, -1);
  const docs = new Map(nights.map((x) => [x.entry.file, x.doc]));
  const m = {
    platform: 'linux-x64',
    machine: nights[0].entry.machine,
    entries: nights.map((x) => x.entry),
    load: (/** @type {any} */ e) => docs.get(e.file),
  };
  const ctx = (/** @type {'readme' | 'results'} */ page) =>
    ctxOf(/** @type {any} */ (m), page, {
      nights: { of: (/** @type {any} */ e) => nightOf(m.load(e), e) },
      chart: () => assert.fail('no chart of one night'),
    });
  const readme = history(ctx('readme'));
  assert.ok(
    readme.includes('_Node 18, 20, 22, 24, 25: one night so far (2026-11-01); the chart starts with the second._'),
    readme.join('\n'),
  );
  assert.equal(readme.at(-1), 'No night outside the band.');
  assert.equal(history(ctx('results')).filter((l) => /^_Node \d+: one night so far/.test(l)).length, 5);
});

test('a change of twice or more whose interval excludes 0 reads as a ratio; anything else as compactChange', () => {
  assert.equal(
    ratioText({ change: 225.94, low: 202.4, high: 249.4, verdict: 'holds' }, compactChange),
    '×227 [×203, ×250]',
  );
  assert.equal(
    ratioText({ change: 1.5, low: -0.2, high: 3.1, verdict: 'larger' }, compactChange),
    compactChange({ change: 1.5, low: -0.2, high: 3.1, verdict: 'larger' }),
  );
  assert.equal(ratioText({ change: 0.4, low: 0.3, high: 0.5, verdict: 'holds' }, compactChange), '+40%\u00a0±10');
});
