#!/usr/bin/env node
// npm run counts (--help lists its flags): the counting pass alone, without the timed rounds (pass.js).
// It counts each side of a run of several sides (bench/paired/count-sides.js), under the side's
// Node with its environment, each side's measured cases given by --case; its output is the
// contract between them and a side of any version that has this file.
//
// Output (--out, written whole or not at all): { kind: 'sqlite-node-bench/counts', version: 1,
//   node, mode, seed, filters, inject, layoutPad, seconds, drivers, counting,
//   cases: [{ key, config, driver, cipher, op, counts }] }
// with `counting` and `counts` as in the result document (bench/counts/pass.js, counts.js), except
// that the repeat runs with its heap laid out differently (LAYOUT_PAD), as base and head differ.
// --inject and --probe-loop are the compare's calibration only (worker.js Inject).
import fs from 'node:fs';
import path from 'node:path';
import { UsageError, command, numberFlag, parseStrict, switchFlag, valueFlag } from '../../lib/command.js';
import { writeFileAtomic } from '../../lib/files.js';
import { FILTER_OPTIONS, tableFilters } from '../engine/flags.js';
import { loadDrivers } from '../engine/load-drivers.js';
import { caseKey, caseFields, cases as selectCases } from '../data/suite.js';
import { countingProgress } from './count-progress.js';
import { createProgress } from '../../lib/progress.js';
import { LAYOUT_PAD, countPass, countPlanOf, countPlans } from './pass.js';
import { countingTools } from './tools.js';

const OPTIONS = /** @type {const} */ ({
  quick: switchFlag("the quick run's cases and budgets"),
  ...FILTER_OPTIONS,
  case: {
    ...valueFlag('KEY', 'count only these cases (config/driver/cipher/op)', { shown: 'every selected case' }),
    multiple: true,
  },
  seed: valueFlag('N', 'seed of the generated data', { default: '1' }),
  jobs: valueFlag('N', 'callgrind processes at once', { shown: 'one per core' }),
  out: valueFlag('FILE', 'the counts document, written whole or not at all', { shown: 'none (required)' }),
  inject: valueFlag(
    'FILE',
    'calibration only: JSON of known work added to cases ({"<case key>": {"loop": N, "fsyncEvery": N, "sql": N}})',
  ),
  'probe-loop': valueFlag(
    'N',
    'calibration only: count a loop of N and a query of N / 10 rows alone, to size --inject',
  ),
});

const HELP = {
  usage: 'npm run counts -- --out FILE [flags]',
  summary:
    'The counting pass alone: what every selected case costs per operation in instructions, system calls and bytes, counted twice in new processes (what the compare runs in each side).',
  options: OPTIONS,
};

const COUNTS_KIND = 'sqlite-node-bench/counts';

/**
 * The --inject file: case key → { loop?, fsyncEvery?, sql? }, every number a whole number ≥ 1 (loop ≥ 0).
 * @param {string} file
 * @returns {Record<string, import('./worker.js').Inject>}
 */
