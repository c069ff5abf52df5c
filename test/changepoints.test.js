// Change points of the nightly history (lib/changepoints.js) and how the history section names them
// (aggregate/sections/history.js): a step is found at its night, noise, outliers and two alternating
// modes alone give none, and from real documents the section names the night, the size with its
// interval and what changed that night.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SETTINGS, changePointsOf, withoutModes } from '../lib/changepoints.js';
import { changePoints, render } from '../aggregate/sections/history.js';
import { nightOf } from '../aggregate/nights.js';
import { entryOf } from '../aggregate/store.js';
import { syntheticDoc } from '../bench/meta/synthetic.js';
import { seriesYear, score } from '../bench/meta/changepoints-year.js';
import { createRandom } from '../lib/prng.js';
import { PRODUCTION_CIPHER } from '../bench/data/ciphers.js';
import { PRODUCTION_CONFIG } from '../bench/data/configs.js';
import { PRODUCTION_DRIVER } from '../bench/data/drivers.js';

/** Nights of VM noise: a robust sd of `sd`, one night in 20 off by 30%. */
function noisy(/** @type {number} */ n, /** @type {number} */ sd, /** @type {number} */ seed) {
  const random = createRandom(seed);
  return Array.from({ length: n }, () => {
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return 1000 * Math.exp(sd * normal) * (random() < 0.05 ? 0.7 : 1);
  });
}

test('a step of 10% in wall time is found at its night, with its size inside the interval', () => {
  const values = noisy(90, 0.02, 1).map((v, i) => (i >= 50 ? v * 1.1 : v));
  const found = changePointsOf(values, SETTINGS.wall);
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.ok(Math.abs(found[0].index - 50) <= 1, `at ${found[0].index}`);
  assert.ok(found[0].low < 0.1 && found[0].high > 0.1 && found[0].size > 0.07, JSON.stringify(found[0]));
});

test('a step of 1% in an exact count is found at its night, and a count that stays gives none', () => {
  const values = Array.from({ length: 60 }, (_, i) => (i >= 33 ? 1.01 : 1) * 1.234e5);
  const [c, ...rest] = changePointsOf(values, SETTINGS.count);
  assert.equal(rest.length, 0);
  assert.equal(c.index, 33);
  assert.ok(Math.abs(c.size - 0.01) < 1e-3, String(c.size));
  assert.deepEqual(changePointsOf(values.slice(0, 33), SETTINGS.count), []);
});

test('a count that appears where there was none (an fsync per select) is a change point, with its levels', () => {
  const night = (/** @type {number} */ i, /** @type {number} */ fsync) => ({
    file: `n${i}.json`,
    sha256: String(i),
    finishedAt: new Date(Date.UTC(2026, 7, 1) + i * 86_400_000).toISOString(),
    node: 'v24.11.0',
    image: null,
    driver: '12.5.0',
    sqlite: '3.51.0',
    sqlite3mc: null,
    figures: {},
    counts: { select: [1.05e6, fsync, 0, 0] },
  });
  const nights = Array.from({ length: 60 }, (_, i) => night(i, i >= 40 ? 0.005 : 0));
  const found = changePoints(/** @type {any} */ (nights), { label: 'linux', major: 24 }).filter(
    (c) => c.measure === 'fsync',
  );
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0].night, nights[40].finishedAt.slice(0, 10));
  assert.ok(Math.abs(found[0].before) < 1e-12 && Math.abs(found[0].after - 0.005) < 1e-9, JSON.stringify(found[0]));
  assert.deepEqual(
    changePoints(/** @type {any} */ (nights.slice(0, 40)), { label: 'linux', major: 24 }),
    [],
    'a count that stays 0 gives none',
  );
});

test('flat noisy series, heavy-tailed outliers and two alternating modes give no change point', () => {
  for (let seed = 1; seed <= 20; seed++) {
    assert.deepEqual(changePointsOf(noisy(120, 0.03, seed), SETTINGS.wall), [], `noise, seed ${seed}`);
    // a third of the nights 35% slow, at random: outliers, not a level
    const random = createRandom(seed);
    const outliers = noisy(120, 0.01, seed + 100).map((v) => (random() < 0.1 ? v * 0.65 : v));
    assert.deepEqual(changePointsOf(outliers, SETTINGS.wall), [], `outliers, seed ${seed}`);
    const { values } = seriesYear('wall, bimodal', 0, seed);
    assert.deepEqual(changePointsOf(values, SETTINGS.wall), [], `bimodal, seed ${seed}`);
  }
});

test('two modes that alternate are told from a step: the modes removed, the step kept', () => {
  const { values } = seriesYear('wall, bimodal', 0, 7);
  assert.notEqual(withoutModes(values.map(Math.log)).apart, null);
  const step = values.map((v, i) => (i < 200 ? 6000 : 10_000) * (v / v));
  assert.equal(withoutModes(step.map(Math.log)).apart, null);
  const stepped = values.map((v, i) => (i >= 150 ? v * 0.9 : v));
  const found = changePointsOf(stepped, SETTINGS.wall);
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.ok(Math.abs(found[0].index - 150) <= 2, `at ${found[0].index}`);
});

