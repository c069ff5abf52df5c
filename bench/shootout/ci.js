#!/usr/bin/env node
// npm run ci:shootout — the nightly shootout job (.github/workflows/benchmark.yml): every matrix
// Node on this runner, the drivers compiled here from source (as the matrix cells compile
// theirs), the document written to out/shootout/ for the aggregate job. The workflow's data comes
// in as environment variables, never pasted into a command: BENCH_QUICK=true runs the quick
// (smoke) shootout; WANT_NODES (comma-separated majors, empty: all) narrows the Nodes.
import { command } from '../../lib/command.js';
import { MATRIX_NODES } from '../tables/drivers.js';
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

command('ci:shootout', import.meta.url, () => main(ciArgs()));
