#!/usr/bin/env node
// npm run claims (--help lists its flags): checks the claims of the production write-up on this
// machine: runs the cases of the claims (bench/data/production-claims.js) with the bench
// (bench/cli.js --claim …, and the concurrency workload's WAL and DELETE rows for the claim it
// measures), which writes the result document with its `claims`, then prints the claims table
// (aggregate/render/claims-table.js).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  CommandError,
  UsageError,
  command,
  numberFlag,
  parseStrict,
  switchFlag,
  valueFlag,
} from '../../lib/command.js';
import { ROOT } from '../../lib/root.js';
import { plain, table as markdownTable } from '../../lib/markdown.js';
import { CLAIMS, MIN_PAIRS, SOURCE } from '../data/production-claims.js';
import { SUITE_CLAIMS } from '../data/run-plan.js';
import { journalPair } from '../data/workloads.js';
import { claimCells, claimRows, perCheckText } from '../../aggregate/render/claims-table.js';

const OPTIONS = /** @type {const} */ ({
  claim: valueFlag('NAME', 'check only these claims (docs/claims.md)', { multiple: true, shown: 'every claim' }),
  rounds: valueFlag('N', `rounds per case, from ${MIN_PAIRS} (a verdict needs ${MIN_PAIRS} pairs) to 100`, {
    shown: `the bench's (quick: ${MIN_PAIRS})`,
  }),
  time: valueFlag('MS', 'measuring time per case and round, in milliseconds', { shown: "the bench's" }),
  seed: valueFlag('N', 'seed of the generated data and of the case order', { default: '1' }),
  out: valueFlag('DIR', 'the folder the result document goes to (a new file per run)', {
    default: path.join('out', 'claims'),
  }),
  quick: switchFlag('small budgets: a smoke test, not verdicts to rely on'),
  'no-counts': switchFlag('skip the counting pass (docs/counting.md)'),
});

const HELP = {
  usage: 'npm run claims -- [flags]',
  summary:
    "Checks the production write-up's performance claims on this machine: measures their cases with the bench, prints the claims table with a verdict each, and writes the document to --out.",
  options: OPTIONS,
};

/** The bench's arguments for these flags. */
function benchArgsOf(/** @type {string[]} */ argv) {
  const v = /** @type {any} */ (parseStrict(argv, OPTIONS));
  const inSuite = new Set(SUITE_CLAIMS);
  const measurable = CLAIMS.filter((e) => inSuite.has(e.id) || e.checks.some((c) => c.workload)).map((e) => e.id);
  const given = /** @type {string[]} */ (v.claim ?? []);
  for (const n of given)
    if (!measurable.includes(n)) throw new UsageError(`unknown --claim '${n}'; valid: ${measurable.join(', ')}`);
  const chosen = CLAIMS.filter((e) => (given.length ? given : measurable).includes(e.id));
  // the suite's cases of the chosen claims; a claim measured by a workload brings its WAL and DELETE rows
  const suite = chosen.filter((e) => inSuite.has(e.id)).map((e) => e.id);
  const workloads = [
    ...new Set(
      chosen.flatMap((e) => e.checks.flatMap((c) => (c.workload ? Object.values(journalPair(c.workload.pair)) : []))),
    ),
  ];
  // with no suite case chosen, one case read once (production's file size) instead of the whole suite
  const only = suite.length
    ? suite.flatMap((n) => ['--claim', n])
    : ['--config', 'production', '--driver', 'better-sqlite3-multiple-ciphers', '--cipher', 'chacha20', '--op', 'size'];
  const rounds = numberFlag('rounds', v.rounds, MIN_PAIRS, 100) ?? (v.quick ? MIN_PAIRS : undefined);
  numberFlag('time', v.time, 1, 600_000);
  numberFlag('seed', v.seed, 0, 4294967295);
  return [
    ...(v.quick ? ['--quick'] : []),
    ...only,
    ...(rounds ? ['--rounds', String(rounds)] : []),
    ...(v.time ? ['--time', v.time] : []),
    '--seed',
    String(v.seed),
    '--workload',
    workloads.length ? workloads.join(',') : 'none',
    ...(v['no-counts'] ? ['--no-counts'] : []),
    '--out',
    path.resolve(String(v.out)),
  ];
}

async function main(/** @type {string[]} */ argv) {
  const args = benchArgsOf(argv);
  const started = Date.now();
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bench', 'cli.js'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const wrote = /^wrote (.+?\.json)/m.exec(r.stdout ?? '');
  if (!wrote) throw new CommandError(`the bench wrote no document (exit ${r.status ?? r.signal})`);
  const file = path.resolve(wrote[1]);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const rows = claimRows(doc);
  console.log(
    `Claims of ${SOURCE.publisher}, "${SOURCE.title}" (${SOURCE.url}), checked on this machine: ${doc.environment.node ? `Node ${doc.environment.node}` : ''}, ${doc.run.mode} run, ${doc.run.budget.rounds} rounds per case${doc.run.budget.maxRounds > doc.run.budget.rounds ? ` (up to ${doc.run.budget.maxRounds})` : ''}, ${Math.round((Date.now() - started) / 1000)} s.`,
  );
  console.log('');
  console.log(markdownTable(claimCells(rows, { text: (s, max) => plain(s, max) })));
  console.log('');
  console.log(
    `Measured: the change from the reference to the compared setup, paired by block, with its 95% interval (lib/judge.js); verdicts: docs/claims.md. ${perCheckText(rows)}`,
  );
  console.log(`wrote ${path.relative(process.cwd(), file) || file}`);
  if (r.status !== 0) console.error(`claims: the bench exited ${r.status ?? r.signal}; see its output above`);
  return r.status ?? 1;
}

command('claims', import.meta.url, main, HELP);