function readInject(file) {
  let data;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--inject ${file}: ${String(/** @type {Error} */ (err).message).split('\n')[0]}`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new UsageError(`--inject ${file}: not an object of case key → { loop, fsyncEvery, sql }`);
  /** @type {Record<string, import('./worker.js').Inject>} */
  const out = {};
  for (const [key, v] of Object.entries(data)) {
    const fields = Object.keys(v ?? {});
    const bad = fields.find((f) => f !== 'loop' && f !== 'fsyncEvery' && f !== 'sql');
    if (bad || !fields.length)
      throw new UsageError(`--inject ${file}: ${key}: field '${bad ?? '(none)'}'; valid: loop, fsyncEvery, sql`);
    for (const f of fields) {
      const n = v[f];
      if (!Number.isInteger(n) || n < (f === 'loop' ? 0 : 1) || n > 1e9)
        throw new UsageError(`--inject ${file}: ${key}.${f} is ${JSON.stringify(n)}; valid: a whole number`);
    }
    out[key] = v;
  }
  return out;
}

/**
 * What one iteration of the injected loop costs, and one row of the injected query in SQLite's
 * component: each counted alone (around a task that does nothing) with N and with none (the query
 * of N / 10 rows against 1 row, whose cost less one row's is its fixed cost), on the first selected
 * case's driver.
 * @param {{ mode: 'quick'|'full', seed: number, cases: import('../data/suite.js').Case[], drivers: any, jobs?: number }} o
 * @param {number} loop
 */
async function probeLoop(o, loop) {
  const c = o.cases.find((x) => countPlanOf(x.op, o.mode));
  if (!c) throw new UsageError('--probe-loop: no timed case selected to run it beside');
  const plan = { key: caseKey(c), k: 20, warmup: 5, alone: true };
  const rows = Math.max(2, Math.ceil(loop / 10));
  const { found, failures } = await countPlans({
    ...o,
    cases: [c],
    plans: [
      { ...plan, id: 'loop', inject: { loop } },
      { ...plan, id: 'none', inject: { loop: 0 } },
      { ...plan, id: 'sql', inject: { sql: rows } },
      { ...plan, id: 'sql1', inject: { sql: 1 } },
    ],
  });
  if (failures.length) throw new Error(`--probe-loop: ${failures[0]}`);
  const per = (/** @type {string} */ id) => found[0].get(id)?.instructions?.perOp ?? NaN;
  const sqlite = (/** @type {string} */ id) => found[0].get(id)?.instructions?.components?.sqlite ?? NaN;
  const perRow = (sqlite('sql') - sqlite('sql1')) / (rows - 1);
  return {
    loop,
    instructions: per('loop') - per('none'),
    perIteration: (per('loop') - per('none')) / loop,
    sql: { perRow, fixed: sqlite('sql1') - sqlite('none') - perRow },
  };
}

async function main(/** @type {string[]} */ argv) {
  const v = parseStrict(argv, OPTIONS);
  if (!v.out) throw new UsageError('missing --out FILE; valid: the file the counts are written to');
  if (v.inject && v['probe-loop']) throw new UsageError('--inject and --probe-loop do not go together');
  const filters = tableFilters(v);
  const mode = v.quick ? 'quick' : 'full';
  const seed = numberFlag('seed', v.seed, 0, 4294967295);
  const jobs = numberFlag('jobs', v.jobs, 1, 256);
  const inject = v.inject ? readInject(v.inject) : null;
  const probe = numberFlag('probe-loop', v['probe-loop'], 1, 1e9);
  const selected = selectCases(filters).filter((c) => !v.case || v.case.includes(caseKey(c)));
  const notCase = v.case?.find((k) => !selected.some((c) => caseKey(c) === k));
  if (notCase)
    throw new UsageError(
      `--case '${notCase}' is not a selected case; valid: config/driver/cipher/op of \`npm run bench -- --list\``,
    );
  if (!selected.length) throw new UsageError('the filters select no case; `npm run bench -- --list` shows them');
  const unknown = Object.keys(inject ?? {}).find((k) => !selected.some((c) => caseKey(c) === k));
  if (unknown) throw new UsageError(`--inject: case '${unknown}' is not among the selected cases`);
  const drivers = await loadDrivers();
  const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);
  const started = Date.now();
  const tools = countingTools();
  const head = { kind: COUNTS_KIND, version: 1, node: process.version, mode, seed, filters };
  if (probe !== undefined) {
    if (tools.status !== 'ok') throw new Error(`cannot count here: ${tools.reason}`);
    const r = await probeLoop({ mode, seed, cases: selected, drivers, ...(jobs ? { jobs } : {}) }, probe);
    writeFileAtomic(path.resolve(v.out), `${JSON.stringify({ ...head, probe: r }, null, 2)}\n`);
    return 0;
  }
  // a line at least every 10 s, with the processes done and an ETA (lib/progress.js), as in `npm run bench`
  const progress = countingProgress(createProgress(process.stderr, { label: 'counting' }));
  progress({ step: 'begin', cases: selected.length });
  const { counting, counts } = await countPass({
    mode,
    seed,
    cases: selected,
    drivers,
    log,
    onProgress: progress,
    layout: { padRepeat: LAYOUT_PAD },
    ...(jobs ? { jobs } : {}),
    ...(inject ? { inject } : {}),
  });
  await new Promise((resolve) => setImmediate(resolve)); // the progress's last line comes a turn after the pass
  const out = {
    ...head,
    inject,
    layoutPad: LAYOUT_PAD,
    seconds: (Date.now() - started) / 1000,
    drivers: [...drivers.values()].map((d) => d.info),
    counting,
    cases: selected.flatMap((c) => {
      const k = counts.get(caseKey(c));
      return k ? [{ key: caseKey(c), ...caseFields(c), counts: k }] : [];
    }),
  };
  writeFileAtomic(path.resolve(v.out), `${JSON.stringify(out, null, 2)}\n`);
  log(`counts: ${out.cases.length} cases counted in ${out.seconds.toFixed(0)} s (${counting.status}); wrote ${v.out}`);
  return counting.status === 'error' ? 1 : 0;
}

command('counts', import.meta.url, main, HELP);
