// The lint knows Node 18 (`npm run lint`, test/lint.js): with the project's own settings, the
// compiler options of tsconfig.json (lib es2022, @types/node 18) and the rules of eslint.config.js
// (eslint-plugin-n, reading package.json's engines), each of tsc and ESLint rejects a file that
// uses an API newer than Node 18.18: Array.prototype.toSorted (Node 20), import.meta.dirname (Node
// 20.11) and fs.globSync (Node 22); and both accept a file that uses only what Node 18 has. The
// files are written to a temp folder with a package.json of the project's engines and a tsconfig.json
// of its compiler options, so a change to any of the three that stops catching them fails here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import { ROOT, scratch } from './helpers.js';

/** One file per API newer than Node 18.18, and the name each tool's message must mention. */
const NEWER = {
  'to-sorted.js': { code: 'export const sorted = [2, 1].toSorted();\n', api: /toSorted|tosorted/ },
  'dirname.js': { code: 'export const dir = import.meta.dirname;\n', api: /dirname/ },
  'glob.js': { code: "import fs from 'node:fs';\nexport const files = fs.globSync('*.js');\n", api: /globSync/ },
};
/** The same jobs with what Node 18 has. */
const NODE18 = `import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
export const dir = path.dirname(fileURLToPath(import.meta.url));
export const files = fs
  .readdirSync(dir, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.js'));
export const sorted = [...files].sort();
export const last = sorted.at(-1);
export const grouped = sorted.reduce((m, f) => m.set(path.extname(f), [...(m.get(path.extname(f)) ?? []), f]), new Map());
`;

/** A temp folder holding the files, the project's engines and its compiler options. */
function project() {
  const dir = scratch('lint-node18-');
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.ok(pkg.engines?.node, 'package.json has no engines.node for eslint-plugin-n to read');
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'lint-node18', private: true, type: pkg.type, engines: pkg.engines }),
  );
  const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
  // the project's options; only where the types are is said, as the temp folder has no node_modules
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, typeRoots: [path.join(ROOT, 'node_modules', '@types')] },
      include: ['*.js'],
    }),
  );
  for (const [file, { code }] of Object.entries(NEWER)) fs.writeFileSync(path.join(dir, file), code);
  fs.writeFileSync(path.join(dir, 'node18.js'), NODE18);
  return dir;
}

/**
 * tsc over the folder: its errors per file.
 * @param {string} dir
 */
function tsc(dir) {
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir, '--pretty', 'false'],
    { encoding: 'utf8' },
  );
  assert.ok(!r.error && r.status !== null, `tsc did not run: ${r.error?.message ?? r.signal}`);
  /** @type {Map<string, string[]>} */
  const errors = new Map();
  for (const m of r.stdout.matchAll(/^(.+?\.js)\(\d+,\d+\): error (TS\d+: .*)$/gm)) {
    const file = path.basename(m[1]);
    errors.set(file, [...(errors.get(file) ?? []), m[2]]);
  }
  // every line of its output is one of these errors: nothing else went wrong (a bad option, no types)
  const lines = r.stdout.split('\n').filter((l) => /^\S/.test(l));
  assert.equal([...errors.values()].flat().length, lines.length, r.stdout + r.stderr);
  return errors;
}

/**
 * ESLint over the folder with the project's eslint.config.js: its messages per file.
 * @param {string} dir
 */
async function eslint(dir) {
  const linter = new ESLint({ cwd: dir, overrideConfigFile: path.join(ROOT, 'eslint.config.js') });
  const results = await linter.lintFiles(['*.js']);
  return new Map(results.map((r) => [path.basename(r.filePath), r.messages]));
}

test('tsc with tsconfig.json rejects toSorted, import.meta.dirname and fs.globSync, and accepts Node 18 code', () => {
  const errors = tsc(project());
  for (const [file, { api }] of Object.entries(NEWER)) {
    const found = errors.get(file) ?? [];
    assert.ok(
      found.some((e) => api.test(e)),
      `tsc accepted ${file}: ${NEWER[/** @type {keyof NEWER} */ (file)].code}`,
    );
  }
  assert.deepEqual(errors.get('node18.js') ?? [], [], 'tsc rejected code Node 18 runs');
});

test('ESLint with eslint.config.js rejects toSorted, import.meta.dirname and fs.globSync, and accepts Node 18 code', async () => {
  const messages = await eslint(project());
  for (const [file, { api }] of Object.entries(NEWER)) {
    const found = messages.get(file) ?? [];
    assert.ok(
      found.some(
        (m) => m.severity === 2 && /^n\/no-unsupported-features\//.test(m.ruleId ?? '') && api.test(m.message),
      ),
      `ESLint accepted ${file}: ${JSON.stringify(found.map((m) => m.message))}`,
    );
  }
  assert.deepEqual(
    (messages.get('node18.js') ?? []).map((m) => `${m.ruleId}: ${m.message}`),
    [],
    'ESLint rejected code Node 18 runs',
  );
  assert.equal(messages.size, Object.keys(NEWER).length + 1, 'ESLint did not lint every file');
});
