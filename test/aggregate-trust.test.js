// Issue 36, faults 3, 4, 5 and 7: what the aggregate trusts a document for. Its clock, not a
// document's date, says "Last updated" and where the history ends; an attempt supersedes only its
// own cell; a cell's artifact holds its one document; nothing is stored until the pages rendered,
// and a stored document that no longer renders is named and left out; a batch has caps, checked by
// stat before reading. Real files, the real aggregate.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { aggregate } from '../aggregate/cli.js';
import { INDEX, entryOf, fileFor, latestAttempts, storedText } from '../aggregate/store.js';
import { NIGHTS_FILE } from '../aggregate/nights.js';
import { MAX_BATCH_BYTES, MAX_BATCH_DOCUMENTS, MAX_DOCUMENT_BYTES } from '../aggregate/trust.js';
import { syntheticDoc } from '../bench/meta/synthetic.js';
import { END, START } from '../lib/markers.js';
import { aggregateWorkspace, ROOT, childEnv } from './helpers.js';

const README = `# Title\n\n${START}\nold block\n${END}\n`;
/** The job's clock in these tests: the day after the synthetic documents' default night. */
const NOW = Date.parse('2026-11-21T06:00:00.000Z');

const workspace = () => aggregateWorkspace('trust-', README);
const put = (/** @type {string} */ file, /** @type {any} */ doc) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
};
/**
 * @param {ReturnType<typeof workspace>} ws
 * @param {number} [now]
 */
async function run(ws, now = NOW) {
  /** @type {string[]} */
  const log = [];
  /** @type {string[]} */
  const warn = [];
  const code = await aggregate(
    { artifacts: ws.artifacts, results: ws.results, readme: ws.readme, now },
    { log: (s) => log.push(s), warn: (s) => warn.push(s) },
  );
  return { code, log: log.join('\n'), warn };
}
/** The result documents stored under results/ (not the index, the pages or the charts). */
const stored = (/** @type {string} */ results) =>
  fs.existsSync(results)
    ? fs
        .readdirSync(results, { recursive: true })
        .map(String)
        .filter((f) => /^\d{4}[\\/].*\.json$/.test(f))
        .sort()
    : [];
