// The results as a reader gets them: README.md and results/README.md rendered by a GitHub-flavoured
// Markdown renderer (micromark with GFM), every image they show an SVG in the tree with a title and
// alt text; charts drawn the same byte for byte, and not rewritten when their data did not change.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { aggregate } from '../aggregate/cli.js';
import { NO_RESULTS, renderReadmeBlock, tidyBlanks } from '../aggregate/render-pages.js';
import { openStore } from '../aggregate/store.js';
import { syntheticDoc } from '../bench/meta/synthetic.js';
import { END, START } from '../lib/markers.js';
import { fragment } from '../lib/markdown.js';
import { aggregateWorkspace, childEnv, ROOT, scratch, TEST_NOW } from './helpers.js';

const html = (/** @type {string} */ md) => micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
/** Every <img> of rendered HTML: its src and alt, as the browser would read them. */
const images = (/** @type {string} */ h) =>
  [...h.matchAll(/<img src="([^"]*)" alt="([^"]*)"/g)].map((m) => ({ src: decodeURIComponent(m[1]), alt: m[2] }));

/**
 * Whether a text is one well-formed SVG document: a root <svg> in the SVG namespace with a size,
 * every element closed in order, a non-empty <title>.
 * @param {string} text
 */
function svgProblems(text) {
  const body = text.replace(/<!--[\s\S]*?-->/g, '').trim();
  if (!/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* width="\d+" height="\d+"/.test(body))
    return 'no <svg> root with the SVG namespace and a size';
  if (!/<title>[^<]{20,}<\/title>/.test(body)) return 'no <title> saying what it shows';
  /** @type {string[]} */
  const open = [];
  for (const m of body.matchAll(/<(\/?)([a-zA-Z][\w:-]*)[^>]*?(\/?)>/g)) {
    if (m[3]) continue;
    if (!m[1]) open.push(m[2]);
    else if (open.pop() !== m[2]) return `</${m[2]}> closes another element`;
  }
  return open.length ? `unclosed <${open.join('>, <')}>` : null;
}

/**
 * Every image of a Markdown file (or of the part of it given as text): resolves inside root to a
 * valid SVG, with alt text.
 * @param {string} file
 * @param {string} root
 * @param {string} [text]
 */
