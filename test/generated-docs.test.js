// Issue #36: every field of a result document is untrusted. Property tests of the aggregate on
// documents generated from the committed schemas (test/generate.js): synthetic result and
// shootout documents changed at random places of their schema, each change a fresh value for that
// place, an optional key dropped or one added. The ones the aggregate's own reader accepts are the
// valid set, the others the crafted set; both go into aggregates in scratch workspaces, several
// documents a run. Whatever a document holds: the aggregate never throws; it exits 0 or 1 and names
// every file it does not store in one line; it writes nothing but README.md and results/ in its
// workspace; the README outside its markers stays byte for byte; and what it renders is inert under
// GitHub's Markdown (micromark with GFM): no link, image, raw HTML, mention or issue reference made
// from a document's string. Seeded: a failure names its seed and the smallest change that fails.
// GENERATED_SEED=<n> runs other seeds (GENERATED_RUNS=<k> of them).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { aggregate } from '../aggregate/cli.js';
import { readResult } from '../aggregate/read.js';
import { syntheticDoc, syntheticShootout } from '../bench/meta/synthetic.js';
import { END, START } from '../lib/markers.js';
import { createRandom, randomInt } from '../lib/prng.js';
import { applyChanges, changesFor, examplesOf, generate, pointer, schemaTools } from './generate.js';
import { blockWithMarkers, outsideBlock, ROOT, scratch, TEST_NOW, tree } from './helpers.js';

const SEED = Number(process.env.GENERATED_SEED ?? 3600);
const RUNS = Number(process.env.GENERATED_RUNS ?? 8);
/** Documents per aggregate run. */
const DOCS = 8;
const README = `# Title\n\nintro stays\n\n${START}\nold block\n${END}\n\nfooter stays\n`;

const schemaOf = (/** @type {string} */ file) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));
/** The one schema of every document: a run of one side, or a shootout's of several. */
const SCHEMA = schemaOf('bench/result/document.schema.json');
const tools = schemaTools(SCHEMA);
const SHOOTOUT = 'shootout linux-x64';

/**
 * The documents changes start from: each mode, an older and a newer Node, another platform, a shootout.
 * @type {{ name: string, tools: ReturnType<typeof schemaTools>, doc: any, places: ReturnType<ReturnType<typeof schemaTools>['places']> }[]}
 */
const BASES = [
  { name: 'quick linux-x64 v22.23.3', tools, doc: syntheticDoc({ mode: 'quick' }) },
  { name: 'full linux-x64 v24.21.0', tools, doc: syntheticDoc({ mode: 'full', node: 'v24.21.0', seed: 2 }) },
  {
    name: 'quick darwin-arm64 v20.20.2',
    tools,
    doc: syntheticDoc({ mode: 'quick', node: 'v20.20.2', platform: 'darwin-arm64', seed: 3 }),
  },
  { name: SHOOTOUT, tools, doc: syntheticShootout() },
].map((b) => ({ ...b, places: b.tools.places(b.doc) }));
const EXAMPLES = new Map(
  [tools].map((t) => [
    t,
    examplesOf(
      t,
      BASES.map((b) => b.doc),
    ),
  ]),
);

/**
 * @typedef {{ base: typeof BASES[number], changes: import('./generate.js').Change[], doc: any, label: string }} Generated
 */

/**
 * The documents of one seed: each from a base, with one to three changes, a run id and a machine
 * class of its own (unless a change set them).
 * @param {number} seed
 * @returns {Generated[]}
 */
function generated(seed) {
  const random = createRandom(seed);
  return Array.from({ length: DOCS }, (_, i) => {
    const base = BASES[randomInt(random, BASES.length)];
    const own = structuredClone(base.doc);
    own.run.id = `${(seed * 16 + i).toString(16).padStart(8, '0').slice(-8)}-0000-4000-8000-${String(seed).padStart(12, '0')}`;
    // a machine class of its own (its core count): the aggregate renders each class's newest document
    own.environment.cores = 10 + i;
    const b = { ...base, doc: own };
    const examples = /** @type {Map<string, string[]>} */ (EXAMPLES.get(base.tools));
    const changes = changesFor(base.tools, examples, random, own, base.places, 1 + randomInt(random, 3));
    return { base: b, changes, doc: applyChanges(own, changes), label: `seed ${seed}, document ${i}` };
  });
}

