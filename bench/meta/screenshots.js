#!/usr/bin/env node
// npm run meta:screenshots: the README and results/README.md as GitHub shows them, in headless
// Chromium at 1280 px (a screenshot of the top and of each chart with its text), from a synthetic
// year (buildYear), the repository's results and each --real DIR (default: out/matrix). Needs
// Debian's chromium, or CHROMIUM. It checks the PNGs were made, not that they read well; it never
// removes a folder it did not make (--out: new, empty, or its own earlier output).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { CommandError, UsageError, command, numberFlag, parseStrict, valueFlag } from '../../lib/command.js';
import { checkedDir, writeFileAtomic } from '../../lib/files.js';
import { ROOT } from '../../lib/root.js';
import { buildYear } from './aggregate-year.js';

/** GitHub's README column at a 1280 px window: the box beside the repository's sidebar. */
const COLUMN = 896;
const WINDOW = [1280, 1000];

const CSS = `
body { margin: 0; background: #fff; color: #1f2328; font: 16px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
main { width: ${COLUMN}px; margin: 24px 0 0 48px; box-sizing: border-box; border: 1px solid #d1d9e0; border-radius: 6px; padding: 32px; }
h1, h2 { border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; } h3 { font-size: 1.25em; } h4 { font-size: 1em; } h5 { font-size: .875em; }
img { max-width: 100%; height: auto; box-sizing: content-box; }
table { display: block; width: max-content; max-width: 100%; overflow: auto; border-collapse: collapse; font-size: 14px; margin: 0 0 16px; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; } tr:nth-child(2n) { background: #f6f8fa; }
code { background: #eff1f3; border-radius: 6px; padding: .2em .4em; font-size: 85%; }
`;

/**
 * What the page measures of itself once laid out, written into <body data-measured> for
 * --dump-dom: each table wider than its column (it scrolls: a reader misses columns), with the
 * text above it, collapsed ones opened for the measure and closed again, and how far down the
 * first machine class's last answer ends (the first screen is WINDOW[1] px).
 */
const MEASURE = `addEventListener('load', () => {
  const closed = [...document.querySelectorAll('details:not([open])')];
  closed.forEach((d) => { d.open = true; });
  const wide = [...document.querySelectorAll('table')].filter((t) => t.scrollWidth > t.clientWidth + 1)
    .map((t) => ({ width: t.scrollWidth, column: t.clientWidth, above: (t.previousElementSibling?.textContent ?? '').slice(0, 80) }));
  const first = document.querySelector('main > ul');
  const answersEnd = first && /Encryption/.test(first.textContent) ? Math.round(first.getBoundingClientRect().bottom) : null;
  closed.forEach((d) => { d.open = false; }); // the screenshot shows them as a reader first does
  document.body.dataset.measured = JSON.stringify({ wide, answersEnd, tables: document.querySelectorAll('table').length });
});`;

/**
 * The page's own measures (MEASURE), from Chromium's DOM after load.
 * @param {string} chromium
 * @param {string} page an HTML file
 * @returns {{ wide: { width: number, column: number, above: string }[], answersEnd: number | null, tables: number }}
 */
function measure(chromium, page) {
  const r = headless(chromium, page, ['--dump-dom']);
  const found = /data-measured="([^"]*)"/.exec(r.stdout ?? '');
  if (!found) throw new CommandError(`chromium measured nothing of ${page}: ${why(r)}`);
  const entities = /** @type {Record<string, string>} */ ({ quot: '"', lt: '<', gt: '>', amp: '&' });
  return JSON.parse(found[1].replace(/&(quot|lt|gt|amp);/g, (_, e) => entities[e]));
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--allow-file-access-from-files',
  '--virtual-time-budget=10000',
];
/** Headless Chromium on an HTML file, at WINDOW, with these flags. */
const headless = (/** @type {string} */ chromium, /** @type {string} */ page, /** @type {string[]} */ flags) =>
  spawnSync(chromium, [...FLAGS, `--window-size=${WINDOW.join(',')}`, ...flags, pathToFileURL(page).href], {
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
/** Why Chromium made nothing: its error, or its last line on stderr. */
const why = (/** @type {ReturnType<typeof headless>} */ r) => r.error?.message ?? r.stderr.trim().split('\n').at(-1);

/** Markdown as a page GitHub would show, images and links resolved against dir. */
function html(/** @type {string} */ md, /** @type {string} */ dir) {
  // each image gets its size from the SVG, so the layout does not move while images load
  const page = micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });
  const body = page.replace(/<img src="([^"]*)"/g, (tag, src) => {
    const svg = path.resolve(dir, decodeURIComponent(src));
    const size = fs.existsSync(svg)
      ? /<svg[^>]* width="(\d+)" height="(\d+)"/.exec(fs.readFileSync(svg, 'utf8'))
      : null;
    return `${tag}${size ? ` width="${size[1]}" height="${size[2]}"` : ''}`;
  });
  const base = pathToFileURL(`${dir}${path.sep}`).href;
  return `<!doctype html><meta charset="utf-8"><base href="${base}"><style>${CSS}</style><main>${body}</main><script>${MEASURE}</script>`;
}

