import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CATALOGUE_FILE, END, START, catalogueMarkdown, withCatalogue } from '../bench/tools/catalogue.js';
import { CIPHERS } from '../bench/tables/ciphers.js';
import { CONFIGS, describeChanges } from '../bench/tables/configs.js';
import { OPS } from '../bench/tables/ops.js';
import { ROOT } from './helpers.js';

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const catalogue = fs.readFileSync(CATALOGUE_FILE, 'utf8');

test('docs/catalogue.md lists exactly the configs, ciphers and operations the code runs (npm run catalogue rewrites it)', () => {
  assert.equal(withCatalogue(catalogue), catalogue, "docs/catalogue.md is stale: run 'npm run catalogue'");
  const block = catalogue.slice(catalogue.indexOf(START), catalogue.indexOf(END));
  for (const c of CONFIGS) assert.ok(block.includes(`| \`${c.name}\``) && block.includes(c.label), c.name);
  for (const c of CIPHERS) assert.ok(block.includes(`| \`${c.name}\``), c.name);
  for (const o of OPS) assert.ok(block.includes(`| \`${o.name}\``), o.name);
  // each config's row says what it changes, from its PRAGMA list, and the "not a tuning" note where it applies
  const rows = catalogueMarkdown().split('\n');
  for (const c of CONFIGS) {
    const row = rows.find((l) => l.startsWith(`| \`${c.name}\``));
    assert.ok(row, c.name);
    const { changes, note } = describeChanges(c);
    if (c.name !== 'production')
      for (const [n, v] of changes) assert.ok(row.includes(`${n}=${v}`), `${c.name}: ${n}=${v}`);
    assert.equal(row.includes('not a tuning'), describeChanges(c).equalsDefault, `${c.name}: the note`);
    if (note) assert.ok(row.includes(note), `${c.name}: the note`);
    assert.equal(row.includes('experiment only'), Boolean(c.experiment), `${c.name}: experiment only`);
  }
  assert.ok(
    rows.find((l) => l.startsWith('| `production`'))?.includes('journal_mode=WAL'),
    'production lists its own PRAGMAs',
  );
});

test('the README gives the two set-up commands and the test command', () => {
  assert.match(readme, /npm install\s*\n\s*npm run bench/);
  assert.match(readme, /npm test/);
  assert.ok(readme.includes('<!-- BENCHMARK_RESULTS_START -->') && readme.includes('<!-- BENCHMARK_RESULTS_END -->'));
  const before = readme.slice(0, readme.indexOf('<!-- BENCHMARK_RESULTS_START -->')).split('\n').length;
  const after = readme.slice(readme.indexOf('<!-- BENCHMARK_RESULTS_END -->')).split('\n').length;
  assert.ok(
    before + after <= 150,
    `${before + after} lines of README outside the results block: the long form belongs in docs/`,
  );
});

test('from the README alone a newcomer finds where configs, ciphers, operations and the statistics live', () => {
  for (const place of [
    'configs.js',
    'ciphers.js',
    'ops.js',
    'lib/stats/',
    'bench/tables/',
    'bench/engine/',
    'docs/methodology.md',
    'docs/glossary.md',
  ])
    assert.ok(readme.includes(place), place);
  // every folder the README's layout table names exists, and every top-level folder is in it
  const named = [...readme.matchAll(/^\| `([a-z/]+\/)` \|/gm)].map((m) => m[1]);
  for (const dir of named) assert.ok(dir === 'results/' || fs.statSync(path.join(ROOT, dir)).isDirectory(), dir); // results/ comes with the first aggregate
  const tracked = fs
    .readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules' && e.name !== 'out')
    .map((e) => `${e.name}/`);
  for (const dir of tracked)
    assert.ok(
      named.some((n) => n.startsWith(dir)),
      `${dir} is not in the README's layout table`,
    );
});

test('every relative link in the README and docs/ points at a file in the tree', () => {
  const pages = [
    'README.md',
    ...fs
      .readdirSync(path.join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  for (const page of pages) {
    const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      assert.ok(fs.existsSync(path.resolve(ROOT, path.dirname(page), target)), `${page}: ${target}`);
    }
  }
});

test('withCatalogue refuses a README without exactly one pair of markers', () => {
  assert.throws(() => withCatalogue('no markers'), /exactly once/);
  assert.throws(() => withCatalogue(`${START}\n${START}\n${END}`), /exactly once/);
  assert.throws(() => withCatalogue(`${END}\n${START}`), /before/);
});
