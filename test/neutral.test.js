// Issue #36, "one neutraliser": every string of a result or shootout document that reaches the
// README block, results/README.md or a chart renders inert and bounded, whatever it holds. Each
// field the renderers read (FIELDS below) is set to a crafted value, with a token of its own, on
// synthetic documents (bench/meta/synthetic.js), rendered by the real renderers (render-pages.js
// renderReadmeBlock, renderResultsPage) and read back through a GFM renderer (micromark with GFM, raw HTML
// let through as GitHub's sanitiser would keep <a> and <details>): every place the token shows, the
// crafted text after it is there as text (or cut with an ellipsis, or a slug in a link or file
// name), never a link, image, HTML, heading, emphasis, mention, issue reference or a new table cell;
// no crafted 10,000 characters uncut. Then every other string (and number) of the documents, each
// with its own token, so a field nobody listed is caught the day a renderer starts showing it.
// Directly on in-memory documents (defence in depth: the schema may refuse these values), and
// through the whole aggregate for the values the schema allows, SVGs included.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { aggregate } from '../aggregate/cli.js';
import { readResult } from '../aggregate/read.js';
import { renderReadmeBlock, renderResultsPage } from '../aggregate/render-pages.js';
import { nightOf } from '../aggregate/nights.js';
import { entryOf } from '../aggregate/store.js';
import { isShootout } from '../bench/result/header.js';
import { summarize } from '../bench/result/summary.js';
import { syntheticDoc, syntheticShootout } from '../bench/meta/synthetic.js';
import { chartText, fileSlug, fragment, inert } from '../lib/markdown.js';
import { END, START } from '../lib/markers.js';
import { scratch } from './helpers.js';

/**
 * Markup of every kind GitHub would act on, after the token; one line break, then a heading. No '/'
 * (a renderer may split a key at it, inert in each part), so each shows whole or cut.
 */
const CRAFT =
  ' [x](https:evil.example) ![i](evil.png) <a href=x>a <details> @octocat #1 *em* www.evil.example | pipe \n# heading';
const LONG = ` ${'y'.repeat(10_000)}`;
/** Longest run of the crafted filler that may show: the neutraliser's bound, with room. */
const BOUND = 400;

/**
 * The fields the renderers read, as paths in a document (0: the result document, 1: the shootout
 * document; * is every element of an array). A field here must show in the pages when crafted.
 */
const FIELDS = [
  '0:environment/platform',
  '0:environment/arch',
  '0:environment/osRelease',
  '0:environment/cpuModel',
  '0:environment/ci/imageOs',
  '0:environment/ci/imageVersion',
  '0:sides/*/drivers/*/status',
  '0:sides/*/drivers/*/version',
  '0:sides/*/drivers/*/sqlite',
  '0:sides/*/drivers/*/sqlite3mc',
  '0:cases/*/status',
  '0:cases/*/reason',
  '0:comparisons/*/member',
  '0:comparisons/*/op',
  '0:comparisons/*/verdict',
  '0:claims/*/checks/*/verdict',
  '0:claims/*/checks/*/reason',
  '0:workloads/cases/*/name',
  '0:workloads/cases/*/setup/driver',
  '0:workloads/cases/*/setup/cipher',
  '0:workloads/cases/*/status',
  '1:run/finishedAt',
  '1:environment/platform',
  '1:environment/arch',
  '1:environment/cpuModel',
  '1:environment/ci/imageOs',
  '1:environment/ci/imageVersion',
  '1:sides/*/label',
  '1:sides/*/node',
  '1:sides/*/drivers/*/name',
  '1:sides/*/drivers/*/status',
  '1:sides/*/drivers/*/version',
  '1:sides/*/drivers/*/sqlite',
  '1:sides/*/drivers/*/sqlite3mc',
  '1:sides/*/drivers/*/reason',
  '1:sides/*/reason',
  '1:comparisons/*/reference',
  '1:comparisons/*/setup',
  '1:comparisons/*/member',
  '1:comparisons/*/op',
  '1:comparisons/*/verdict',
];
/**
 * Numbers the renderers write into text (a few of them; every number is crafted below): as a
 * string, each shows as the number formats' placeholder (lib/format.js NOT_A_NUMBER), never as its text.
 */
