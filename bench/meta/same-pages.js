#!/usr/bin/env node
// npm run meta:same-pages: for a refactor of the aggregate, a digest (`sha256  path` per file) of
// everything it writes from a synthetic year and from --real documents; diff the digests of two
// checkouts. A chart's drawing-code hash is masked, and of README.md only the generated block counts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError, command, numberFlag, parseStrict, valueFlag } from '../../lib/command.js';
import { writeFileAtomic } from '../../lib/files.js';
import { END, START, replaceBlock } from '../../lib/markers.js';
import { ROOT } from '../../lib/root.js';
import { aggregate } from '../../aggregate/cli.js';
import { buildYear, files } from './aggregate-year.js';

const DEFAULT_REAL = [path.join(ROOT, 'test', 'fixtures', 'real-linux-x64-shootout.json')];
const DRAWING_HASH = /^(<!-- sqlite-node-bench chart )[0-9a-f]{64}/;

/**
 * The digest lines of every file under dir, sorted by path.
 * @param {string} dir
 * @returns {string[]}
 */
export function digestOf(dir) {
  return [...files(dir)]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([f, bytes]) => {
      const text = bytes.toString('utf8');
      const body =
        path.basename(f) === 'README.md' && !f.split(path.sep).includes('results')
          ? text.slice(text.indexOf(START), text.indexOf(END) + END.length)
          : f.endsWith('.svg')
            ? text.replace(DRAWING_HASH, '$1<drawing-hash>')
            : text;
      return `${crypto.createHash('sha256').update(body).digest('hex')}  ${f.split(path.sep).join('/')}`;
    });
}

/**
 * Aggregate the synthetic year and the real documents in a temp folder and digest the output.
 * @param {{ nights: number, real: string[] }} o
 * @returns {Promise<string[]>}
 */
export async function samePages(o) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-pages-'));
  try {
    const year = path.join(dir, 'year');
    fs.mkdirSync(year);
    await buildYear({ dir: year, nights: o.nights });
    fs.rmSync(path.join(year, 'history'), { recursive: true });
    const real = path.join(dir, 'real');
    const artifacts = path.join(dir, 'artifacts');
    o.real.forEach((doc, i) =>
      writeFileAtomic(path.join(artifacts, `doc-${i}`, path.basename(doc)), fs.readFileSync(doc)),
    );
    writeFileAtomic(
      path.join(real, 'README.md'),
      replaceBlock(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'), ''),
    );
    const warnings = /** @type {string[]} */ ([]);
    // the clock: an hour after the newest real document, so the digest is the same on any day
    const now =
      Math.max(0, ...o.real.map((doc) => Date.parse(JSON.parse(fs.readFileSync(doc, 'utf8')).run?.finishedAt) || 0)) +
      3_600_000;
    const code = await aggregate(
      { artifacts, results: path.join(real, 'results'), readme: path.join(real, 'README.md'), now },
      { log: () => {}, warn: (s) => warnings.push(s) },
    );
    if (code !== 0 || warnings.length)
      throw new UsageError(`--real: the aggregate did not store every document: ${warnings[0] ?? `exit ${code}`}`);
    fs.rmSync(artifacts, { recursive: true });
    return digestOf(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const HELP = {
  usage: 'npm run meta:same-pages -- [flags]',
  summary:
    "A digest of everything the aggregate writes (a synthetic year and real documents), one 'sha256  path' line per file: run it before and after a refactor and diff the two.",
  options: /** @type {const} */ ({
    nights: valueFlag('N', 'nights of the synthetic year, 1 to 366', { default: '20' }),
    real: valueFlag('DOC', 'real documents aggregated on their own', {
      multiple: true,
      shown: 'the real shootout fixture',
    }),
    out: valueFlag('FILE', 'where the digest goes', { shown: 'stdout' }),
  }),
};

command(
  'meta:same-pages',
  import.meta.url,
  async (argv) => {
    const v = parseStrict(argv, HELP.options);
    const nights = numberFlag('nights', v.nights, 1, 366);
    const real = (v.real ?? DEFAULT_REAL).map((f) => path.resolve(f));
    for (const f of real)
      if (!fs.existsSync(f)) throw new UsageError(`--real ${f}: no such file; valid: a result or shootout document`);
    const lines = await samePages({ nights, real });
    const text = `${lines.join('\n')}\n`;
    if (v.out) writeFileAtomic(path.resolve(v.out), text);
    else process.stdout.write(text);
    console.error(`meta:same-pages: ${lines.length} files digested`);
  },
  HELP,
);