/**
 * A Markdown file as pages to screenshot: the whole file, and per image the part a reader sees
 * around it (from the heading above it, the chart, and what follows, about one screen).
 * @param {string} file
 */
function pagesOf(file) {
  const md = fs.readFileSync(file, 'utf8');
  const dir = path.dirname(path.resolve(file));
  const lines = md.split('\n');
  const shots = [{ name: 'top', html: html(md, dir) }];
  // the README block from its first line: the first screen a reader of the results sees
  const block = lines.findIndex((l) => l.includes('BENCHMARK_RESULTS_START'));
  if (block >= 0) shots.push({ name: 'block', html: html(lines.slice(block + 1).join('\n'), dir) });
  const chart = (/** @type {string} */ l) => /!\[[^\]]*\]\([^)]*\.svg\)/.test(l); // also one after a line of text
  lines.forEach((l, i) => {
    if (!chart(l)) return;
    // from the heading above, or from just after the chart above (charts in a row: each its own shot)
    let from = i;
    while (from > 0 && i - from < 12 && !/^#{1,6} /.test(lines[from]) && !chart(lines[from - 1])) from--;
    shots.push({
      name: `chart-${String(shots.length).padStart(2, '0')}`,
      html: html(lines.slice(from, i + 24).join('\n'), dir),
    });
  });
  return shots;
}

/** A screenshot of an HTML file into png. */
function shoot(/** @type {string} */ chromium, /** @type {string} */ page, /** @type {string} */ png) {
  const r = headless(chromium, page, ['--hide-scrollbars', `--screenshot=${png}`]);
  if (r.error || !fs.existsSync(png))
    throw new CommandError(`chromium made no screenshot of ${pathToFileURL(page).href}: ${why(r)}`);
}

/** The note meta:screenshots leaves in its --out: the subfolders it made there, the only ones it removes. */
const MADE = '.meta-screenshots.json';

/**
 * The --out folder, made if absent; one that holds anything meta:screenshots did not make is
 * refused, untouched. Of an earlier output only the subfolders its note lists are removed.
 * @param {string} given
 */
function screenshotsDir(given) {
  const out = path.resolve(given);
  if (fs.existsSync(out) && fs.statSync(out).isDirectory()) {
    const there = fs.readdirSync(out);
    if (there.length && !there.includes(MADE))
      throw new UsageError(
        `bad --out '${given}': not empty, and not made by meta:screenshots (no ${MADE}); give a new or empty folder`,
      );
    if (there.length) {
      const made = JSON.parse(fs.readFileSync(path.join(out, MADE), 'utf8'));
      const names = Array.isArray(made)
        ? made.filter((n) => typeof n === 'string' && /^[\w.-]+$/.test(n) && n !== '..' && n !== '.')
        : [];
      for (const n of names) fs.rmSync(path.join(out, n), { recursive: true, force: true });
    }
  }
  checkedDir('out', out);
  writeFileAtomic(path.join(out, MADE), '[]\n');
  return out;
}

const HELP = {
  usage: 'npm run meta:screenshots -- [flags]',
  summary:
    "The README and results/README.md in headless Chromium at 1280 px, from a synthetic year, the repository's results and a local matrix, as PNG files in --out (needs Debian's chromium, or CHROMIUM).",
  options: /** @type {const} */ ({
    nights: valueFlag('N', 'nights of the synthetic year, 0 to 3660 (0: none)', { default: '100' }),
    classes: valueFlag('N', 'machine classes of the synthetic year, 1 to 4', { default: '4' }),
    real: valueFlag('DIR', 'an aggregated folder to show (README.md and results/README.md), e.g. out/matrix', {
      multiple: true,
      shown: 'out/matrix when a local matrix has run',
    }),
    out: valueFlag(
      'DIR',
      'where the pages and screenshots go: a new or empty folder, or one this command made (only its own subfolders are replaced)',
      { default: 'out/screenshots' },
    ),
  }),
};

