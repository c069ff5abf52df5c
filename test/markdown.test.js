// lib/markdown.js: text from a document or a pull request renders on GitHub as itself. Each crafted
// string and the exact text written for it (checked against GitHub's own parser, cmark-gfm with its
// table, autolink, strikethrough and tagfilter extensions, when the table was written).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownTable } from 'markdown-table';
import { code, inert, plain, table } from '../lib/markdown.js';

const Z = '\u200b';

test('inert: every crafted string, and exactly what is written for it', () => {
  const cases = [
    ['AMD EPYC 7763 64-Core Processor', 'AMD EPYC 7763 64-Core Processor'],
    ['Intel(R) Core(TM) i7-8700B CPU @ 3.20GHz', `Intel(R) Core(TM) i7-8700B CPU @${Z} 3.20GHz`],
    ['v22.23.3', 'v22.23.3'],
    ['12.11.1', '12.11.1'],
    ['[x](http://e)', '\\[x\\](http\\://e)'],
    ['![i](http://e/i.png)', '\\!\\[i\\](http\\://e/i.png)'],
    ['<img src=x onerror=alert(1)>', '\\<img src=x onerror=alert(1)\\>'],
    ['<!-- BENCHMARK_RESULTS_END -->', '\\<\\!-- BENCHMARK\\_RESULTS\\_END --\\>'],
    ['# Heading', `\\#${Z} Heading`],
    ['```js', '\\`\\`\\`js'],
    ['| a | b |', '\\| a \\| b \\|'],
    ['@octocat hi', `@${Z}octocat hi`],
    ['a@b.com', `a@${Z}b.com`],
    ['see #12', `see \\#${Z}12`],
    ['https://evil.example/x', 'https\\://evil.example/x'],
    ['www.evil.com', 'www\\.evil.com'],
    ['\u202eevil\u2066x\u2069', 'evilx'],
    ['\\|x', '\\\\\\|x'],
    ['&#64;user &lt;b&gt;', `\\&\\#${Z}64;user \\&lt;b\\&gt;`],
    ['$x^2$', '\\$x^2\\$'],
    ['~~s~~ **b** _i_', '\\~\\~s\\~\\~ \\*\\*b\\*\\* \\_i\\_'],
    ['- item', '\\- item'],
    ['1. item', '1\\. item'],
    ['---', '\\---'],
    ['[^1] [x]: http://e', '\\[^1\\] \\[x\\]: http\\://e'],
    ['line1\nline2\r\n### h\u0000\u0007end', `line1 line2 \\#${Z}\\#${Z}\\#${Z} h end`],
  ];
  for (const [input, output] of cases) assert.equal(inert(input), output, JSON.stringify(input));
});

test('inert: nothing GitHub would mention or link is left', () => {
  const out = inert('@octocat, @github/team, mail a@b.co, https://x.y, www.x.y, #1, GH-1 [l](u) ![i](u) <a href=u>');
  assert.doesNotMatch(out, /@[A-Za-z0-9]/, 'a mention');
  assert.doesNotMatch(out, /#\d/, 'an issue reference');
  assert.doesNotMatch(out, /(^|[^\\])[[<]/, 'a bracket or tag not escaped');
  assert.doesNotMatch(out, /[^\\]:\/\//, 'a URL scheme not escaped');
});

test('plain: one line, no control or bidirectional characters, cut with an ellipsis', () => {
  assert.equal(plain(' a \t b\n\nc\u2028d '), 'a b c d');
  assert.equal(plain('x'.repeat(300)), `${'x'.repeat(199)}…`);
  assert.equal(plain('x'.repeat(300), 10), `${'x'.repeat(9)}…`);
  assert.equal(plain('😀'.repeat(20), 5), '😀😀😀😀…', 'cut by character, not by UTF-16 unit');
  assert.equal(plain('ab\u202ecd\u200f\u061c'), 'abcd');
  assert.equal(inert('a'.repeat(250)).length, 200);
});

test('code: a code span when the text allows one, else inert text', () => {
  assert.equal(code('--quick --time 80'), '`--quick --time 80`');
  assert.equal(code('`x` | y'), '\\`x\\` \\| y');
  assert.equal(code(''), '');
});

test('table: the same bytes as markdown-table, for every alignment', () => {
  const rows = [
    ['Case', 'Base', 'x', 'Verdict', 'n'],
    ['a', '1', '', 'no change', 'x'],
    ['longer key here', '12,345', '*', 'regression', ''],
    ['b', null, 'c'],
  ];
  for (const align of [[], ['l', 'r', 'c', 'l'], ['c', 'c', 'c', 'c', 'c'], ['r', 'l']]) {
    assert.equal(table(rows, /** @type {any} */ (align)), markdownTable(rows, { align }), JSON.stringify(align));
  }
  assert.equal(table([['a']], ['c']), markdownTable([['a']], { align: ['c'] }));
});
