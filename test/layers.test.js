// The folders' rules, read from the imports of the source files: static `import … from '…'` and
// `export … from '…'`, dynamic `import('…')`, and the JSDoc type references `import('…').Name`
// (a type names the module it comes from as surely as a value does).
// - A table (bench/tables/) imports only other tables, Node built-ins, npm packages, and lib/
//   modules that import nothing: so loading a table never loads logic of the repository (the
//   engine, the claims, a run), and aggregate/, which reads the tables, stays free of them.
// - Nothing under bench/ loads compare/ (the PR check builds on the bench, never the reverse).
// - Nothing under aggregate/ loads bench/engine/ or bench/run/, directly or through what it imports.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers.js';

const FOLDERS = ['aggregate', 'bench', 'compare', 'lib', 'publish'];

const STATIC = /^[ \t]*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"]([^'"\n]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g;

/**
 * Every module a source text names: its static imports and re-exports, dynamic imports and JSDoc
 * type references, in the order they stand.
 * @param {string} text
 * @returns {string[]}
 */
function importsOf(text) {
  return [...text.matchAll(STATIC), ...text.matchAll(DYNAMIC)]
    .sort((a, b) => /** @type {number} */ (a.index) - /** @type {number} */ (b.index))
    .map((m) => m[1]);
}

/** The repository path a relative specifier names, or null for a built-in or an npm package. */
const resolve = (/** @type {string} */ from, /** @type {string} */ spec) =>
  spec.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)) : null;

const under = (/** @type {string} */ file, /** @type {string[]} */ folders) =>
  folders.some((d) => file.startsWith(`${d}/`));

/**
 * Every breach of the rules above, one line each.
 * @param {Map<string, string>} files repository path (a/b.js) → source text
 * @returns {string[]}
 */
function violations(files) {
  /** @type {Map<string, { spec: string, file: string | null }[]>} what each file imports */
  const graph = new Map(
    [...files].map(([file, text]) => [file, importsOf(text).map((spec) => ({ spec, file: resolve(file, spec) }))]),
  );
  /** @type {string[]} */
  const out = [];
  const leaf = (/** @type {string} */ f) => files.has(f) && !graph.get(f)?.length;
  for (const [file, edges] of graph) {
    if (!file.startsWith('bench/tables/')) continue;
    for (const { file: t } of edges) {
      // null: a built-in (node:fs) or an npm package (semver)
      if (t === null || t.startsWith('bench/tables/') || (t.startsWith('lib/') && leaf(t))) continue;
      const why = t.startsWith('lib/')
        ? `a lib/ module that imports ${(graph.get(t) ?? []).map((e) => e.file ?? e.spec).join(', ') || '(not found)'}`
        : 'not a table';
      out.push(`${file} imports ${t}: ${why}; a table imports only tables, built-ins, packages and lib/ leaves`);
    }
  }
  // what a module loads, through every module it imports: the chain to each
  const loads = (/** @type {string} */ start) => {
    /** @type {Map<string, string[]>} */
    const chain = new Map([[start, [start]]]);
    const todo = [start];
    for (let f = todo.shift(); f !== undefined; f = todo.shift())
      for (const { file: t } of graph.get(f) ?? [])
        if (t !== null && files.has(t) && !chain.has(t)) {
          chain.set(t, [...(chain.get(f) ?? []), t]);
          todo.push(t);
        }
    return chain;
  };
  /** @type {[string[], string[]][]} */
  const never = [
    [['bench'], ['compare']],
    [['aggregate'], ['bench/engine', 'bench/run']],
  ];
  for (const [from, forbidden] of never) {
    // each import that crosses into the forbidden folders, once, with the shortest chain to it
    /** @type {Map<string, string[]>} */
    const crossings = new Map();
    for (const file of files.keys()) {
      if (!under(file, from)) continue;
      for (const [t, chain] of loads(file)) {
        const edge = chain.slice(-2).join(' → ');
        if (under(t, forbidden) && !under(chain[chain.length - 2], forbidden))
          if ((crossings.get(edge)?.length ?? Infinity) > chain.length) crossings.set(edge, chain);
      }
    }
    for (const chain of crossings.values())
      out.push(`${chain.join(' → ')}: ${from.join(', ')}/ never loads ${forbidden.join('/ or ')}/`);
  }
  return [...new Set(out)];
}

