// The chart machinery on its own: file names made only of slugs (a machine class comes from a
// document), text widths from Helvetica's metrics, one spec drawn to one deterministic SVG.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { chartWriter, slug } from '../aggregate/charts/writer.js';
import { comparisonSpec } from '../aggregate/charts/specs.js';
import { textWidth } from '../aggregate/charts/metrics.js';
import { scratch } from './helpers.js';

test('a machine class from a document becomes a file name of lowercase letters, digits and dashes, unique by a hash', () => {
  for (const hostile of ['../../etc/passwd', 'linux-x64 · AMD EPYC 7763 · 4 cores · ubuntu24', '<img src=x>', 'A'.repeat(10_000), '']) {
    const s = slug(hostile);
    assert.match(s, /^[a-z0-9-]+$/, s);
    assert.ok(s.length <= 36, s);
  }
  assert.notEqual(slug('a · 4 cores'), slug('a · 4 Cores'), 'two machine classes that differ only in case share a file');
});

test('the writer refuses a chart name that is not made of slugs: nothing is written outside results/charts', () => {
  const dir = scratch('charts-');
  const w = chartWriter(dir);
  for (const bad of ['../x.svg', 'a/../../x.svg', '/tmp/x.svg', 'x.svg.js', 'A.svg', 'a b.svg']) assert.throws(() => w.add(bad, {}), /not made of slugs/, bad);
  assert.equal(w.add('linux-x64/m-abc123-config.svg', { mark: 'point', data: { values: [] } }), 'charts/linux-x64/m-abc123-config.svg');
});

test('text widths follow Helvetica: narrow letters narrower, bold wider, a label\'s width the sum of its letters', () => {
  assert.ok(textWidth('iiii', 12) < textWidth('MMMM', 12) / 3);
  assert.ok(textWidth('Select', 12, true) > textWidth('Select', 12));
  assert.equal(textWidth('ab', 10), textWidth('a', 10) + textWidth('b', 10));
  assert.ok(Math.abs(textWidth('Forward Email Production', 12) - 139) < 5, String(textWidth('Forward Email Production', 12)));
});

test('one spec is drawn to the same SVG bytes twice, with its alt text as <title> and no per-mark ARIA clutter', () => {
  const points = [
    { member: 'A', op: 'Insert', change: 5, low: 2, high: 8, verdict: 'faster' },
    { member: 'B', op: 'Insert', change: -1, low: -3, high: 1, verdict: 'within noise' },
  ];
  const spec = comparisonSpec({ title: 'T', subtitle: ['s'], alt: 'A is faster at Insert; B is within noise.', points, members: ['A', 'B'], ops: ['Insert'] });
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
  assert.doesNotMatch(a, /aria-roledescription|class="/);
  assert.match(a, />Insert</, 'the panel title');
  assert.match(a, />change, % \(log scale\)</, "the axis title with its unit");
});
