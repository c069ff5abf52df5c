// The README block and results/README.md as GitHub shows them, without a browser: every table fits
// GitHub's content column, and the block stays within its byte budget (issue #16: 40 KiB, checked
// over a whole synthetic year by npm run meta:aggregate), from a night of the synthetic year with 4
// machine classes.
//
// A table's width is its narrowest layout (tableWidths, test/helpers.js: per column the widest run
// no line can break inside, in units of about a digit's width) plus 27 px a column (GitHub's
// padding of 13 px each side and a 1 px border). PX_PER_UNIT is measured: each table of the README
// and results/README.md of a 30-night, 4-class synthetic year, laid out at its min-content width in
// headless Chromium 2026-11 with GitHub's table CSS (bench/meta/screenshots.js, font-size 14 px,
// Liberation Sans: Helvetica's metric twin on Linux), came to 6.6 to 7.99 px per unit (148
// tables; a table of figures 7.8 to 7.99); 8.2 leaves about 3% for the widest and for other
// fonts' figures. COLUMN is what a 1280 px window leaves for the README's text (896 px less 2 × 32
// px padding and 2 × 1 px border); npm run meta:screenshots measures the same in Chromium.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { aggregate } from '../aggregate/cli.js';
import { artifactOf, night } from '../bench/meta/aggregate-year.js';
import { END, START } from '../lib/markers.js';
import { aggregateWorkspace, tableWidths } from './helpers.js';

const COLUMN = 830;
const PX_PER_COLUMN = 27;
const PX_PER_UNIT = 8.2;
/**
 * The block's budget (bench/meta/aggregate-year.js BOUNDS) less 8 KiB for what nights add to one
 * night's block: the history's chart per Node major, its nights outside the band and its change
 * points, each bounded by the 13 weeks shown. Measured with 4 classes: 30,428 bytes for one night,
 * 37,082 for 30 nights (the synthetic year's Node upgrade, driver bump and change points in them).
 */
const BLOCK_BYTES = 40 * 1024 - 8 * 1024;

/** A table's width in px as GitHub lays it out at its narrowest. */
const px = (/** @type {ReturnType<typeof tableWidths>[number]} */ t) =>
  Math.round(PX_PER_COLUMN * t.columns + 1 + PX_PER_UNIT * t.units);

test('tableWidths: a table at its narrowest, the widest unbreakable run of each column, a link by its text', () => {
  const md = [
    'text',
    '| Config | Insert batch | Update |',
    '| :-- | --: | --: |',
    '| [WAL Autocheckpoint](x#y) | +14\u00a0±3.4 | better-sqlite3-multiple |',
    '',
    '|a|b|',
    '|-|-|',
    '|1|2|',
  ].join('\n');
  const [first, second] = tableWidths(md);
  // Autocheckpoint (A 1.25, t 0.5 ×2, i 0.5, 10 more 1) + "+14 ±3.4" (the no-break space 0.5, '.'
  // 0.5) + "multiple" (m 1.5, l, t, i, l 0.5 each, 3 more 1): "better-" breaks after its hyphen
  assert.deepEqual(first, { line: 2, head: '| Config | Insert batch | Update |', columns: 3, units: 12.75 + 7 + 6.5 });
  assert.equal(second.columns, 2);
  assert.equal(second.units, 2);
});

test('every table of the README block and of results/README.md fits GitHub’s column, and the block of 4 machine classes its budget', async () => {
  const ws = aggregateWorkspace('table-widths-');
  // the newest night of a month of the synthetic year: after its Node upgrade and driver bump
  const docs = night(29, 4);
  for (const doc of docs) {
    const file = path.join(ws.artifacts, artifactOf(doc));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(doc));
  }
  const now = Date.parse(docs[0].run.finishedAt) + 3 * 3_600_000;
  /** @type {string[]} */
  const warned = [];
  assert.equal(await aggregate({ ...ws, now }, { log: () => {}, warn: (s) => warned.push(s) }), 0, warned.join('\n'));
  const readme = fs.readFileSync(ws.readme, 'utf8');
  const block = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END));
  const page = fs.readFileSync(path.join(ws.results, 'README.md'), 'utf8');
  for (const [name, md] of [
    ['README block', block],
    ['results/README.md', page],
  ]) {
    const tables = tableWidths(md);
    assert.ok(tables.length >= 4, `${name}: ${tables.length} tables`);
    const wide = tables.filter((t) => px(t) > COLUMN);
    assert.deepEqual(
      wide.map((t) => `line ${t.line}, ${px(t)} px: ${t.head}`),
      [],
      `${name}: tables wider than GitHub's ${COLUMN} px column`,
    );
  }
  // the first machine class shows its tables; the others their charts, the tables linked
  assert.equal(tableWidths(block).filter((t) => /^\|(Config|Cipher)\|/.test(t.head)).length, 2);
  // the encryption chart's alt names Production's cipher once, also where it is the costliest (it is on some class)
  assert.match(block, /costliest ChaCha20-Poly1305 \(Production\)/);
  assert.doesNotMatch(block, /(ChaCha20-Poly1305 \(Production\)) −[\d.]+%, \1/);
  const bytes = Buffer.byteLength(block);
  assert.ok(bytes <= BLOCK_BYTES, `the block of 4 machine classes, one night: ${bytes} bytes > ${BLOCK_BYTES}`);
});
