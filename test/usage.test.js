// Every command explains itself (issue 36, fault 9): --help on every npm script's entry point
// prints each flag of the option table its parser uses, with a default and a meaning, and exits 0;
// a bad value says the valid range in one line and exits 2; an unsupported Node is refused before
// anything is fetched.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, childEnv } from './helpers.js';

/** Every module an npm script starts with node, once each (postinstall and drivers share one). */
const ENTRIES = [
  ...new Set(
    Object.values(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts).flatMap((s) =>
      [...String(s).matchAll(/\bnode (\S+\.js)\b/g)].map((m) => m[1]),
    ),
  ),
].sort();

/** Arguments before the flags: bench:node takes a Node version first. */
const FIRST = /** @type {Record<string, string[]>} */ ({ 'bench/tools/other-node.js': ['20'] });

/**
 * @param {string} file
 * @param {string[]} args
 * @returns {Promise<{ status: number | null, stdout: string, stderr: string }>}
 */
const run = (file, args) =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, file), ...args],
      { cwd: ROOT, env: childEnv(), timeout: 120_000, encoding: 'utf8' },
      (err, stdout, stderr) =>
        resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
  });

test('the npm scripts start at least the commands this test knows of', () => {
  assert.ok(ENTRIES.length >= 35, ENTRIES.join(', '));
  for (const f of ['bench/cli.js', 'bench/tools/matrix.js', 'bench/meta/screenshots.js', 'test/lint.js'])
    assert.ok(ENTRIES.includes(f), f);
});

for (const file of ENTRIES) {
  test(`${file}: --help lists every flag its parser takes, each with a meaning and a default`, async () => {
    const [help, bad] = await Promise.all([
      run(file, [...(FIRST[file] ?? []), '--help']),
      run(file, [...(FIRST[file] ?? []), '--no-such-flag']),
    ]);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^usage: npm (run [\w:-]+|test|install)/);
    const [, summary] = help.stdout.split('\n\n');
    assert.ok(summary && summary.length > 40, `a sentence on what it does: ${summary}`);
    // the parser's own list of flags, from the error an unknown flag gets
    assert.equal(bad.status, 2, bad.stderr);
    const lines = bad.stderr.trim().split('\n');
    assert.equal(lines.length, 1, bad.stderr);
    const valid = /; valid flags: (.+)$/.exec(lines[0]);
    assert.ok(valid, lines[0]);
    const flags = valid[1].split(', ');
    assert.ok(flags.includes('--help'), valid[1]);
    const rows = help.stdout.split('\n').filter((l) => /^ {2}(-\w, )?--/.test(l));
    assert.equal(rows.length, flags.length, `one row per flag:\n${rows.join('\n')}\nparser: ${valid[1]}`);
    for (const flag of flags) {
      const row = help.stdout.split('\n').findIndex((l) => new RegExp(`^ {2}(-\\w, )?${flag}( |$)`).test(l));
      assert.ok(row >= 0, `${flag} is listed`);
      // a long flag name puts its text on the next line
      const text = `${help.stdout.split('\n')[row]} ${help.stdout.split('\n')[row + 1] ?? ''}`;
      assert.match(text, /[a-z]{3,}.*; default: \S/, `${flag} has a meaning and a default: ${text}`);
      assert.doesNotMatch(text, /\(undocumented\)/, `${flag} has a meaning`);
    }
  });
}

for (const [file, args, pattern] of /** @type {[string, string[], RegExp][]} */ ([
  ['bench/cli.js', ['--rounds', '-1'], /^bench: bad --rounds '-1'; valid: a whole number from 1 to \d+$/],
  ['bench/cli.js', ['--time', '-5'], /^bench: bad --time '-5'; valid: a whole number from 1 to \d+$/],
  ['bench/cli.js', ['--rounds=0'], /^bench: bad --rounds '0'; valid: a whole number from 1 to \d+$/],
  ['bench/claims/cli.js', ['--rounds', '-3'], /^claims: bad --rounds '-3'; valid: a whole number from 8 to \d+$/],
  [
    'compare/cli.js',
    ['--base', '.', '--alpha', '-0.1'],
    /^compare: bad --alpha '-0.1'; valid: a number from 0 to 0.5$/,
  ],
  [
    'bench/tools/matrix.js',
    ['--node', '16'],
    /^matrix: bad --node '16'; valid: Node majors or versions from 18\.18 to \d+\.x, comma-separated/,
  ],
  [
    'bench/tools/matrix.js',
    ['--node', '20,18.17.0'],
    /^matrix: bad --node '20,18\.17\.0'; valid: Node majors or versions from 18\.18 to/,
  ],
  [
    'bench/tools/other-node.js',
    ['99', '--quick'],
    /^bench:node: bad Node version '99'; valid: a major or an exact version from 18\.18 to \d+\.x/,
  ],
  ['bench/tools/other-node.js', ['16'], /^bench:node: bad Node version '16'; valid: /],
  [
    'bench/tools/test-nodes.js',
    ['--node', '17'],
    /^test:nodes: bad --node '17'; valid: Node majors or versions from 18\.18/,
  ],
  ['bench/shootout/cli.js', ['--node', '99'], /^shootout: bad --node '99'; valid: Node majors or versions from 18\.18/],
  [
    'bench/meta/same-verdicts.js',
    ['test/fixtures/real-linux-x64-v20-claims-workloads.json'],
    /^same-verdicts: test\/fixtures\/real-linux-x64-v20-claims-workloads\.json: no \/cases: needs a run document with its cases' rounds, or a shootout document$/,
  ],
])) {
  test(`${file} ${args.join(' ')}: exit 2, one line naming the flag and the valid range, nothing fetched`, async () => {
    const r = await run(file, args);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], pattern);
  });
}
