#!/usr/bin/env node
// npm run ci:shootout — the nightly shootout job (.github/workflows/benchmark.yml): every matrix
// Node on this runner, the drivers compiled here from source (as the matrix cells compile
// theirs), the document written to out/shootout/ for the aggregate job. The workflow's data comes
// in as environment variables, never pasted into a command: BENCH_QUICK=true runs the quick
// (smoke) shootout; WANT_NODES (comma-separated majors, empty: all) narrows the Nodes.
import { command, parseStrict } from '../../lib/command.js';
import { MATRIX_NODES } from '../data/drivers.js';
import { main } from './cli.js';

/** The shootout's flags for the nightly job. */
export function ciArgs(env = process.env) {
  const nodes = (env.WANT_NODES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return [
    '--from-source',
    '--out',
    'out/shootout',
    '--node',
    (nodes.length ? nodes : MATRIX_NODES).join(','),
    ...(env.BENCH_QUICK === 'true' ? ['--quick'] : []),
  ];
}

const HELP = {
  usage: 'npm run ci:shootout',
  summary:
    "The nightly shootout of one runner: every matrix Node (or WANT_NODES), drivers compiled from source, the document in out/shootout/; BENCH_QUICK=true for the smoke run. No flags: the workflow's data comes in as environment variables.",
  options: {},
};

command('ci:shootout', import.meta.url, (argv) => (parseStrict(argv, HELP.options), main(ciArgs())), HELP);
