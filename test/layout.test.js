// README.md's "Where things live" table against the folders of the checkout, so the table a
// newcomer reads to find where a file goes cannot fall behind a move.
//
// The rule (the depth is this file's, change it here and in the table together):
// - a row is `| `folder/` | its job |`, one folder per row, each folder once, the job not empty;
// - every folder a row names exists, except `results/`, which the aggregate writes and the nightly
//   job commits (a fork before its first night has none);
// - every folder at the top of the checkout has a row, except dot-folders (.github/, .ci/, the
//   .drivers/ and .cache/ of installs) and the git-ignored node_modules/ and out/;
// - every folder directly inside bench/, aggregate/ and lib/ has a row (one level: a folder deeper
//   down, such as aggregate/charts/x/, and folders of data elsewhere, drivers/node18/ or
//   test/fixtures/, need none, though a row may name them).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers.js';

/** Folders that need a row even when absent from a checkout: written by the pipeline. */
const GENERATED = new Set(['results/']);
const IGNORED = new Set(['node_modules', 'out']);
/** Folders whose every subfolder has a row. */
const NESTED = ['bench', 'aggregate', 'lib'];

/**
 * The rows of the table under a README's "## Where things live": folder and job.
 * @param {string} readme
 */
function layoutRows(readme) {
  const start = readme.indexOf('\n## Where things live\n');
  assert.ok(start >= 0, 'README.md has no "## Where things live" section');
  const rest = readme.slice(start + 1);
  const end = rest.indexOf('\n## ', 1);
  const lines = (end < 0 ? rest : rest.slice(0, end)).split('\n').filter((l) => l.startsWith('|'));
  assert.match(lines[0] ?? '', /^\| Folder \| Job \|$/, 'the table has the header | Folder | Job |');
  return lines.slice(2).map((line) => {
    const m = /^\| `([\w.-]+(?:\/[\w.-]+)*\/)` \| (.*\S) \|$/.exec(line);
    assert.ok(m, `not a row | \`folder/\` | job |: ${line}`);
    return { folder: m[1], job: m[2] };
  });
}

/** The folders of the checkout that need a row, as `name/` relative to the root. */
function foldersNeedingRows(root = ROOT) {
  const dirs = (/** @type {string} */ rel) =>
    fs
      .readdirSync(path.join(root, rel), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  const top = dirs('.').filter((d) => !d.startsWith('.') && !IGNORED.has(d));
  return [
    ...top.map((d) => `${d}/`),
    ...NESTED.filter((d) => top.includes(d)).flatMap((d) => dirs(d).map((s) => `${d}/${s}/`)),
  ];
}

const rows = layoutRows(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));

test('"Where things live": one row per folder, each naming a folder that exists, with its job', () => {
  assert.ok(rows.length > 0);
  const seen = new Set();
  for (const { folder, job } of rows) {
    assert.ok(!seen.has(folder), `${folder} has two rows`);
    seen.add(folder);
    assert.ok(job.length >= 10, `${folder}: no job said`);
    if (!GENERATED.has(folder))
      assert.ok(
        fs.statSync(path.join(ROOT, folder), { throwIfNoEntry: false })?.isDirectory(),
        `README.md's "Where things live" names ${folder}, which does not exist`,
      );
  }
});

test('"Where things live": every top-level folder, and every folder of bench/, aggregate/ and lib/, has a row', () => {
  const named = new Set(rows.map((r) => r.folder));
  const needed = foldersNeedingRows();
  assert.ok(needed.includes('bench/') && needed.some((d) => d.startsWith('bench/')), needed.join(' '));
  const missing = needed.filter((d) => !named.has(d));
  assert.deepEqual(missing, [], `folders with no row in README.md's "Where things live": ${missing.join(', ')}`);
  for (const d of GENERATED) assert.ok(named.has(d), `${d} has no row`);
});