function checkImages(file, root, text = fs.readFileSync(file, 'utf8')) {
  const shown = images(html(text));
  for (const img of shown) {
    assert.doesNotMatch(img.src, /^[a-z]+:|^\//i, `${file}: ${img.src} is not a relative path`);
    const target = path.resolve(path.dirname(file), img.src);
    assert.ok(target.startsWith(root + path.sep), `${file}: ${img.src} points outside the tree`);
    assert.ok(fs.existsSync(target), `${file}: ${img.src} does not exist`);
    assert.match(target, /\.svg$/);
    assert.equal(svgProblems(fs.readFileSync(target, 'utf8')), null, `${file}: ${img.src}`);
    assert.ok(img.alt.length > 40, `${file}: ${img.src} has no alt text saying what it shows`);
  }
  return shown;
}

/** Nights of full runs: 2 platforms × 2 Node majors × n nights, the last night's linux-x64 VMs slow. */
function nights(/** @type {string} */ dir, /** @type {number} */ n) {
  for (let i = 0; i < n; i++) {
    for (const platform of ['linux-x64', 'darwin-arm64']) {
      for (const node of ['v22.23.3', 'v24.21.0']) {
        const doc = syntheticDoc({
          platform,
          node,
          seed: i * 10 + node.length,
          scale: i === n - 1 && platform === 'linux-x64' ? 0.6 : 1,
          imageVersion: `2026110${Math.min(9, i)}.1`,
          finishedAt: new Date(Date.UTC(2026, 10, 1 + i, 3, 17)).toISOString(),
        });
        fs.mkdirSync(path.join(dir, `night-${i}`), { recursive: true });
        fs.writeFileSync(path.join(dir, `night-${i}`, `${platform}-${node}.json`), JSON.stringify(doc));
      }
    }
  }
}

const workspace = () => aggregateWorkspace('readme-');
const run = async (/** @type {ReturnType<typeof workspace>} */ ws) => {
  /** @type {string[]} */
  const log = [];
  const code = await aggregate({ ...ws, now: TEST_NOW }, { log: (s) => log.push(s), warn: () => {} });
  assert.equal(code, 0);
  return log.join('\n');
};
/** Every chart under results/charts with its bytes and modification time. */
const charts = (/** @type {string} */ results) =>
  new Map(
    fs
      .readdirSync(path.join(results, 'charts'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.svg'))
      .map((f) => [
        f,
        {
          text: fs.readFileSync(path.join(results, 'charts', f), 'utf8'),
          mtime: fs.statSync(path.join(results, 'charts', f)).mtimeMs,
        },
      ]),
  );

test('README.md and results/README.md, rendered as GFM: every image is a valid SVG in the tree, with alt text stating a finding', async () => {
  const ws = workspace();
  nights(ws.artifacts, 8);
  await run(ws);
  const shown = checkImages(ws.readme, ws.dir);
  // per machine class: the PRAGMA chart, the encryption chart, a history chart per Node major
  assert.equal(shown.length, 2 * (2 + 2), shown.map((i) => i.src).join('\n'));
  assert.ok(
    shown.some((i) => /largest (gain|loss)/.test(i.alt) && /too noisy to tell/.test(i.alt) && /A\/A twin/.test(i.alt)),
    'the PRAGMA chart says what it found',
  );
  assert.ok(
    shown.some((i) => /cheapest .* costliest/.test(i.alt)),
    'the encryption chart says what it found',
  );
  // the slow last night is outside its band, said in the chart's alt text and listed with what changed
  const history = shown.filter((i) => /night\(s\) \d{4}-\d\d-\d\d to/.test(i.alt));
  assert.equal(history.length, 4);
  assert.ok(
    history.some((i) => /outside the band, newest 2026-11-08/.test(i.alt)),
    history.map((i) => i.alt).join('\n'),
  );
  const readme = fs.readFileSync(ws.readme, 'utf8');
  assert.match(
    readme,
    /^Outside the band .*: 2026-11-08, Node v2\d\.\d+\.\d+(, v2\d\.\d+\.\d+)?: .*slower; changed: runner image/m,
  );
  // the long form links back and shows its charts too, and what changed that night in full
  const page = path.join(ws.results, 'README.md');
  assert.ok(checkImages(page, ws.dir).length >= 4);
  assert.match(fs.readFileSync(page, 'utf8'), /\[README\]\(\.\.\/README\.md#results\)/);
  assert.match(
    fs.readFileSync(page, 'utf8'),
    /^- 2026-11-08, Node v2\d\.\d+\.\d+: .*below .*changed since the night before: runner image ubuntu24 20261106\.1 → ubuntu24 20261107\.1/m,
  );
});

test("the repository's README.md with its block rendered by `node aggregate/cli.js`: every image a valid SVG, and there are some", () => {
  // a clone's README block is empty (the nightly job fills it), so the block is rendered here, from the
  // real shootout document and synthetic runs of two Node majors, into a copy of README.md, by the
  // command the workflow runs (`npm run aggregate`)
  const dir = scratch('readme-repo-');
  const artifacts = path.join(dir, 'artifacts');
  fs.mkdirSync(path.join(artifacts, 'shootout'), { recursive: true });
  fs.copyFileSync(
    path.join(ROOT, 'test', 'fixtures', 'real-linux-x64-shootout.json'),
    path.join(artifacts, 'shootout', 'shootout.json'),
  );
  for (const node of ['v22.23.3', 'v24.21.0']) {
    fs.mkdirSync(path.join(artifacts, node));
    fs.writeFileSync(path.join(artifacts, node, 'result.json'), JSON.stringify(syntheticDoc({ node })));
  }
  const own = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const [before, after] = [own.slice(0, own.indexOf(START)), own.slice(own.indexOf(END) + END.length)];
  fs.writeFileSync(path.join(dir, 'README.md'), `${before}${START}\n${END}${after}`);
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'aggregate', 'cli.js'),
      '--artifacts',
      artifacts,
      '--results',
      path.join(dir, 'results'),
      '--readme',
      path.join(dir, 'README.md'),
    ],
    { encoding: 'utf8', env: childEnv() },
  );
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  const block = readme.slice(readme.indexOf(START), readme.indexOf(END) + END.length);
  const shown = checkImages(path.join(dir, 'README.md'), dir, block);
  assert.ok(shown.length > 0, 'no image of the block checked');
  // the PRAGMA and encryption charts of the synthetic runs' machine class, the shootout's chart of its own
  for (const kind of ['config', 'cipher', 'shootout'])
    assert.ok(
      shown.some((i) => i.src.includes(`-${kind}-`)),
      `no ${kind} chart in the block: ${shown.map((i) => i.src).join(', ')}`,
    );
  assert.ok(
    checkImages(path.join(dir, 'results', 'README.md'), dir).length > 0,
    'no image of results/README.md checked',
  );
  // the repository's own pages as they are (a block a nightly wrote, images outside it), in the tree
  for (const file of [path.join(ROOT, 'README.md'), path.join(ROOT, 'results', 'README.md')])
    if (fs.existsSync(file)) checkImages(file, ROOT);
});

test("charts are drawn the same byte for byte; an unchanged chart is not rewritten; a new night redraws only its machine class's charts", async () => {
  const a = workspace();
  const b = workspace();
  nights(a.artifacts, 3);
  fs.cpSync(a.artifacts, b.artifacts, { recursive: true });
  await run(a);
  await run(b);
  const first = charts(a.results);
  assert.ok(first.size >= 8);
  assert.deepEqual(
    [...first].map(([f, c]) => [f, c.text]),
    [...charts(b.results)].map(([f, c]) => [f, c.text]),
    'two aggregates of the same documents drew different bytes',
  );
  assert.match(await run(a), /charts: 0 drawn, \d+ unchanged, 0 removed/);
  assert.deepEqual(charts(a.results), first, 'a chart was rewritten');
  // a night on darwin only: linux charts untouched
  const doc = syntheticDoc({
    platform: 'darwin-arm64',
    node: 'v24.21.0',
    seed: 99,
    finishedAt: '2026-11-04T03:17:00.000Z',
  });
  fs.writeFileSync(path.join(a.artifacts, 'late.json'), JSON.stringify(doc));
  assert.match(await run(a), /1 stored/);
  const after = charts(a.results);
  for (const [f, c] of first) {
    if (f.startsWith('linux-x64/')) assert.deepEqual(after.get(f), c, `${f} rewritten though its data did not change`);
  }
  assert.ok(
    [...after].some(([f, c]) => f.startsWith('darwin-arm64/') && c.text !== first.get(f)?.text),
    'no darwin chart redrawn',
  );
});

test('a chart no section asks for any more is removed; a stray file that is no chart is left alone', async () => {
  const ws = workspace();
  nights(ws.artifacts, 1);
  await run(ws);
  const stray = path.join(ws.results, 'charts', 'linux-x64', 'old-machine-abc123-config.svg');
  fs.writeFileSync(stray, '<svg/>');
  fs.writeFileSync(path.join(ws.results, 'charts', 'notes.txt'), 'mine');
  assert.match(await run(ws), /charts: 0 drawn, \d+ unchanged, 1 removed/);
  assert.equal(fs.existsSync(stray), false);
  assert.equal(fs.readFileSync(path.join(ws.results, 'charts', 'notes.txt'), 'utf8'), 'mine');
});

/** The README block of a workspace's README. */
const blockOf = (/** @type {string} */ readme) =>
  readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim();
const count = (/** @type {string} */ text, /** @type {string} */ s) => text.split(s).length - 1;

test('with no document stored, the aggregate writes the line saying what fills the block; the committed README is what it writes', async () => {
  const none = { entries: () => [], load: () => assert.fail('no document to load') };
  const noCharts = { add: () => assert.fail('no chart to draw') };
  const noNights = { of: () => assert.fail('no night') };
  assert.equal(renderReadmeBlock(none, { resultsLink: 'results', charts: noCharts, nights: noNights }), NO_RESULTS);
  // a fork before its first night: the repository's README with its block emptied, aggregated over no
  // artifact (the nightly job's aggregate step then exits 1 and nothing is committed: the README keeps
  // the block it was committed with, so that block must be this line too)
  const ws = workspace();
  const own = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const [before, after] = [own.slice(0, own.indexOf(START)), own.slice(own.indexOf(END) + END.length)];
  fs.writeFileSync(ws.readme, `${before}${START}\n${END}${after}`);
  /** @type {string[]} */
  const warned = [];
  const code = await aggregate({ ...ws, now: TEST_NOW }, { log: () => {}, warn: (s) => warned.push(s) });
  assert.equal(code, 1);
  assert.match(warned.join('\n'), /no valid result document/);
  const written = fs.readFileSync(ws.readme, 'utf8');
  assert.equal(blockOf(written), NO_RESULTS);
  assert.equal(fs.existsSync(path.join(ws.results, 'README.md')), false, 'no results/README.md without a document');
  // what the line says: the aggregate job fills the block from results/; npm run matrix shows it locally
  assert.match(NO_RESULTS, /`aggregate` job .*`results\/`.*`npm run matrix`.*`out\/matrix\/README\.md`/);
  // the committed README: this line while results/ holds no document, the aggregate's block once it does
  if (openStore(path.join(ROOT, 'results'), () => {}).entries().length === 0)
    assert.equal(own, written, "README.md's block is not the line the aggregate writes while results/ is empty");
  else assert.match(blockOf(own), /^_Last updated /, "README.md's block is not one the aggregate rendered");
});

test('the README block renders as written: every heading a heading, every table a table with its rows, every chart an image; blank lines only where GFM needs them', async () => {
  const ws = workspace();
  nights(ws.artifacts, 1);
  await run(ws);
  const block = blockOf(fs.readFileSync(ws.readme, 'utf8'));
  const lines = block.split('\n');
  const h = html(block);
  for (const level of [3, 4, 5])
    assert.equal(
      count(h, `<h${level}>`),
      lines.filter((l) => l.startsWith(`${'#'.repeat(level)} `)).length,
      `level ${level} headings`,
    );
  // per machine class (2): its heading, the PRAGMA and the encryption sections
  assert.equal(count(h, '<h4>'), 2);
  assert.ok(count(h, '<h5>') >= 4);
  const delimiters = lines.filter((l) => /^\|(\s*:?-+:?\s*\|)+$/.test(l)).length;
  assert.ok(delimiters >= 2, 'the PRAGMA and encryption tables of the first machine class');
  assert.equal(count(h, '<table>'), delimiters, 'a table that does not render as one');
  // every line of a table is one of its rows: no paragraph taken into a table, no row left out
  assert.equal(count(h, '<tr>'), lines.filter((l) => l.startsWith('|')).length - delimiters);
  assert.equal(images(h).length, count(block, '!['), 'a chart that does not render as an image');
  lines.forEach((l, i) => {
    const next = lines[i + 1];
    if (l === '') {
      assert.ok(
        next !== '' && !/^#{1,6} /.test(next) && !/^#{1,6} /.test(lines[i - 1]),
        `a blank line that is not needed, at line ${i + 1}: ${lines[i - 1]} / ${next}`,
      );
    }
    if (l.startsWith('|') && next !== undefined)
      assert.ok(
        next.startsWith('|') || next === '' || /^#{1,6} /.test(next),
        `no blank line after a table, at line ${i + 1}: ${next}`,
      );
  });
  // the PRAGMA section: heading, chart, table, nothing between them
  assert.match(
    block,
    /^##### What each PRAGMA change does, .*\n!\[[^\n]+\]\([^)\n]+-config-[0-9a-f]{6}\.svg\)\nEach cell: [^\n]+\n\|Config\|/m,
  );
  // the machine class's line: the newest run per Node major with its driver, the machines table linked
  assert.match(
    block,
    /^#### linux-x64 · .*\n2 run\(s\) of this machine class; .*: v22\.23\.3 · \d+\.\d+\.\d+, v24\.21\.0 · \d+\.\d+\.\d+\. .*\[machines\]\(results\/README\.md#linux-x64--[^)]+\)\.$/m,
  );
  // the machine classes after the first (the block's byte budget): the charts, their tables linked
  const second = block.slice(block.indexOf('\n#### linux-x64'), block.indexOf('\n### Claims checked'));
  assert.deepEqual(
    second.split('\n').filter((l) => l.startsWith('|')),
    [],
    'no table of the second machine class',
  );
  assert.match(
    second,
    /^##### What each PRAGMA change does, .*\n!\[[^\n]+\]\([^)\n]+-config-[0-9a-f]{6}\.svg\) \[The table\]\(results\/README\.md#linux-x64--[^)]+\)\.$/m,
  );
  assert.match(
    second,
    /^▲: against better-sqlite3 without encryption\. !\[.*\[The tables\]\(results\/README\.md#linux-x64--/m,
  );
  // that link's anchor is the machine class's heading on results/README.md, which has the machines table
  const page = fs.readFileSync(path.join(ws.results, 'README.md'), 'utf8');
  const link = /\[machines\]\(results\/README\.md(#linux-x64[^)]+)\)/.exec(block)?.[1];
  const heading = page.split('\n').find((l) => l.startsWith('#### linux-x64'));
  assert.ok(heading && link);
  assert.equal(fragment(heading.slice(5)), link);
  assert.match(page.slice(page.indexOf(heading)), /^##### Machines: /m);
});

test("the README's compact forms stay within their budgets for one machine class; the long forms are on results/README.md", async () => {
  const ws = workspace();
  fs.writeFileSync(path.join(ws.artifacts, 'a.json'), JSON.stringify(syntheticDoc({ node: 'v22.23.3' })));
  fs.writeFileSync(path.join(ws.artifacts, 'b.json'), JSON.stringify(syntheticDoc({ node: 'v24.21.0', seed: 5 })));
  // a run whose production driver did not load: named with its status (the reason is in the machines table)
  const broken = syntheticDoc({ node: 'v20.20.2', seed: 7 });
  const driver = broken.sides[0].drivers.find((/** @type {any} */ d) => d.name === 'better-sqlite3-multiple-ciphers');
  for (const k of ['version', 'sqlite', 'sqlite3mc', 'binary', 'compileOptions', 'generation']) delete driver[k];
  Object.assign(driver, { status: 'error', reason: 'the prebuilt binary did not load' });
  for (const c of broken.cases.filter((/** @type {any} */ c) => c.driver === driver.name))
    Object.assign(c, { status: 'error', reason: 'the driver did not load', stats: undefined });
  fs.writeFileSync(path.join(ws.artifacts, 'c.json'), JSON.stringify(broken));
  await run(ws);
  const lines = blockOf(fs.readFileSync(ws.readme, 'utf8')).split('\n');
  assert.match(
    lines.find((l) => l.startsWith('3 run(s)')) ?? '',
    /: v20\.20\.2 · error, v22\.23\.3 · 13\.0\.3, v24\.21\.0 · 13\.0\.3\. /,
  );
  const bytes = (/** @type {string[]} */ ls) => Buffer.byteLength(ls.join('\n'));
  /** The lines from the one starting with `from` to the next heading. */
  const part = (/** @type {RegExp} */ from) => {
    const i = lines.findIndex((l) => from.test(l));
    assert.ok(i >= 0, String(from));
    const end = lines.findIndex((l, k) => k > i && /^#{1,6} /.test(l));
    return lines.slice(i, end < 0 ? lines.length : end);
  };
  // the answers come first (a line, the machine class's bold line, its five answers), then the preamble
  const head = lines.slice(
    0,
    lines.findIndex((l) => l.startsWith('### ')),
  );
  assert.match(head[0], /^\*\*Answers\*\*, per machine class: /, 'the block opens with the answers');
  const findings = head.slice(
    0,
    head.findIndex((l, i) => i > 0 && l === '' && /^ *- /.test(head[i - 1])),
  );
  assert.deepEqual(
    findings.filter((l) => l.startsWith('- ')).map((l) => /^- \*\*(\w+)\*\*/.exec(l)?.[1]),
    ['Encryption', 'PRAGMAs', 'Node', 'Driver', 'Changes'],
    'the five answers of the one machine class, open',
  );
  assert.ok(bytes(findings) <= 4000, `answers: ${findings.length} lines, ${bytes(findings)} bytes`);
  const preamble = head.slice(findings.length + 1);
  assert.ok(
    preamble.length <= 4 && bytes(preamble) <= 1300,
    `preamble: ${preamble.length} lines, ${bytes(preamble)} bytes`,
  );
  const intro = part(/^#### /);
  // the machine heading, its line; the self-check line follows after a blank line
  assert.ok(
    intro.length <= 4 && bytes(intro.slice(0, 2)) <= 500,
    `intro: ${intro.length} lines, ${bytes(intro.slice(0, 2))} bytes`,
  );
  const selfCheck = intro.filter((l) => l.startsWith('Comparisons below'));
  assert.equal(selfCheck.length, 1);
  assert.ok(bytes(selfCheck) <= 200, `self-check: ${bytes(selfCheck)} bytes`);
  // heading, chart, caption, a row per config but Production (14), header and delimiter
  assert.equal(part(/^##### What each PRAGMA change does/).length, 19);
  // heading, the line with the second reference and the chart, caption, a row per cipher (7), header and delimiter
  assert.equal(part(/^##### What encryption costs/).length, 12);
  // a cost's % ops/s read as × time beside it, in the caption
  assert.match(part(/^##### What encryption costs/).join('\n'), /^Each cell: .*−50% is 2\.00× the time/m);
  assert.ok(!lines.some((l) => l.startsWith('##### Machines')), 'the machines table is on results/README.md');
  const page = fs.readFileSync(path.join(ws.results, 'README.md'), 'utf8');
  assert.match(page, /^##### Machines: /m);
  assert.match(page, /\*\*How to read these numbers\.\*\*/);
  // navigable: a table of contents linking each machine class's heading, before the first platform
  const pageLines = page.split('\n');
  const contents = pageLines.indexOf('**Contents**, a machine class each:');
  assert.ok(contents > 0 && contents < pageLines.findIndex((l) => l.startsWith('### ')), 'contents first');
  for (const h of pageLines.filter((l) => l.startsWith('#### ')))
    assert.ok(page.includes(`- [${h.slice(5)}](${fragment(h.slice(5))})`), `contents link: ${h}`);
  // every table longer than 12 rows is collapsed, under <details>
  let open = 0;
  pageLines.forEach((l, i) => {
    open += l.startsWith('<details>') ? 1 : l === '</details>' ? -1 : 0;
    if (l.startsWith('|') && !pageLines[i - 1].startsWith('|')) {
      let n = 0;
      while (pageLines[i + 2 + n]?.startsWith('|')) n++;
      if (n > 12) assert.ok(open > 0, `a ${n}-row table not collapsed: ${l.slice(0, 80)}`);
    }
  });
});

test("a failed self-check stays marked: bold capitals in the README's line, the twin's changes on results/README.md", async () => {
  const ws = workspace();
  const doc = syntheticDoc({ node: 'v22.23.3' });
  doc.selfCheck = { ...doc.selfCheck, passed: false, flagged: ['insert', 'select', 'update'] };
  fs.writeFileSync(path.join(ws.artifacts, 'a.json'), JSON.stringify(doc));
  await run(ws);
  const block = blockOf(fs.readFileSync(ws.readme, 'utf8'));
  const line = block.split('\n').find((l) => l.startsWith('Comparisons below')) ?? '';
  assert.match(
    line,
    /\*\*Self-check FAILED\*\* \(Production measured twice\): p 0\.\d\d; the intervals understate the uncertainty\.$/,
  );
  assert.ok(Buffer.byteLength(line) <= 200, `${Buffer.byteLength(line)} bytes`);
  assert.match(html(block), /<strong>Self-check FAILED<\/strong>/);
  assert.match(
    fs.readFileSync(path.join(ws.results, 'README.md'), 'utf8'),
    /\*\*Self-check\*\* \(Production measured twice, as two cases\): \*\*FAILED\*\* \(its operations' p-values combined: .*\); they differ by Setup .*\. The comparisons are less certain than their intervals say\./,
  );
});

test('tidyBlanks: no blank line next to a heading, one after a table before anything else, never two', () => {
  assert.deepEqual(
    tidyBlanks([
      '',
      '### p',
      '',
      '#### m',
      'line',
      '',
      '',
      '##### a',
      '',
      '![c](x.svg)\n|a|\n|-|\n|1|',
      'after',
      '',
      '##### b',
      '|a|\n|-|\n|1|',
      '##### c',
      '',
    ]),
    [
      '### p',
      '#### m',
      'line',
      '##### a',
      '![c](x.svg)',
      '|a|',
      '|-|',
      '|1|',
      '',
      'after',
      '##### b',
      '|a|',
      '|-|',
      '|1|',
      '##### c',
    ],
  );
  // paragraphs a section keeps apart stay apart
  assert.deepEqual(tidyBlanks(['one', '', 'two', '', '- item']), ['one', '', 'two', '', '- item']);
});
