import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import {
  CATALOGUE_FILE,
  CATALOGUE_END,
  CATALOGUE_START,
  catalogueMarkdown,
  withCatalogue,
} from '../bench/tools/catalogue.js';
import { CIPHERS } from '../bench/data/ciphers.js';
import { CONFIGS, describeChanges } from '../bench/data/configs.js';
import { OPS } from '../bench/data/ops.js';
import { ROOT } from './helpers.js';

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const catalogue = fs.readFileSync(CATALOGUE_FILE, 'utf8');

test('docs/catalogue.md lists exactly the configs, ciphers and operations the code runs (npm run catalogue rewrites it)', () => {
  assert.equal(withCatalogue(catalogue), catalogue, "docs/catalogue.md is stale: run 'npm run catalogue'");
  const block = catalogue.slice(catalogue.indexOf(CATALOGUE_START), catalogue.indexOf(CATALOGUE_END));
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
    assert.equal(row.includes('only for claim'), Boolean(c.claimOnly), `${c.name}: only for claim`);
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
    'bench/data/',
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

/**
 * What the README and docs/ may name, read from the repository: its npm scripts, its files, and the
 * jobs and the `npm run` steps of its workflows.
 * @typedef {{ scripts: Set<string>, jobs: Set<string>, steps: Set<string>, exists: (rel: string) => boolean }} Facts
 */

/** @returns {Facts} */
function repositoryFacts(root = ROOT) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const dir = path.join(root, '.github', 'workflows');
  const jobs = new Set();
  const steps = new Set();
  for (const f of fs.readdirSync(dir).filter((x) => /\.ya?ml$/.test(x))) {
    const w = parseYaml(fs.readFileSync(path.join(dir, f), 'utf8'));
    for (const [id, job] of Object.entries(/** @type {Record<string, any>} */ (w.jobs ?? {}))) {
      jobs.add(id);
      for (const step of job.steps ?? []) {
        const m = /^npm (?:run ([\w:-]+)|(test))\b/.exec(String(step.run ?? '').trim());
        if (m) steps.add(m[1] ?? m[2]);
      }
    }
  }
  return {
    scripts: new Set(Object.keys(pkg.scripts)),
    jobs,
    steps,
    exists: (rel) => fs.existsSync(path.join(root, rel)),
  };
}

/** The folders a path in backticks may start with; each such path is checked. */
const ROOTS = /^(?:\.github|aggregate|bench|compare|docs|drivers|lib|out|publish|results|test|types)\//;
/** Where a path's known part ends: a placeholder (`<year>`, `…`, `*`, `{a,b}`, `[x]`) or a space. */
const PLACEHOLDER = /[<…*{[\s$]/;
/**
 * Paths the pages name that a checkout may lack, each with its reason; any other path they name must
 * exist. `under`: the path and everything below it.
 */
const ABSENT = [
  { path: 'out/', under: true, reason: "the commands' output: git-ignored (.gitignore), made by the first run" },
  {
    path: 'results/<year>/',
    under: true,
    reason:
      'the stored documents: git-ignored, archived as release assets; a checkout holds the ones it aggregated or fetched',
  },
  { path: 'results/', reason: 'made by the aggregate, committed by the nightly job: none before the first night' },
  { path: 'results/index.json', reason: 'written by the aggregate: none before the first night' },
  { path: 'results/README.md', reason: 'written by the aggregate: none before the first night' },
  {
    path: 'results/charts/',
    under: true,
    reason: 'the charts and nights the aggregate draws: none before the first night',
  },
];
const absentOk = (/** @type {string} */ p) => ABSENT.find((a) => p === a.path || (a.under && p.startsWith(a.path)));

/**
 * What a page of the README or docs/ names that the repository does not have: relative links to
 * files; `npm run X` and `ci:X`-style scripts; paths in backticks under the repository's folders;
 * "the `X` job" (or matrix); and scripts said to be a workflow step ("`ci:X` step", the rows of a
 * | Script | Step | table, the `npm run` of a mermaid diagram). One line per problem.
 * @param {string} page path from the root, e.g. docs/pipeline.md
 * @param {string} text
 * @param {Facts} facts
 * @returns {string[]}
 */
function missingNames(page, text, facts) {
  /** @type {string[]} */
  const problems = [];
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    if (!facts.exists(path.posix.normalize(path.posix.join(path.posix.dirname(page), target))))
      problems.push(`${page}: link to ${target}, which does not exist`);
  }
  const script = (/** @type {string} */ name, /** @type {string} */ as) => {
    const known = name.endsWith(':') ? [...facts.scripts].some((s) => s.startsWith(name)) : facts.scripts.has(name);
    if (!known) problems.push(`${page}: ${as}: package.json has no script ${name}`);
  };
  // `npm run meta:*` names the scripts of a prefix; a colon or stop after a name is punctuation
  for (const m of text.matchAll(/\bnpm run ([a-z](?:[\w.:-]*\w)?)(:\*)?/g))
    script(m[2] ? `${m[1]}:` : m[1], `npm run ${m[1]}${m[2] ?? ''}`);
  for (const s of spans) {
    const m = /^(?:ci|meta|test|bench):[\w-]+/.exec(s);
    if (m) script(m[0], `\`${s}\``);
  }
  for (const s of spans.filter((x) => ROOTS.test(x))) {
    if (absentOk(s)) continue;
    const cut = s.search(PLACEHOLDER);
    const known = cut < 0 ? s : s.slice(0, s.lastIndexOf('/', cut) + 1);
    if (!facts.exists(known)) problems.push(`${page}: \`${s}\`: ${known} does not exist`);
  }
  for (const [, job, what] of prose.matchAll(/`([\w-]+)` (job|matrix)/g))
    if (!facts.jobs.has(job)) problems.push(`${page}: the \`${job}\` ${what}: no workflow has a job ${job}`);
  /** @type {[string, string][]} */
  const saidSteps = [...prose.matchAll(/`(?:npm run )?([a-z][\w-]*:[\w-]+)[^`]*` step/g)].map((m) => [m[1], 'step']);
  for (const table of prose.matchAll(/^\| Script \| Step \|\n\|[- |]+\|\n((?:\|.*\n?)*)/gm))
    for (const row of table[1].split('\n').filter(Boolean))
      for (const [, name] of row.split('|')[1].matchAll(/`([\w:-]+)`/g))
        saidSteps.push([name, 'a row of | Script | Step |']);
  for (const fence of text.matchAll(/^```mermaid\n([\s\S]*?)^```/gm))
    for (const [, name] of fence[1].matchAll(/npm run (ci:[\w-]+)/g)) saidSteps.push([name, 'a step of the diagram']);
  for (const [name, as] of saidSteps)
    if (!facts.steps.has(name)) problems.push(`${page}: ${name} (${as}): no workflow step runs npm run ${name}`);
  return problems;
}

/** The README and every page of docs/, as paths from the root. */
const pages = () => [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

test('every link, npm script, path, workflow job and step the README and docs/ name exists', () => {
  const facts = repositoryFacts();
  assert.ok(facts.jobs.has('aggregate') && facts.steps.has('ci:bench') && facts.scripts.has('ci:bench'));
  const problems = pages().flatMap((page) => missingNames(page, fs.readFileSync(path.join(ROOT, page), 'utf8'), facts));
  assert.deepEqual(problems, []);
  // each allowance for an absent path is one the pages need: the list does not outgrow them
  const named = pages().flatMap((page) =>
    [...fs.readFileSync(path.join(ROOT, page), 'utf8').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]),
  );
  for (const a of ABSENT)
    assert.ok(
      named.some((s) => absentOk(s) === a),
      `${a.path} (${a.reason}) is allowed to be absent, but no page names it`,
    );
});

test('missingNames finds a script, a path, a link, a job and a step that do not exist, and passes what does', () => {
  /** @type {Facts} */
  const facts = {
    scripts: new Set(['bench', 'ci:bench', 'meta:floor']),
    jobs: new Set(['bench', 'aggregate']),
    steps: new Set(['ci:bench']),
    exists: (rel) => ['bench/', 'bench/cli.js', 'docs/', 'docs/pipeline.md', '.github/workflows/'].includes(rel),
  };
  const page = [
    'Run `npm run bench`, `npm run meta:floor -- --quick` or any `npm run meta:*` (not `npm run zzz:*`); `npm run nope` and `ci:gone` are not there.',
    'In a diagram: "npm run ci:bench: the run". Or npm run bench.',
    'Files: `bench/cli.js`, `bench/<name>.js`, `bench/gone.js`, `.github/workflows/nope.yml`, [a page](pipeline.md), [another](gone.md).',
    'Absent by design: `results/<year>/<date>.json`, `out/matrix/`, `results/index.json`; but not `results/gone.txt`.',
    'The `aggregate` job, the `bench` matrix and the `ghost` job; the `ci:bench` step and the `npm run meta:floor` step.',
    '',
    '| Script | Step |',
    '| --- | --- |',
    '| `ci:bench` / `meta:floor` | x |',
    '',
    '```mermaid',
    'flowchart LR',
    '  a["npm run ci:bench"] --> b["npm run ci:archive"]',
    '```',
    '',
  ].join('\n');
  assert.deepEqual(missingNames('docs/x.md', page, facts), [
    'docs/x.md: link to gone.md, which does not exist',
    'docs/x.md: npm run zzz:*: package.json has no script zzz:',
    'docs/x.md: npm run nope: package.json has no script nope',
    'docs/x.md: npm run ci:archive: package.json has no script ci:archive',
    'docs/x.md: `ci:gone`: package.json has no script ci:gone',
    'docs/x.md: `bench/gone.js`: bench/gone.js does not exist',
    'docs/x.md: `.github/workflows/nope.yml`: .github/workflows/nope.yml does not exist',
    'docs/x.md: `results/gone.txt`: results/gone.txt does not exist',
    'docs/x.md: the `ghost` job: no workflow has a job ghost',
    'docs/x.md: meta:floor (step): no workflow step runs npm run meta:floor',
    'docs/x.md: meta:floor (a row of | Script | Step |): no workflow step runs npm run meta:floor',
    'docs/x.md: ci:archive (a step of the diagram): no workflow step runs npm run ci:archive',
  ]);
});

test("docs/README.md's npm scripts section names every script of package.json", () => {
  const text = fs.readFileSync(path.join(ROOT, 'docs', 'README.md'), 'utf8');
  const start = text.indexOf('\n## npm scripts\n');
  assert.ok(start >= 0, 'docs/README.md has no "## npm scripts" section');
  const section = text.slice(start, text.indexOf('\n## ', start + 1));
  const named = new Set([
    ...[...section.matchAll(/\bnpm run ([\w:-]+)/g)].map((m) => m[1]),
    ...[...section.matchAll(/`([\w:-]+)[^`]*`/g)].map((m) => m[1]),
    ...(/\bnpm test\b/.test(section) ? ['test'] : []),
  ]);
  const scripts = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts);
  assert.deepEqual(
    scripts.filter((s) => !named.has(s)),
    [],
    'scripts of package.json that docs/README.md does not list',
  );
});

test('withCatalogue refuses a README without exactly one pair of markers', () => {
  assert.throws(() => withCatalogue('no markers'), /exactly once/);
  assert.throws(() => withCatalogue(`${CATALOGUE_START}\n${CATALOGUE_START}\n${CATALOGUE_END}`), /exactly once/);
  assert.throws(() => withCatalogue(`${CATALOGUE_END}\n${CATALOGUE_START}`), /before/);
});
