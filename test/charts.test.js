// The chart machinery on its own: file names made only of slugs (a machine class comes from a
// document), text widths from Helvetica's metrics, one spec drawn to one deterministic SVG, the
// same bytes from one drawing thread or several, a chart whose spec did not change left alone, a
// chart that cannot be drawn named (and nothing half written), and the SVG made smaller without
// changing what it draws.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { chartFile, chartWriter, slug } from '../aggregate/charts/writer.js';
import { comparisonSpec, historySpec } from '../aggregate/charts/specs.js';
import { parse, pathOf, snap, straighten, subpaths, tidy } from '../aggregate/charts/tidy.js';
import { TEMP_FILE } from '../lib/files.js';
import { textWidth } from '../aggregate/charts/metrics.js';
import { scratch } from './helpers.js';

test('a machine class from a document becomes a file name of lowercase letters, digits and dashes, unique by a hash', () => {
  for (const hostile of [
    '../../etc/passwd',
    'linux-x64 · AMD EPYC 7763 · 4 cores · ubuntu24',
    '<img src=x>',
    'A'.repeat(10_000),
    '',
  ]) {
    const s = slug(hostile);
    assert.match(s, /^[a-z0-9-]+$/, s);
    assert.ok(s.length <= 36, s);
  }
  assert.notEqual(
    slug('a · 4 cores'),
    slug('a · 4 Cores'),
    'two machine classes that differ only in case share a file',
  );
});

