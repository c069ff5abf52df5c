#!/usr/bin/env node
// npm run ci:bench — the benchmark as a matrix cell runs it: the suite (quick when BENCH_QUICK is
// 'true'), the document into BENCH_OUT (default out), and the cell's table in the job summary.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { command } from '../../lib/command.js';
import { ROOT } from '../../lib/root.js';
import { summarize } from '../result/summary.js';

const HELP = {
  usage: 'npm run ci:bench',
  summary:
    "The benchmark as a matrix cell runs it: the suite (quick when BENCH_QUICK is 'true'), the document into BENCH_OUT (default out), and the cell's table in the job summary. No flags: the workflow's data comes in as environment variables.",
};

function main() {
  const out = path.resolve(process.env.BENCH_OUT || 'out');
  const args = [
    path.join(ROOT, 'bench', 'cli.js'),
    '--out',
    out,
    ...(process.env.BENCH_QUICK === 'true' ? ['--quick'] : []),
  ];
  const r = spawnSync(process.execPath, args, { stdio: 'inherit' });
  const files = fs.existsSync(out) ? fs.readdirSync(out).filter((f) => f.endsWith('.json')) : [];
  if (process.env.GITHUB_STEP_SUMMARY) {
    const parts = [`## ${process.platform}-${process.arch}, Node ${process.version}`, ''];
    for (const f of files) parts.push(summarize(JSON.parse(fs.readFileSync(path.join(out, f), 'utf8'))), '');
    if (!files.length) parts.push(`The benchmark wrote no document (exit ${r.status ?? r.signal}).`);
    fs.appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${parts.join('\n')}\n`);
  }
  return r.status ?? 1;
}

command('ci:bench', import.meta.url, main, HELP);
