// The chart machinery on its own: file names made only of slugs (a machine class comes from a
// document), text widths from Helvetica's metrics, one spec drawn to one deterministic SVG, the
// same bytes whatever was drawn before, a chart whose spec did not change left alone, a chart that
// cannot be drawn named (and nothing half written), and every drawn chart well-formed and tidy
// (the svgo passes that are ours, each on its own: test/tidy.test.js).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DRAWING_CODE, chartFile, chartWriter } from '../aggregate/charts/writer.js';
import { comparisonSpec, historySpec } from '../aggregate/charts/specs.js';
import { TEMP_FILE } from '../lib/files.js';
import { textWidth } from '../aggregate/charts/metrics.js';
import { ROOT } from '../lib/root.js';
import { scratch } from './helpers.js';

test('a machine class from a document becomes a file name of lowercase letters, digits and dashes, unique by a hash', () => {
  for (const hostile of [
    '../../etc/passwd',
    'linux-x64 · AMD EPYC 7763 · 4 cores · ubuntu24',
    '<img src=x>',
    'A'.repeat(10_000),
    '',
  ]) {
    const s = chartFile(hostile, 'x');
    assert.match(s, /^[a-z0-9-]+-x-[0-9a-f]{6}\.svg$/, s);
    assert.ok(s.length <= 42, s);
  }
  assert.notEqual(
    chartFile('a · 4 cores', 'x'),
    chartFile('a · 4 Cores', 'x'),
    'two machine classes that differ only in case share a file',
  );
});

test("a chart file ends in its machine class's hash: git pairs each chart with its own previous night by the end of the path", () => {
  const a = chartFile('linux-x64 · AMD EPYC 7763 · 4 cores · ubuntu24', 'history-node18');
  const b = chartFile('linux-x64 · AMD EPYC 9V74 · 4 cores · ubuntu24', 'history-node18');
  assert.match(a, /^[a-z0-9-]+-history-node18-[0-9a-f]{6}\.svg$/);
  assert.notEqual(a.slice(-16), b.slice(-16), 'the last 16 characters tell the two machine classes apart');
  assert.match(chartFile('../../etc', 'x'), /^[a-z0-9-]+\.svg$/);
});

test('the writer refuses a chart name that is not made of slugs: nothing is written outside results/charts', () => {
  const dir = scratch('charts-');
  const w = chartWriter(dir);
  for (const bad of ['../x.svg', 'a/../../x.svg', '/tmp/x.svg', 'x.svg.js', 'A.svg', 'a b.svg'])
    assert.throws(() => w.add(bad, {}), /not made of slugs/, bad);
  assert.equal(
    w.add('linux-x64/m-abc123-config.svg', { mark: 'point', data: { values: [] } }),
    'charts/linux-x64/m-abc123-config.svg',
  );
});

test("a chart's stamp covers all the code that draws it: every file of aggregate/charts that draw.js imports", () => {
  const dir = path.join(ROOT, 'aggregate', 'charts');
  /** @type {Set<string>} */
  const seen = new Set();
  const visit = (/** @type {string} */ file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const [, rel] of text.matchAll(/^import [^;]*? from '(\.[^']+)';/gms)) {
      const next = path.posix.normalize(path.posix.join(path.posix.dirname(file), rel));
      if (!next.startsWith('..')) visit(next);
    }
  };
  visit('draw.js');
  assert.ok(seen.has('tidy.js') && seen.has('metrics.js'), [...seen].join(' '));
  assert.deepEqual([...DRAWING_CODE].sort(), [...seen].sort());
});

test("text widths follow Helvetica: narrow letters narrower, bold wider, a label's width the sum of its letters", () => {
  assert.ok(textWidth('iiii', 12) < textWidth('MMMM', 12) / 3);
  assert.ok(textWidth('Select', 12, true) > textWidth('Select', 12));
  assert.equal(textWidth('ab', 10), textWidth('a', 10) + textWidth('b', 10));
  assert.ok(
    Math.abs(textWidth('Forward Email Production', 12) - 139) < 5,
    String(textWidth('Forward Email Production', 12)),
  );
});

test('one spec is drawn to the same SVG bytes twice, with its alt text as <title> and no per-mark ARIA clutter', async () => {
  const points = [
    { member: 'A', op: 'Insert', change: 5, low: 2, high: 8, verdict: 'faster' },
    { member: 'B', op: 'Insert', change: -1, low: -3, high: 1, verdict: 'too noisy to tell' },
  ];
  const spec = comparisonSpec({
    title: 'T',
    subtitle: ['s'],
    alt: 'A is faster at Insert; B is within noise.',
    points,
    members: ['A', 'B'],
    ops: ['Insert'],
  });
  const draw = async () => {
    const dir = scratch('charts-');
    const w = chartWriter(dir);
    assert.equal(w.add('p/x-config.svg', spec), 'charts/p/x-config.svg', 'the path, given back when asked');
    assert.equal(fs.existsSync(path.join(dir, 'charts')), false, 'a chart was written before flush');
    assert.deepEqual((await w.flush()).written, ['charts/p/x-config.svg']);
    return fs.readFileSync(path.join(dir, 'charts', 'p', 'x-config.svg'), 'utf8');
  };
  const a = await draw();
  assert.equal(await draw(), a);
  const svgo = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'svgo', 'package.json'), 'utf8')).version;
  // the stamp's text is hashed with the spec: a svgo upgrade redraws every chart
  const stamp = /^<!-- sqlite-node-bench chart [0-9a-f]{64} \(vega@\S+ vega-lite@\S+ svgo@(\S+)\)/.exec(a);
  assert.equal(stamp?.[1], svgo, a.slice(0, 140));
  assert.match(a, /<title>A is faster at Insert; B is within noise\.<\/title>/);
  assert.doesNotMatch(a, /aria-roledescription|class="(mark|role|background)/);
  assert.match(a, />Insert</, 'the panel title');
  assert.match(a, />change, % \(log scale\)</, 'the axis title with its unit');
});