/** The source files of the repository's code folders. */
function sources() {
  /** @type {Map<string, string>} */
  const files = new Map();
  for (const d of FOLDERS)
    for (const f of fs.readdirSync(path.join(ROOT, d), { recursive: true }))
      if (/\.m?js$/.test(String(f)) && !String(f).split(path.sep).includes('node_modules'))
        files.set(
          `${d}/${String(f).split(path.sep).join('/')}`,
          fs.readFileSync(path.join(ROOT, d, String(f)), 'utf8'),
        );
  return files;
}

test('the folders keep their rules: tables import no logic, bench/ never loads compare/, aggregate/ never the engine or a run', () => {
  const files = sources();
  assert.ok(files.has('bench/tables/ops.js') && files.has('aggregate/cli.js') && files.size > 100);
  assert.deepEqual(violations(files), []);
});

test('the import reader sees static, multi-line, re-exported, dynamic and JSDoc imports', () => {
  const text = [
    "import fs from 'node:fs';",
    "import { a,\n  b } from './a.js';",
    "export { c } from '../c.js';",
    "import './side-effect.js';",
    "const d = await import('./d.js');",
    "/** @param {import('../engine/database.js').Conn} conn */",
    'const s = \'import x from "y"\'; // not at the start of a line',
  ].join('\n');
  assert.deepEqual(importsOf(text), [
    'node:fs',
    './a.js',
    '../c.js',
    './side-effect.js',
    './d.js',
    '../engine/database.js',
  ]);
  // the reader finds what the tables really import
  assert.deepEqual(importsOf(sources().get('bench/tables/mail.js') ?? ''), ['../../lib/prng.js']);
});

test('a breach of each rule is found: a table importing logic or a type from it, bench/ loading compare/, aggregate/ loading the engine', () => {
  const files = new Map([
    ['lib/leaf.js', 'export const x = 1;'],
    ['lib/branch.js', "import { x } from './leaf.js';\nexport const y = x;"],
    [
      'bench/tables/good.js',
      "import semver from 'semver';\nimport fs from 'node:fs';\nimport { x } from '../../lib/leaf.js';\nimport { z } from './other.js';",
    ],
    ['bench/tables/other.js', 'export const z = 1;'],
    ['bench/tables/engine.js', "import { scalar } from '../engine/database.js';"],
    ['bench/tables/type.js', "/** @type {import('../claims/verdict.js').Claim} */\nexport const c = null;"],
    ['bench/tables/lib.js', "import { y } from '../../lib/branch.js';"],
    ['bench/engine/database.js', "import { x } from '../../lib/leaf.js';"],
    ['bench/claims/verdict.js', ''],
    ['bench/result/x.js', "export const f = () => import('../../compare/report.js');"],
    ['compare/report.js', ''],
    ['aggregate/read.js', "import '../bench/tables/engine.js';"],
  ]);
  assert.deepEqual(violations(files), [
    'bench/tables/engine.js imports bench/engine/database.js: not a table; a table imports only tables, built-ins, packages and lib/ leaves',
    'bench/tables/type.js imports bench/claims/verdict.js: not a table; a table imports only tables, built-ins, packages and lib/ leaves',
    'bench/tables/lib.js imports lib/branch.js: a lib/ module that imports lib/leaf.js; a table imports only tables, built-ins, packages and lib/ leaves',
    'bench/result/x.js → compare/report.js: bench/ never loads compare/',
    'aggregate/read.js → bench/tables/engine.js → bench/engine/database.js: aggregate/ never loads bench/engine/ or bench/run/',
  ]);
});
