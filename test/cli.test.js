import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { UsageError } from '../lib/command.js';
import { parseFlags } from '../bench/engine/flags.js';
import { CASE_NAMES } from '../bench/data/suite.js';
import { ROOT, childEnv } from './helpers.js';

const bench = (/** @type {string[]} */ args) =>
  spawnSync(process.execPath, [path.join(ROOT, 'bench/cli.js'), ...args], { encoding: 'utf8', env: childEnv() });

for (const [args, pattern] of /** @type {[string[], RegExp][]} */ ([
  [
    ['--config', 'nope'],
    /^bench: unknown --config 'nope'; valid: production, (.*, )?wal-autocheckpoint-1000, .*baseline(, [a-z0-9-]+)*$/,
  ],
  [
    ['--driver', 'sqlite3'],
    /^bench: unknown --driver 'sqlite3'; valid: better-sqlite3-multiple-ciphers, better-sqlite3, node:sqlite$/,
  ],
  [['--cipher', 'aes'], /^bench: unknown --cipher 'aes'; valid: chacha20, .*, none$/],
  [['--op', 'insert,drop'], /^bench: unknown --op 'drop'; valid: setup, insert, .*size$/],
  [['--time', '0'], /^bench: bad --time '0'; valid: a whole number from 1 to 600000$/],
  [['--time', 'fast'], /^bench: bad --time 'fast'; valid: a whole number/],
  [['--seed', '-3'], /^bench: .*--seed/],
  [['--frobnicate'], /^bench: Unknown option '--frobnicate'.*; valid flags: --quick, --config/],
])) {
  test(`bench ${args.join(' ')} exits 2 with a one-line error naming the flag and the choices`, () => {
    const r = bench(args);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], pattern);
  });
}

test('--list prints every valid name of every table', () => {
  const r = bench(['--list']);
  assert.equal(r.status, 0);
  for (const names of Object.values(CASE_NAMES))
    for (const n of names) assert.match(r.stdout, new RegExp(`^  ${n.replace(/[+:]/g, '\\$&')} `, 'm'));
  assert.match(r.stdout, /wal-autocheckpoint-1000 .*not a tuning/);
});

test('filters accept repeats and commas, and deduplicate', () => {
  const f = parseFlags(['--config', 'production,baseline', '--config', 'production', '--op', 'insert']);
  assert.deepEqual(f.filters, { config: ['production', 'baseline'], op: ['insert'] });
  assert.throws(() => parseFlags(['--cipher', '']), UsageError);
});

test('a repeatable flag of any command takes a comma-separated list, as --help says: meta:same-pages --real a,b checks a, then b', () => {
  const run = (/** @type {string[]} */ args) =>
    spawnSync(process.execPath, [path.join(ROOT, 'bench/meta/same-pages.js'), ...args], {
      encoding: 'utf8',
      env: childEnv(),
    });
  const shootout = path.join(ROOT, 'test', 'fixtures', 'real-linux-x64-shootout.json');
  const missing = path.join(ROOT, 'test', 'no-such-document.json');
  for (const args of [
    ['--real', `${shootout},${missing}`],
    ['--real', shootout, '--real', missing],
  ]) {
    const r = run(args);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(
      r.stderr.trim(),
      `meta:same-pages: --real ${missing}: no such file; valid: a result or shootout document`,
    );
  }
});

test('meta:screenshots --real with a folder that is not an aggregated one exits 2 naming the flag and what it needs, before anything is drawn', () => {
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bench/meta/screenshots.js'), '--nights', '0', '--real', path.join(ROOT, 'test')],
    { encoding: 'utf8', env: childEnv() },
  );
  assert.equal(r.status, 2);
  assert.match(
    r.stderr.trim(),
    /^meta:screenshots: --real .*test: not an aggregated folder \(it needs README\.md and results\/README\.md: the --readme and --results of npm run aggregate, e\.g\. out\/matrix after npm run matrix\)$/,
  );
});

test('ci:restore and ci:archive refuse an unknown flag with the valid ones', () => {
  for (const [script, name] of [
    ['publish/restore.js', 'ci:restore'],
    ['publish/archive.js', 'ci:archive'],
  ]) {
    const r = spawnSync(process.execPath, [path.join(ROOT, script), '--tag', 'x'], {
      encoding: 'utf8',
      env: childEnv(),
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr.trim(), new RegExp(`^${name}: Unknown option '--tag'.*; valid flags: --results`));
  }
});