/** A few charts of both kinds, each with its own data. */
function someSpecs() {
  const ops = ['Insert', 'Select', 'Update'];
  const members = ['A/A twin', 'Cache', 'MMAP'];
  const comparisons = [1, 2, 3].map((k) =>
    comparisonSpec({
      title: `Run ${k}`,
      subtitle: ['s'],
      alt: `run ${k}`,
      members,
      ops,
      points: members.flatMap((member, i) =>
        ops.map((op, j) => ({
          member,
          op,
          change: (i - 1) * 7 * k + j,
          low: (i - 1) * 7 * k + j - 2,
          high: (i - 1) * 7 * k + j + 2.5,
          verdict: i === 0 ? 'too noisy to tell' : i === 1 ? 'faster' : 'slower',
        })),
      ),
    }),
  );
  const start = Date.UTC(2026, 0, 5);
  const histories = [18, 20].map((major) =>
    historySpec({
      title: `Node ${major}`,
      subtitle: ['s'],
      alt: `Node ${major}`,
      ops,
      domain: [start, start + 91 * 86_400_000],
      points: ops.flatMap((op, j) =>
        Array.from({ length: 30 }, (_, n) => {
          const value = 1000 * (j + 1) * (1 + 0.05 * Math.sin(n * major));
          return {
            op,
            night: new Date(start + n * 86_400_000).toISOString().slice(0, 10),
            value,
            low: value * 0.98,
            high: value * 1.02,
            bandLow: 900 * (j + 1),
            bandHigh: 1100 * (j + 1),
            outside: n === 7,
          };
        }),
      ),
    }),
  );
  return [...comparisons, ...histories];
}

/** Draw specs with a writer; the files' bytes, in the specs' order. */
async function drawAll(/** @type {any[]} */ specs, dir = scratch('charts-')) {
  const w = chartWriter(dir);
  specs.forEach((spec, i) => w.add(`p/m-${i}.svg`, spec));
  const r = await w.flush();
  return { dir, r, files: specs.map((_, i) => fs.readFileSync(path.join(dir, 'charts', 'p', `m-${i}.svg`), 'utf8')) };
}

test('the charts come out the same, byte for byte, run after run and whatever was drawn before', async () => {
  const specs = someSpecs();
  const serial = await drawAll(specs);
  assert.equal(serial.r.written.length, specs.length);
  assert.deepEqual((await drawAll(specs)).files, serial.files, 'a second run drew other bytes');
  assert.deepEqual(
    (await drawAll([...specs].reverse())).files.reverse(),
    serial.files,
    'what was drawn before changed a chart',
  );
  for (const svg of serial.files)
    assert.match(
      svg,
      /^<!-- sqlite-node-bench chart [0-9a-f]{64} [^\n]*-->\n<svg [^>]*><title>[^<]+<\/title>.*<\/svg>\n$/s,
    );
});

test('a chart whose spec did not change is neither drawn nor rewritten; one whose spec changed is; one nobody asks for is removed', async () => {
  const specs = someSpecs();
  const { dir } = await drawAll(specs);
  const file = (/** @type {number} */ i) => path.join(dir, 'charts', 'p', `m-${i}.svg`);
  const before = specs.map((_, i) => fs.statSync(file(i)).ino);
  const w = chartWriter(dir);
  specs
    .slice(0, 4)
    .forEach((spec, i) =>
      w.add(`p/m-${i}.svg`, i === 2 ? { ...spec, title: { ...spec.title, text: 'Run 3, again' } } : spec),
    );
  const r = await w.flush();
  assert.deepEqual(r.written, ['charts/p/m-2.svg']);
  assert.equal(r.unchanged, 3);
  assert.deepEqual(r.removed, ['charts/p/m-4.svg']);
  for (const i of [0, 1, 3]) assert.equal(fs.statSync(file(i)).ino, before[i], `m-${i}.svg was rewritten`);
  assert.notEqual(fs.statSync(file(2)).ino, before[2]);
  assert.match(fs.readFileSync(file(2), 'utf8'), /Run 3, again/);
  assert.equal(fs.existsSync(file(4)), false);
});

