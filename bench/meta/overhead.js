#!/usr/bin/env node
// npm run meta:overhead: what the harness costs. A trivial prepared SELECT timed by the harness and
// by a bare loop, interleaved, medians of rounds (target: harness ≥ 95% of bare); beside it
// tinybench with one operation per sample, which is why the harness batches short operations.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { table as markdownTable } from '../../lib/markdown.js';
import { writeNewPair } from '../../lib/files.js';
import { loadDrivers } from '../engine/load-drivers.js';
import { measure } from '../engine/measure.js';
import { median } from '../../lib/stats/spread.js';
import { percent, whole } from '../../lib/format.js';
import { BUDGETS } from '../engine/budgets.js';
import { command, numberFlag, parseStrict, valueFlag } from '../../lib/command.js';

/** ops/s of a bare loop running for about `ms`. */
function bare(/** @type {() => unknown} */ fn, /** @type {number} */ ms) {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ms) {
    for (let i = 0; i < 1000; i++) fn();
    n += 1000;
    t = performance.now();
  }
  return (n / (t - t0)) * 1000;
}

const HELP = {
  usage: 'npm run meta:overhead -- [flags]',
  summary:
    'What the harness itself costs: a trivial prepared SELECT timed by the harness and by a bare loop, interleaved (target: harness at least 95% of bare).',
  options: /** @type {const} */ ({
    rounds: valueFlag('N', 'interleaved rounds, 1 to 1000', { default: '7' }),
    out: valueFlag('DIR', 'where the report goes, a new .md and .json per run', { default: 'out/meta' }),
  }),
};

async function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, HELP.options);
  const rounds = numberFlag('rounds', values.rounds, 1, 1000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-overhead-'));
  const rows = [];
  const results = [];
  try {
    for (const [name, d] of await loadDrivers()) {
      if (!d.open) continue;
      const conn = d.open(path.join(dir, `${name.replace(/\W/g, '_')}.db`));
      const stmt = conn.prepare('SELECT 1 AS x');
      const fn = () => stmt.get();
      const batched = {
        run: (/** @type {number} */ n) => {
          for (let i = 0; i < n; i++) fn();
        },
      };
      const unbatched = { maxBatch: 1, run: () => void fn() };
      const budget = BUDGETS.full;
      const [b, h, h1] = /** @type {number[][]} */ ([[], [], []]);
      bare(fn, 200); // warm
      for (let r = 0; r < rounds; r++) {
        b.push(bare(fn, budget.time));
        h.push(measure(batched, budget).opsPerSec);
        h1.push(measure(unbatched, budget).opsPerSec);
      }
      conn.close();
      const r = { driver: name, bare: median(b), harness: median(h), unbatched: median(h1) };
      results.push({ ...r, ratio: r.harness / r.bare, unbatchedRatio: r.unbatched / r.bare, rounds });
      rows.push([name, whole(r.bare), whole(r.harness), percent(r.harness / r.bare), percent(r.unbatched / r.bare)]);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const head = ['Driver', 'Bare loop ops/s', 'Harness ops/s', 'Harness / bare', 'tinybench unbatched / bare'];
  const text = `Harness overhead, trivial prepared SELECT, ${process.version} ${process.platform}-${process.arch}, median of ${rounds} interleaved rounds\n\n${markdownTable([head, ...rows], ['l', 'r', 'r', 'r', 'r'])}`;
  const json = `${JSON.stringify({ node: process.version, results }, null, 2)}\n`;
  const name = writeNewPair(values.out, 'overhead', `${text}\n`, json);
  console.log(`${text}\n\nwrote ${path.relative(process.cwd(), name)}.md and .json`);
  const worst = Math.min(...results.map((r) => r.ratio));
  if (!(worst >= 0.95)) {
    console.error(`overhead: harness reaches only ${percent(worst)} of a bare loop (target 95%)`);
    return 1;
  }
  return 0;
}

command('overhead', import.meta.url, main, HELP);
