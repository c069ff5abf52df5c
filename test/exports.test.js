// Issue 37: "exports used only inside their module are not exported". Every value a source file
// exports by declaration (`export function|const|let|class NAME`) must be imported by another
// JavaScript file of the checkout (the source folders, test/, the top-level configs): by name
// (`import { NAME } from './file.js'`, or `export { NAME } from`), through a namespace import
// (`import * as ns` then `ns.NAME`; a namespace passed on as a value may be read for any name), or
// a dynamic or JSDoc type import (`import('./file.js').NAME`; a bare dynamic import may read any).
// Else it is a module's private name and is declared without `export`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, scratch } from './helpers.js';

const SOURCE = ['aggregate', 'bench', 'compare', 'lib', 'publish'];
const DECLARED = /^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/gm;
const NAMED = /(?:import|export)\s*\{([^}]*)\}\s*from\s*['"](\.[^'"]+)['"]/g;
const NAMESPACE = /import\s*\*\s*as\s+([A-Za-z_$][\w$]*)\s+from\s*['"](\.[^'"]+)['"]/g;
const DYNAMIC = /import\(\s*['"](\.[^'"]+)['"]\s*\)(?:\.([A-Za-z_$][\w$]*))?/g;
/** A name any importer may read (a namespace passed on, a bare dynamic import). */
const ANY = '*';

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
 * Per imported file, the names other files import from it.
 * @param {Map<string, string>} texts file → its text
 */
function importedNames(texts) {
  /** @type {Map<string, Set<string>>} */
  const names = new Map();
  const add = (/** @type {string} */ file, /** @type {string} */ name) => {
    if (!names.has(file)) names.set(file, new Set());
    /** @type {Set<string>} */ (names.get(file)).add(name);
  };
  for (const [file, text] of texts) {
    const at = (/** @type {string} */ spec) => path.resolve(path.dirname(file), spec);
    for (const [, list, spec] of text.matchAll(NAMED))
      for (const part of list.split(',')) {
        const name = part.trim().split(/\s+as\s+/)[0];
        if (name) add(at(spec), name);
      }
    for (const [whole, ns, spec] of text.matchAll(NAMESPACE)) {
      for (const [, name] of text.matchAll(new RegExp(`(?<![\\w$])${ns}\\.([A-Za-z_$][\\w$]*)`, 'g')))
        add(at(spec), name);
      if (new RegExp(`(?<![\\w$.])${ns}(?![\\w$]|\\s*\\.)`).test(text.replace(whole, ''))) add(at(spec), ANY);
    }
    for (const [, spec, name] of text.matchAll(DYNAMIC)) add(at(spec), name ?? ANY);
  }
  return names;
}

/**
 * Every `file: NAME` exported by declaration and imported by no other file.
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
  const imported = importedNames(texts);
  const found = [];
  for (const [file, text] of texts) {
    if (!SOURCE.some((d) => file.startsWith(path.join(root, d) + path.sep))) continue;
    const names = imported.get(file) ?? new Set();
    for (const [, name] of text.matchAll(DECLARED))
      if (!names.has(name) && !names.has(ANY)) found.push(`${path.relative(root, file)}: ${name}`);
  }
  return { found, read: texts.size };
}

test('no source file exports a name that no other file imports', () => {
  const { found, read } = privateExports(ROOT);
  assert.ok(read > 200, `read ${read} files`);
  assert.deepEqual(found, []);
});

test('an export imported nowhere is found, even where its name is a word elsewhere; one imported is not', () => {
  const root = scratch('exports-');
  for (const d of ['lib', 'bench', 'aggregate']) fs.mkdirSync(path.join(root, d));
  fs.writeFileSync(
    path.join(root, 'lib', 'a.js'),
    'export function lonely() {}\nexport const shared$ = 1;\nexport const viaNs = 2;\nexport const HELP = {};\nlonely();\n',
  );
  fs.writeFileSync(
    path.join(root, 'bench', 'b.js'),
    "import { shared$ } from '../lib/a.js';\nimport * as a from '../lib/a.js';\nexport async function used() {}\nconst HELP = a.viaNs;\n",
  );
  fs.writeFileSync(path.join(root, 'aggregate', 'c.js'), 'export const table = 1;\n');
  fs.writeFileSync(
    path.join(root, 'd.mjs'),
    "import { used } from './bench/b.js';\nimport * as c from './aggregate/c.js';\nconst all = [c];\n/** @type {import('./lib/a.js').Nothing} */\n",
  );
  assert.deepEqual(privateExports(root).found, [
    `${path.join('lib', 'a.js')}: lonely`,
    `${path.join('lib', 'a.js')}: HELP`,
  ]);
});

/**
 * Every name exported by declaration from more than one source file, with its files (one word,
 * one concept: issue 37). A section's `render` is the interface every section shares.
 * @param {string} root
 */
function repeatedExports(root) {
  /** @type {Map<string, string[]>} */
  const by = new Map();
  for (const file of SOURCE.filter((d) => fs.existsSync(path.join(root, d))).flatMap((d) =>
    jsFiles(path.join(root, d)),
  ))
    for (const [, name] of fs.readFileSync(file, 'utf8').matchAll(DECLARED))
      by.set(name, [...(by.get(name) ?? []), path.relative(root, file)]);
  return [...by]
    .filter(([name, files]) => files.length > 1 && !(name === 'render' && files.every((f) => f.includes('sections'))))
    .map(([name, files]) => `${name}: ${files.join(', ')}`);
}

test('no name is exported by two source files, but the sections’ render', () => {
  assert.deepEqual(repeatedExports(ROOT), []);
  const root = scratch('exports-twice-');
  for (const d of ['lib', 'bench', 'aggregate/sections']) fs.mkdirSync(path.join(root, d), { recursive: true });
  fs.writeFileSync(path.join(root, 'lib', 'a.js'), 'export const table = 1;\nexport function render() {}\n');
  fs.writeFileSync(path.join(root, 'bench', 'b.js'), 'export function table() {}\n');
  fs.writeFileSync(path.join(root, 'aggregate', 'sections', 'c.js'), 'export function render() {}\n');
  fs.writeFileSync(path.join(root, 'aggregate', 'sections', 'd.js'), 'export function render() {}\n');
  assert.deepEqual(repeatedExports(root), [
    `render: ${path.join('aggregate', 'sections', 'c.js')}, ${path.join('aggregate', 'sections', 'd.js')}, ${path.join('lib', 'a.js')}`,
    `table: ${path.join('bench', 'b.js')}, ${path.join('lib', 'a.js')}`,
  ]);
});