/** A run id of its own, from a number. */
const idOf = (/** @type {number} */ n) =>
  `${(n % 0xffffffff).toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
const lineOf = (/** @type {string[]} */ warn, /** @type {string} */ file) =>
  warn.find((w) => w.startsWith(`${file}: `)) ?? `no line for ${file} in:\n${warn.join('\n')}`;

/**
 * A full night of Node 22 on the synthetic linux-x64 machine.
 * @param {number} day of November 2026
 * @param {{ runId?: string, attempt?: string, cpuModel?: string, driverVersion?: string }} [o]
 */
function night(day, o = {}) {
  const doc = /** @type {any} */ (
    syntheticDoc({
      node: 'v22.23.3',
      finishedAt: `2026-11-${String(day).padStart(2, '0')}T03:40:00.000Z`,
      seed: day,
      driverVersion: o.driverVersion,
    })
  );
  if (o.runId) doc.environment.ci = { ...doc.environment.ci, runId: o.runId, runAttempt: o.attempt ?? '1' };
  if (o.cpuModel) doc.environment.cpuModel = o.cpuModel;
  return doc;
}

/**
 * Put a document into results/ and its line into the index, as an earlier aggregate (one without
 * today's checks) would have stored it.
 * @param {string} results
 * @param {any} doc
 */
function storeDirectly(results, doc) {
  const file = /** @type {string} */ (fileFor(doc));
  const text = storedText(doc);
  put(path.join(results, file), text);
  const indexFile = path.join(results, INDEX);
  const entries = fs.existsSync(indexFile) ? JSON.parse(fs.readFileSync(indexFile, 'utf8')).entries : [];
  entries.push(entryOf(doc, file, text));
  fs.writeFileSync(indexFile, JSON.stringify({ schemaVersion: 1, entries }));
  return path.join(results, file);
}

test('fault 3: a document dated after the clock (plus a day) or before the project existed is refused, naming the field', async () => {
  const ws = workspace();
  const dated = (/** @type {string} */ at) => {
    const d = night(20);
    d.run.finishedAt = at;
    d.run.startedAt = at;
    d.run.id = idOf(at.length + Date.parse(at));
    return d;
  };
  put(path.join(ws.artifacts, 'future.json'), dated('9999-12-31T00:00:00.000Z'));
  put(path.join(ws.artifacts, 'tomorrow-and-a-bit.json'), dated(new Date(NOW + 86_400_000 + 60_000).toISOString()));
  put(path.join(ws.artifacts, 'ancient.json'), dated('2024-12-31T23:00:00.000Z'));
  put(path.join(ws.artifacts, 'later-today.json'), dated(new Date(NOW + 12 * 3_600_000).toISOString())); // a runner's clock ahead
  const r = await run(ws);
  assert.equal(r.code, 0, r.warn.join('\n'));
  assert.equal(stored(ws.results).length, 1, stored(ws.results).join(' '));
  for (const f of ['future.json', 'tomorrow-and-a-bit.json'])
    assert.match(lineOf(r.warn, path.join(ws.artifacts, f)), /\/run\/finishedAt .* is after this aggregate's clock/);
  assert.match(lineOf(r.warn, path.join(ws.artifacts, 'ancient.json')), /\/run\/finishedAt .* before 2025-01-01/);
  assert.equal(r.warn.length, 3, r.warn.join('\n'));
});

test("fault 3: a future document stored by an earlier aggregate takes nothing over: the job's clock says Last updated and where the history ends", async () => {
  const ws = workspace();
  const future = night(19);
  future.run.finishedAt = '9999-12-31T03:40:00.000Z';
  future.run.startedAt = '9999-12-31T03:28:00.000Z';
  future.run.id = 'f0000000-0000-4000-8000-000000000009';
  const file = storeDirectly(ws.results, future);
  for (let day = 12; day <= 19; day++) put(path.join(ws.artifacts, `night-${day}.json`), night(day));
  const now = Date.parse('2026-11-20T12:00:00.000Z');
  for (const pass of ['first', 'second']) {
    const r = await run(ws, now);
    assert.equal(r.code, 0, r.warn.join('\n'));
    assert.match(
      lineOf(r.warn, file),
      /\/run\/finishedAt 9999-12-31.* after this aggregate's clock.*left out of the pages/,
    );
    const readme = fs.readFileSync(ws.readme, 'utf8');
    assert.match(readme, /_Last updated 2026-11-20 /, pass);
    assert.doesNotMatch(readme, /9999/, pass);
    // the history holds the eight real nights, not the one from the future
    assert.match(readme, /Node 22, 8 night\(s\) 2026-11-12 to 2026-11-19/, pass);
    const nights = fs.readFileSync(path.join(ws.results, NIGHTS_FILE), 'utf8').trim().split('\n');
    assert.equal(nights.length, 8, pass);
    assert.ok(
      nights.every((l) => JSON.parse(l).finishedAt.startsWith('2026-11-')),
      pass,
    );
  }
});

test('fault 4: a run attempt is a whole number from 1 to 100, else the document is refused naming the field', async () => {
  const ws = workspace();
  for (const [i, attempt] of ['999999', '0', '2.5', '-1', 'x'].entries()) {
    const d = night(20, { runId: '500', attempt });
    d.run.id = idOf(i);
    put(path.join(ws.artifacts, `attempt-${i}.json`), d);
  }
  const ok = night(20, { runId: '500', attempt: '3' });
  put(path.join(ws.artifacts, 'ok.json'), ok);
  const r = await run(ws);
  assert.equal(r.code, 0, r.warn.join('\n'));
  assert.equal(stored(ws.results).length, 1);
  // out of GitHub's range: refused by the aggregate; not a whole number: by the schema or the aggregate
  for (let i = 0; i < 2; i++)
    assert.match(
      lineOf(r.warn, path.join(ws.artifacts, `attempt-${i}.json`)),
      /\/environment\/ci\/runAttempt '.*' is not a run attempt: a whole number from 1 to 100/,
    );
  for (let i = 2; i < 5; i++)
    assert.match(lineOf(r.warn, path.join(ws.artifacts, `attempt-${i}.json`)), /\/environment\/ci\/runAttempt /);
  assert.equal(r.warn.length, 5, r.warn.join('\n'));
  // an entry of an earlier index with an attempt out of range supersedes nothing
  const entry = (/** @type {string} */ file, /** @type {number} */ attempt) =>
    /** @type {import('../aggregate/store.js').Entry} */ ({
      file,
      id: file,
      sha256: '',
      finishedAt: '2026-11-20T03:40:00.000Z',
      status: 'complete',
      mode: 'full',
      platform: 'linux-x64',
      node: 'v22.23.3',
      machine: 'm',
      run: '500',
      attempt,
    });
  assert.deepEqual(
    latestAttempts([entry('a', 1), entry('b', 999999)]).map((e) => e.file),
    ['a', 'b'],
  );
});

test("fault 4: a later attempt supersedes only its own cell's document: another machine class claiming the run hides nothing", async () => {
  const ws = workspace();
  const mine = night(20, { runId: '300', attempt: '1', driverVersion: '12.0.3' });
  const other = night(20, { runId: '300', attempt: '2', cpuModel: 'Crafted CPU', driverVersion: '12.0.4' });
  other.run.id = 'b0000000-0000-4000-8000-000000000002';
  put(path.join(ws.artifacts, 'mine.json'), mine);
  put(path.join(ws.artifacts, 'other.json'), other);
  const r = await run(ws);
  assert.equal(r.code, 0, r.warn.join('\n'));
  const readme = fs.readFileSync(ws.readme, 'utf8').replace(/\\/g, '');
  // both machine classes are shown, each with its own document
  assert.match(readme, /#### linux-x64 · .*Crafted CPU/);
  assert.equal(readme.match(/^#### /gm)?.length, 2, readme.match(/^#### .*/gm)?.join('\n'));
  assert.match(readme, /12\.0\.3/);
  // within one machine class, attempt 2 of the run still supersedes attempt 1
  const again = night(20, { runId: '300', attempt: '2', driverVersion: '12.0.5' });
  again.run.id = 'c0000000-0000-4000-8000-000000000003';
  again.run.finishedAt = '2026-11-20T09:40:00.000Z';
  put(path.join(ws.artifacts, 'again.json'), again);
  assert.equal((await run(ws)).code, 0);
  const after = fs.readFileSync(ws.readme, 'utf8').replace(/\\/g, '');
  assert.match(after, /12\.0\.5/);
  assert.doesNotMatch(after, /12\.0\.3/);
});

test("fault 4: a cell's artifact holds one document, the one of the cell it is named for; a folder of local output still works", async () => {
  const ws = workspace();
  const cell = (/** @type {number} */ day, /** @type {string} */ runner, /** @type {string} */ node) => {
    const d = night(day, { runId: String(600 + day) });
    d.environment.ci = { ...d.environment.ci, cellRunner: runner, cellNode: node };
    return d;
  };
  // the cell's own artifact: stored
  put(
    path.join(ws.artifacts, 'result-ubuntu-24.04-node22', 'linux-x64-node-v22.23.3.json'),
    cell(10, 'ubuntu-24.04', '22'),
  );
  // two documents in one artifact: neither
  put(path.join(ws.artifacts, 'result-ubuntu-24.04-arm-node22', 'a.json'), cell(11, 'ubuntu-24.04-arm', '22'));
  put(path.join(ws.artifacts, 'result-ubuntu-24.04-arm-node22', 'b.json'), cell(12, 'ubuntu-24.04-arm', '22'));
  // an artifact holding another cell's document, one naming no cell, one of another Node major
  put(path.join(ws.artifacts, 'result-macos-15-node20', 'x.json'), cell(13, 'ubuntu-24.04', '20'));
  put(path.join(ws.artifacts, 'result-macos-15-node18', 'x.json'), night(14));
  put(path.join(ws.artifacts, 'result-macos-15-node24', 'x.json'), cell(15, 'macos-15', '24'));
  // a result document in a shootout's artifact
  put(path.join(ws.artifacts, 'shootout-macos-15', 'x.json'), cell(16, 'macos-15', '22'));
  // npm run bench output, outside any artifact folder: stored
  put(path.join(ws.artifacts, 'linux-x64-node-v22.23.3.json'), night(17));
  put(path.join(ws.artifacts, 'out', 'linux-x64-node-v22.23.3.json'), night(18));
  const r = await run(ws);
  assert.equal(r.code, 0, r.warn.join('\n'));
  assert.equal(stored(ws.results).length, 3, stored(ws.results).join(' '));
  for (const f of ['a.json', 'b.json'])
    assert.match(
      lineOf(r.warn, path.join(ws.artifacts, 'result-ubuntu-24.04-arm-node22', f)),
      /the artifact result-ubuntu-24\.04-arm-node22 holds 2 documents; a cell's artifact holds one: none of them is read/,
    );
  assert.match(
    lineOf(r.warn, path.join(ws.artifacts, 'result-macos-15-node20', 'x.json')),
    /is in artifact result-macos-15-node20, but \/environment\/ci names the cell of artifact result-ubuntu-24\.04-node20/,
  );
  assert.match(lineOf(r.warn, path.join(ws.artifacts, 'result-macos-15-node18', 'x.json')), /names no cell/);
  assert.match(
    lineOf(r.warn, path.join(ws.artifacts, 'result-macos-15-node24', 'x.json')),
    /\/environment\/node v22\.23\.3 is not of the cell's Node major 24/,
  );
  assert.match(lineOf(r.warn, path.join(ws.artifacts, 'shootout-macos-15', 'x.json')), /shootout/);
  assert.equal(r.warn.length, 6, r.warn.join('\n'));
});

test('fault 5: a stored document that no longer renders is named and left out, night after night; the pages render from the rest', async () => {
  const ws = workspace();
  const good = night(19);
  storeDirectly(ws.results, good);
  const broken = night(20);
  broken.environment.node = 'v24.11.0';
  broken.run.id = 'dead0000-0000-4000-8000-000000000000';
  broken.sides[0].drivers = null; // no schema allows it: an aggregate before today's checks stored it
  const file = storeDirectly(ws.results, broken);
  put(path.join(ws.artifacts, 'new.json'), night(18));
  for (const pass of ['first', 'second']) {
    const r = await run(ws);
    assert.equal(r.code, 0, `${pass}: ${r.warn.join('\n')}`);
    assert.match(
      lineOf(r.warn, file),
      /stored document could not be rendered \(TypeError: .*\); left out of the pages/,
    );
    assert.equal(r.warn.filter((w) => w.includes(file)).length, 1, pass);
    const readme = fs.readFileSync(ws.readme, 'utf8');
    assert.match(readme, /_Last updated /, pass);
    assert.match(readme, /v22\.23\.3/, pass);
    assert.doesNotMatch(readme, /v24\.11\.0/, pass);
  }
  assert.equal(stored(ws.results).length, 3, 'the new document is stored');
});

test('fault 5: nothing is stored when the pages cannot be rendered', async () => {
  const ws = workspace();
  // the newest document of its class is listed in the index but not here (ci:restore not run): the pages need it
  const archived = night(19);
  storeDirectly(ws.results, archived);
  fs.rmSync(path.join(ws.results, /** @type {string} */ (fileFor(archived))));
  const incoming = night(18);
  incoming.environment.node = 'v24.11.0';
  put(path.join(ws.artifacts, 'new.json'), incoming);
  const index = fs.readFileSync(path.join(ws.results, INDEX), 'utf8');
  await assert.rejects(run(ws), /listed in .* but not here .*npm run ci:restore/);
  assert.deepEqual(stored(ws.results), []);
  assert.equal(fs.readFileSync(path.join(ws.results, INDEX), 'utf8'), index);
  assert.equal(fs.readFileSync(ws.readme, 'utf8'), README);
});

/** A file of this many bytes that takes no disk (a sparse file): the caps are read by stat. */
const sized = (/** @type {string} */ file, /** @type {number} */ bytes) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');
  fs.truncateSync(file, bytes);
};

test('fault 7: a batch over the document or byte cap is refused in one line naming the limit, by stat, before anything is read or written', async () => {
  for (const over of ['documents', 'bytes']) {
    const ws = workspace();
    if (over === 'documents')
      for (let i = 0; i <= MAX_BATCH_DOCUMENTS; i++) sized(path.join(ws.artifacts, `d${i}.json`), 10);
    else
      for (let i = 0; i <= Math.floor(MAX_BATCH_BYTES / MAX_DOCUMENT_BYTES); i++)
        sized(path.join(ws.artifacts, `d${i}.json`), MAX_DOCUMENT_BYTES);
    const r = await run(ws);
    assert.equal(r.code, 1, over);
    assert.equal(r.warn.length, 1, r.warn.join('\n'));
    assert.match(
      r.warn[0],
      over === 'documents'
        ? new RegExp(
            `^${ws.artifacts}: ${MAX_BATCH_DOCUMENTS + 1} documents, over the batch limit of ${MAX_BATCH_DOCUMENTS} `,
          )
        : new RegExp(`^${ws.artifacts}: \\d+ bytes of documents, over the batch limit of ${MAX_BATCH_BYTES} bytes`),
    );
    assert.ok(!fs.existsSync(ws.results), `${over}: results/ written`);
    assert.equal(fs.readFileSync(ws.readme, 'utf8'), README);
  }
  // one document over its own cap is refused by its size, the rest of the batch goes on
  const ws = workspace();
  sized(path.join(ws.artifacts, 'huge.json'), MAX_DOCUMENT_BYTES + 1);
  put(path.join(ws.artifacts, 'ok.json'), night(20));
  const r = await run(ws);
  assert.equal(r.code, 0);
  assert.match(
    lineOf(r.warn, path.join(ws.artifacts, 'huge.json')),
    new RegExp(`over the ${MAX_DOCUMENT_BYTES}-byte limit`),
  );
  assert.equal(stored(ws.results).length, 1);
});

test('npm run aggregate -- --now sets the clock (an ISO time in UTC); anything else is refused in one line', () => {
  const ws = workspace();
  put(path.join(ws.artifacts, 'a.json'), night(20));
  const cli = (/** @type {string} */ now) =>
    spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'aggregate/cli.js'),
        ...['--artifacts', ws.artifacts, '--results', ws.results, '--readme', ws.readme, '--now', now],
      ],
      { encoding: 'utf8', env: childEnv() },
    );
  const bad = cli('yesterday');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--now must be an ISO time in UTC such as 2026-11-20T06:00:00Z \(got 'yesterday'\)/);
  assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  assert.ok(!fs.existsSync(ws.results));
  const ok = cli('2026-11-21T01:00:00Z');
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(fs.readFileSync(ws.readme, 'utf8'), /_Last updated 2026-11-21 /);
  // a clock before the document's night: it is from the future, refused
  assert.equal(cli('2026-11-18T01:00:00Z').stderr.includes("after this aggregate's clock"), true);
});
