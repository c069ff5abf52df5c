// The SVG tidier (aggregate/charts/tidy.js): svgo's default preset plus the passes that are ours,
// two on their own (identical clip paths written once; styles as classes of one sheet named by a
// hash), then the whole on a piece of vega's SVG and on a chart vega really drew: the same
// picture (every style still drawn, a line drawn twice still twice), positions to the pixel (a
// point moved by a tenth rewrites nothing), hooks and scripts dropped, the same bytes every time,
// in about half of vega's bytes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { optimize } from 'svgo';
import { comparisonSpec } from '../aggregate/charts/specs.js';
import { CONFIG } from '../aggregate/charts/theme.js';
import { sameClips, sheet, tidy } from '../aggregate/charts/tidy.js';

/** An SVG around some markup. */
const svgAround = (/** @type {string} */ inner) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">${inner}</svg>`;

test('sameClips: a clip path the same as an earlier one is dropped, and what it clipped points at the earlier one', () => {
  const clip = (/** @type {number} */ i, w = 139) =>
    `<clipPath id="clip${i}"><rect x="0" y="0" width="${w}" height="208"/></clipPath>`;
  const out = optimize(
    svgAround(
      `<defs>${clip(1)}${clip(2)}${clip(3, 50)}</defs><g clip-path="url(#clip2)"><path d="M0,0h5"/></g><g clip-path="url(#clip3)"><path d="M0,0h5"/></g><g clip-path="url(#clip1)"/>`,
    ),
    { plugins: [sameClips] },
  ).data;
  assert.equal(
    out,
    svgAround(
      `<defs>${clip(1)}${clip(3, 50)}</defs><g clip-path="url(#clip1)"><path d="M0,0h5"/></g><g clip-path="url(#clip3)"><path d="M0,0h5"/></g><g clip-path="url(#clip1)"/>`,
    ),
  );
  const whole = tidy(
    svgAround(`<defs>${clip(1)}${clip(2)}</defs><g clip-path="url(#clip2)"><path d="M0,0h5" stroke="red"/></g>`),
    {},
  );
  assert.equal(whole.match(/<clipPath/g)?.length, 1);
});

test('sheet: each style becomes a class of one <style> sheet named by a hash of the style; the font is set once, the alt text is the <title>', () => {
  const run = (/** @type {string} */ inner) =>
    optimize(svgAround(inner), { plugins: [sheet('Helvetica', 'Alt <text> & "more"')] }).data;
  const out = run(
    '<g fill="none"><path d="M0,0h5" stroke="#333" stroke-width="2"/><text font-family="Helvetica" font-size="11px" fill="#333">a</text><path d="M0,5h5" stroke-width="2" stroke="#333"/><text font-family="Courier" fill="#333">b</text></g>',
  );
  const m =
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="10" height="10" font-family="Helvetica" role="img"><title>Alt &lt;text&gt; &amp; &quot;more&quot;<\/title><style>(.*)<\/style><g class="([a-p]{3,})"><path class="([a-p]+)" d="M0,0h5"\/><text class="([a-p]+)">a<\/text><path class="\3" d="M0,5h5"\/><text class="([a-p]+)">b<\/text><\/g><\/svg>$/.exec(
      out,
    );
  assert.ok(m, out);
  const [, rules, group, stroke, text, courier] = m;
  assert.equal(new Set([group, stroke, text, courier]).size, 4, 'two styles share a class');
  assert.equal(
    rules,
    [
      [group, 'fill:none'],
      [stroke, 'stroke:#333;stroke-width:2'],
      [text, 'fill:#333;font-size:11px'],
      [courier, 'fill:#333;font-family:Courier'],
    ]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, style]) => `.${name}{${style}}`)
      .join(''),
    'the attributes in order in the class, the chart font left to the <svg>',
  );
  assert.match(
    run('<path d="M0,0h5" stroke-width="2" stroke="#333"/>'),
    new RegExp(`<path class="${stroke}" `),
    'the same style is another chart is named the same',
  );
  assert.doesNotMatch(run('<path d="M0,0h5"/>'), /<style>/, 'a sheet without rules');
});

