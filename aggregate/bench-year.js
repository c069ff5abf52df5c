#!/usr/bin/env node
// npm run meta:aggregate — the aggregate over a synthetic year of nightly history.
//
// Builds results/ holding 5 Node majors × 4 platforms × N nights (default 183: 3,660 documents),
// then times what a nightly run does: one more night (20 documents) aggregated into that history,
// README block regenerated (target ≤ 5 s, the whole `npm run aggregate` process). Also times a
// cold rebuild (no index: every stored document read and checked) and a no-change re-run, and
// reports the README block's size.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../lib/files.js';
import { ROOT } from '../lib/root.js';
import { END, START } from '../lib/markers.js';
import { SYNTHETIC_PLATFORMS, syntheticDoc } from './synthetic.js';
import { command, numberFlag, parseStrict } from '../lib/command.js';

const NODES = ['v18.20.8', 'v20.20.2', 'v22.23.3', 'v24.21.0', 'v25.9.0'];

/** One night's documents: every platform × Node major. */
const night = (/** @type {number} */ n) => SYNTHETIC_PLATFORMS.flatMap((platform) => NODES.map((node) => syntheticDoc({
  platform, node, seed: n * 100 + NODES.indexOf(node), finishedAt: new Date(Date.UTC(2026, 0, 1, 3, 17) + n * 86_400_000).toISOString(),
})));

function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, { nights: { type: 'string', default: '183' }, out: { type: 'string', default: 'out/meta' }, keep: { type: 'boolean', default: false } });
  const nights = /** @type {number} */ (numberFlag('nights', values.nights, 1, 3660));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-year-'));
  const results = path.join(dir, 'results');
  const readme = path.join(dir, 'README.md');
  fs.writeFileSync(readme, `# Synthetic\n\n${START}\n${END}\n`);

  const aggregate = (/** @type {string} */ artifacts) => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [path.join(ROOT, 'aggregate/cli.js'), '--artifacts', artifacts, '--results', results, '--readme', readme], { encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`aggregate exited ${r.status}: ${r.stderr.slice(0, 500)}`);
    return { ms, log: r.stdout.trim() };
  };

  try {
    console.error(`year: writing ${nights} nights × ${SYNTHETIC_PLATFORMS.length} platforms × ${NODES.length} Node majors = ${nights * 20} documents`);
    const history = path.join(dir, 'history');
    let bytes = 0;
    for (let n = 0; n < nights; n++) {
      for (const doc of night(n)) {
        const text = JSON.stringify(doc);
        bytes += text.length;
        writeFileAtomic(path.join(history, `night-${n}`, `${doc.environment.platform}-${doc.environment.arch}-${doc.environment.node}.json`), text);
      }
    }
    const cold = aggregate(history); // stores the year: every document read, checked, written
    // a lost index: every stored document is read and checked again (the input is one known document)
    fs.rmSync(path.join(results, 'index.json'));
    const rebuild = aggregate(path.join(history, 'night-0'));
    const tonight = path.join(dir, 'tonight');
    for (const doc of night(nights)) writeFileAtomic(path.join(tonight, `result-${doc.environment.platform}-${doc.environment.arch}-${doc.environment.node}`, 'r.json'), JSON.stringify(doc));
    const nightly = aggregate(tonight);
    const again = aggregate(tonight);
    const text = fs.readFileSync(readme, 'utf8');
    const block = text.slice(text.indexOf(START), text.indexOf(END) + END.length);
    const report = {
      node: process.version,
      documents: nights * 20 + 20,
      historyBytes: bytes,
      nightlySeconds: nightly.ms / 1000,
      noChangeSeconds: again.ms / 1000,
      coldStoreSeconds: cold.ms / 1000,
      indexRebuildSeconds: rebuild.ms / 1000,
      readmeBlockBytes: Buffer.byteLength(block),
      readmeBlockLines: block.split('\n').length,
      readmeBlockTables: (block.match(/^\| :?-/gm) ?? []).length,
    };
    console.log(`Aggregate over a synthetic year: ${report.documents} documents (${(bytes / 1e6).toFixed(0)} MB), ${process.version}\n`);
    console.log(`- nightly run (20 new documents into a year of history, README regenerated): ${report.nightlySeconds.toFixed(2)} s (target ≤ 5 s)`);
    console.log(`- the same night again (nothing new, nothing written): ${report.noChangeSeconds.toFixed(2)} s`);
    console.log(`- cold: storing the whole year from artifacts: ${report.coldStoreSeconds.toFixed(1)} s; rebuilding a lost index: ${report.indexRebuildSeconds.toFixed(1)} s`);
    console.log(`- README block: ${(report.readmeBlockBytes / 1024).toFixed(0)} KiB, ${report.readmeBlockLines} lines, ${report.readmeBlockTables} tables`);
    console.log(`\n${nightly.log}`);
    const file = path.resolve(values.out, 'aggregate-year.json');
    writeFileAtomic(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
    return report.nightlySeconds > 5 ? 1 : 0;
  } finally {
    if (values.keep) console.error(`kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

command('meta:aggregate', import.meta.url, main);