test("a chart file ends in its machine class's hash: git pairs each chart with its own previous night by the end of the path", () => {
  const a = chartFile('linux-x64 · AMD EPYC 7763 · 4 cores · ubuntu24', 'history-node18');
  const b = chartFile('linux-x64 · AMD EPYC 9V74 · 4 cores · ubuntu24', 'history-node18');
  assert.equal(
    a,
    `${slug('linux-x64 · AMD EPYC 7763 · 4 cores · ubuntu24').replace(/-([0-9a-f]{6})$/, '-history-node18-$1')}.svg`,
  );
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

test("text widths follow Helvetica: narrow letters narrower, bold wider, a label's width the sum of its letters", () => {
  assert.ok(textWidth('iiii', 12) < textWidth('MMMM', 12) / 3);
  assert.ok(textWidth('Select', 12, true) > textWidth('Select', 12));
  assert.equal(textWidth('ab', 10), textWidth('a', 10) + textWidth('b', 10));
  assert.ok(
    Math.abs(textWidth('Forward Email Production', 12) - 139) < 5,
    String(textWidth('Forward Email Production', 12)),
  );
});

test('one spec is drawn to the same SVG bytes twice, with its alt text as <title> and no per-mark ARIA clutter', () => {
  const points = [
    { member: 'A', op: 'Insert', change: 5, low: 2, high: 8, verdict: 'faster' },
    { member: 'B', op: 'Insert', change: -1, low: -3, high: 1, verdict: 'within noise' },
  ];
  const spec = comparisonSpec({
    title: 'T',
    subtitle: ['s'],
    alt: 'A is faster at Insert; B is within noise.',
    points,
    members: ['A', 'B'],
    ops: ['Insert'],
  });
  const draw = () => {
    const dir = scratch('charts-');
    const w = chartWriter(dir);
    w.add('p/x-config.svg', spec);
    assert.deepEqual(w.flush().written, ['charts/p/x-config.svg']);
    return fs.readFileSync(path.join(dir, 'charts', 'p', 'x-config.svg'), 'utf8');
  };
  const a = draw();
  assert.equal(draw(), a);
  assert.match(a, /^<!-- sqlite-node-bench chart [0-9a-f]{64} \(vega@\S+ vega-lite@\S+\)/);
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
          verdict: i === 0 ? 'within noise' : i === 1 ? 'faster' : 'slower',
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

/** Draw specs with a writer of that many threads; the files' bytes, by name. */
function drawWith(/** @type {any[]} */ specs, /** @type {number} */ threads, dir = scratch('charts-')) {
  const w = chartWriter(dir, { threads });
  specs.forEach((spec, i) => w.add(`p/m-${i}.svg`, spec));
  const r = w.flush();
  return { dir, r, files: specs.map((_, i) => fs.readFileSync(path.join(dir, 'charts', 'p', `m-${i}.svg`), 'utf8')) };
}

test('the charts come out the same, byte for byte, from one drawing thread or several, run after run', () => {
  const specs = someSpecs();
  const serial = drawWith(specs, 1);
  assert.equal(serial.r.written.length, specs.length);
  assert.deepEqual(drawWith(specs, 3).files, serial.files, 'three threads drew other bytes than one');
  assert.deepEqual(drawWith(specs, 3).files, serial.files, 'a second run drew other bytes');
  assert.deepEqual(
    drawWith([...specs].reverse(), 2).files.reverse(),
    serial.files,
    'what a thread drew before changed a chart',
  );
  for (const svg of serial.files)
    assert.match(
      svg,
      /^<!-- sqlite-node-bench chart [0-9a-f]{64} [^\n]*-->\n<svg [^>]*><title>[^<]+<\/title>.*<\/svg>\n$/s,
    );
});

test('a chart whose spec did not change is neither drawn nor rewritten; one whose spec changed is; one nobody asks for is removed', () => {
  const specs = someSpecs();
  const { dir } = drawWith(specs, 2);
  const file = (/** @type {number} */ i) => path.join(dir, 'charts', 'p', `m-${i}.svg`);
  const before = specs.map((_, i) => fs.statSync(file(i)).ino);
  const w = chartWriter(dir, { threads: 2 });
  specs
    .slice(0, 4)
    .forEach((spec, i) =>
      w.add(`p/m-${i}.svg`, i === 2 ? { ...spec, title: { ...spec.title, text: 'Run 3, again' } } : spec),
    );
  const r = w.flush();
  assert.deepEqual(r.written, ['charts/p/m-2.svg']);
  assert.equal(r.unchanged, 3);
  assert.deepEqual(r.removed, ['charts/p/m-4.svg']);
  for (const i of [0, 1, 3]) assert.equal(fs.statSync(file(i)).ino, before[i], `m-${i}.svg was rewritten`);
  assert.notEqual(fs.statSync(file(2)).ino, before[2]);
  assert.match(fs.readFileSync(file(2), 'utf8'), /Run 3, again/);
  assert.equal(fs.existsSync(file(4)), false);
});

test('a chart that cannot be drawn is named in one line, and no chart is written, half or whole', () => {
  const dir = scratch('charts-');
  const [good] = someSpecs();
  drawWith([good], 1, dir);
  const kept = fs.readFileSync(path.join(dir, 'charts', 'p', 'm-0.svg'), 'utf8');
  const w = chartWriter(dir, { threads: 2 });
  w.add('p/m-0.svg', { ...good, title: { ...good.title, text: 'changed' } });
  w.add('p/m-1.svg', { mark: 'no-such-mark', data: { values: [{ a: 1 }] } });
  assert.throws(
    () => w.flush(),
    (err) => {
      assert.ok(err instanceof Error);
      assert.match(err.message, /^charts: \S*m-1\.svg could not be drawn: .+; no chart written$/);
      assert.doesNotMatch(err.message, /\n/);
      return true;
    },
  );
  assert.equal(
    fs.readFileSync(path.join(dir, 'charts', 'p', 'm-0.svg'), 'utf8'),
    kept,
    'a chart was written although another failed',
  );
  assert.deepEqual(fs.readdirSync(path.join(dir, 'charts', 'p')), ['m-0.svg'], 'a file was left behind');
  assert.ok(!fs.readdirSync(path.join(dir, 'charts', 'p')).some((f) => TEMP_FILE.test(f)));
});

test('a straight run of a path becomes its two ends; a path that turns back is kept as it is', () => {
  const straight = (/** @type {string} */ d) =>
    pathOf(subpaths(d).map((sub) => ({ ...sub, points: straighten(sub.points) })));
  assert.equal(straight('M0,10L1.5,10L3,10L4.5,10L4.5,2L3,2L1.5,2L0,2Z'), 'M0,10h4.5v-8h-4.5Z');
  assert.equal(straight('M0,0L0,1L0,2L5,2'), 'M0,0v2h5');
  assert.equal(straight('M0,5L4,5L2,5L6,5'), 'M0,5h4h-2h4', 'the line turns back at 4: every point drawn');
  assert.equal(straight('M0,1L1,2L2,1'), 'M0,1l1,1l1-1');
  assert.equal(straight('M0,0L1,0L2,0M5,5L6,5L7,5'), 'M0,0h2M5,5h2');
  assert.deepEqual(
    subpaths('M1,1h2v3h-2Z', 10, 20),
    [
      {
        points: [
          [11, 21],
          [13, 21],
          [13, 24],
          [11, 24],
        ],
        closed: true,
      },
    ],
    'relative moves and a translate, as absolute points',
  );
});

test('a position goes to the pixel, or stays on the half pixel vega put it on (sharp 1-px lines)', () => {
  assert.deepEqual([37.04, 37.5, 9.500000000000007, -0.2, -2.7, 52.336].map(snap), [37, 37.5, 9.5, 0, -3, 52]);
  assert.equal(Object.is(snap(-0.3), -0), false);
});

/** The style each element ends up with once its class is resolved against the <style> sheet, in document order. */
function effectiveStyles(/** @type {string} */ svg) {
  const sheet = new Map(
    [...(/<style>([^<]*)<\/style>/.exec(svg)?.[1] ?? '').matchAll(/\.([a-z]+)\{([^}]*)\}/g)].map(([, name, body]) => [
      name,
      body,
    ]),
  );
  /** @type {string[]} */
  const out = [];
  const visit = (/** @type {any} */ el) => {
    if (typeof el === 'string') return;
    const own = [...el.attrs]
      .filter(([k]) => /^(fill|stroke|stroke-width|opacity|font-size|font-weight|font-style|text-anchor)$/.test(k))
      .map(([k, v]) => `${k}:${v}`);
    const cls = el.attrs.get('class');
    if (cls !== undefined && sheet.size) {
      assert.ok(sheet.has(cls), `class ${cls} is not in the style sheet`);
      own.push(...String(sheet.get(cls)).split(';'));
    }
    if (['path', 'line', 'text', 'rect'].includes(el.name))
      out.push(
        own
          .filter((p) => p !== 'opacity:1')
          .sort()
          .join(';'),
      );
    el.children.forEach(visit);
  };
  visit(parse(svg));
  return out;
}

test('tidying keeps what vega draws: positions to the pixel, styles as classes, lines as paths, bare groups unwrapped, hooks dropped', () => {
  const spec = { description: 'Alt <text> & more', config: { font: 'Helvetica' } };
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" class="marks" width="100" height="50"><g fill="none" stroke-miterlimit="4" transform="translate(10,20)"><g class="mark-group" role="graphics-object" aria-roledescription="group mark container"><g transform="translate(0,0)"><path class="background" aria-hidden="true" d="M0,0h0v0h0Z"/><g transform="translate(0.5,30.5)">' +
    '<line transform="translate(19.3,0)" x2="0" y2="5" stroke="#999" stroke-width="1" opacity="1"/><line transform="translate(61.04,0)" x2="0" y2="5" stroke="#999" stroke-width="1" opacity="1"/>' +
    '<text text-anchor="middle" transform="translate(19.27,16)" font-family="Helvetica" font-size="11px" fill="#333" opacity="1">Feb 01</text></g>' +
    '<path d="M0.123,1.987L5.55,1.987L9.949,1.987L9.949,12.5Z" fill="#2da44e" opacity="0.18"/>' +
    '<path transform="translate(14.81,14.5)" d="M3.208,0A3.208,3.208,0,1,1,-3.208,0A3.208,3.208,0,1,1,3.208,0" fill="#cf222e" stroke-width="2" opacity="1"/>' +
    '<path d="M63.17,6.93h1.3v7h-1.3Z" fill="#24292f"/>' +
    '<text text-anchor="middle" transform="translate(-31.2,55) rotate(-90) translate(0,-2)" font-size="11px" fill="#333">ms</text></g></g></g></svg>';
  const out = tidy(svg, spec);
  assert.match(
    out,
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="100" height="50" font-family="Helvetica" role="img"><title>Alt &lt;text&gt; &amp; more<\/title><style>[^<]+<\/style><g class="[a-p]{3,}" transform="translate\(10,20\)">/,
  );
  assert.doesNotMatch(
    out,
    /aria-|role="graphics|pointer-events|opacity="1"|stroke-miterlimit="4"|<line|<g>|M0,0h0v0h0Z/,
  );
  assert.match(
    out,
    /<g transform="translate\(0\.5,30\.5\)"><path class="[a-p]+" d="M19,0v5M61,0v5"\/><text class="[a-p]+" x="19" y="16">Feb 01<\/text><\/g>/,
    'ticks as one path, to the pixel; the label at x, y',
  );
  assert.match(out, /d="M0,2h10v10\.5Z"/, 'a band: straight runs to their ends, relative moves, the half pixel kept');
  assert.match(
    out,
    /transform="translate\(15,14\.5\)" d="M3\.2,0A3\.2,3\.2,0,1,1,-3\.2,0A3\.2,3\.2,0,1,1,3\.2,0"/,
    'a symbol at its pixel, its shape to a tenth',
  );
  assert.match(out, /d="M63,7h1\.3v7h-1\.3Z"/, 'a tick keeps its 1.3 px thickness');
  assert.match(
    out,
    /transform="translate\(-31,55\) rotate\(-90\) translate\(0,-2\)"/,
    'a rotated text keeps its transform',
  );
  const drawn = (/** @type {string} */ s) => effectiveStyles(s.replace(/ font-family="Helvetica"/g, ''));
  assert.deepEqual(
    drawn(out),
    drawn(svg).filter((_, i) => i !== 0 && i !== 2),
    "an element's style changed (besides the empty background dropped and the two ticks drawn as one)",
  );
});

test('a line drawn twice stays drawn twice (its anti-aliased edges darken): only distinct strokes of one style become one path', () => {
  const rule = '<line transform="translate(66.4,0)" x2="0" y2="266" stroke="#333" stroke-width="1"/>';
  const out = tidy(
    `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g fill="none">${rule}${rule}${rule}<line x2="5" y2="0" stroke="#333" stroke-width="1"/></g></svg>`,
    {},
  );
  assert.equal(out.match(/d="M66,0v266/g)?.length, 3);
  assert.match(out, /d="M66,0v266M0,0h5"/);
  const filled = tidy(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><path d="M0,0h5v5h-5Z" fill="red"/><path d="M2,2h5v5h-5Z" fill="red"/></svg>',
    {},
  );
  assert.equal(filled.match(/<path/g)?.length, 2, 'filled shapes that overlap were merged');
});

test('identical clip paths are written once; the marks they clip point at that one', () => {
  const clip = (/** @type {number} */ i) =>
    `<clipPath id="clip${i}"><rect x="0" y="0" width="139" height="208"/></clipPath>`;
  const out = tidy(
    `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs>${clip(1)}${clip(2)}<clipPath id="clip3"><rect x="0" y="0" width="50" height="8"/></clipPath></defs><g clip-path="url(#clip2)"><path d="M0,0h5" stroke="red"/></g><g clip-path="url(#clip3)"><path d="M0,0h5" stroke="red"/></g></svg>`,
    {},
  );
  assert.equal(out.match(/<clipPath/g)?.length, 2);
  assert.deepEqual(out.match(/url\(#clip\d\)/g), ['url(#clip1)', 'url(#clip3)']);
});

/**
 * Whether a text is well-formed XML, checked strictly and on its own (not with tidy.js's parser):
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

test('drawn charts are well-formed XML, keep title, axis titles and labels, and hold nothing a tidy SVG drops', () => {
  const { files } = drawWith(someSpecs(), 2);
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
    for (const [, attr, value] of svg.matchAll(/ (x|y|transform)="([^"]*)"/g)) {
      for (const n of value.replace(/rotate\([^)]*\)/g, '').match(/-?[\d.]+/g) ?? [])
        assert.ok(Number(n) * 2 === Math.round(Number(n) * 2), `${attr}="${value}" is not to the half pixel`);
    }
    for (const [, d] of svg.matchAll(/ d="([^"]*)"/g)) {
      if (!/[Aa]/.test(d))
        for (const n of d.match(/-?[\d.]+/g) ?? [])
          assert.ok(Math.abs(Number(n) * 10 - Math.round(Number(n) * 10)) < 1e-9, `d="${d.slice(0, 60)}" holds ${n}`);
    }
  }
  assert.match(files[0], />change, % \(log scale\)</);
  assert.match(files[3], />night \(UTC\)</);
  assert.match(files[0], />Run 1</);
});
