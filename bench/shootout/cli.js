#!/usr/bin/env node
// npm run shootout -- [--node 18,20,22,24,25] [--rounds N] [--time MS] [--seed N] [--out DIR]
//                     [--quick] [--threshold PCT] [--alpha A] [--from-source] [--no-counts]
//                     [--config NAME]… [--driver NAME]… [--cipher NAME]… [--op NAME]…
//
// Which Node is fastest, on this machine: every Node given is fetched and its drivers installed
// against its own headers (bench/shootout/prepare-sides.js), then the same cases are measured under every
// Node in one interleaved run, with progress and an ETA on stderr (bench/shootout/run.js). The driver
// is held constant where it can be (12.x on Node 20-25), and the Node's default 13.x is measured
// beside it where it loads (bench/data/run-plan.js). Then, on Linux with valgrind and strace, every
// side's cases are counted under its own Node (bench/shootout/count-nodes.js). This file: the flags, then the tables on
// stdout and the document (bench/result/document.schema.json, kind shootout) written atomically to --out.
//
// Exit 0: measured and written; 1: the run failed (no two sides ran, a server died); 2: bad flags.
import path from 'node:path';
import semver from 'semver';
import { FILTER_OPTIONS, tableFilters } from '../engine/flags.js';
import {
  UsageError,
  command,
  logger,
  numberFlag,
  parseStrict,
  printMarkdown,
  switchFlag,
  valueFlag,
} from '../../lib/command.js';
import { SUPPORTED_NODE_TEXT, supportedNode } from '../data/node-ranges.js';
import { MATRIX_NODES } from '../data/drivers.js';
import { prepareSides } from './prepare-sides.js';
import { runShootout } from './run.js';
import { roundsAndTime } from '../paired/interleave.js';
import { writeChecked } from '../result/document.js';
import { shootoutLines } from '../../aggregate/sections/shootout-report.js';

const HELP = {
  usage: 'npm run shootout -- [flags]',
  summary:
    'Which Node is fastest on this machine: every Node given, fetched with its drivers, measured in one interleaved run with the driver held constant; tables on stdout, the document in --out.',
  options: /** @type {const} */ ({
    node: {
      ...valueFlag('LIST', `the Nodes compared: majors or exact versions from ${SUPPORTED_NODE_TEXT}`, {
        shown: 'the matrix: 18,20,22,24,25',
      }),
      multiple: true,
    },
    rounds: valueFlag('N', 'interleaved rounds, from 2 to 1000', { shown: '10 (quick: 3)' }),
    time: valueFlag('MS', 'measuring time per case, side and round, in milliseconds', { shown: '80 (quick: 20)' }),
    seed: valueFlag('N', 'seed of the generated data and of the order', { default: '1' }),
    out: valueFlag('DIR', 'the folder the shootout document goes to', { default: 'out/shootout' }),
    quick: switchFlag('small budgets: a smoke test'),
    threshold: valueFlag('PCT', 'the smallest difference between Nodes that counts, in percent', { default: '5' }),
    alpha: valueFlag('A', 'the chance of any false difference over all comparisons, 0 to 0.5', { default: '0.05' }),
    'from-source': switchFlag('compile every driver from source, as the nightly job does'),
    'no-counts': switchFlag('skip counting each side (docs/counting.md)'),
    ...FILTER_OPTIONS,
  }),
};

const NODE_SPEC = /^v?\d{1,3}(\.\d{1,4}\.\d{1,4})?$/;

/** @typedef {ReturnType<typeof shootoutFlags>} ShootoutFlags */

/**
 * @param {string[]} argv
 */
export function shootoutFlags(argv) {
  const v = parseStrict(argv, HELP.options);
  const filters = tableFilters(v);
  const quick = Boolean(v.quick);
  const nodes = (v.node ?? [MATRIX_NODES.join(',')])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of nodes) {
    if (!NODE_SPEC.test(n))
      throw new UsageError(
        `bad --node '${n}'; valid: comma-separated Node majors or exact versions, e.g. 18,20,22,24,25 or 22.14.0`,
      );
    const version = /^\d+$/.test(n.replace(/^v/, '')) ? `${n.replace(/^v/, '')}.99.99` : n.replace(/^v/, '');
    if (!supportedNode(n) || !semver.valid(version))
      throw new UsageError(`bad --node '${n}'; valid: Node majors or versions from ${SUPPORTED_NODE_TEXT}`);
  }
  if (!nodes.length)
    throw new UsageError('--node is empty; valid: comma-separated Node majors or exact versions, e.g. 18,20,22,24,25');
  return {
    nodes,
    filters,
    ...roundsAndTime(v),
    seed: numberFlag('seed', v.seed, 0, 4294967295),
    out: path.resolve(String(v.out)),
    quick,
    threshold: numberFlag('threshold', v.threshold, 0, 100, false) / 100,
    alpha: numberFlag('alpha', v.alpha, 0, 0.5, false),
    fromSource: Boolean(v['from-source']),
    counts: !v['no-counts'],
  };
}

/**
 * Parse, run, write, print: `npm run shootout` and the nightly job (nightly.js) alike.
 * @param {string[]} argv
 */
export async function main(argv) {
  const f = shootoutFlags(argv);
  const log = logger('shootout');
  const started = { startedAt: new Date().toISOString(), t0: Date.now() };
  const sides = await prepareSides(f, log);
  const doc = await runShootout(f, sides, started, log);
  const file = writeChecked(doc, f.out);
  printMarkdown(['## Node versions on one machine', '', ...shootoutLines(doc)].join('\n'));
  log(`wrote ${path.relative(process.cwd(), file)} in ${(doc.run.seconds / 60).toFixed(1)} min`);
  return 0;
}

command('shootout', import.meta.url, main, HELP);
