// Issue 37: "exports used only inside their module are not exported". Every value a source file
// exports by declaration (`export function|const|let|class NAME`) must be named in another
// JavaScript file of the checkout (the source folders, test/, the top-level configs), else it is a
// module's private name and is declared without `export`. "Named" is a whole-word match, so a name
// that is also a common word elsewhere passes: the rule is lenient, never wrong about a breach.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, scratch } from './helpers.js';

const SOURCE = ['aggregate', 'bench', 'compare', 'lib', 'publish'];
const DECLARED = /^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/gm;

/**
 * The .js and .mjs files under a folder, fixtures and installs aside.
 * @param {string} dir
 * @returns {string[]}
 */
function jsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'fixtures' ? [] : jsFiles(p);
    return /\.m?js$/.test(e.name) ? [p] : [];
  });
}

/**
 * Every `file: NAME` exported by declaration and named in no other file.
 * @param {string} root
 */
function privateExports(root) {
  const top = fs
    .readdirSync(root)
    .filter((f) => /\.m?js$/.test(f))
    .map((f) => path.join(root, f));
  const all = [...SOURCE, 'test']
    .filter((d) => fs.existsSync(path.join(root, d)))
    .flatMap((d) => jsFiles(path.join(root, d)));
  const texts = new Map([...all, ...top].map((f) => [f, fs.readFileSync(f, 'utf8')]));
  const found = [];
  for (const [file, text] of texts) {
    if (!SOURCE.some((d) => file.startsWith(path.join(root, d) + path.sep))) continue;
    for (const [, name] of text.matchAll(DECLARED)) {
      const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
      if (![...texts].some(([other, t]) => other !== file && word.test(t)))
        found.push(`${path.relative(root, file)}: ${name}`);
    }
  }
  return { found, read: texts.size };
}

test('no source file exports a name that no other file uses', () => {
  const { found, read } = privateExports(ROOT);
  assert.ok(read > 200, `read ${read} files`);
  assert.deepEqual(found, []);
});

test('an export used only in its own file is found, one used elsewhere is not', () => {
  const root = scratch('exports-');
  fs.mkdirSync(path.join(root, 'lib'));
  fs.mkdirSync(path.join(root, 'bench'));
  fs.writeFileSync(
    path.join(root, 'lib', 'a.js'),
    'export function lonely() {}\nexport const shared$ = 1;\nlonely();\n',
  );
  fs.writeFileSync(
    path.join(root, 'bench', 'b.js'),
    "import { shared$ } from '../lib/a.js';\nexport async function used() {}\n",
  );
  fs.writeFileSync(path.join(root, 'c.mjs'), "import { used } from './bench/b.js';\n");
  assert.deepEqual(privateExports(root).found, [`${path.join('lib', 'a.js')}: lonely`]);
});