test('a chart that cannot be drawn is named in one line, and no chart is written, half or whole', async () => {
  const dir = scratch('charts-');
  const [good] = someSpecs();
  await drawAll([good], dir);
  const kept = fs.readFileSync(path.join(dir, 'charts', 'p', 'm-0.svg'), 'utf8');
  const w = chartWriter(dir);
  w.add('p/m-0.svg', { ...good, title: { ...good.title, text: 'changed' } });
  w.add('p/m-1.svg', { mark: 'no-such-mark', data: { values: [{ a: 1 }] } });
  await assert.rejects(w.flush(), (/** @type {Error} */ err) => {
    assert.match(err.message, /^charts: \S*m-1\.svg could not be drawn: .+; no chart written$/);
    assert.doesNotMatch(err.message, /\n/);
    return true;
  });
  assert.equal(
    fs.readFileSync(path.join(dir, 'charts', 'p', 'm-0.svg'), 'utf8'),
    kept,
    'a chart was written although another failed',
  );
  assert.deepEqual(fs.readdirSync(path.join(dir, 'charts', 'p')), ['m-0.svg'], 'a file was left behind');
  assert.ok(!fs.readdirSync(path.join(dir, 'charts', 'p')).some((f) => TEMP_FILE.test(f)));
});

/**
 * Whether a text is well-formed XML, checked strictly and on its own (not with svgo's parser):
 * one root, tags closed in order, attributes quoted and not repeated, only XML's own entities.
 * @param {string} text
 */
function xmlProblems(text) {
  const body = text.replace(/^<!--(?:(?!--)[\s\S])*-->\n/, '').trimEnd();
  /** @type {string[]} */
  const open = [];
  let roots = 0;
  const tag = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_:][\w.:-]*\s*=\s*"[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const m of body.matchAll(tag)) {
    const [, close, name, attrs, empty, text, stray] = m;
    if (stray) return `a stray < at ${m.index}`;
    if (text !== undefined) {
      if (!open.length && text.trim()) return 'text outside the root';
      if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);)/i.test(text)) return `a bare & in ${text.slice(0, 40)}`;
      continue;
    }
    if (close) {
      if (open.pop() !== name) return `</${name}> closes another element`;
      continue;
    }
    if (!open.length && roots++) return 'two roots';
    const names = [...attrs.matchAll(/([\w.:-]+)\s*=/g)].map((a) => a[1]);
    if (new Set(names).size !== names.length) return `<${name}> repeats an attribute`;
    if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);)/i.test(attrs)) return `<${name}> has a bare & in an attribute`;
    if (!empty) open.push(name);
  }
  return open.length ? `unclosed <${open.join('>, <')}>` : roots === 1 ? null : 'no root';
}

test('drawn charts are well-formed XML, keep title, axis titles and labels, hold nothing a tidy SVG drops, and use only clip paths they define', async () => {
  const { files } = await drawAll(someSpecs());
  for (const svg of files) {
    assert.equal(xmlProblems(svg), null);
    assert.notEqual(xmlProblems(svg.replace('</g>', '')), null, 'the checker missed a lost </g>');
    assert.match(
      svg,
      /<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* width="\d+" height="\d+"[^>]* role="img"><title>[^<]+<\/title><style>/,
    );
    assert.doesNotMatch(svg, /aria-|pointer-events|role="graphics|opacity="1"|<line |<g>|display="none"/);
    assert.equal(svg.match(/font-family=/g)?.length, 1, 'the font is set once, on the root');
    const styles = [...(/<style>([^<]*)<\/style>/.exec(svg)?.[1] ?? '').matchAll(/\.([a-z]+)\{/g)].map((m) => m[1]);
    const used = new Set([...svg.matchAll(/ class="([a-z]+)"/g)].map((m) => m[1]));
    assert.deepEqual([...used].sort(), [...styles].sort(), 'a class used is not defined, or one defined is not used');
    // positions to the pixel or vega's half pixel; a symbol's arcs, and a thin side (under 3 px, a
    // tick's) of a straight path, to a tenth (svgo writes .5 for 0.5 and 1.5.5 for 1.5 0.5)
    for (const [, attr, value] of svg.matchAll(/ (x|y|transform|d)="([^"]*)"/g)) {
      const arcs = attr === 'd' && /[AaCcQqSsTt]/.test(value);
      for (const n of value.replace(/rotate\([^)]*\)/g, '').match(/-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi) ?? []) {
        const v = Number(n);
        const tenth = Math.abs(v * 10 - Math.round(v * 10)) < 1e-9;
        assert.ok(
          Number.isInteger(v * 2) || (tenth && (arcs || (attr === 'd' && Math.abs(v) < 3))),
          `${attr}="${value.slice(0, 60)}" holds ${n}`,
        );
      }
    }
    assert.doesNotMatch(svg, /<script|<foreignObject|\son\w+=|javascript:/i);
    for (const [, id] of svg.matchAll(/url\(#([^)]+)\)/g)) assert.match(svg, new RegExp(`<clipPath id="${id}"`));
  }
  assert.match(files[0], />change, % \(log scale\)</);
  assert.match(files[3], />night \(UTC\)</);
  assert.match(files[0], />Run 1</);
});