/** A change in one line: where, what, and the value (cut). */
const described = (/** @type {import('./generate.js').Change} */ c) =>
  `${c.op} ${pointer(c.path)}${c.op === 'set' ? ` = ${String(JSON.stringify(c.value)).slice(0, 120)}` : ''}`;

const html = (/** @type {string} */ md) =>
  micromark(md, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });

/**
 * What GitHub would make live of the canaries test/generate.js puts in documents' strings (HOSTILE).
 * @param {string} md
 * @returns {string[]}
 */
export function liveMarkup(md) {
  const h = html(md);
  // GitHub mentions no one and links no issue inside code
  const text = h.replace(/<code>[^<]*<\/code>/g, '').replace(/<[^>]*>/g, '');
  /** @type {[string, RegExp, string][]} */
  const checks = [
    // a canary in a fragment is inert: an anchor keeps only letters, digits, '-' and '_' (lib/markdown.js fragment)
    ['a link', /href="(?!#)[^"#]*(?:evil\.example|zq)[^"]*"/i, h],
    ['an image', /src="[^"]*evil\.example[^"]*"/i, h],
    ['raw HTML', /<(?:zqtag|a href="https:\/\/evil|details><summary>zq)/i, h],
    ['a mention', /(?:^|[^\w`])@zq/, text],
    ['an issue reference', /(?:^|[^\w&])#4242\b/, text],
  ];
  return checks.flatMap(([what, re, where]) => {
    const m = re.exec(where);
    return m
      ? [`${what}: …${where.slice(Math.max(0, m.index - 60), m.index + m[0].length + 20).replace(/\n/g, '⏎')}…`]
      : [];
  });
}

/**
 * One aggregate over documents in a fresh workspace (outer/ws), and what broke of its guarantees.
 * @param {any[]} docs
 * @returns {Promise<string[]>} the broken guarantees; empty when all held
 */
async function problemsOf(docs) {
  const outer = scratch('generated-');
  const ws = path.join(outer, 'ws');
  const artifacts = path.join(ws, 'artifacts');
  const results = path.join(ws, 'results');
  const readme = path.join(ws, 'README.md');
  fs.mkdirSync(artifacts, { recursive: true });
  fs.writeFileSync(readme, README);
  const files = docs.map((d, i) => {
    const file = path.join(artifacts, `d${i}.json`);
    fs.writeFileSync(file, JSON.stringify(d));
    return file;
  });
  const invalid = files.filter((f) => !readResult(f).ok);
  const before = tree(outer, [path.join('ws', 'results'), path.join('ws', 'README.md')]);
  /** @type {string[]} */
  const warn = [];
  /** @type {string[]} */
  const log = [];
  /** @type {number} */
  let code;
  try {
    code = await aggregate(
      { artifacts, results, readme, now: TEST_NOW },
      { log: (s) => log.push(s), warn: (s) => warn.push(s) },
    );
  } catch (err) {
    const e = /** @type {Error} */ (err);
    const at = String(e.stack)
      .split('\n')
      .find((l) => l.includes(ROOT) && !l.includes(`${path.sep}test${path.sep}`));
    return [
      `the aggregate threw ${e.name}: ${e.message}${
        at
          ? ` ${at
              .trim()
              .replace('file://', '')
              .replace(ROOT + path.sep, '')}`
          : ''
      }`,
    ];
  }
  /** @type {string[]} */
  const problems = [];
  if (code !== 0 && code !== 1) problems.push(`exit ${code}`);
  for (const w of warn) if (w.includes('\n')) problems.push(`a warning of more than one line: ${w.slice(0, 200)}`);
  const stored = Number(/ (\d+) stored,/.exec(log.join('\n'))?.[1] ?? NaN);
  let named = 0;
  for (const f of files) {
    const lines = warn.filter((w) => w.startsWith(`${f}: `)).length;
    if (lines > 1) problems.push(`${path.basename(f)} named in ${lines} lines`);
    if (lines === 0 && invalid.includes(f)) problems.push(`${path.basename(f)} is invalid but not named`);
    named += Math.min(lines, 1);
  }
  if (named + stored !== files.length)
    problems.push(`${files.length} files: ${stored} stored and ${named} named (${warn.join(' | ').slice(0, 400)})`);
  const after = tree(outer, [path.join('ws', 'results'), path.join('ws', 'README.md')]);
  for (const f of new Set([...Object.keys(before), ...Object.keys(after)]))
    if (before[f] !== after[f]) problems.push(`${f} ${f in after ? (f in before ? 'changed' : 'written') : 'removed'}`);
  const text = fs.readFileSync(readme, 'utf8');
  if (text.split(START).length !== 2 || text.split(END).length !== 2) problems.push('README: not one pair of markers');
  else if (JSON.stringify(outsideBlock(text)) !== JSON.stringify(outsideBlock(README)))
    problems.push('README changed outside its markers');
  const page = path.join(results, 'README.md');
  for (const [name, md] of /** @type {[string, string][]} */ ([
    ['README block', blockWithMarkers(text)],
    ['results/README.md', fs.existsSync(page) ? fs.readFileSync(page, 'utf8') : ''],
  ]))
    for (const live of liveMarkup(md)) problems.push(`${name} has ${live}`);
  return problems;
}

/**
 * The smallest failing part of a failing run: the first document that fails alone, and the first of
 * its changes that fails alone on the document it was made from.
 * @param {Generated[]} docs
 * @param {string[]} problems the run's
 */
async function smallest(docs, problems) {
  for (const g of docs) {
    const alone = await problemsOf([g.doc]);
    if (!alone.length) continue;
    for (const c of g.changes) {
      const one = await problemsOf([applyChanges(g.base.doc, [c])]);
      if (one.length) return `${g.label} (from ${g.base.name}): ${described(c)}\n  ${one.join('\n  ')}`;
    }
    return `${g.label} (from ${g.base.name}): ${g.changes.map(described).join('; ')}\n  ${alone.join('\n  ')}`;
  }
  return `only the documents together (${docs.map((g) => g.changes.map(described).join('; ')).join(' | ')})\n  ${problems.join('\n  ')}`;
}

test('the generator makes valid documents and crafted ones, and reaches the places the aggregate has failed on', () => {
  const all = Array.from({ length: RUNS }, (_, k) => generated(SEED + k)).flat();
  const dir = scratch('generated-valid-');
  const valid = all.filter((g, i) => {
    const file = path.join(dir, `${i}.json`);
    fs.writeFileSync(file, JSON.stringify(g.doc));
    return readResult(file).ok;
  });
  // enough of both kinds: the valid ones are stored and rendered, the crafted ones must be named
  assert.ok(valid.length >= all.length * 0.4, `${valid.length} of ${all.length} valid`);
  assert.ok(all.length - valid.length >= 3, `${all.length - valid.length} of ${all.length} crafted`);
  assert.ok(
    valid.some((g) => g.base.name === SHOOTOUT),
    'a valid shootout document',
  );
  // the same seed, the same documents
  assert.deepEqual(
    generated(SEED).map((g) => g.doc),
    generated(SEED).map((g) => g.doc),
  );
  // every kind of change, at every part of a document's schema, workload cases included
  const changes = all.flatMap((g) => g.changes);
  for (const op of ['set', 'delete'])
    assert.ok(
      changes.some((c) => c.op === op),
      op,
    );
  const where = new Set(changes.map((c) => String(c.path[0])));
  for (const top of ['run', 'environment', 'cases', 'workloads', 'sides'])
    assert.ok(where.has(top), `no change under /${top}: ${[...where].join(', ')}`);
  // the strings it makes for a pattern match it, and are not all the synthetic documents' own
  const node = /** @type {any} */ (tools.places(BASES[0].doc).get('/environment/node'))[0].nodes.find(
    (/** @type {any} */ n) => n.pattern,
  );
  assert.ok(node, '/environment/node has a pattern');
  const random = createRandom(SEED);
  const nodes = new Set();
  for (let i = 0; i < 200; i++) {
    const [c] = changesFor(
      tools,
      /** @type {any} */ (EXAMPLES.get(tools)),
      random,
      BASES[0].doc,
      new Map([['/environment/node', /** @type {any} */ (BASES[0].places.get('/environment/node'))]]),
      1,
    );
    if (c.op === 'set') nodes.add(c.value);
  }
  for (const v of nodes) assert.match(/** @type {string} */ (v), new RegExp(node.pattern, 'u'));
  assert.ok(
    [...nodes].some((v) => /-/.test(/** @type {string} */ (v))),
    `no prerelease among ${[...nodes].join(' ')}`,
  );
});

test("values made from the schema alone are valid against it: at 90% of a document's places, and whole documents", () => {
  const random = createRandom(SEED);
  for (const b of BASES) {
    const examples = /** @type {Map<string, string[]>} */ (EXAMPLES.get(b.tools));
    /** @type {string[]} */
    const invalid = [];
    for (const [where, [place]] of b.places) {
      const v = generate(b.tools, examples, random, place.given, { key: place.path.at(-1) });
      if (!place.given.every((s) => b.tools.valid(s, v)))
        invalid.push(`${where || '/'} = ${JSON.stringify(v).slice(0, 80)}`);
    }
    assert.ok(
      invalid.length <= b.places.size * 0.1,
      `${b.name}: ${invalid.length} of ${b.places.size} invalid\n${invalid.join('\n')}`,
    );
  }
  const made = Array.from({ length: 10 }, () =>
    generate(tools, /** @type {Map<string, string[]>} */ (EXAMPLES.get(tools)), random, [SCHEMA]),
  );
  // whole documents: 10 of 10 valid over seeds 3600–3619 (since the generator follows a then into
  // the children it constrains, and propertyNames given by $ref; 3 to 9 of 10 before)
  assert.ok(made.filter((d) => tools.valid(SCHEMA, d)).length >= 8, 'whole documents');
});

test(`aggregate over documents made from the schemas alone (seed ${SEED}): no throw, every refused file named, nothing written outside, nothing live`, async () => {
  const random = createRandom(SEED);
  const docs = [0, 1].flatMap(() => {
    return Array.from({ length: 3 }, (_, i) => {
      const d = /** @type {any} */ (
        generate(tools, /** @type {Map<string, string[]>} */ (EXAMPLES.get(tools)), random, [SCHEMA])
      );
      if (d?.run && typeof d.run === 'object')
        d.run.id = `${String(i).padStart(8, 'e')}-0000-4000-8000-${String(SEED).padStart(12, '0')}`;
      if (d?.environment && typeof d.environment === 'object') d.environment.cores = 30 + i;
      return d;
    });
  });
  const problems = await problemsOf(docs);
  assert.deepEqual(problems, [], `seed ${SEED}: ${problems.join('; ')}`);
});

test('liveMarkup sees each canary made live, and none made inert', () => {
  for (const live of [
    '[zq](https://evil.example/zq)',
    '![zq](https://evil.example/zq.png)',
    '<a href="https://evil.example/zq">zq</a>',
    '<details><summary>zq</summary>',
    '<zqtag>',
    'hi @zqmention',
    'see #4242',
    'https://evil.example/zq',
    'www.evil.example',
    'zq@evil.example',
  ])
    assert.ok(liveMarkup(live).length, live);
  for (const inert of [
    '\\[zq\\](https\\://evil.example/zq)',
    '\\!\\[zq\\](https\\://evil.example/zq.png)',
    '\\<a href="https\\://evil.example/zq"\\>zq\\</a\\>',
    '\\<zqtag\\>',
    'hi @\u200bzqmention',
    'see \\#\u200b4242',
    'www\\.evil.example',
    '`@zqmention #4242`',
    'zq@\u200bevil.example',
    '[a chart](#zq-section)',
  ])
    assert.deepEqual(liveMarkup(inert), [], inert);
});

for (let k = 0; k < RUNS; k++) {
  const seed = SEED + k;
  test(`aggregate over ${DOCS} generated documents (seed ${seed}): no throw, every refused file named, nothing written outside README.md and results/, the README outside its markers kept, nothing live`, async () => {
    const docs = generated(seed);
    const problems = await problemsOf(docs.map((g) => g.doc));
    if (problems.length)
      assert.fail(
        `seed ${seed} (GENERATED_SEED=${seed} GENERATED_RUNS=1 node --test test/generated-docs.test.js): ${await smallest(docs, problems)}`,
      );
  });
}