/** A piece of what vega writes, with its hooks, defaults, bare groups, lines and an empty background. */
const VEGA =
  '<svg xmlns="http://www.w3.org/2000/svg" class="marks" width="100" height="50" viewBox="0 0 100 50"><g fill="none" stroke-miterlimit="4" transform="translate(10,20)"><g class="mark-group" role="graphics-object" aria-roledescription="group mark container"><g transform="translate(0,0)"><path class="background" aria-hidden="true" d="M0,0h0v0h0Z"/><g transform="translate(0.5,30.5)">' +
  '<line transform="translate(19.3,0)" x2="0" y2="5" stroke="#999" stroke-width="1" opacity="1"/><line transform="translate(61.04,0)" x2="0" y2="5" stroke="#999" stroke-width="1" opacity="1"/>' +
  '<text text-anchor="middle" transform="translate(19.27,16)" font-family="Helvetica" font-size="11px" fill="#333" opacity="1">Feb 01</text></g>' +
  '<path d="M0.123,1.987L5.55,1.987L9.949,1.987L9.949,12.5Z" fill="#2da44e" opacity="0.18"/>' +
  '<path transform="translate(14.81,14.5)" d="M3.208,0A3.208,3.208,0,1,1,-3.208,0A3.208,3.208,0,1,1,3.208,0" fill="#cf222e" stroke-width="2" opacity="1"/>' +
  '<path d="M63.17,6.93h1.3v7h-1.3Z" fill="#24292f" pointer-events="none"/>' +
  '<text text-anchor="middle" transform="translate(-31.2,55) rotate(-90) translate(0,-2)" font-size="11px" fill="#333">ms</text></g></g></g></svg>';

/**
 * What a chart draws: for each element that draws (path, text...), its style once classes and the
 * groups' inherited styles are resolved, and its text; a set, as svgo draws strokes of one style
 * as one path.
 * @param {string} svg
 */
function drawnStyles(svg) {
  /** @type {Set<string>} */
  const out = new Set();
  /** @type {import('svgo').CustomPlugin} */
  const collect = {
    name: 'collect',
    fn: (root) => {
      /** @type {Map<string, string>} class → its rules */
      const sheetOf = new Map();
      /** @param {import('svgo').XastElement} el @param {Record<string, string>} inherited */
      const visit = (el, inherited) => {
        if (el.name === 'style') {
          for (const child of el.children)
            if (child.type === 'text')
              for (const [, name, body] of child.value.matchAll(/\.([a-z]+)\{([^}]*)\}/g)) sheetOf.set(name, body);
          return;
        }
        /** @type {Record<string, string>} */
        const own = { ...inherited };
        delete own.opacity; // not inherited
        const cls = el.attributes.class;
        if (cls !== undefined && sheetOf.size) {
          assert.ok(sheetOf.has(cls), `class ${cls} is not in the style sheet`);
          for (const rule of String(sheetOf.get(cls)).split(';')) own[rule.split(':')[0]] = rule.split(':')[1];
        }
        for (const [k, v] of Object.entries(el.attributes))
          if (/^(fill|stroke|stroke-width|opacity|font-size|text-anchor)$/.test(k)) own[k] = v;
        // what draws the same: an opacity of 1, a stroke width of 1 (the default) or without a stroke
        if (own.opacity !== undefined) own.opacity = String(Number(own.opacity));
        if (own.opacity === '1') delete own.opacity;
        if (own['stroke-width'] === '1' || (own.stroke ?? 'none') === 'none') delete own['stroke-width'];
        if (['path', 'line', 'text', 'rect'].includes(el.name)) {
          const text = el.children.map((c) => (c.type === 'text' ? c.value : '')).join('');
          out.add(`${el.name === 'text' ? `text ${text}` : 'shape'} ${Object.entries(own).sort().join(' ')}`);
        }
        for (const c of el.children) if (c.type === 'element') visit(c, own);
      };
      for (const c of root.children) if (c.type === 'element') visit(c, {});
    },
  };
  optimize(svg, { plugins: [collect] });
  return [...out].sort();
}

test('tidying keeps what vega draws: every style still drawn, hooks, defaults, bare groups and empty marks dropped', () => {
  const spec = { description: 'Alt text', config: { font: 'Helvetica' } };
  const out = tidy(VEGA, spec);
  assert.equal(tidy(VEGA, spec), out, 'the same SVG twice, other bytes');
  assert.match(
    out,
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="100" height="50" viewBox="0 0 100 50" font-family="Helvetica" role="img"><title>Alt text<\/title><style>[^<]+<\/style><g class="[a-p]{3,}"/,
  );
  assert.doesNotMatch(
    out,
    /aria-|role="graphics|pointer-events|class="(mark|background)|opacity="1"|stroke-miterlimit|<line|<g>|h0v0h0/,
  );
  assert.equal(out.match(/font-family/g)?.length, 1);
  assert.deepEqual(
    drawnStyles(out),
    drawnStyles(VEGA.replace(/ font-family="Helvetica"/g, '')).filter((s) => s !== 'shape fill,none'),
    'a style drawn changed (besides the empty background dropped)',
  );
  assert.ok(out.length < VEGA.length * 0.8, `${out.length} bytes of vega's ${VEGA.length}`);
});

