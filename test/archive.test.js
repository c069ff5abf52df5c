// The documents leave the git history (aggregate/assets.js): archived as release assets, fetched back
// for the pages. Against a folder standing in for GitHub's releases (test/fixtures/fake-gh.js), with
// real aggregates of real documents: a clone that holds only what git holds, restored, renders the
// same pages and charts, byte for byte, as the laptop that holds every document.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { aggregate } from '../aggregate/cli.js';
import { archive } from '../publish/archive.js';
import { restore } from '../publish/restore.js';
import { assetOf, documentLink, packAsset, unpackAsset } from '../aggregate/assets.js';
import { openStore, storedText } from '../aggregate/store.js';
import { syntheticDoc, syntheticShootout } from '../bench/meta/synthetic.js';
import { END, START } from '../lib/markers.js';
import { ROOT, scratch } from './helpers.js';

process.env.SQLITE_BENCH_GH = path.join(ROOT, 'test', 'fixtures', 'fake-gh.js');
/** This test's releases: a folder the stand-in keeps them in, and its log of calls (returned). */
function releases(/** @type {string} */ dir) {
  process.env.FAKE_GH_STORE = path.join(dir, 'releases');
  const log = path.join(dir, 'gh.log');
  process.env.FAKE_GH_LOG = log;
  return log;
}

/** A workspace: its releases (the stand-in's store), results/ and a README with the markers. */
function workspace(/** @type {string} */ dir, /** @type {string} */ name) {
  const ws = { results: path.join(dir, name, 'results'), readme: path.join(dir, name, 'README.md') };
  fs.mkdirSync(path.dirname(ws.readme), { recursive: true });
  fs.writeFileSync(ws.readme, `# R\n\n${START}\n${END}\n`);
  return ws;
}
/** A night's artifacts: a result document per Node and a shootout, on one machine. */
function night(/** @type {string} */ dir, /** @type {number} */ n) {
  const artifacts = path.join(dir, `night-${n}`);
  const finishedAt = `2026-11-${String(10 + n).padStart(2, '0')}T03:17:00.000Z`;
  const docs = [
    ...['v22.23.3', 'v24.21.0'].map((node, k) => syntheticDoc({ node, finishedAt, seed: n * 10 + k })),
    syntheticShootout({ finishedAt, nodes: ['v22.23.3', 'v24.21.0'], seed: n }),
  ];
  for (const [i, doc] of docs.entries()) {
    fs.mkdirSync(path.join(artifacts, `cell-${i}`), { recursive: true });
    fs.writeFileSync(path.join(artifacts, `cell-${i}`, 'doc.json'), JSON.stringify(doc));
  }
  return artifacts;
}
const run = async (/** @type {{ results: string, readme: string }} */ ws, /** @type {string} */ artifacts) => {
  const warn = /** @type {string[]} */ ([]);
  const code = await aggregate({ artifacts, ...ws }, { log: () => {}, warn: (s) => warn.push(s) });
  return { code, warn };
};
/** What git would hold of a results/ folder: everything but the documents (.gitignore). */
function cloneOf(
  /** @type {{ results: string, readme: string }} */ from,
  /** @type {{ results: string, readme: string }} */ to,
) {
  fs.cpSync(from.results, to.results, {
    recursive: true,
    filter: (f) =>
      !/[/\\]\d{4}([/\\]|$)/.test(path.relative(from.results, f) ? `/${path.relative(from.results, f)}` : ''),
  });
  fs.copyFileSync(from.readme, to.readme);
}
/** Every file under dir with its text. */
/** One night aggregated on a laptop and archived: its folder, the laptop, and the release's folder. */
async function archivedNight() {
  const dir = scratch('archive-');
  releases(dir);
  const laptop = workspace(dir, 'laptop');
  assert.equal((await run(laptop, night(dir, 0))).code, 0);
  archive({ results: laptop.results });
  return { dir, laptop };
}
const snapshot = (/** @type {string} */ dir) =>
  Object.fromEntries(
    fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .sort()
      .filter((f) => fs.statSync(path.join(dir, f)).isFile())
      .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]),
  );

