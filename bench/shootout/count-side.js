#!/usr/bin/env node
// One shootout side's counting pass, run by bench/shootout/count-nodes.js under that side's own Node
// with its environment (the driver generation, SQLITE_BENCH_GENERATION), so that everything the
// pass does is that side's: the templates are built with its drivers, the counted processes
// (bench/counts/worker.js) start under its Node (process.execPath), and Node's flags are those
// its V8 accepts (bench/counts/tools.js nodeFlags: no --no-maglev before V8 11, Node 18).
//
//   <side's node> bench/shootout/count-side.js [--quick] --seed N [--jobs N] --case KEY… --out FILE
//
// The cases are the side's measured ones; a case whose driver does not load under this Node
// (node:sqlite before 22.13) is left out with the driver's reason. Writes
// { node, v8, flags, seconds, counting, counts: { key: CaseCounts }, skipped: { key: reason } }
// (bench/counts/pass.js countPass) to --out, whole or not at all.
import { UsageError, command, numberFlag, parseStrict } from '../../lib/command.js';
import { writeFileAtomic } from '../../lib/files.js';
import { loadDrivers } from '../engine/load-drivers.js';
import { LAYOUT_PAD, countPass } from '../counts/pass.js';
import { nodeFlags } from '../counts/tools.js';
import { caseKey, parseCaseKey } from '../data/suite.js';

const OPTIONS = /** @type {const} */ ({
  quick: { type: 'boolean', default: false },
  seed: { type: 'string', default: '1' },
  jobs: { type: 'string' },
  case: { type: 'string', multiple: true },
  out: { type: 'string' },
});

async function main(/** @type {string[]} */ argv) {
  const flags = parseStrict(argv, OPTIONS);
  if (!flags.case?.length || !flags.out) throw new UsageError('--case KEY and --out FILE are both required');
  const jobs = numberFlag('jobs', flags.jobs, 1, 256);
  const started = Date.now();
  const drivers = await loadDrivers();
  /** @type {Record<string, string>} */
  const skipped = {};
  const cases = flags.case.map(parseCaseKey).filter((c) => {
    const d = drivers.get(c.driver)?.info;
    if (d?.status === 'ok') return true;
    skipped[caseKey(c)] = d?.reason ?? `${c.driver} is not loaded`;
    return false;
  });
  const { counting, counts } = await countPass({
    mode: flags.quick ? 'quick' : 'full',
    seed: numberFlag('seed', flags.seed, 0, 4294967295),
    cases,
    drivers,
    // the repeat with its heap laid out differently: two Nodes' layouts differ, and the spread must say by how much that moves a count
    layout: { padRepeat: LAYOUT_PAD },
    ...(jobs ? { jobs } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const out = {
    node: process.version,
    v8: process.versions.v8,
    flags: nodeFlags(),
    seconds: (Date.now() - started) / 1000,
    counting,
    counts: Object.fromEntries(counts),
    skipped,
  };
  writeFileAtomic(flags.out, `${JSON.stringify(out)}\n`);
}

command('shootout count-side', import.meta.url, main);
