#!/usr/bin/env node
// npm run meta:cost: what the pipeline itself costs against issue 40's targets: each chosen phase
// run as a user runs it (a new folder each time) and timed, with the load average and the cores
// beside it, broken down by what it wrote; the PR check scaled to a 4-vCPU runner
// (docs/checking.md). Writes pipeline-cost-<time>.json and .md to --out, never over another file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../../lib/root.js';
import { UsageError, command, parseStrict, printMarkdown, valueFlag } from '../../lib/command.js';
import { checkedDir, writeNewPair } from '../../lib/files.js';
import { table as markdownTable } from '../../lib/markdown.js';
import { npmCommand } from '../tools/install-drivers.js';

/** The cores of the runner the PR check's target is for (GitHub's ubuntu-24.04 for public repositories). */
const RUNNER_CORES = 4;

/**
 * A phase: the command as the table names it (`what`), its target in seconds, how it runs in a new
 * folder of its own, its own phases from what it wrote, and whether it is judged on a RUNNER_CORES
 * runner (scaleCompare).
 * @typedef {{ name: string, what: string, target: number, run: (dir: string) => { cmd: string, args: string[] }, parts?: (dir: string) => Part[], scaled?: boolean }} Phase
 * @typedef {{ part: string, seconds: number, note?: string }} Part
 */

const npm = (/** @type {string[]} */ args) => {
  const { cmd, pre } = npmCommand();
  return { cmd, args: [...pre, ...args] };
};
const bench = (/** @type {string[]} */ flags) => (/** @type {string} */ dir) =>
  npm(['run', 'bench', '--', ...flags, '--out', dir]);
