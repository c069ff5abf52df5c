// `npm run compare -- --calibrate-counts`: does the compare's rule on counts (lib/costs.js)
// find a change of known size, and stay quiet when nothing changed? Each run counts the checkout
// four times in new processes (bench/counts/cli.js): A; B, a copy in another directory (the A/A);
// I, with a loop of about 1% of each case's instructions; F, with an fsync every 100 operations and
// a query of about 1% of SQLite's component (worker.js Inject), both sized once (--probe-loop and
// the first run's A), the seed moved on by the run. docs/compare.md "Calibration of the counts"
// says each in full. Writes calibrate-counts.json (after every run) and calibrate-counts.md to --out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { table as markdownTable } from '../lib/markdown.js';
import { writeFileAtomic } from '../lib/files.js';
import { percent, signedPercent } from '../lib/format.js';
import { median } from '../lib/stats/spread.js';
import { OPS } from '../bench/data/ops.js';
import { costRows, movedComponents } from '../lib/costs.js';
import { runCounts } from '../bench/paired/count-sides.js';
import { copyCheckout } from './sides.js';

/**
 * The known changes: instructions, as a share of each case; fsyncs, one per this many operations;
 * SQLite's instructions, as a share of its component.
 */
const INJECTED = { instructions: 0.01, fsyncEvery: 100, sqlite: 0.01 };
/** Iterations of the loop counted alone to learn what one costs. */
const PROBE = 100_000;

export async function calibrateCounts(
  /** @type {{ runs: number, countArgs: string[], out: string }} */ f,
  /** @type {(labels: string[]) => { sides: { dir: string, given: string, commit: string | null }[], cleanup: () => void }} */ prepare,
  /** @type {(line: string) => void} */ log,
) {
  const { sides, cleanup } = prepare(['base']);
  const A = sides[0];
  // B is a copy of A in another directory, as the PR check's base is a worktree beside the head:
  // the same code, other paths, so another heap layout
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-calibration-copy-'));
  copyCheckout(A.dir, copy);
  const file = path.join(f.out, 'calibrate-counts.json');
  const t0 = Date.now();
  /** @type {any} */
  const state = {
    kind: 'sqlite-node-bench/calibrate-counts',
    version: 1,
    checkout: { given: A.given, commit: A.commit },
    countArgs: f.countArgs,
    injected: INJECTED,
    node: process.version,
    cores: os.cpus().length,
    runs: f.runs,
    done: [],
  };
  try {
    // what one iteration of the injected loop costs, counted alone in the checkout
    const probed = await runCounts({ label: 'probe', dir: A.dir }, [...f.countArgs, '--probe-loop', String(PROBE)], {
      log,
    });
    if ('reason' in probed) throw new Error(`--probe-loop: ${probed.reason}`);
    const probe = probed.doc.probe;
    state.probe = probe;
    log(
      `the injected loop costs ${probe.perIteration.toFixed(2)} instructions per iteration; the query ${probe.sql.perRow.toFixed(2)} of SQLite's per row, ${Math.round(probe.sql.fixed)} fixed`,
    );
    let loops = /** @type {Record<string, import('../bench/counts/worker.js').Inject> | null} */ (null);
    let fsyncs = /** @type {Record<string, import('../bench/counts/worker.js').Inject> | null} */ (null);
    for (let r = 0; r < f.runs; r++) {
      const count = async (/** @type {string} */ label, /** @type {any} */ inject, dir = A.dir) => {
        const started = Date.now();
        // the pass's progress lines (a line at least every 10 s), labelled with the run and side
        const got = await runCounts({ label: `run ${r + 1}/${f.runs} ${label}`, dir }, runArgs(f.countArgs, r), {
          log,
          ...(inject ? { inject } : {}),
        });
        if ('reason' in got) throw new Error(`calibration run ${r + 1}, side ${label}: ${got.reason}`);
        return { cases: got.doc.cases, seconds: (Date.now() - started) / 1000 };
      };
      const a = await count('A', null);
      loops ??= Object.fromEntries(
        a.cases.map((/** @type {any} */ c) => [
          c.key,
          { loop: Math.max(1, Math.round((INJECTED.instructions * c.counts.instructions) / probe.perIteration)) },
        ]),
      );
      fsyncs ??= Object.fromEntries(
        a.cases.map((/** @type {any} */ c) => {
          const rows = Math.round(
            (INJECTED.sqlite * (c.counts.components?.sqlite ?? 0) - probe.sql.fixed) / probe.sql.perRow,
          );
          return [c.key, { fsyncEvery: INJECTED.fsyncEvery, ...(rows >= 1 ? { sql: rows } : {}) }];
        }),
      );
      state.sql ??= Object.fromEntries(Object.entries(fsyncs).map(([k, x]) => [k, x.sql ?? 0]));
      const b = await count('B', null, copy);
      const i = await count('I', loops);
      const s = await count('F', fsyncs);
      const run = {
        seconds: [a, b, i, s].map((x) => x.seconds),
        aa: costRows(a.cases, b.cases).map(compact),
        instructions: costRows(a.cases, i.cases).map(compact),
        fsync: costRows(a.cases, s.cases).map(compact),
      };
      state.done.push(run);
      state.seconds = (Date.now() - t0) / 1000;
      writeFileAtomic(file, `${JSON.stringify(state, null, 1)}\n`);
      log(
        `calibration run ${r + 1}/${f.runs}: A/A ${run.aa.filter((x) => x.verdict !== 'same cost').length} change(s); +1% instructions found in ${run.instructions.filter(foundInstructions).length} of ${run.instructions.length}; +fsync found in ${run.fsync.filter(foundFsync).length}; +1% SQLite found in ${run.fsync.filter(foundSqlite).length} of ${run.fsync.filter((x) => state.sql[x.key]).length}; ${((Date.now() - t0) / 60000).toFixed(1)} min`,
      );
    }
  } finally {
    cleanup();
    fs.rmSync(copy, { recursive: true, force: true });
  }
  const md = countsCalibrationSummary(state);
  writeFileAtomic(path.join(f.out, 'calibrate-counts.md'), md);
  return { md };
}

