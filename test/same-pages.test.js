// meta:same-pages: the digest a refactor of the aggregate is checked with. It covers the pages of a
// synthetic night and a real document, masks only a chart's drawing hash and the README's own prose,
// and a changed byte anywhere else changes it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { digestOf, samePages } from '../bench/meta/same-pages.js';

test('meta:same-pages digests the pages of a synthetic night and the real shootout fixture', async () => {
  const lines = await samePages({ nights: 1, real: [path.join('test', 'fixtures', 'real-linux-x64-shootout.json')] });
  for (const l of lines) assert.match(l, /^[0-9a-f]{64} {2}(year|real)\/\S+$/);
  const files = lines.map((l) => l.slice(66));
  for (const f of ['year/README.md', 'year/results/README.md', 'year/results/index.json', 'real/README.md'])
    assert.ok(files.includes(f), f);
  assert.ok(files.filter((f) => f.startsWith('real/results/charts/') && f.endsWith('.svg')).length >= 1);
  assert.ok(files.filter((f) => f.startsWith('year/results/charts/') && f.endsWith('.svg')).length >= 8);
});

test("the digest ignores a chart's drawing hash and the README outside its block, nothing else", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-pages-test-'));
  try {
    const svg = (/** @type {string} */ hash, /** @type {string} */ body) =>
      `<!-- sqlite-node-bench chart ${hash} (vega@6.4.0 vega-lite@6.4.1); generated -->\n<svg>${body}</svg>\n`;
    const readme = (/** @type {string} */ prose, /** @type {string} */ block) =>
      `# T\n${prose}\n<!-- BENCHMARK_RESULTS_START -->\n${block}\n<!-- BENCHMARK_RESULTS_END -->\n`;
    const write = (
      /** @type {string} */ hash,
      /** @type {string} */ body,
      /** @type {string} */ prose,
      /** @type {string} */ block,
    ) => {
      fs.mkdirSync(path.join(dir, 'results', 'charts'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'results', 'charts', 'a.svg'), svg(hash, body));
      fs.writeFileSync(path.join(dir, 'README.md'), readme(prose, block));
      fs.writeFileSync(path.join(dir, 'results', 'README.md'), readme(prose, block));
      return digestOf(dir);
    };
    const base = write('a'.repeat(64), '<path/>', 'intro', 'table');
    assert.equal(base.length, 3);
    assert.deepEqual(write('b'.repeat(64), '<path/>', 'intro', 'table'), base, 'drawing hash masked');
    const prose = write('a'.repeat(64), '<path/>', 'other intro', 'table');
    assert.deepEqual(
      prose.filter((l) => !l.endsWith('results/README.md')),
      base.filter((l) => !l.endsWith('results/README.md')),
      'README prose ignored',
    );
    assert.notDeepEqual(prose, base, 'results/README.md is compared whole');
    assert.notDeepEqual(write('a'.repeat(64), '<path d="M1"/>', 'intro', 'table'), base, 'a chart body compared');
    assert.notDeepEqual(write('a'.repeat(64), '<path/>', 'intro', 'table 2'), base, 'the README block compared');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
