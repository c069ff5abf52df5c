// The documents leave the git history (aggregate/assets.js): archived in GitHub releases, fetched
// back for the pages. Against a model of GitHub's releases (test/fixtures/fake-gh.js), with real
// aggregates of real documents: a clone that holds only what git holds, restored, renders the same
// pages and charts, byte for byte, as the laptop that holds every document. The faults GitHub has
// (immutable releases, the asset cap, cut-off uploads, a lagging listing, rate limits, a fork
// without releases) are in test/publish.test.js, through the nightly job's publish step.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { aggregate } from '../aggregate/cli.js';
import { archive } from '../publish/archive.js';
import { restore } from '../publish/restore.js';
import { bundleName, documentLink, packBundle, releaseOf, unpackBundle } from '../aggregate/assets.js';
import { openStore, storedText } from '../aggregate/store.js';
import { syntheticDoc, syntheticShootout } from '../bench/meta/synthetic.js';
import { END, START } from '../lib/markers.js';
import { ROOT, scratch, TEST_NOW } from './helpers.js';

process.env.SQLITE_BENCH_GH = path.join(ROOT, 'test', 'fixtures', 'fake-gh.js');
process.env.SQLITE_BENCH_GH_BACKOFF_MS = '1';
delete process.env.GH_REPO;
delete process.env.GITHUB_REPOSITORY;
/** A release of the model's store: its state (release.json) and the folder of its assets. */
export function releaseIn(/** @type {string} */ dir, /** @type {string} */ tag, repo = 'owner/repo') {
  const at = path.join(dir, 'releases', 'repos', ...repo.split('/'), tag);
  return { meta: JSON.parse(fs.readFileSync(path.join(at, 'release.json'), 'utf8')), assets: path.join(at, 'assets') };
}
/** The tags of the model's releases of a repository. */
export function tagsIn(/** @type {string} */ dir, repo = 'owner/repo') {
  const at = path.join(dir, 'releases', 'repos', ...repo.split('/'));
  return fs.existsSync(at)
    ? fs
        .readdirSync(at)
        .filter((f) => f.startsWith('results-'))
        .sort()
    : [];
}
/** This test's releases: a folder the model keeps them in, and its log of calls (returned). */
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
  const code = await aggregate({ artifacts, ...ws, now: TEST_NOW }, { log: () => {}, warn: (s) => warn.push(s) });
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
  await archive({ results: laptop.results });
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

test('a batch of documents names one release, by its newest day and its content; one asset packs them', () => {
  const a = { file: '2026/2026-11-22-linux-x64-node-v22.23.3-abcdef12.json', sha256: 'a'.repeat(64) };
  const b = { file: '2026/2026-11-23-linux-x64-shootout-abcdef13.json', sha256: 'b'.repeat(64) };
  const tag = releaseOf([a, b]);
  assert.match(tag, /^results-2026-11-23-[0-9a-f]{8}$/);
  assert.equal(releaseOf([b, a]), tag, 'the same batch, the same release');
  assert.notEqual(releaseOf([a]), tag, 'another batch, another release');
  assert.notEqual(releaseOf([a, b], '42.2'), tag, 'a re-run names another release');
  assert.throws(
    () => releaseOf([{ file: '2026/../../x.json', sha256: '' }]),
    /results\/index\.json: '2026\/\.\.\/\.\.\/x\.json' is not a stored document's path/,
  );
  assert.equal(bundleName(tag), `${tag}.jsonl.gz`);
  assert.equal(
    documentLink('22 Nov', 'results', { ...a, release: tag }),
    `[22 Nov](results/../../../releases/download/${tag}/${tag}.jsonl.gz)`,
  );
  assert.equal(documentLink('22 Nov', 'results', a), '22 Nov', 'no release named: no link');
  const docs = [
    { file: b.file, text: storedText(syntheticShootout()) },
    { file: a.file, text: storedText(syntheticDoc()) },
  ];
  const packed = packBundle(docs);
  assert.deepEqual(
    [...unpackBundle(packed)],
    [...docs].reverse().map((d) => [d.file, d.text]),
  );
  assert.ok(packBundle([...docs].reverse()).equals(packed), 'the same documents, the same bytes');
  assert.throws(() => packBundle([{ file: a.file, text: '{\n}\n' }]), /a stored document is one line of JSON/);
});