const NUMBERS = [
  '0:environment/cores',
  '0:selfCheck/operations',
  '0:comparisons/*/pairs',
  '0:workloads/budget/rounds',
  '0:workloads/cases/*/setup/readers',
  '0:workloads/cases/*/busy/reads',
  '0:workloads/cases/*/busy/writes',
  '1:run/budget/rounds',
  '1:environment/cores',
];
/**
 * Numbers written as text outside the renderers, then shown inert: the core count is part of the
 * machine class's name (aggregate/store.js machineOf), a heading and a key.
 */
const NUMBERS_AS_TEXT = ['0:environment/cores', '1:environment/cores'];
/**
 * Numbers that, crafted as text, stop the pages before anything is rendered: read by
 * aggregate/nights.js (nightOf, each night's production figures) before any renderer, whose
 * document the schema has checked (and a store that fails to render is aggregate/cli.js's to name).
 */
const THROWS = ['0:cases/*/stats/opsPerSec/median'];
/**
 * Fields the store itself refuses when they are not what the schema's patterns allow (they make
 * the stored file's name: aggregate/store.js fileFor), or that say which kind of document it is:
 * never rendered from a document that was not stored.
 */
const IDENTITY = ['0:kind', '0:run/finishedAt', '0:environment/node', '1:kind', '1:environment/node'];