test("positions to the pixel where vega wrote them, its half pixels kept (1-px lines stay sharp), in their group's coordinates: a point moved by under half a pixel rewrites nothing", () => {
  const spec = { description: 'Alt text', config: { font: 'Helvetica' } };
  const out = tidy(VEGA, spec);
  assert.match(out, /<g class="[a-p]+" transform="translate\(10 20\)"><g transform="translate\(\.5 30\.5\)">/);
  assert.match(out, / d="M19 0v5M61 0v5"/, 'rules at 19.3 and 61.04');
  assert.match(out, / transform="translate\(19 16\)">Feb 01</, 'a label at 19.27');
  assert.match(out, / d="M0 2h10v10\.5Z"/, 'a straight path');
  assert.match(out, / d="M63 7h1\.3v7H63Z"/, "a tick's corner to the pixel, its thickness of 1.3 kept");
  assert.match(out, / d="M18\.2 14\.5a3\.2 3\.2 0 1 1-6\.4 0/, "a symbol's place to the pixel, its arcs to a tenth");
  const moves = [
    ['19.3,0', '19.42,0'],
    ['19.27,16', '19.1,16'],
    ['M0.123,1.987L', 'M0.4,2.2L'],
    ['63.17,6.93', '62.9,7.04'],
    ['14.81,14.5', '14.6,14.5'],
  ];
  for (const [from] of moves) assert.ok(VEGA.includes(from), from);
  const moved = moves.reduce((svg, [from, to]) => svg.replace(from, to), VEGA);
  assert.equal(tidy(moved, spec), out);
});

test('a line drawn twice stays drawn twice (its anti-aliased edges darken): only strokes of one style that do not cross become one path', () => {
  const rule = '<line transform="translate(66.4,0)" x2="0" y2="266" stroke="#333" stroke-width="1"/>';
  const out = tidy(
    svgAround(
      `<g fill="none">${rule}${rule}${rule}<line x1="70" x2="75" y1="5" y2="5" stroke="#333" stroke-width="1"/></g>`,
    ),
    {},
  );
  assert.equal(out.match(/<path/g)?.length, 3, out);
  assert.equal(out.match(/M66 0v266/g)?.length, 3, out);
  const filled = tidy(svgAround('<path d="M0,0h5v5h-5Z" fill="red"/><path d="M2,2h5v5h-5Z" fill="red"/>'), {});
  assert.equal(filled.match(/<path/g)?.length, 2, 'filled shapes that overlap were merged');
});

test('tidying drops scripts and event handlers, and keeps markup in a text as text', () => {
  const out = tidy(
    svgAround(
      '<script>alert(1)</script><path d="M0,0h5" stroke="red" onclick="alert(2)"/><text>&lt;foreignObject&gt;</text>',
    ),
    { description: '<script>alert(3)</script>' },
  );
  assert.doesNotMatch(out, /<script|<foreignObject|onclick/);
  assert.match(out, /<title>&lt;script&gt;alert\(3\)&lt;\/script&gt;<\/title>/);
  assert.match(out, /<text>&lt;foreignObject&gt;<\/text>/);
});

test("a chart vega drew, tidied: under half of vega's bytes, every clip path it uses defined, the same bytes drawn again", async () => {
  const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
  const spec = {
    ...comparisonSpec({
      title: 'T',
      subtitle: ['s'],
      alt: 'A is faster at Insert.',
      points: ['Insert', 'Select', 'Update'].flatMap((op, j) =>
        ['A', 'B'].map((member, i) => ({
          member,
          op,
          change: 5 * i - j,
          low: 5 * i - j - 2,
          high: 5 * i - j + 3,
          verdict: 'faster',
        })),
      ),
      members: ['A', 'B'],
      ops: ['Insert', 'Select', 'Update'],
    }),
    config: CONFIG,
  };
  const draw = async () => {
    const view = new vega.View(vega.parse(vl.compile(/** @type {any} */ (spec)).spec), { renderer: 'none' });
    vega.resetSVGDefIds();
    const svg = await view.toSVG();
    view.finalize();
    return svg;
  };
  const raw = await draw();
  const out = tidy(raw, spec);
  assert.ok(out.length < raw.length / 2, `${out.length} bytes of vega's ${raw.length}`);
  for (const [, id] of out.matchAll(/url\(#([^)]+)\)/g)) assert.match(out, new RegExp(`<clipPath id="${id}"`));
  assert.equal(tidy(await draw(), spec), out);
});
