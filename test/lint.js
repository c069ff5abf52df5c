#!/usr/bin/env node
// npm run lint: every JavaScript file parses on the running Node (the project promises 18-25
// unchanged); the types check (tsc over the JSDoc, against Node 18's API and ES2022:
// tsconfig.json); ESLint with eslint-plugin-n, which reads package.json's engines, so an API newer
// than Node 18 is an error (eslint.config.js); prettier's formatting (.prettierrc.json); and the
// workflows pass actionlint and zizmor. Each tool's findings are printed; exit 1 when any has one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { firstLine, helpText, parseStrict } from '../lib/command.js';

const HELP = {
  usage: 'npm run lint',
  summary:
    "Every JavaScript file parses on this Node; tsc over the JSDoc types against Node 18's API; ESLint with eslint-plugin-n; prettier --check; actionlint and zizmor over the workflows. Exit 1 on any finding. No flags.",
  options: {},
};
try {
  if (parseStrict(process.argv.slice(2), HELP.options).help) {
    console.log(helpText(HELP));
    process.exit(0);
  }
} catch (err) {
  console.error(`lint: ${firstLine(err)}`);
  process.exit(2);
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The folders of JavaScript the project runs; fixtures are data. */
const DIRS = ['bench', 'aggregate', 'compare', 'publish', 'lib', 'test'];
const bin = (/** @type {string} */ name) => path.join(ROOT, 'node_modules', '.bin', name);

const files = DIRS.flatMap((d) =>
  (fs.existsSync(path.join(ROOT, d)) ? fs.readdirSync(path.join(ROOT, d), { recursive: true }) : []).map((f) =>
    path.join(ROOT, d, String(f)),
  ),
).filter((f) => f.endsWith('.js') && !f.includes(`${path.sep}fixtures${path.sep}`));
/** @type {string[]} */
const problems = [];
for (const file of files) {
  const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
  if (r.status !== 0)
    problems.push(`${path.relative(ROOT, file)}: does not parse: ${r.stderr.trim().split('\n').slice(0, 4).join(' ')}`);
}

// Workflows: actionlint 1.7.12 (built from the Go module proxy: the npm wrappers embed an older one
// that rejects current runner labels) and zizmor, the Actions security auditor, offline, medium+.
const ACTIONLINT = { cmd: 'go', args: ['run', 'github.com/rhysd/actionlint/cmd/actionlint@v1.7.12', '-no-color'] };
const ZIZMOR_VERSION = '1.32.0';
const workflows = path.join(ROOT, '.github', 'workflows');
/** @type {{ name: string, cmd: string, args: string[] }[]} */
const tools = [
  { name: 'tsc', cmd: bin('tsc'), args: ['-p', 'tsconfig.json', '--pretty', 'false'] },
  { name: 'eslint', cmd: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  { name: 'prettier', cmd: bin('prettier'), args: ['--check', '--log-level', 'warn', '.'] },
];
if (fs.existsSync(workflows)) {
  const yml = fs
    .readdirSync(workflows)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => path.join('.github', 'workflows', f));
  tools.push({ name: 'actionlint', cmd: ACTIONLINT.cmd, args: [...ACTIONLINT.args, ...yml] });
  const zizmor =
    spawnSync('zizmor', ['--version'], { encoding: 'utf8' }).status === 0
      ? { cmd: 'zizmor', args: [] }
      : { cmd: 'pipx', args: ['run', '--spec', `zizmor==${ZIZMOR_VERSION}`, 'zizmor'] };
  tools.push({
    name: 'zizmor',
    cmd: zizmor.cmd,
    args: [...zizmor.args, '--offline', '--min-severity', 'medium', '--no-progress', '.github/workflows'],
  });
}
for (const tool of tools) {
  const r = spawnSync(tool.cmd, tool.args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error)
    problems.push(`${tool.name}: could not run '${tool.cmd}' (${r.error.message}); install it (see .ci/run)`);
  else if (r.status !== 0) problems.push(`${tool.name}: exit ${r.status}\n${(r.stdout + r.stderr).trim()}`);
  else console.log(`lint: ${tool.name} clean`);
}

for (const p of problems) console.error(`lint: ${p}`);
console.log(`lint: ${files.length} files, ${tools.length} linters, ${problems.length} problem(s)`);
process.exit(problems.length ? 1 : 0);
