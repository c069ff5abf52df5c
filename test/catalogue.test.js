import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { END, START, catalogueMarkdown, withCatalogue } from '../bench/catalogue.js';
import { CIPHERS } from '../bench/ciphers.js';
import { CONFIGS } from '../bench/configs.js';
import { OPS } from '../bench/ops.js';
import { ROOT } from './helpers.js';

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

test('the README lists exactly the configs, ciphers and operations the code runs (npm run catalogue rewrites it)', () => {
  assert.equal(withCatalogue(readme), readme, "README.md's catalogue is stale: run 'npm run catalogue'");
  const block = readme.slice(readme.indexOf(START), readme.indexOf(END));
  for (const c of CONFIGS) assert.ok(block.includes(`| \`${c.name}\``) && block.includes(c.label), c.name);
  for (const c of CIPHERS) assert.ok(block.includes(`| \`${c.name}\``), c.name);
  for (const o of OPS) assert.ok(block.includes(`| \`${o.name}\``), o.name);
  assert.equal(catalogueMarkdown(), catalogueMarkdown());
});

test('the README gives the two set-up commands and the test command', () => {
  assert.match(readme, /npm install\s*\n\s*npm run bench/);
  assert.match(readme, /npm test/);
  assert.ok(readme.includes('<!-- BENCHMARK_RESULTS_START -->') && readme.includes('<!-- BENCHMARK_RESULTS_END -->'));
});

test('withCatalogue refuses a README without exactly one pair of markers', () => {
  assert.throws(() => withCatalogue('no markers'), /exactly one/);
  assert.throws(() => withCatalogue(`${START}\n${START}\n${END}`), /exactly one/);
  assert.throws(() => withCatalogue(`${END}\n${START}`), /exactly one/);
});
