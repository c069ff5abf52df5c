// npm run meta:cost (bench/meta/pipeline-cost.js): the phase list and its targets (issue 40), the
// PR check scaled to a 4-vCPU runner, the full run's parts from its document, and the table written
// to a new file every time. The long phases themselves are never run here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  PIPELINE_PHASES,
  choosePhases,
  pipelineCostTable,
  runParts,
  scaleCompare,
} from '../bench/meta/pipeline-cost.js';
import { writeNewPair } from '../lib/files.js';
import { ROOT, childEnv, scratch } from './helpers.js';

const cli = (/** @type {string[]} */ args) =>
  spawnSync(process.execPath, [path.join(ROOT, 'bench/meta/pipeline-cost.js'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: childEnv(),
  });

test('the phases and their targets are the issue’s: quick 60 s, counts 120 s, full and PR check and .ci/run 15 min, tests 5 min', () => {
  assert.deepEqual(
    PIPELINE_PHASES.map((p) => [p.name, p.target]),
    [
      ['quick', 60],
      ['full', 900],
      ['counts', 120],
      ['compare', 900],
      ['test', 300],
      ['ci', 900],
    ],
  );
  assert.deepEqual(
    choosePhases(['counts,quick']).map((p) => p.name),
    ['quick', 'counts'],
    'in the table’s order',
  );
  assert.equal(choosePhases([]).length, PIPELINE_PHASES.length, 'all by default');
  assert.throws(
    () => choosePhases(['quick,slow']),
    /^Error: unknown --phase 'slow'; valid: quick, full, counts, compare, test, ci$/,
  );
  // each runs what a user runs, writing into the folder it is given
  const bench = PIPELINE_PHASES[0].run('/tmp/x');
  assert.deepEqual(bench.args.slice(-5), ['bench', '--', '--quick', '--out', '/tmp/x']);
  assert.ok(
    PIPELINE_PHASES.find((p) => p.name === 'ci')
      ?.run('/tmp/x')
      .cmd.endsWith(path.join('.ci', 'run')),
  );
});

test('the PR check on a 4-vCPU runner: counting scaled by the cores, the rest as measured', () => {
  const phases = [
    { phase: 'prepare', seconds: 60 },
    { phase: 'count', seconds: 400, together: false },
    { phase: 'timed', seconds: 300, rounds: 5, cases: 226 },
    { phase: 'timed', seconds: 200, rounds: 5, cases: 140 },
    { phase: 'report', seconds: 1 },
  ];
  const two = scaleCompare(phases, 2);
  assert.equal(two.scaled, 60 + 200 + 300 + 200 + 1);
  assert.match(two.how, /^counting × 2\/4 \(it splits across cores\)/);
  assert.deepEqual(
    two.parts.map((p) => p.part),
    ['prepare', 'count', 'timed (226 cases × 5 rounds)', 'timed (140 cases × 5 rounds)', 'report'],
  );
  assert.equal(two.parts[1].note, 'one side after the other');
  const four = scaleCompare(phases, 8);
  assert.equal(four.scaled, 961, 'more cores than the runner: as measured, never scaled up');
});

test('the full run by phase, from its result document', () => {
  const dir = scratch('cost-run-');
  fs.writeFileSync(
    path.join(dir, 'linux-node-v20-x.json'),
    JSON.stringify({
      run: { startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:20:00.000Z' },
      workloads: { seconds: 60 },
      counting: { seconds: 300 },
    }),
  );
  assert.deepEqual(
    runParts(dir).map((p) => [p.part.split(' ')[0], p.seconds]),
    [
      ['suite', 840],
      ['workloads', 60],
      ['counting', 300],
    ],
  );
  assert.deepEqual(runParts(scratch('cost-none-')), [], 'no document: no parts');
});

test('the table: a new file every run, never over another, with load and cores beside each figure', () => {
  const out = path.join(scratch('cost-out-'), 'meta');
  const rows = [
    {
      phase: 'quick',
      measured: 75.25,
      target: 60,
      pass: false,
      loadStart: 2.5,
      loadEnd: 3.25,
      cores: 2,
      note: 'npm run bench -- --quick',
    },
    {
      phase: 'quick: counting',
      measured: 20,
      target: null,
      pass: null,
      loadStart: null,
      loadEnd: null,
      cores: 2,
      note: '',
    },
  ];
  const now = new Date('2026-05-01T12:00:00.000Z');
  const write = (/** @type {typeof rows} */ r) =>
    `${writeNewPair(out, 'pipeline-cost', `${pipelineCostTable(r)}\n`, `${JSON.stringify({ rows: r }, null, 2)}\n`, now)}.md`;
  const a = write(rows);
  const first = fs.readFileSync(a, 'utf8');
  const b = write(rows.slice(0, 1));
  assert.notEqual(a, b, 'the same second: another name');
  assert.equal(fs.readFileSync(a, 'utf8'), first, 'the first table is untouched');
  assert.equal(fs.readdirSync(out).length, 4, 'a .md and a .json each');
  const md = pipelineCostTable(rows);
  assert.match(md, /^\| Phase +\| Measured \| Target \| +Pass +\| Load at start \| Load at end \| Cores \| Note/);
  assert.match(md, /\| quick +\| +75\.3 s \| +60\.0 s \| \*\*fail\*\* \| +2\.50 \| +3\.25 \| +2 \|/);
  assert.deepEqual(JSON.parse(fs.readFileSync(a.replace(/\.md$/, '.json'), 'utf8')).rows, rows);
});

test('meta:cost --help lists its flags; a bad --phase is one line, before anything runs', () => {
  const help = cli(['--help']);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /--phase NAME/);
  assert.match(help.stdout, /--out DIR/);
  assert.match(help.stdout, /compare \(npm run compare -- --base HEAD/);
  const bad = cli(['--phase', 'nightly']);
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr, "meta:cost: unknown --phase 'nightly'; valid: quick, full, counts, compare, test, ci\n");
});