/**
 * Run r's counting flags: the seed moved on by r, so each run counts other data with another heap
 * layout (the same processes with the same seed count exactly the same: one draw, however many runs).
 */
const runArgs = (/** @type {string[]} */ args, /** @type {number} */ r) =>
  args.map((a, i) => (args[i - 1] === '--seed' ? String(Number(a) + r) : a));

const compact = (/** @type {import('../lib/costs.js').CostRow} */ r) => ({
  key: r.key,
  op: r.op,
  verdict: r.verdict,
  change: r.change,
  tolerance: r.tolerance,
  instructions: r.base?.instructions ?? null,
  components: r.components ?? [],
  io: r.io,
  fails: r.fails,
});

/** The injected loop was found: the instructions moved up beyond the tolerance. */
const foundInstructions = (/** @type {ReturnType<typeof compact>} */ x) =>
  x.change !== null && x.tolerance !== null && x.change > x.tolerance;
/** The injected fsyncs were found: more fsyncs per operation. */
const foundFsync = (/** @type {ReturnType<typeof compact>} */ x) =>
  x.io.some((d) => d.field === 'fsync' && d.head > d.base);
/** A component of a compact row, compared. */
const part = (/** @type {ReturnType<typeof compact>} */ x, /** @type {string} */ name) =>
  x.components.find((c) => c.component === name);
/** The injected query was found: SQLite's component moved up beyond its tolerance. */
const foundSqlite = (/** @type {ReturnType<typeof compact>} */ x) => {
  const c = part(x, 'sqlite');
  return c !== undefined && c.change > c.tolerance;
};
/**
 * The total alone would have found the injected query's SQLite work: that work over the base's
 * instructions beyond the total's tolerance (the query's call adds runtime and binding work too,
 * which the total of side F includes).
 */
const sqliteByTotal = (/** @type {ReturnType<typeof compact>} */ x) => {
  const c = part(x, 'sqlite');
  return c !== undefined && x.instructions !== null && x.tolerance !== null && c.delta / x.instructions > x.tolerance;
};

/**
 * The calibration's figures from calibrate-counts.json's state (also of a calibration stopped
 * before its last run: the file holds every run done).
 * @param {any} c
 */
