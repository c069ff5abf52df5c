#!/usr/bin/env node
// npm run bench -- [--quick] [--config NAME]… [--driver NAME]… [--cipher NAME]… [--op NAME]…
//                  [--time MS] [--seed N] [--out DIR] [--keep-db DIR] [--no-counts] [--list]
// Runs the suite on this machine, then (on Linux, unless --no-counts) counts what every timed case
// costs per operation (bench/counts/; a quick run only the few of bench/data/quick-counts.js),
// and writes one result document (bench/result/) to --out, a new file per run. Progress on stderr,
// a line at least every 10 s in each phase (lib/progress.js). Before anything is measured:
// --out and --keep-db made and written to, and at least one driver the run needs loaded, so a
// mistake costs seconds, not a whole run. The steps are in bench/run/bench-run.js.
import { command } from '../lib/command.js';
import { OPTIONS, parseFlags } from './engine/flags.js';
import { writeChecked } from './result/document.js';
import { summarize } from './result/summary.js';
import { workloadListText } from './data/workloads.js';
import { listText } from './tools/catalogue.js';
import { countTimed, exitOf, prepareRun, resultDocument, timeSuite, timeWorkloads } from './run/bench-run.js';

const HELP = {
  usage: 'npm run bench -- [flags]',
  summary:
    'Runs the suite and the workloads on this machine, then (on Linux, unless --no-counts) counts what one operation of every case costs (a quick run: of a few representative cases), and writes one result document to --out.',
  options: OPTIONS,
};

async function main(/** @type {string[]} */ argv) {
  const flags = parseFlags(argv);
  if (flags.list) return void console.log(`${listText()}\n${workloadListText()}`);
  const ready = await prepareRun(flags); // --out, --keep-db, the signals, the drivers
  const suite = await timeSuite(flags, ready); // the timed rounds and their analysis
  const workloads = await timeWorkloads(flags, ready); // unless interrupted or --workload none
  const counting = await countTimed(flags, ready, suite.cases); // after every timed figure
  const doc = resultDocument(flags, ready, suite, workloads, counting);
  const file = writeChecked(doc, flags.out);
  console.log(summarize(doc));
  return exitOf(doc, file, flags, ready);
}

command('bench', import.meta.url, main, HELP);