test('a document is archived under its month, gzipped, named after its file; the pages link it there', () => {
  assert.deepEqual(assetOf('2026/2026-11-22-linux-x64-node-v22.23.3-abcdef12.json'), {
    tag: 'results-2026-11',
    name: '2026-11-22-linux-x64-node-v22.23.3-abcdef12.json.gz',
  });
  assert.equal(
    documentLink('results', '2026/2026-11-22-linux-x64-shootout-abcdef12.json'),
    'results/../../../releases/download/results-2026-11/2026-11-22-linux-x64-shootout-abcdef12.json.gz',
  );
  assert.throws(
    () => assetOf('2026/../../x.json'),
    /results\/index\.json: '2026\/\.\.\/\.\.\/x\.json' is not a stored document's path/,
  );
  assert.throws(() => assetOf('2025/2026-11-22-linux-x64-shootout-abcdef12.json'), /not a stored document's path/);
  const text = storedText(syntheticDoc());
  assert.equal(unpackAsset(packAsset(text)), text);
  assert.ok(packAsset(text).equals(packAsset(text)), 'the same document, the same bytes');
});

test('a clone that holds only what git holds, restored, renders the same pages and charts as one that holds every document', async () => {
  const dir = scratch('archive-');
  const ghLog = releases(dir);
  const laptop = workspace(dir, 'laptop');
  for (const n of [0, 1, 2]) assert.equal((await run(laptop, night(dir, n))).code, 0);
  const first = archive({ results: laptop.results });
  assert.equal(first.uploaded.length, 9, first.uploaded.join(' '));
  const released = fs.readdirSync(path.join(dir, 'releases', 'results-2026-11')).sort();
  assert.deepEqual(
    released,
    fs
      .readdirSync(path.join(laptop.results, '2026'))
      .map((f) => `${f}.gz`)
      .sort(),
  );
  // archiving again uploads nothing and replaces nothing
  fs.writeFileSync(ghLog, '');
  assert.deepEqual(archive({ results: laptop.results }).uploaded, []);
  assert.doesNotMatch(fs.readFileSync(ghLog, 'utf8'), /^upload/m);

  // the clone: no document; aggregating without restoring refuses, naming the file and the fix, and writes no page
  const bare = workspace(dir, 'bare');
  cloneOf(laptop, bare);
  const before = snapshot(path.dirname(bare.readme));
  await assert.rejects(
    run(bare, night(dir, 2)),
    /listed in .*index\.json but not here \(archived as asset 2026-11-12-linux-x64-.*\.json\.gz of release results-2026-11\); fetch what the pages need with npm run ci:restore/,
  );
  const after = snapshot(path.dirname(bare.readme));
  assert.equal(after['README.md'], before['README.md']);
  assert.equal(after['results/README.md'], before['results/README.md']);

  const clone = workspace(dir, 'clone');
  cloneOf(laptop, clone);

  // restored: the documents the pages read (the newest per Node major, the newest shootout), no more
  const { fetched } = restore({ results: clone.results });
  assert.deepEqual(
    fetched.map((f) => path.basename(f).slice(0, 10)),
    ['2026-11-12', '2026-11-12', '2026-11-12'],
  );
  for (const f of fetched)
    assert.equal(
      fs.readFileSync(path.join(clone.results, f), 'utf8'),
      fs.readFileSync(path.join(laptop.results, f), 'utf8'),
    );
  assert.deepEqual(restore({ results: clone.results }).fetched, [], 'a document here is not fetched again');

  // the next night, on both: the same README, page, index, nights and charts, byte for byte
  const tonight = night(dir, 3);
  assert.equal((await run(laptop, tonight)).code, 0);
  assert.equal((await run(clone, tonight)).code, 0);
  const withoutDocs = (/** @type {Record<string, string>} */ s) =>
    Object.fromEntries(Object.entries(s).filter(([f]) => !/^results\/\d{4}\//.test(f)));
  const a = withoutDocs(snapshot(path.dirname(laptop.readme)));
  const b = withoutDocs(snapshot(path.dirname(clone.readme)));
  assert.deepEqual(Object.keys(b), Object.keys(a));
  for (const f of Object.keys(a)) assert.equal(b[f], a[f], f);
  assert.match(
    a['results/README.md'],
    /\]\(\.\/\.\.\/\.\.\/\.\.\/releases\/download\/results-2026-11\/2026-11-13-linux-x64-node-v24\.21\.0-[0-9a-f]{8}\.json\.gz\)/,
  );
  // the index still lists all twelve: the archived ones too
  assert.equal(openStore(clone.results, () => {}).entries().length, 12);
});

test('restore refuses an asset that is not the document the index lists, and writes nothing', async () => {
  const { dir, laptop } = await archivedNight();
  const clone = workspace(dir, 'clone');
  cloneOf(laptop, clone);
  const [victim] = fs.readdirSync(path.join(dir, 'releases', 'results-2026-11')).filter((f) => f.includes('-node-v24'));
  const doc = JSON.parse(unpackAsset(fs.readFileSync(path.join(dir, 'releases', 'results-2026-11', victim))));
  doc.cases[0].stats.opsPerSec.median *= 2; // a figure changed after it was stored
  fs.writeFileSync(path.join(dir, 'releases', 'results-2026-11', victim), packAsset(storedText(doc)));
  assert.throws(
    () => restore({ results: clone.results }),
    new RegExp(
      `asset ${victim.replace(/\./g, '\\.')} of release results-2026-11 is not the document results/index\\.json lists as 2026/${victim.replace(/\.gz$/, '').replace(/\./g, '\\.')} \\(sha256 [0-9a-f]{12}…, listed [0-9a-f]{12}…\\); not written`,
    ),
  );
  assert.ok(!fs.existsSync(path.join(clone.results, '2026', victim.replace(/\.gz$/, ''))));
});

test('archive never replaces an asset: another document under a name the release has is refused', async () => {
  const { dir, laptop } = await archivedNight();
  const release = path.join(dir, 'releases', 'results-2026-11');
  const [name] = fs.readdirSync(release).filter((f) => f.includes('-node-v22'));
  const other = JSON.parse(unpackAsset(fs.readFileSync(path.join(release, name))));
  other.run.note = 'x'.repeat(40); // another document, of another size, under the same name
  fs.writeFileSync(path.join(release, name), packAsset(storedText(other)));
  const held = fs.readFileSync(path.join(release, name));
  assert.throws(
    () => archive({ results: laptop.results }),
    new RegExp(
      `release results-2026-11 has an asset ${name.replace(/\./g, '\\.')} that is another document than results/2026/.*; not replaced, nothing uploaded for results-2026-11`,
    ),
  );
  assert.ok(fs.readFileSync(path.join(release, name)).equals(held), 'the asset is as it was');
});

test('an unreadable index is never rebuilt over the archived documents it lists', async () => {
  const dir = scratch('archive-');
  const laptop = workspace(dir, 'laptop');
  assert.equal((await run(laptop, night(dir, 0))).code, 0);
  fs.writeFileSync(path.join(laptop.results, 'index.json'), '{"schemaVersion":1,"entries":[');
  assert.throws(
    () => openStore(laptop.results, () => {}),
    /index\.json: unreadable \(.*\); it lists the archived documents too, so it is not rebuilt: take it back from git \(git checkout -- .*index\.json\), or remove it to rebuild it from the documents here only/,
  );
});