test('the synthetic year: counts stepped by 1% found at their night', () => {
  let right = 0;
  let steps = 0;
  let elsewhere = 0;
  for (let seed = 1; seed <= 10; seed++) {
    const y = seriesYear('instructions', 0.01, seed);
    const r = score(
      changePointsOf(y.values, SETTINGS.count).map((c) => c.index),
      y.steps,
    );
    right += r.right;
    steps += y.steps.length;
    elsewhere += r.false;
  }
  assert.ok(right >= 0.9 * steps, `${right} of ${steps}`);
  assert.equal(elsewhere, 0);
});

/** Nights of the production setup on one machine: Node 22's patch changes on night 20, its counts with it. */
function documents() {
  return Array.from({ length: 36 }, (_, i) => {
    const after = i >= 20;
    const doc = syntheticDoc({
      node: after ? 'v22.23.3' : 'v22.23.2',
      seed: 1000 + i,
      finishedAt: new Date(Date.UTC(2026, 10, 1 + i, 3, 17)).toISOString(),
      scale: after ? 0.85 : 1,
    });
    /** @type {any} */ (doc.run).commit = after ? 'b'.repeat(40) : 'a'.repeat(40);
    for (const c of doc.cases)
      if (
        c.status === 'ok' &&
        c.stats &&
        c.config === PRODUCTION_CONFIG &&
        c.driver === PRODUCTION_DRIVER &&
        c.cipher === PRODUCTION_CIPHER
      )
        c.counts = {
          status: 'ok',
          instructions: (after ? 1.03 : 1) * 250_000 * (1 + 1e-5 * Math.sin(i)),
          syscalls: { fsync: 0.02, write: 3, read: 1, other: 0, runtime: 2 },
          bytes: { read: 4096, written: 12_288 },
        };
    return { doc, entry: entryOf(doc, `${i}.json`, String(i)) };
  });
}

test('the history names each change point from real documents: night, size with interval, and what changed', () => {
  const docs = documents();
  const byFile = new Map(docs.map((d) => [d.entry.file, d.doc]));
  const nights = docs.map((d) => nightOf(d.doc, d.entry));
  assert.equal(nights[25].commit, 'b'.repeat(40));
  assert.equal(nights[25].counts?.insert?.[0], 257_500);
  // nights of runs that did not count: no change point in counts
  const { counts: _, ...old } = nights[25];
  assert.deepEqual(
    changePoints([...nights.slice(0, 25).map((n) => ({ ...n, counts: undefined })), old], { label: 'x', major: 22 })
      .filter((c) => c.measure !== 'wall')
      .map((c) => c.measure),
    [],
  );
  const found = changePoints(nights, { label: 'linux-x64', major: 22 });
  const instructions = found.filter((c) => c.measure === 'instructions');
  assert.equal(instructions.length, 8, 'every timed operation counted 3% more instructions');
  for (const c of instructions) {
    assert.equal(c.night, '2026-11-21');
    assert.ok(c.low <= 0.03 && c.high >= 0.03 && Math.abs(c.size - 0.03) < 0.002, JSON.stringify(c));
    assert.equal(c.cause, `Node v22.23.2 → v22.23.3; commit aaaaaaa → bbbbbbb`);
  }
  assert.deepEqual(
    found.filter((c) => ['fsync', 'writes', 'bytesWritten'].includes(c.measure)),
    [],
    'counts that stayed',
  );
  const wall = found.filter((c) => c.measure === 'wall');
  // 36 nights read their night-to-night correlation to ±0.27 only, and take it half that higher
  // (lib/changepoints.js lagCorrelation): a step of 15% in ±10% nights is found in about half, near
  // the gate, so placed to 2 nights rather than to its night
  assert.ok(wall.length >= 3, `15% slower: found in ${wall.length} operations`);
  // the synthetic nights vary by ±10% (each case's true figure drawn again every night): placed to 2 nights
  for (const c of wall)
    assert.ok(Math.abs(Date.parse(c.finishedAt) - Date.parse(nights[20].finishedAt)) <= 2 * 86_400_000);
  assert.ok(wall.filter((c) => c.night === '2026-11-21').length >= 2, JSON.stringify(wall.map((c) => c.night)));
  // the pages
  const ctx = (/** @type {'readme' | 'results'} */ page) =>
    /** @type {any} */ ({
      platform: 'linux-x64',
      machine: docs[0].entry.machine,
      entries: docs.map((d) => d.entry),
      load: (/** @type {any} */ e) => byFile.get(e.file),
      resultsLink: page === 'readme' ? 'results' : '.',
      page,
      nights: { of: (/** @type {any} */ e) => nightOf(byFile.get(e.file), e) },
      chart: () => '![chart](x.svg)',
    });
  const readme = /** @type {string} */ (render(ctx('readme')).at(-1));
  assert.match(
    readme,
    /Change points, a level that moved and stayed \(details: \[results\/README\.md\]\(results\/README\.md\)\): 2026-11-2[0-2], Node 22: .*(ops\/s|instructions\/op) [−+]\d.*%\].*; changed: Node, commit/,
  );
  const page = render(ctx('results'));
  assert.ok(
    page.some((l) =>
      /^- 2026-11-21, Node 22, Insert, instructions\/op: \+3\.0% \[\+\d\.\d%, \+\d\.\d%\] \(250,000 → 258,000\); changed: Node v22\.23\.2 → v22\.23\.3; commit aaaaaaa → bbbbbbb\.$/.test(
        l,
      ),
    ),
    page.join('\n'),
  );
});