test('a clone that holds only what git holds, restored, renders the same pages and charts as one that holds every document', async () => {
  const dir = scratch('archive-');
  const ghLog = releases(dir);
  const laptop = workspace(dir, 'laptop');
  for (const n of [0, 1, 2]) assert.equal((await run(laptop, night(dir, n))).code, 0);
  const first = await archive({ results: laptop.results });
  // one release a night, made with its one asset in one call
  assert.deepEqual(Object.values(first.releases), ['made', 'made', 'made']);
  const index = openStore(laptop.results, () => {}).entries();
  assert.deepEqual(tagsIn(dir), [...new Set(index.map((e) => e.release))].sort());
  for (const tag of tagsIn(dir)) {
    const { meta, assets } = releaseIn(dir, tag);
    assert.equal(meta.draft, false);
    assert.deepEqual(fs.readdirSync(assets), [bundleName(tag)]);
    const held = unpackBundle(fs.readFileSync(path.join(assets, bundleName(tag))));
    assert.deepEqual(
      [...held.keys()],
      index.filter((e) => e.release === tag).map((e) => e.file),
    );
  }
  assert.equal(fs.readFileSync(ghLog, 'utf8').match(/^create /gm)?.length, 3);
  // archiving again makes nothing and replaces nothing
  fs.writeFileSync(ghLog, '');
  assert.deepEqual(Object.values((await archive({ results: laptop.results })).releases), ['there', 'there', 'there']);
  assert.doesNotMatch(fs.readFileSync(ghLog, 'utf8'), /^(create|upload|delete)/m);

  // the clone: no document; aggregating without restoring refuses, naming the file and the fix, and writes no page
  const bare = workspace(dir, 'bare');
  cloneOf(laptop, bare);
  const before = snapshot(path.dirname(bare.readme));
  await assert.rejects(
    run(bare, night(dir, 2)),
    /listed in .*index\.json but not here \(archived in release results-2026-11-12-[0-9a-f]{8}, asset results-2026-11-12-[0-9a-f]{8}\.jsonl\.gz\); fetch what the pages need with npm run ci:restore/,
  );
  const after = snapshot(path.dirname(bare.readme));
  assert.equal(after['README.md'], before['README.md']);
  assert.equal(after['results/README.md'], before['results/README.md']);

  const clone = workspace(dir, 'clone');
  cloneOf(laptop, clone);

  // restored: the documents the pages read (the newest per Node major, the newest shootout), no more, in one download
  fs.writeFileSync(ghLog, '');
  const { fetched } = await restore({ results: clone.results });
  assert.deepEqual(
    fetched.map((f) => path.basename(f).slice(0, 10)),
    ['2026-11-12', '2026-11-12', '2026-11-12'],
  );
  assert.equal(fs.readFileSync(ghLog, 'utf8').match(/^download /gm)?.length, 1);
  for (const f of fetched)
    assert.equal(
      fs.readFileSync(path.join(clone.results, f), 'utf8'),
      fs.readFileSync(path.join(laptop.results, f), 'utf8'),
    );
  assert.deepEqual((await restore({ results: clone.results })).fetched, [], 'a document here is not fetched again');

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
    /\]\(\.\/\.\.\/\.\.\/\.\.\/releases\/download\/(results-2026-11-13-[0-9a-f]{8})\/\1\.jsonl\.gz\)/,
  );
  // the index still lists all twelve: the archived ones too
  assert.equal(openStore(clone.results, () => {}).entries().length, 12);
  // --all: every document, one download per release
  fs.writeFileSync(ghLog, '');
  assert.equal((await restore({ results: clone.results, all: true })).fetched.length, 6);
  assert.equal(fs.readFileSync(ghLog, 'utf8').match(/^download /gm)?.length, 2);
});

