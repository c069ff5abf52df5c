#!/usr/bin/env node
// npm run lint: every JavaScript file parses on the running Node (the project promises 18-25
// unchanged), no file uses an API newer than Node 18, and the workflows pass actionlint and zizmor.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIRS = ['bench', 'aggregate', 'compare', 'lib', 'test'];
// APIs that are not in Node 18, with what to use instead
const NEWER = [
  [/import\.meta\.(dirname|filename)\b/, 'import.meta.dirname/filename (Node 20.11): use fileURLToPath'],
  [/\.toSorted\(|\.toReversed\(|\.toSpliced\(|\.findLast(Index)?\(/, 'change-array-by-copy / findLast (Node 20): copy, then sort'],
  [/Object\.groupBy|Map\.groupBy/, 'groupBy (Node 21)'],
  [/Promise\.withResolvers/, 'Promise.withResolvers (Node 22)'],
  [/\bfs\.globSync\b|fs\/promises.*\bglob\b/, 'fs.glob (Node 22)'],
  [/\bArray\.fromAsync\b/, 'Array.fromAsync (Node 22)'],
];

const files = DIRS.flatMap((d) => (fs.existsSync(path.join(ROOT, d)) ? fs.readdirSync(path.join(ROOT, d), { recursive: true }) : []).map((f) => path.join(ROOT, d, String(f))))
  .filter((f) => f.endsWith('.js') && !f.includes(`${path.sep}node_modules${path.sep}`) && !f.includes(`${path.sep}fixtures${path.sep}`));
const problems = [];
for (const file of files) {
  const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
  if (r.status !== 0) problems.push(`${path.relative(ROOT, file)}: does not parse: ${r.stderr.trim().split('\n').slice(0, 4).join(' ')}`);
  const text = fs.readFileSync(file, 'utf8');
  if (file === fileURLToPath(import.meta.url)) continue;
  for (const [re, what] of NEWER) if (re.test(text)) problems.push(`${path.relative(ROOT, file)}: uses ${what}`);
}

// Workflows: actionlint 1.7.12 (built from the Go module proxy: the npm wrappers embed an older one
// that rejects current runner labels) and zizmor, the Actions security auditor, offline, medium+.
const ACTIONLINT = ['go', ['run', 'github.com/rhysd/actionlint/cmd/actionlint@v1.7.12', '-no-color']];
const ZIZMOR_VERSION = '1.32.0';
const workflows = path.join(ROOT, '.github', 'workflows');
const tools = [];
if (fs.existsSync(workflows)) {
  const yml = fs.readdirSync(workflows).filter((f) => /\.ya?ml$/.test(f)).map((f) => path.join('.github', 'workflows', f));
  tools.push({ name: 'actionlint', cmd: ACTIONLINT[0], args: [...ACTIONLINT[1], ...yml] });
  const zizmor = spawnSync('zizmor', ['--version'], { encoding: 'utf8' }).status === 0 ? ['zizmor', []] : ['pipx', ['run', '--spec', `zizmor==${ZIZMOR_VERSION}`, 'zizmor']];
  tools.push({ name: 'zizmor', cmd: zizmor[0], args: [...zizmor[1], '--offline', '--min-severity', 'medium', '--no-progress', '.github/workflows'] });
}
for (const tool of tools) {
  const r = spawnSync(/** @type {string} */ (tool.cmd), /** @type {string[]} */ (tool.args), { cwd: ROOT, encoding: 'utf8' });
  if (r.error) problems.push(`${tool.name}: could not run '${tool.cmd}' (${r.error.message}); install it (see .ci/run)`);
  else if (r.status !== 0) problems.push(`${tool.name}: exit ${r.status}\n${(r.stdout + r.stderr).trim()}`);
  else console.log(`lint: ${tool.name} clean`);
}

for (const p of problems) console.error(`lint: ${p}`);
console.log(`lint: ${files.length} files, ${tools.length} workflow linters, ${problems.length} problem(s)`);
process.exit(problems.length ? 1 : 0);
