// The SVG tidier (aggregate/charts/tidy/): its parser, each of its passes on its own with a
// before/after pair of hand-sized SVGs (test/fixtures/tidy/<pass>.before.svg, .after.svg, written
// indented: the white space between tags is not part of them), the path arithmetic the geometry
// pass uses, and the passes together on a piece of vega's SVG.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { classes } from '../aggregate/charts/tidy/classes.js';
import { clean } from '../aggregate/charts/tidy/clean.js';
import { sameClips } from '../aggregate/charts/tidy/clips.js';
import { geometry } from '../aggregate/charts/tidy/geometry.js';
import { tidy } from '../aggregate/charts/tidy/index.js';
import { merge } from '../aggregate/charts/tidy/merge.js';
import { elements, parse, serialize } from '../aggregate/charts/tidy/parse.js';
import { pathOf, snap, straighten, subpaths } from '../aggregate/charts/tidy/paths.js';
import { unwrap } from '../aggregate/charts/tidy/unwrap.js';
import { ROOT } from '../lib/root.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'tidy');

/** A fixture, without the white space between its tags. */
const fixture = (/** @type {string} */ name) =>
  fs.readFileSync(path.join(FIXTURES, name), 'utf8').trim().replace(/>\s+</g, '><');

/** The <svg> of an SVG text. */
const svgOf = (/** @type {string} */ text) => elements(parse(text))[0];

test('the parser reads what vega writes and writes it back byte for byte; anything else is an error, not passed through', () => {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g transform="translate(0.5,0.5)"><text x="1" font-family="a &amp; b">A &lt; B</text><path d="M0,0h5"/></g><g></g></svg>';
  const root = parse(svg);
  assert.equal(root.name, '');
  const top = svgOf(svg);
  assert.deepEqual([...top.attrs.keys()], ['xmlns', 'width', 'height']);
  const [g] = elements(top);
  assert.deepEqual(
    g.children.map((c) => (typeof c === 'string' ? c : c.name)),
    ['text', 'path'],
  );
  assert.deepEqual(elements(g)[0].children, ['A &lt; B'], 'text as it was written, escaped');
  assert.equal(elements(g)[0].attrs.get('font-family'), 'a &amp; b');
  assert.equal(
    serialize(top),
    svg.replace('<g></g>', '<g/>'),
    'written back as read (an element without children as <x/>)',
  );
  for (const bad of [
    '<svg><!-- a comment --></svg>',
    '<svg><g></svg>',
    '<svg></g></svg>',
    '<svg><![CDATA[x]]></svg>',
    "<svg width='1'/>",
    '<svg>',
  ])
    assert.throws(() => parse(bad), /^Error: charts: SVG (not understood|closes)/, bad);
});

/** Each pass as tidy/index.js runs it on the <svg>; the class pass's style sheet written as the first child. */
const PASSES = {
  clean: (/** @type {import('../aggregate/charts/tidy/parse.js').Element} */ top) => clean(top, 'Helvetica'),
  geometry,
  unwrap,
  merge: (/** @type {import('../aggregate/charts/tidy/parse.js').Element} */ top) => merge(top),
  clips: sameClips,
  classes: (/** @type {import('../aggregate/charts/tidy/parse.js').Element} */ top) => {
    const sheet = classes(top);
    top.children.unshift({ name: 'style', attrs: new Map(), children: [sheet] });
  },
};

for (const [name, pass] of Object.entries(PASSES)) {
  test(`the ${name} pass turns its before fixture into its after fixture, exactly`, () => {
    const before = fixture(`${name}.before.svg`);
    const after = fixture(`${name}.after.svg`);
    assert.notEqual(before, after, 'the pair shows nothing the pass does');
    const top = svgOf(before);
    pass(top);
    assert.equal(serialize(top), after);
  });
}

test('every pass of tidy/ has its fixture pair, and every pair its pass', () => {
  const passes = fs
    .readdirSync(path.join(ROOT, 'aggregate', 'charts', 'tidy'))
    .filter((f) => !['index.js', 'parse.js', 'paths.js'].includes(f))
    .map((f) => f.replace(/\.js$/, ''))
    .sort();
  assert.deepEqual(passes, Object.keys(PASSES).sort());
  assert.deepEqual(
    fs.readdirSync(FIXTURES).sort(),
    passes.flatMap((p) => [`${p}.after.svg`, `${p}.before.svg`]),
  );
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