const readJson = (/** @type {string} */ file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/**
 * The full run's phases from its result document: suite (what is left), workloads, counting.
 * @param {string} dir
 * @returns {Part[]}
 */
export function runParts(dir) {
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.json'));
  if (!file) return [];
  const doc = readJson(path.join(dir, file));
  const total = (Date.parse(doc.run.finishedAt) - Date.parse(doc.run.startedAt)) / 1000;
  const workloads = Number(doc.workloads?.seconds ?? 0);
  const counting = Number(doc.counting?.seconds ?? 0);
  return [
    { part: 'suite (templates, timed rounds, passes)', seconds: Math.max(0, total - workloads - counting) },
    { part: 'workloads', seconds: workloads },
    { part: 'counting', seconds: counting },
  ];
}

/**
 * The PR check's phases from compare.json (compare/cli.js `run.phases`), and the whole scaled to a
 * RUNNER_CORES runner: the counting × cores / RUNNER_CORES (both sides at once there, each on
 * half the cores: the same work split across more cores), the rest as measured (the installs wait
 * on the network and the disk; the timed compare alternates two servers, one at a time).
 * @param {{ phase: string, seconds: number, rounds?: number, cases?: number, together?: boolean }[]} phases
 * @param {number} cores this machine's
 */
export function scaleCompare(phases, cores) {
  const factor = Math.min(1, Math.max(1, cores) / RUNNER_CORES);
  /** @type {Part[]} */
  const parts = phases.map((p) => ({
    part: p.phase === 'timed' ? `timed (${p.cases} cases × ${p.rounds} rounds)` : p.phase,
    seconds: p.seconds,
    ...(p.phase === 'count' ? { note: p.together ? 'both sides at once' : 'one side after the other' } : {}),
  }));
  const scaled = phases.reduce((s, p) => s + (p.phase === 'count' ? p.seconds * factor : p.seconds), 0);
  const how =
    factor === 1
      ? `measured on ${cores} cores, as on ${RUNNER_CORES}`
      : `counting × ${Math.max(1, cores)}/${RUNNER_CORES} (it splits across cores); installs, timed compare and report as measured (they do not)`;
  return { parts, scaled, how };
}

/** @type {Phase[]} */
export const PIPELINE_PHASES = [
  { name: 'quick', what: 'npm run bench -- --quick', target: 60, run: bench(['--quick']), parts: runParts },
  { name: 'full', what: 'npm run bench', target: 15 * 60, run: bench([]), parts: runParts },
  {
    name: 'counts',
    what: 'npm run counts (the full suite)',
    target: 120,
    run: (dir) => npm(['run', 'counts', '--', '--out', path.join(dir, 'counts.json')]),
    parts: (dir) => {
      const file = path.join(dir, 'counts.json');
      if (!fs.existsSync(file)) return [];
      const doc = readJson(file);
      return [{ part: `${doc.cases.length} cases, ${doc.counting?.processes ?? '?'} processes`, seconds: doc.seconds }];
    },
  },
  {
    name: 'compare',
    what: 'npm run compare -- --base HEAD (the PR check: this checkout against its own commit)',
    target: 15 * 60,
    scaled: true,
    run: (dir) => npm(['run', 'compare', '--', '--base', 'HEAD', '--head', ROOT, '--out', dir]),
  },
  { name: 'test', what: 'npm test', target: 5 * 60, run: () => npm(['test']) },
  { name: 'ci', what: '.ci/run', target: 15 * 60, run: () => ({ cmd: path.join(ROOT, '.ci', 'run'), args: [] }) },
];

/**
 * One row of the table: the phase or "phase: part", seconds, 1-minute load averages (parts have
 * no target, pass or load).
 * @typedef {{ phase: string, measured: number, target: number | null, pass: boolean | null, loadStart: number | null, loadEnd: number | null, cores: number, note: string }} Row
 */

const seconds = (/** @type {number} */ s) => (s >= 120 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(1)} s`);
const load = (/** @type {number | null} */ x) => (x === null ? '' : x.toFixed(2));

export function pipelineCostTable(/** @type {Row[]} */ rows) {
  return markdownTable(
    [
      ['Phase', 'Measured', 'Target', 'Pass', 'Load at start', 'Load at end', 'Cores', 'Note'],
      ...rows.map((r) => [
        r.phase,
        seconds(r.measured),
        r.target === null ? '' : seconds(r.target),
        r.pass === null ? '' : r.pass ? 'pass' : '**fail**',
        load(r.loadStart),
        load(r.loadEnd),
        String(r.cores),
        r.note,
      ]),
    ],
    ['l', 'r', 'r', 'c', 'r', 'r', 'r', 'l'],
  );
}

/** The phases --phase names, in the table's order. */
export function choosePhases(/** @type {string[]} */ names) {
  const asked = names.flatMap((n) => n.split(',')).filter(Boolean);
  const bad = asked.find((n) => !PIPELINE_PHASES.some((p) => p.name === n));
  if (bad) throw new UsageError(`unknown --phase '${bad}'; valid: ${PIPELINE_PHASES.map((p) => p.name).join(', ')}`);
  return asked.length ? PIPELINE_PHASES.filter((p) => asked.includes(p.name)) : PIPELINE_PHASES;
}

/**
 * Run one phase as a user would and time it; its rows (the phase, then its parts).
 * @param {Phase} phase
 * @param {string} work a new folder for what it writes
 * @returns {Row[]}
 */
function measure(phase, work) {
  const dir = path.join(work, phase.name);
  fs.mkdirSync(dir);
  const { cmd, args } = phase.run(dir);
  const cores = os.cpus().length;
  const loadStart = os.loadavg()[0];
  process.stderr.write(`meta:cost: ${phase.name}: ${phase.what}\n`);
  const t0 = Date.now();
  // the child's output goes to stderr: stdout is the table's
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });
  const measured = (Date.now() - t0) / 1000;
  const loadEnd = os.loadavg()[0];
  const exit = r.status ?? r.signal;
  const compareJson = path.join(dir, 'compare.json');
  // the compare exits 1 on a regression (a false alarm, here): it ran when it wrote its result
  const ran = r.status === 0 || (phase.name === 'compare' && fs.existsSync(compareJson));
  const base = { loadStart, loadEnd, cores };
  /** @type {(p: Part) => Row} */
  const partRow = (p) => {
    const none = { target: null, pass: null, loadStart: null, loadEnd: null };
    return { phase: `${phase.name}: ${p.part}`, measured: p.seconds, ...none, cores, note: p.note ?? '' };
  };
  if (phase.scaled && fs.existsSync(compareJson)) {
    const { parts, scaled, how } = scaleCompare(readJson(compareJson).run?.phases ?? [], cores);
    const onRunner = { target: phase.target, pass: ran && scaled <= phase.target, ...base, note: `scaled: ${how}` };
    return [
      { phase: phase.name, measured, target: null, pass: null, ...base, note: `${phase.what}; here` },
      { phase: `${phase.name} on a ${RUNNER_CORES}-vCPU runner`, measured: scaled, ...onRunner },
      ...parts.map(partRow),
    ];
  }
  const note = ran ? phase.what : `${phase.what}: failed (exit ${exit})`;
  const pass = ran && measured <= phase.target;
  return [
    { phase: phase.name, measured, target: phase.target, pass, ...base, note },
    ...(phase.parts?.(dir) ?? []).map(partRow),
  ];
}

const HELP = {
  usage: 'npm run meta:cost -- [--phase NAME,…] [--out DIR]',
  summary:
    "What the pipeline itself costs: each chosen phase run as a user runs it and timed, against its target, with the load average and the cores beside it (the PR check scaled to a 4-vCPU runner). Long: the full run and .ci/run take about 15 minutes each; don't run it in tests.",
  options: /** @type {const} */ ({
    phase: valueFlag(
      'NAME',
      `the phases to run and time: ${PIPELINE_PHASES.map((p) => `${p.name} (${p.what}, target ${seconds(p.target)})`).join('; ')}`,
      { multiple: true, shown: PIPELINE_PHASES.map((p) => p.name).join(',') },
    ),
    out: valueFlag('DIR', 'where the table goes, a new file per run', { default: 'out/meta' }),
  }),
};

function main(/** @type {string[]} */ argv) {
  const v = parseStrict(argv, HELP.options);
  const phases = choosePhases(v.phase ?? []);
  const out = checkedDir('out', String(v.out)); // before an hour is spent
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-cost-'));
  try {
    const rows = phases.flatMap((p) => measure(p, work));
    const md = pipelineCostTable(rows);
    const name = writeNewPair(out, 'pipeline-cost', `${md}\n`, `${JSON.stringify({ rows }, null, 2)}\n`);
    printMarkdown(md);
    process.stderr.write(`meta:cost: wrote ${path.relative(process.cwd(), name)}.md and its .json\n`);
    return rows.some((r) => r.pass === false) ? 1 : 0;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

command('meta:cost', import.meta.url, main, HELP);