test('restore refuses an asset that does not hold the document the index lists, and writes nothing', async () => {
  const { dir, laptop } = await archivedNight();
  const clone = workspace(dir, 'clone');
  cloneOf(laptop, clone);
  const [tag] = tagsIn(dir);
  const file = path.join(releaseIn(dir, tag).assets, bundleName(tag));
  const docs = unpackBundle(fs.readFileSync(file));
  const [victim] = [...docs.keys()].filter((f) => f.includes('-node-v24'));
  const doc = JSON.parse(/** @type {string} */ (docs.get(victim)));
  doc.cases[0].stats.opsPerSec.median *= 2; // a figure changed after it was stored
  docs.set(victim, storedText(doc));
  fs.writeFileSync(file, packBundle([...docs].map(([f, text]) => ({ file: f, text }))));
  await assert.rejects(
    restore({ results: clone.results }),
    new RegExp(
      `asset ${tag}\\.jsonl\\.gz of release ${tag} holds another document than results/index\\.json lists as ${victim.replace(/\./g, '\\.')} \\(sha256 [0-9a-f]{12}…, listed [0-9a-f]{12}…\\); not written`,
    ),
  );
  assert.deepEqual(
    fs.readdirSync(clone.results).filter((f) => /^\d{4}$/.test(f)),
    [],
    'no document written',
  );
});

test('archive never replaces an asset: a release that holds other documents is refused', async () => {
  const { dir, laptop } = await archivedNight();
  const [tag] = tagsIn(dir);
  const file = path.join(releaseIn(dir, tag).assets, bundleName(tag));
  const docs = unpackBundle(fs.readFileSync(file));
  const [name] = [...docs.keys()].filter((f) => f.includes('-node-v22'));
  const other = JSON.parse(/** @type {string} */ (docs.get(name)));
  other.run.note = 'x'.repeat(40); // another document, of another size, under the same name
  docs.set(name, storedText(other));
  fs.writeFileSync(file, packBundle([...docs].map(([f, text]) => ({ file: f, text }))));
  const held = fs.readFileSync(file);
  await assert.rejects(
    archive({ results: laptop.results }),
    new RegExp(
      `release ${tag} holds an asset ${tag}\\.jsonl\\.gz that is not the documents results/index\\.json archives there; not replaced`,
    ),
  );
  assert.ok(fs.readFileSync(file).equals(held), 'the asset is as it was');
});

test('a release GitHub keeps cutting off is made again, in 4 rounds in all; then one line names the last refusal', async () => {
  for (const cuts of [3, 4]) {
    const dir = scratch('archive-');
    const ghLog = releases(dir);
    const laptop = workspace(dir, 'laptop');
    assert.equal((await run(laptop, night(dir, 0))).code, 0);
    fs.mkdirSync(path.join(dir, 'releases'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'releases', 'faults.json'), JSON.stringify({ interrupt: cuts }));
    /** @type {string[]} */
    const log = [];
    const archived = archive({ results: laptop.results, log: (s) => log.push(s) });
    if (cuts === 3) assert.deepEqual(Object.values((await archived).releases), ['made']);
    else
      await assert.rejects(archived, (err) => {
        assert.match(
          /** @type {Error} */ (err).message,
          /^release results-2026-11-10-[0-9a-f]{8}: not made after 4 rounds; the last refusal: Post "https:\/\/uploads\.github\.com\/.*": read: connection reset by peer$/,
        );
        return true;
      });
    assert.equal(fs.readFileSync(ghLog, 'utf8').match(/^create /gm)?.length, 4);
    assert.equal(log.filter((l) => /is a draft, left by an upload that was cut off: deleted/.test(l)).length, 3);
  }
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