async function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, HELP.options);
  for (const dir of values.real ?? []) {
    if (!fs.existsSync(path.join(dir, 'README.md')) || !fs.existsSync(path.join(dir, 'results', 'README.md')))
      throw new UsageError(
        `--real ${dir}: not an aggregated folder (it needs README.md and results/README.md: the --readme and --results of npm run aggregate, e.g. out/matrix after npm run matrix)`,
      );
  }
  const nights = numberFlag('nights', values.nights, 0, 3660);
  const classes = numberFlag('classes', values.classes, 1, 4);
  const out = screenshotsDir(values.out);
  const chromium = process.env.CHROMIUM || 'chromium';
  if (spawnSync(chromium, ['--version'], { encoding: 'utf8' }).status !== 0)
    throw new CommandError(
      `no '${chromium}': install Debian's chromium (apt-get install -y chromium), or set CHROMIUM`,
    );
  const sources = /** @type {{ name: string, readme: string, results: string }[]} */ ([]);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-shots-'));
  try {
    if (nights > 0) {
      const year = await buildYear({ dir: tmp, nights, classes, log: (s) => console.error(s) });
      // keep what the pages show (the year's documents are about 0.4 MB each): README, results/README.md, the charts
      const name = `synthetic-${nights}-nights-${classes}-classes`;
      writeFileAtomic(path.join(out, MADE), `${JSON.stringify([name])}\n`);
      const keep = path.join(out, name, 'site');
      fs.mkdirSync(path.join(keep, 'results'), { recursive: true });
      fs.copyFileSync(year.readme, path.join(keep, 'README.md'));
      fs.copyFileSync(path.join(year.results, 'README.md'), path.join(keep, 'results', 'README.md'));
      fs.cpSync(path.join(year.results, 'charts'), path.join(keep, 'results', 'charts'), { recursive: true });
      fs.rmSync(tmp, { recursive: true, force: true });
      sources.push({ name, readme: path.join(keep, 'README.md'), results: path.join(keep, 'results') });
    }
    if (fs.existsSync(path.join(ROOT, 'results', 'README.md')))
      sources.push({ name: 'repository', readme: path.join(ROOT, 'README.md'), results: path.join(ROOT, 'results') });
    const real =
      values.real ?? (fs.existsSync(path.join(ROOT, 'out/matrix/README.md')) ? [path.join(ROOT, 'out/matrix')] : []);
    for (const dir of real) {
      const name = `real-${path.basename(path.resolve(dir))}`;
      sources.push({ name, readme: path.join(dir, 'README.md'), results: path.join(dir, 'results') });
    }
    writeFileAtomic(path.join(out, MADE), `${JSON.stringify(sources.map((x) => x.name))}\n`);
    if (!sources.length)
      throw new CommandError('nothing to show: --nights 0 and no results (run npm run matrix, or pass --real DIR)');
    for (const s of sources) {
      const pages = { README: s.readme, 'results-README': path.join(s.results, 'README.md') };
      for (const [page, file] of Object.entries(pages)) {
        if (!fs.existsSync(file)) continue;
        const shots = pagesOf(file);
        for (const shot of shots) {
          const htmlFile = path.join(out, s.name, `${page}-${shot.name}.html`);
          writeFileAtomic(htmlFile, shot.html);
          shoot(chromium, htmlFile, path.join(out, s.name, `${page}-${shot.name}.png`));
        }
        // the whole page measured: its tables against the column, the first class's answers against the first screen
        const m = measure(
          chromium,
          path.join(out, s.name, `${page}-${shots[shots.length > 1 && shots[1].name === 'block' ? 1 : 0].name}.html`),
        );
        console.log(
          `${path.relative(process.cwd(), path.join(out, s.name))}: ${page} ${shots.length} screenshot(s) at ${WINDOW.join('×')}; ${m.tables} table(s), ${m.wide.length} wider than the ${COLUMN} px column${m.wide.map((w) => `\n  ${w.width} px > ${w.column}: under "${w.above}"`).join('')}${m.answersEnd === null ? '' : `; the first machine class's answers end ${m.answersEnd} px down the block (the first screen: ${WINDOW[1]} px)`}`,
        );
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return 0;
}

command('meta:screenshots', import.meta.url, main, HELP);