const html = (/** @type {string} */ md) =>
  micromark(md, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
const escapeXml = (/** @type {string} */ s) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const visible = (/** @type {boolean} */ long) => (CRAFT + (long ? LONG : '')).replace(/\s+/g, ' ');

/**
 * Where a token shows in markup (HTML, or SVG) other than as inert text: the crafted text after it,
 * up to the next tag or attribute end, must be all of it, or a prefix of it cut with an ellipsis, or
 * a slug (a link's fragment, a file name); and in Markdown never a live mention or issue reference
 * (an SVG is an image: GitHub links nothing in it).
 * @param {string} markup
 * @param {string} token
 * @param {boolean} long
 * @param {boolean} [markdown]
 * @returns {string[]} the places that are not inert
 */
function live(markup, token, long, markdown = true) {
  const full = escapeXml(visible(long));
  const out = [];
  for (let i = markup.indexOf(token); i >= 0; i = markup.indexOf(token, i + 1)) {
    const rest = markup.slice(i + token.length);
    const end = rest.search(/[<"\n]/);
    const raw = end < 0 ? rest : rest.slice(0, end);
    // the zero-width spaces after @ and #, and a backslash that shows (text neutralised twice: still text),
    // and a character written as a numeric reference (raw HTML: a <summary>), which a browser shows as itself
    const text = raw
      .replace(/\u200b/g, '')
      .replace(/\\(?=[\\`*_~[\]|#&!$.:-])/g, '')
      .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
    const cut = text.indexOf('…');
    const inert =
      text === '' || // the renderer showed the value's first word alone
      text.startsWith(full) ||
      (cut >= 0 && full.startsWith(text.slice(0, cut).trimEnd())) ||
      (/^[a-z0-9._/-]{0,200}$/.test(text) && rest[end] === '"');
    if (!inert || (markdown && /@octocat|#1/.test(raw)))
      out.push(markup.slice(Math.max(0, i - 60), i + token.length + 160));
  }
  return out;
}

/** Markdown text's problems for one token: live markup, or the long filler uncut. */
function markdownProblems(/** @type {string} */ md, /** @type {string} */ token, /** @type {boolean} */ long) {
  const out = live(html(md), token, long);
  const uncut = new RegExp(`y{${BOUND + 1}}`).exec(md);
  if (uncut) out.push(`uncut: ${md.slice(Math.max(0, uncut.index - 120), uncut.index)}`);
  return out;
}

/** Each string of a chart's spec that holds the token: bounded, one line. */
function specProblems(/** @type {any[]} */ specs, /** @type {string} */ token) {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {unknown} */ v) => {
    if (typeof v === 'string') {
      // eslint-disable-next-line no-control-regex -- a line break or control in chart text
      if (v.includes(token) && (v.length > BOUND || /[\u0000-\u001f]/.test(v))) out.push(v.slice(0, 160));
    } else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(specs);
  return out;
}

/** The two pages and every chart spec, rendered from documents in memory. */
function render(/** @type {any[]} */ docs) {
  // a shootout's file is named so, as store.js fileFor names it (isShootoutEntry)
  const entries = docs.map((d, i) =>
    entryOf(d, `d${i}${isShootout(d) ? '-shootout-00000000' : ''}.json`, JSON.stringify(d)),
  );
  const store = { entries: () => entries, load: (/** @type {any} */ e) => docs[entries.indexOf(e)] };
  /** @type {any[]} */
  const specs = [];
  const o = {
    resultsLink: 'results',
    charts: { add: (/** @type {string} */ f, /** @type {any} */ s) => (specs.push(s), f) },
    nights: { of: (/** @type {any} */ e) => nightOf(store.load(e), e) },
  };
  const block = renderReadmeBlock(store, o);
  const page = renderResultsPage(store, { ...o, resultsLink: '.', readmeLink: '../README.md' }) ?? '';
  return { md: `${block}\n\n${page}`, specs };
}

/** Every leaf of a kind, grouped by its path with array indices as *. */
function fieldsOf(/** @type {any[]} */ docs, /** @type {'string' | 'number'} */ kind) {
  /** @type {Map<string, (string | number)[][]>} */
  const groups = new Map();
  const walk = (/** @type {unknown} */ v, /** @type {(string | number)[]} */ at) => {
    if (typeof v === kind) {
      const key = `${at[0]}:${at
        .slice(1)
        .map((x) => (typeof x === 'number' ? '*' : x))
        .join('/')}`;
      groups.set(key, [...(groups.get(key) ?? []), at]);
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...at, i]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
  };
  docs.forEach((d, i) => walk(d, [i]));
  return groups;
}

/** Copies of the documents with every place of one field set to a value. */
function craft(/** @type {any[]} */ docs, /** @type {(string | number)[][]} */ places, /** @type {string} */ value) {
  const out = structuredClone(docs);
  for (const at of places) {
    /** @type {any} */
    let o = out;
    for (const k of at.slice(0, -1)) o = o[k];
    o[/** @type {any} */ (at.at(-1))] = value;
  }
  return out;
}

const BASE = [syntheticDoc(), syntheticShootout()];

test('a workload case’s setup.readers, crafted, is never written as its text in the README block and results/README.md (issue #36 fault 1)', () => {
  const places = fieldsOf(BASE, 'number').get('0:workloads/cases/*/setup/readers') ?? [];
  assert.ok(places.length > 0);
  const token = 'zqreadersqz';
  const { md } = render(craft(BASE, places, `${token}${CRAFT}${LONG}`));
  assert.deepEqual(markdownProblems(md, token, true), []);
  assert.ok(!md.includes(token), 'a number that is not one is never written as its text');
  assert.match(md, /writer \+ \? readers/, 'but as the placeholder');
});

test('a 4 MB cpuModel: the machine class’s heading, its link fragment and its charts’ file names stay bounded (issue #36 fault 5)', () => {
  const doc = structuredClone(BASE[0]);
  doc.environment.cpuModel = 'A'.repeat(4_000_000);
  const { md, specs } = render([doc]);
  const longest = Math.max(...md.split('\n').map((l) => l.length));
  assert.ok(longest < 5000, `a line of ${longest} characters`);
  assert.doesNotMatch(md, new RegExp(`A{${BOUND + 1}}`));
  assert.deepEqual(specProblems(specs, 'AAAA'), []);
});

test('the neutraliser: a fragment is the heading’s as GitHub makes it, bounded as the heading is; a file name part and chart text bounded', () => {
  const machine = 'linux-x64 · Intel(R) Core(TM) i7-8700B CPU @ 3.20GHz · 4 cores · macos15';
  assert.equal(fragment(machine), '#linux-x64--intelr-coretm-i7-8700b-cpu--320ghz--4-cores--macos15');
  // the heading is inert(text): its fragment is of the text as shown, cut where the heading is cut
  const long = `x ${'a'.repeat(1000)}`;
  assert.equal(fragment(long), `#x-${'a'.repeat(197)}`);
  assert.equal(
    fragment(`${CRAFT}`),
    '#xhttpsevilexample-ievilpng-a-hrefxa-details-octocat-1-em-wwwevilexample--pipe--heading',
  );
  assert.ok(inert(long).startsWith(`x ${'a'.repeat(197)}…`));
  assert.doesNotMatch(inert('see GH-12, gh-3'), /gh-\d/i, 'an issue reference');
  assert.equal(fileSlug('linux-x64'), 'linux-x64');
  assert.equal(fileSlug('../../etc/passwd'), 'etc-passwd');
  assert.equal(fileSlug('..'), 'x');
  assert.equal(fileSlug('a'.repeat(100)).length, 40);
  const spec = { title: { text: `t\n${'y'.repeat(1000)}` }, data: { values: [{ member: 'a\u202eb', n: 1 }] }, n: null };
  assert.deepEqual(chartText(spec, 10), {
    title: { text: `t ${'y'.repeat(7)}…` },
    data: { values: [{ member: 'ab', n: 1 }] },
    n: null,
  });
});

test('every field the renderers read, and every other string and number of the documents, crafted: inert and bounded wherever it shows', () => {
  const strings = fieldsOf(BASE, 'string');
  const numbers = fieldsOf(BASE, 'number');
  for (const f of FIELDS) assert.ok(strings.has(f), `${f}: not a string of the synthetic documents`);
  for (const f of NUMBERS) assert.ok(numbers.has(f), `${f}: not a number of the synthetic documents`);
  /** @type {string[]} */
  const failures = [];
  /** @type {string[]} */
  const unlisted = [];
  /** @type {Set<string>} */
  const shown = new Set();
  let n = 0;
  // strings one field at a time (a crafted name changes what a renderer finds); numbers a
  // document's top-level part at a time, each field with its own token
  const numberGroups = new Map();
  for (const [key, places] of numbers) {
    const part = key.split('/')[0];
    numberGroups.set(part, [...(numberGroups.get(part) ?? []), [key, places]]);
  }
  const runs = [
    ...[...strings].filter(([key]) => !IDENTITY.includes(key)).map(([key, places]) => [[key, places]]),
    ...numberGroups.values(),
  ];
  for (const run of runs) {
    /** @type {Map<string, string>} */
    const tokens = new Map();
    let docs = BASE;
    for (const [key, places] of run) {
      const token = `zq${n++}qz`;
      tokens.set(key, token);
      docs = craft(docs, places, `${token}${CRAFT}${LONG}`);
    }
    let out;
    try {
      out = render(docs);
    } catch (err) {
      if (THROWS.some((k) => tokens.has(k))) continue;
      failures.push(`${[...tokens.keys()].join(', ')}: the renderers threw ${String(err).slice(0, 120)}`);
      continue;
    }
    for (const [key, token] of tokens) {
      if (!out.md.includes(token) && !JSON.stringify(out.specs).includes(token)) continue;
      shown.add(key);
      if (numbers.has(key) && !NUMBERS_AS_TEXT.includes(key))
        failures.push(`${key}: a number crafted as text is written as its text`);
      else if (!FIELDS.includes(key) && !numbers.has(key)) unlisted.push(key);
      for (const p of [...markdownProblems(out.md, token, true), ...specProblems(out.specs, token)])
        failures.push(`${key}: ${JSON.stringify(p)}`);
    }
  }
  if (process.env.NEUTRAL_DEBUG) fs.writeFileSync(process.env.NEUTRAL_DEBUG, [...failures, ...unlisted].join('\n'));
  assert.deepEqual(failures, []);
  assert.deepEqual(unlisted, [], 'fields the renderers show that FIELDS does not list');
  assert.deepEqual(
    FIELDS.filter((f) => !shown.has(f)),
    [],
    'fields FIELDS lists that the renderers never showed',
  );
});

test('the run summary (the job step summary, Markdown) shows every string and number of a crafted result document inert, bounded, never a number as its text', () => {
  /** @type {string[]} */
  const failures = [];
  let n = 0;
  for (const kind of /** @type {const} */ (['string', 'number'])) {
    for (const [key, places] of fieldsOf([BASE[0]], kind)) {
      if (IDENTITY.includes(key)) continue;
      const token = `zs${n++}sz`;
      let md;
      try {
        md = summarize(craft([BASE[0]], places, `${token}${CRAFT}${LONG}`)[0]);
      } catch {
        continue; // a number the summary computes with; the schema refuses it before any summary
      }
      if (kind === 'number' && md.includes(token))
        failures.push(`${key}: a number crafted as text is written as its text`);
      for (const p of markdownProblems(md, token, true)) failures.push(`${key}: ${JSON.stringify(p)}`);
    }
  }
  assert.deepEqual(failures, []);
});

test('the whole aggregate over documents crafted as far as the schema allows: the README block, results/README.md and every SVG carry each crafted value inert', async () => {
  const dir = scratch('neutral-');
  const artifacts = path.join(dir, 'artifacts');
  fs.mkdirSync(artifacts);
  const readme = path.join(dir, 'README.md');
  fs.writeFileSync(readme, `# T\n\n${START}\n${END}\n`);
  // one line of markup (the schema refuses a line break), on every string field the schema lets carry it
  const value = CRAFT.replace('\n', '');
  const probe = path.join(dir, 'probe.json');
  /** @type {Map<string, string>} */
  const tokens = new Map();
  let docs = BASE;
  let n = 0;
  for (const [key, places] of fieldsOf(BASE, 'string')) {
    const token = `zq${n++}qz`;
    const next = craft(docs, places, `${token}${value}`);
    const i = Number(key.split(':')[0]);
    fs.writeFileSync(probe, JSON.stringify(next[i]));
    if (!readResult(probe).ok) continue;
    docs = next;
    tokens.set(key, token);
  }
  fs.rmSync(probe);
  assert.ok(tokens.size >= 10, `${tokens.size} fields allow markup`);
  docs.forEach((d, i) => fs.writeFileSync(path.join(artifacts, `d${i}.json`), JSON.stringify(d)));
  /** @type {string[]} */
  const warn = [];
  const code = await aggregate(
    { artifacts, results: path.join(dir, 'results'), readme },
    { log: () => {}, warn: (s) => warn.push(s) },
  );
  assert.equal(code, 0, warn.join('\n'));
  const text = fs.readFileSync(readme, 'utf8');
  const md = `${text.slice(text.indexOf(START), text.indexOf(END))}\n\n${fs.readFileSync(path.join(dir, 'results', 'README.md'), 'utf8')}`;
  const svgs = fs
    .readdirSync(path.join(dir, 'results'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.svg'))
    .map((f) => fs.readFileSync(path.join(dir, 'results', f), 'utf8'));
  assert.ok(svgs.length > 0, 'charts drawn');
  /** @type {string[]} */
  const failures = [];
  for (const [key, token] of tokens)
    for (const p of [...markdownProblems(md, token, false), ...svgs.flatMap((s) => live(s, token, false, false))])
      failures.push(`${key}: ${JSON.stringify(p)}`);
  if (process.env.NEUTRAL_DEBUG) fs.writeFileSync(`${process.env.NEUTRAL_DEBUG}.whole`, failures.join('\n'));
  assert.deepEqual(failures, []);
  assert.ok(Math.max(...md.split('\n').map((l) => l.length)) < 20_000, 'a line of the pages within bounds');
});