function countsCalibrationSummary(c) {
  /** @type {any[]} */
  const runs = c.done;
  const n = runs.length;
  const keys = [...new Set(runs.flatMap((r) => r.aa.map((/** @type {any} */ x) => x.key)))].sort();
  const opOf = new Map(runs.flatMap((r) => r.aa.map((/** @type {any} */ x) => [x.key, x.op])));
  const of = (/** @type {string} */ part, /** @type {string} */ key) =>
    runs.map((r) => r[part].find((/** @type {any} */ x) => x.key === key)).filter(Boolean);
  const perCase = keys.map((key) => {
    const aa = of('aa', key);
    const ins = of('instructions', key);
    const fs_ = of('fsync', key);
    return {
      key,
      op: opOf.get(key),
      bound: OPS.find((o) => o.name === opOf.get(key))?.bound ?? 'cpu',
      falseAlarms: aa.filter((x) => x.verdict !== 'same cost').length,
      failsAA: aa.filter((x) => x.fails).length,
      tolerance: median(aa.map((x) => x.tolerance ?? NaN)),
      injected: median(ins.map((x) => x.change ?? NaN)),
      foundInstructions: ins.filter(foundInstructions).length,
      foundFsync: fs_.filter(foundFsync).length,
      counted: aa.filter((x) => x.verdict !== 'not counted').length,
      sql: c.sql?.[key] ?? 0,
      sqliteTolerance: median(aa.map((x) => part(x, 'sqlite')?.tolerance ?? NaN)),
      sqliteInjected: median(fs_.map((x) => part(x, 'sqlite')?.change ?? NaN)),
      foundSqlite: fs_.filter(foundSqlite).length,
      sqliteByTotal: fs_.filter(sqliteByTotal).length,
    };
  });
  /** @type {Map<string, number>} component → A/A (case, run) pairs where it moved (each a false alarm) */
  const aaParts = new Map();
  for (const r of runs)
    for (const x of r.aa)
      for (const c of movedComponents(x)) aaParts.set(c.component, (aaParts.get(c.component) ?? 0) + 1);
  const components = [
    ...new Set(
      runs.flatMap((r) =>
        r.aa.flatMap((/** @type {any} */ x) => x.components.map((/** @type {any} */ k) => k.component)),
      ),
    ),
  ];
  const sqlCases = perCase.filter((x) => x.sql);
  const runsAA = runs.filter((r) => r.aa.some((/** @type {any} */ x) => x.verdict !== 'same cost')).length;
  const runsAAFail = runs.filter((r) => r.aa.some((/** @type {any} */ x) => x.fails)).length;
  const cpu = perCase.filter((x) => x.bound === 'cpu');
  const seconds = runs.map((r) => median(r.seconds));
  const md = [
    `## Compare calibration of the counts: ${n} runs, this machine`,
    '',
    `Node ${c.node}, ${c.cores} cores; \`npm run counts -- ${c.countArgs.join(' ')}\`, ${keys.length} cases; injected: a loop of ${percent(c.injected.instructions, 0)} of each case's instructions per operation (${c.probe.perIteration.toFixed(2)} instructions per iteration, counted alone), and one fsync on the first counted operation and every ${c.injected.fsyncEvery}th; one counting pass ${Math.round(median(seconds))} s (median); ${(c.seconds / 60).toFixed(0)} min in all.`,
    '',
    `- **A/A** (B a copy of the checkout in another directory): ${runsAA} of ${n} compares reported any change in cost; ${runsAAFail} of ${n} would have failed the check. Each run counts with the seed moved on by one (other data, so other heap layouts: the same processes with the same seed count exactly alike), so the runs are ${n} draws; within a run, what differs between A and B is the heap's layout, which B's directory and the repeat's padding change, as between a real base and head.`,
    `- **+${percent(c.injected.instructions, 0)} instructions**: found in ${perCase.reduce((s, x) => s + x.foundInstructions, 0)} of ${perCase.reduce((s, x) => s + x.counted, 0)} (case, run) pairs; every CPU-bound case in ≥ ${Math.ceil(0.95 * n)} of ${n} runs: ${cpu.every((x) => x.foundInstructions >= Math.ceil(0.95 * n)) ? 'yes' : 'no'} (${cpu.filter((x) => x.foundInstructions >= Math.ceil(0.95 * n)).length} of ${cpu.length}).`,
    `- **+1 fsync per ${c.injected.fsyncEvery} operations**: found in ${perCase.reduce((s, x) => s + x.foundFsync, 0)} of ${perCase.reduce((s, x) => s + x.counted, 0)} (case, run) pairs.`,
    `- **+${percent(c.injected.sqlite, 0)} in SQLite's component** (a query of N rows per operation, ${c.probe.sql.perRow.toFixed(1)} of SQLite's instructions a row and ${Math.round(c.probe.sql.fixed)} fixed; ${sqlCases.length} of ${perCase.length} cases large enough for it): found in SQLite's component in ${sqlCases.reduce((s, x) => s + x.foundSqlite, 0)} of ${sqlCases.reduce((s, x) => s + x.counted, 0)} (case, run) pairs; that SQLite work alone would have moved the total beyond its tolerance in ${sqlCases.reduce((s, x) => s + x.sqliteByTotal, 0)} (the query's call adds runtime and binding work, which the total of F includes).`,
    `- **A/A, per component**: ${components.map((k) => `${k} moved in ${aaParts.get(k) ?? 0}`).join(', ')} of ${perCase.reduce((s, x) => s + x.counted, 0)} (case, run) pairs.`,
    '',
    markdownTable(
      [
        [
          'Case',
          'Bound',
          'A/A changes',
          'Tolerance (median)',
          'Injected, as counted (median)',
          '+1% found',
          '+fsync found',
          'SQLite: query rows',
          'SQLite tolerance (median)',
          'SQLite injected, as counted (median)',
          '+1% SQLite found (by the total alone)',
        ],
        ...perCase.map((x) => [
          x.key,
          x.bound,
          `${x.falseAlarms} of ${x.counted}`,
          percent(x.tolerance, 2),
          signedPercent(x.injected, 10),
          `${x.foundInstructions} of ${x.counted}`,
          `${x.foundFsync} of ${x.counted}`,
          String(x.sql),
          x.sql ? percent(x.sqliteTolerance, 2) : '',
          x.sql ? signedPercent(x.sqliteInjected, 10) : '',
          x.sql ? `${x.foundSqlite} of ${x.counted} (${x.sqliteByTotal})` : '',
        ]),
      ],
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
  ].join('\n');
  return md;
}
