// The folders' rules, checked by dependency-cruiser with .dependency-cruiser.mjs (read them there):
// the data imports no logic, bench/ never loads compare/, aggregate/ never loads the engine or a run
// and imports from bench/ only the data and the document contract, and no folder cycle. Static,
// re-exported, dynamic and JSDoc imports count. dependency-cruiser 16.9 does not see an import() in
// a @property of a @typedef {object}: such types from another folder are brought in by an `@import`
// tag (which it sees), so every edge between folders is read.
// No file name is used twice outside test/, cli.js and index.js aside (a rule no library has, so
// written here). Nothing breaks them today, so there is no baseline of known breaches: any fails.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as fsExports from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cruise } from 'dependency-cruiser';
import config from '../.dependency-cruiser.mjs';
import { ROOT, scratch } from './helpers.js';

const FOLDERS = ['aggregate', 'bench', 'compare', 'lib', 'publish'];

/**
 * dependency-cruiser 16 (the last for Node 18) imports fs.R_OK, which Node 24 no longer exports,
 * and 17 drops Node 18: where it cannot load, these tests say so and skip. The tree is the same
 * under every Node; the test jobs on Node 18 and 20 check it.
 */
const skip =
  'R_OK' in fsExports ? false : `dependency-cruiser 16 cannot load on Node ${process.version} (no fs.R_OK export)`;

/**
 * Every breach of the rules in a tree, one line each; and how many modules were read.
 * @param {string} root
 */
async function breaches(root) {
  const { forbidden, options } = config;
  const folders = FOLDERS.filter((d) => fs.existsSync(path.join(root, d)));
  const { output } = await cruise(folders, { ...options, baseDir: root, validate: true, ruleSet: { forbidden } });
  const { modules, summary } = /** @type {import('dependency-cruiser').ICruiseResult} */ (output);
  const lines = summary.violations.map(
    (v) => `${v.rule.name}: ${[v.from, ...(v.via ?? v.cycle ?? [{ name: v.to }]).map((d) => d.name)].join(' → ')}`,
  );
  /** @type {Map<string, string[]>} file name → the files of that name */
  const named = new Map();
  for (const { source } of modules) {
    const name = path.posix.basename(source);
    if (/^(aggregate|bench|compare|lib|publish)\/.+\.js$/.test(source) && name !== 'cli.js' && name !== 'index.js')
      named.set(name, [...(named.get(name) ?? []), source]);
  }
  for (const [name, files] of named) if (files.length > 1) lines.push(`repeated-name: ${name} is ${files.join(', ')}`);
  return { lines, read: modules.length };
}

test('the tree keeps the folder rules: no folder cycle, no repeated file name', { skip }, async () => {
  const { lines, read } = await breaches(ROOT);
  assert.ok(read > 100, `read ${read} modules`);
  assert.deepEqual(lines, []);
});

test('a breach of each rule is found, through every kind of import', { skip }, async () => {
  const root = scratch('layers-');
  const files = {
    'node_modules/pkg/package.json': '{ "name": "pkg", "main": "index.js" }',
    'node_modules/pkg/index.js': 'export default 1;',
    'lib/prng.js': 'export const x = 1;',
    'lib/sqlite.js': "import fs from 'node:fs';\nexport const y = fs;",
    'lib/branch.js': "import { x } from './prng.js';\nexport const y = x;",
    'bench/data/good.js': [
      "import pkg from 'pkg';",
      "import fs from 'node:fs';",
      "import { x } from '../../lib/prng.js';",
      "import { z } from './other.js';",
      'export const all = [pkg, fs, x, z];',
    ].join('\n'),
    'bench/data/other.js': 'export const z = 1;',
    'bench/data/engine.js': "import {\n  scalar,\n} from '../engine/database.js';\nexport const s = scalar;",
    'bench/data/again.js': "export { scalar } from '../engine/database.js';",
    'bench/data/side.js': "import '../run/passes.js';",
    'bench/data/type.js': "/** @type {import('../claims/verdict.js').Claim | null} */\nexport const c = null;",
    'bench/data/tag.js':
      "/** @import { Claim } from '../claims/verdict.js' */\n/** @type {Claim | null} */\nexport const c = null;",
    // not seen by dependency-cruiser 16.9: an import() in a @property of a @typedef {object}
    'bench/data/unseen.js':
      "/**\n * @typedef {object} T\n * @property {import('../engine/database.js').Conn} conn\n */\nexport {};",
    'bench/data/lib.js': "import { y } from '../../lib/branch.js';\nexport const w = y;",
    'bench/engine/database.js': "import { x } from '../../lib/prng.js';\nexport const scalar = x;",
    'bench/run/passes.js': '',
    'bench/claims/verdict.js': '',
    'bench/result/x.js': "export const f = () => import('../../compare/report.js');",
    'compare/report.js': '',
    'aggregate/read.js': "import '../bench/data/engine.js';",
    // aggregate/ reads the data and the documents; a renderer of bench/ it may not
    'bench/result/document.js': '',
    'bench/result/header.js': '',
    'bench/result/figure.js': '',
    'aggregate/sections/part.js': [
      "import '../../bench/data/other.js';",
      "import '../../bench/result/document.js';",
      "import '../../bench/result/header.js';",
      "import '../../bench/result/figure.js';",
      "/** @import { Claim } from '../../bench/claims/verdict.js' */",
    ].join('\n'),
    // a folder cycle
    'lib/draw.js': "import '../publish/draw.js';",
    'publish/draw.js': "import '../lib/branch.js';",
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const { lines } = await breaches(root);
  assert.deepEqual(lines, [
    'aggregate-imports-data-and-documents: aggregate/sections/part.js → bench/claims/verdict.js',
    'aggregate-imports-data-and-documents: aggregate/sections/part.js → bench/result/figure.js',
    'aggregate-never-loads-a-run: aggregate/read.js → bench/data/engine.js → bench/engine/database.js',
    'bench-never-loads-compare: bench/result/x.js → compare/report.js',
    'data-imports-no-logic: bench/data/again.js → bench/engine/database.js',
    'data-imports-no-logic: bench/data/engine.js → bench/engine/database.js',
    'data-imports-no-logic: bench/data/lib.js → lib/branch.js',
    'data-imports-no-logic: bench/data/side.js → bench/run/passes.js',
    'data-imports-no-logic: bench/data/tag.js → bench/claims/verdict.js',
    'data-imports-no-logic: bench/data/type.js → bench/claims/verdict.js',
    'lib-leaf-imports-nothing: lib/sqlite.js → fs',
    'no-folder-cycle: lib → publish → lib',
    'no-folder-cycle: publish → lib → publish',
    'repeated-name: draw.js is lib/draw.js, publish/draw.js',
  ]);
});

test('a type from another folder named in a @property comes in by an @import tag, which dependency-cruiser reads', () => {
  const files = FOLDERS.flatMap((d) =>
    fs.readdirSync(path.join(ROOT, d), { recursive: true, encoding: 'utf8' }).map((f) => path.posix.join(d, f)),
  );
  const unseen = files
    .filter((f) => f.endsWith('.js'))
    .flatMap((f) =>
      fs
        .readFileSync(path.join(ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          line.includes('@property')
            ? [...line.matchAll(/import\('([^']+)'\)/g)]
                .filter(
                  (m) => path.posix.dirname(path.posix.join(path.posix.dirname(f), m[1])) !== path.posix.dirname(f),
                )
                .map((m) => `${f}:${i + 1} ${m[1]}`)
            : [],
        ),
    );
  assert.deepEqual(unseen, []);
});
