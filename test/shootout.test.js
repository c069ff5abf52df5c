// npm run shootout: the plan (sides, reference, comparisons, rotation), the driver generation
// override and its refusals, the document's schema and semantic checks on a real run and on
// crafted bad documents, storing and rendering it in the aggregate, and one quick end-to-end run
// with the running Node as two sides (A/A) on real SQLite files. No timing is asserted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { GENERATION_ENV, GENERATIONS, GENERATION_LOADS } from '../bench/data/drivers.js';
import { chosenGeneration, generationFor } from '../bench/data/node-ranges.js';
import { driversDir } from '../bench/engine/load-drivers.js';
import { sideOrder } from '../bench/run/runner.js';
import { defaultFilters, inScope, planPairs, planSides, referenceSide, sideFilters } from '../bench/data/run-plan.js';
import { documentProblems, writeChecked } from '../bench/result/document.js';
import { shootoutLines } from '../aggregate/sections/shootout-report.js';
import { countingSection } from '../bench/shootout/count-nodes.js';
import { countDifferences } from '../lib/costs.js';
import { COMPONENTS } from '../bench/data/components.js';
import { countLines } from '../aggregate/sections/shootout-report.js';
import { countingTools } from '../bench/counts/tools.js';
import { inert } from '../lib/markdown.js';
import { sig } from '../lib/format.js';
import { ciArgs } from '../bench/shootout/nightly.js';
import { readResult } from '../aggregate/read.js';
import { isShootoutEntry, openStore } from '../aggregate/store.js';
import { render } from '../aggregate/sections/shootout.js';
import { pairsOf } from '../bench/result/header.js';
import { ROOT, childEnv, scratch } from './helpers.js';

const node = (/** @type {string} */ script, /** @type {string[]} */ args, /** @type {NodeJS.ProcessEnv} */ env = {}) =>
  spawnSync(process.execPath, [path.join(ROOT, script), ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    env: childEnv(env),
  });
const MATRIX = ['18.20.8', '20.20.2', '22.23.3', '24.21.0', '25.9.0'];
const major = process.versions.node.split('.')[0];

test('plan: a 12.x side on every Node from 20, a second side with 13.x where it is the default, 11.x alone on 18', () => {
  const sides = planSides(MATRIX);
  assert.deepEqual(
    sides.map((s) => s.label),
    ['v18 11.x', 'v20 12.x', 'v22 12.x', 'v22 13.x', 'v24 12.x', 'v24 13.x', 'v25 12.x', 'v25 13.x'],
  );
  for (const s of sides) {
    assert.equal(s.override, s.generation !== generationFor(s.version)?.id, s.label);
    assert.ok(fs.existsSync(path.join(ROOT, 'drivers', s.generation, 'package-lock.json')), s.generation);
  }
  // 13.x never on a Node below 22.14, whatever the plan
  assert.deepEqual(
    planSides(['22.13.1', '20.20.2']).map((s) => s.generation),
    ['node20', 'node20'],
  );
  assert.equal(referenceSide(sides).label, 'v24 12.x', 'the newest LTS present, with the constant driver');
  assert.equal(referenceSide(planSides(['20.20.2', '25.9.0'])).label, 'v20 12.x');
  assert.equal(referenceSide(planSides(['23.11.0', '25.9.0'])).label, 'v25 12.x', 'no LTS present: the newest');
});

test('plan: the comparisons keep the driver constant, the driver upgrade on the same Node, Node 18 labelled as a different driver', () => {
  const cs = planPairs(planSides(MATRIX));
  const of = (/** @type {string} */ g) =>
    cs.filter((c) => c.comparison === g).map((c) => `${c.member} vs ${c.reference}`);
  assert.deepEqual(of('same-driver'), [
    'v20 12.x vs v24 12.x',
    'v22 12.x vs v24 12.x',
    'v22 13.x vs v24 13.x',
    'v25 12.x vs v24 12.x',
    'v25 13.x vs v24 13.x',
  ]);
  assert.deepEqual(of('driver-upgrade'), ['v22 13.x vs v22 12.x', 'v24 13.x vs v24 12.x', 'v25 13.x vs v25 12.x']);
  assert.deepEqual(of('different-driver'), ['v18 11.x vs v24 12.x']);
  // the newest LTS cannot run 12.x (it aborts on Node 24.21.0): the newest LTS that can is the
  // reference, and Node 24 is compared with the driver it runs, 13.x, against the reference's 13.x
  const without = planSides(MATRIX).filter((s) => s.label !== 'v24 12.x');
  assert.equal(referenceSide(without).label, 'v22 12.x');
  const cw = planPairs(without).map((c) => `${c.comparison}: ${c.member} vs ${c.reference}`);
  assert.ok(
    cw.includes('same-driver: v24 13.x vs v22 13.x') &&
      cw.includes('same-driver: v20 12.x vs v22 12.x') &&
      cw.includes('different-driver: v18 11.x vs v22 12.x'),
    cw.join('; '),
  );
  assert.ok(
    !cw.some((c) => c.includes('v20 12.x vs v22 13.x') || c.includes('v24 13.x vs v22 12.x')),
    'never a Node compared across drivers unlabelled',
  );
  // a Node given twice: an A/A pair, the copy against the first
  const aa = planSides(['20.20.2', '20.20.2']);
  assert.deepEqual(
    aa.map((s) => s.label),
    ['v20 12.x', 'v20 12.x (2)'],
  );
  assert.deepEqual(planPairs(aa), [{ comparison: 'same-node', reference: 'v20 12.x', member: 'v20 12.x (2)' }]);
  // on a Node whose default is 13.x the copies are both 13.x: the default loads wherever the Node runs
  const aa24 = planSides(['24.21.0', '24.21.0']);
  assert.deepEqual(
    aa24.map((s) => s.label),
    ['v24 13.x', 'v24 13.x (2)'],
  );
  assert.deepEqual(planPairs(aa24), [{ comparison: 'same-node', reference: 'v24 13.x', member: 'v24 13.x (2)' }]);
});

test('plan: a 13.x side measures only the drivers it changes; the default scope is production, the production cipher, and every timed op', () => {
  const sides = planSides(MATRIX);
  const filters = defaultFilters({});
  assert.deepEqual(sideFilters(sides[3], sides, filters)?.driver, [
    'better-sqlite3-multiple-ciphers',
    'better-sqlite3',
  ]);
  assert.deepEqual(sideFilters(sides[2], sides, filters), filters);
  assert.equal(sideFilters(sides[3], sides, { ...filters, driver: ['node:sqlite'] }), null);
  assert.ok(!filters.op.includes('size'));
  assert.equal(
    inScope({ config: 'production', driver: 'better-sqlite3-multiple-ciphers', cipher: 'chacha20', op: 'select' }, {}),
    true,
  );
  assert.equal(
    inScope({ config: 'production', driver: 'better-sqlite3-multiple-ciphers', cipher: 'none', op: 'select' }, {}),
    false,
  );
  assert.equal(inScope({ config: 'production', driver: 'better-sqlite3', cipher: 'none', op: 'size' }, {}), false);
  assert.equal(inScope({ config: 'baseline', driver: 'better-sqlite3', cipher: 'none', op: 'select' }, {}), false);
});

test('rotation: across cases and rounds every side goes first, and in every position, equally often', () => {
  const sides = planSides(MATRIX).map((s) => s.label);
  /** @type {Map<string, number>} */
  const count = new Map();
  for (let r = 0; r < 4; r++) {
    for (let j = 0; j < sides.length * 2; j++) {
      const order = sideOrder(sides, r, j);
      assert.deepEqual([...order].sort(), [...sides].sort(), 'every side once per case');
      order.forEach((s, i) => count.set(`${s}@${i}`, (count.get(`${s}@${i}`) ?? 0) + 1));
    }
  }
  assert.equal(new Set(count.values()).size, 1, [...count].join(' '));
});

test('generation override: a generation outside its Node range, or unknown, is refused; the default directory layout is unchanged', () => {
  const v = process.version;
  const def = generationFor(v);
  assert.deepEqual(chosenGeneration(v, undefined), { gen: def, override: false });
  assert.match(
    /** @type {any} */ (chosenGeneration(v, 'napi11')).error,
    /^unknown driver generation 'napi11'; valid: node18, node20, napi10$/,
  );
  assert.match(
    /** @type {any} */ (chosenGeneration('20.20.2', 'napi10')).error,
    /does not run on Node 20\.20\.2; it needs \^22\.14\.0/,
  );
  assert.match(/** @type {any} */ (chosenGeneration('22.13.1', 'napi10')).error, /does not run on Node 22\.13\.1/);
  assert.match(/** @type {any} */ (chosenGeneration('24.21.0', 'node18')).error, /does not run/);
  assert.deepEqual(chosenGeneration('24.21.0', 'node20'), {
    gen: GENERATIONS.find((g) => g.id === 'node20'),
    override: true,
  });
  assert.deepEqual(chosenGeneration('20.20.2', 'node20'), {
    gen: GENERATIONS.find((g) => g.id === 'node20'),
    override: false,
  });
  // every default generation loads where it is the default
  for (const g of GENERATIONS)
    for (const x of ['18.20.8', '20.20.2', '22.13.1', '22.14.0', '24.21.0', '25.9.0'])
      if (generationFor(x)?.id === g.id) assert.ok(!('error' in chosenGeneration(x, g.id)), `${g.id} on ${x}`);
  assert.ok(GENERATION_LOADS.napi10 && !('error' in chosenGeneration('22.14.0', 'napi10')));
  const base = path.join(
    process.env.SQLITE_BENCH_DRIVERS_DIR || path.join(ROOT, '.drivers'),
    `${process.platform}-${process.arch}-node-v24.21.0`,
  );
  assert.equal(driversDir('v24.21.0', ''), base);
  assert.equal(
    driversDir('v24.21.0', 'napi10'),
    base,
    'the default generation chosen explicitly: the default directory',
  );
  assert.equal(driversDir('v24.21.0', 'node20'), `${base}-gen-node20`);
});

/** A generation the running Node must refuse. */
const refused = semverSatisfiesNapi10() ? 'node18' : 'napi10';
function semverSatisfiesNapi10() {
  return !('error' in chosenGeneration(process.version, 'napi10'));
}

test('generation override: install-drivers refuses it with exit 2 and one line; the engine never loads a refused generation', async () => {
  const r = node('bench/tools/install-drivers.js', ['--generation', refused]);
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(
    r.stderr.trim(),
    new RegExp(
      `^install-drivers: --generation: driver generation ${refused} does not run on Node ${process.version.replace(/\./g, '\\.')}; it needs `,
    ),
  );
  const u = node('bench/tools/install-drivers.js', ['--generation', 'bogus']);
  assert.equal(u.status, 2);
  assert.match(u.stderr.trim(), /^install-drivers: unknown --generation 'bogus'; valid: node18, node20, napi10$/);
  // the engine under the refused generation: the native drivers report the refusal, nothing is loaded
  const { startEngine } = await import('../bench/engine/start.js');
  const filters = { config: ['production'], driver: ['better-sqlite3'], cipher: ['none'], op: ['select'] };
  const probe = await startEngine(
    { mode: 'quick', filters, seed: 1 },
    { env: childEnv({ [GENERATION_ENV]: refused }) },
  );
  const { ready } = probe;
  await probe.stop();
  const bs = ready.drivers.find((/** @type {any} */ d) => d.name === 'better-sqlite3');
  assert.equal(bs.status, 'error');
  assert.match(bs.reason, /does not run on Node/);
  assert.equal(bs.binary, undefined);
});

for (const [args, pattern] of /** @type {[string[], RegExp][]} */ ([
  [['--node', '16'], /^shootout: bad --node '16'; valid: Node majors or versions from 18.18 to/],
  [['--node', 'latest'], /^shootout: bad --node 'latest'; valid: comma-separated Node majors or exact versions/],
  [['--rounds', '1'], /^shootout: bad --rounds '1'; valid: a whole number from 2 to 1000$/],
  [['--op', 'drop'], /^shootout: unknown --op 'drop'; valid: setup, /],
  [['--bogus'], /^shootout: Unknown option '--bogus'.*; valid flags: --node, /],
])) {
  test(`shootout ${args.join(' ')} exits 2 with one line`, () => {
    const r = node('bench/shootout/cli.js', args);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr.trim(), pattern);
  });
}

test('ci:shootout: every matrix Node from source into out/shootout; the workflow inputs narrow it as data', () => {
  assert.deepEqual(ciArgs({}), ['--from-source', '--out', 'out/shootout', '--node', '18,20,22,24,25']);
  assert.deepEqual(ciArgs({ WANT_NODES: ' 22, 24', BENCH_QUICK: 'true' }), [
    '--from-source',
    '--out',
    'out/shootout',
    '--node',
    '22,24',
    '--quick',
  ]);
});

/** @type {any} */
let runDoc = null;
const out = scratch('shootout-test-');

test('end to end: the running Node as two sides (A/A), one operation, real SQLite: a valid document, a table on stdout, progress on stderr', () => {
  const r = node('bench/shootout/cli.js', [
    '--node',
    `${major},${major}`,
    '--quick',
    '--rounds',
    '2',
    '--time',
    '5',
    '--op',
    'select',
    '--out',
    out,
  ]);
  assert.equal(r.status, 0, r.stderr);
  const files = fs.readdirSync(out).filter((f) => f.endsWith('.json'));
  assert.equal(files.length, 1, files.join(' '));
  assert.match(
    files[0],
    new RegExp(`^shootout-\\d{4}-\\d{2}-\\d{2}-${process.platform}-${process.arch}-[0-9a-f]{8}\\.json$`),
  );
  runDoc = JSON.parse(fs.readFileSync(path.join(out, files[0]), 'utf8'));
  assert.deepEqual(documentProblems(runDoc), []);
  assert.equal(runDoc.kind, 'sqlite-node-bench/result');
  assert.equal(runDoc.sides.length, 2);
  assert.equal(runDoc.environment.node, process.version);
  assert.deepEqual(pairsOf(runDoc), [
    { comparison: 'same-node', reference: runDoc.sides[0].label, member: runDoc.sides[1].label },
  ]);
  const compared = runDoc.comparisons.filter((/** @type {any} */ x) => x.verdict !== 'not compared');
  assert.ok(compared.length >= 2, JSON.stringify(runDoc.comparisons));
  for (const row of runDoc.comparisons) {
    assert.equal(row.op, 'select');
    assert.equal(row.pairs, 2);
    assert.ok(row.low <= row.change && row.change <= row.high);
    assert.deepEqual([row.id, row.reference, row.member], ['same-node', runDoc.sides[0].label, runDoc.sides[1].label]);
  }
  // every side's cases: a figure per round, measured on real files
  for (const c of runDoc.cases.filter((/** @type {any} */ x) => x.status === 'ok')) assert.equal(c.rounds.length, 2);
  // figures are written with 6 significant digits, as the suite writes them (the rest is noise, and git stores it every night)
  const numbers = JSON.stringify([runDoc.comparisons, runDoc.cases]).match(/-?\d+\.\d+(e-?\d+)?/g) ?? [];
  assert.ok(numbers.length > 10, numbers.join(' '));
  for (const x of numbers)
    assert.ok(Number(x) === Number(Number(x).toPrecision(6)), `${x} has more than 6 significant digits`);
  assert.match(r.stdout, /## Node versions on one machine/);
  assert.match(r.stdout, /Same Node twice \(A\/A\)/);
  // progress with an ETA over the case-rounds of both rounds (3 cases × 2 rounds)
  assert.match(r.stderr, /^shootout \[6\/6\] .* elapsed, ETA /m);
  assert.equal(readResult(path.join(out, files[0])).ok, true);
  // the counts: each side's cases counted under its Node, twice; the A/A copy counts what the first does
  const tools = countingTools();
  const c = runDoc.counting;
  if (tools.status !== 'ok') {
    assert.deepEqual(c, { status: 'unavailable', reason: tools.reason });
    assert.ok(r.stdout.includes(`Instructions per operation: not counted: ${inert(tools.reason)}.`), r.stdout);
    return;
  }
  assert.equal(c.status, 'ok', c.reason);
  assert.deepEqual(
    c.sides.map((/** @type {any} */ s) => [s.side, s.node, s.status]),
    runDoc.sides.map((/** @type {any} */ s) => [s.label, process.version, 'ok']),
  );
  const counted = runDoc.comparisons.map((/** @type {any} */ x) => `${x.setup}/${x.op}`);
  for (const side of runDoc.sides) {
    const mine = c.cases.filter((/** @type {any} */ x) => x.side === side.label);
    assert.deepEqual(mine.map((/** @type {any} */ x) => x.key).sort(), [...counted].sort(), side.label);
    for (const x of mine) {
      assert.equal(x.status, 'ok', x.reason);
      assert.ok(x.instructions > 10_000, `${x.key}: ${x.instructions} instructions per select`);
      // a select reads: no fsync, no write (docs/counting.md); its repeat, in another heap layout
      // (LAYOUT_PAD), within a few percent: layouts moved selects by up to 2.6%
      assert.deepEqual([x.fsync, x.write, x.syscallsSame], [0, 0, true], x.key);
      assert.ok(Math.abs(x.difference) < 0.04, `${x.key}: repeat ${x.difference}`);
    }
  }
  assert.deepEqual(
    c.differences.map((/** @type {any} */ d) => [d.id, `${d.setup}/${d.op}`]).sort(),
    counted.map((/** @type {string} */ k) => ['same-node', k]).sort(),
  );
  for (const d of c.differences) {
    const key = `${d.setup}/${d.op}`;
    const [a, b] = [d.reference, d.member].map((l) =>
      c.cases.find((/** @type {any} */ x) => x.side === l && x.key === key),
    );
    // each side the mean of its two counts
    const mean = (/** @type {any} */ x) => x.instructions * (1 + x.difference / 2);
    assert.ok(Math.abs(d.change - (mean(b) / mean(a) - 1)) < 1e-4, JSON.stringify(d));
    assert.equal(d.spread, Math.max(Math.abs(a.difference), Math.abs(b.difference)));
    // the floor, or three repeats' spread; the document writes both to 6 significant digits
    assert.ok(d.tolerance >= Math.max(0.001, 3 * d.spread) * (1 - 1e-5), JSON.stringify(d));
    // the same Node and drivers in other processes: as far apart as layouts put a select (2.6% at most seen)
    assert.ok(Math.abs(d.change) < 0.04, `A/A ${key}: ${d.change}`);
  }
  // every counted case split by component, adding up to its instructions; every difference attributed
  for (const x of c.cases) {
    const sum = Object.values(x.components).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum / x.instructions - 1) < 1e-3, `${x.key}: components ${sum}, instructions ${x.instructions}`);
  }
  for (const d of c.differences) assert.deepEqual(Object.keys(d.components).sort(), [...COMPONENTS].sort(), d.op);
  assert.match(r.stdout, /\*\*Instructions: Same Node twice \(A\/A\)/);
  assert.match(r.stdout, /\*\*Counts per side\*\*/);
  // the A/A side is the driver generation of the Node running the test: 12.x on Node 20, 13.x on 22.14+
  assert.match(r.stderr, /counting v\d+ \d+\.x \(2\): done in \d+ s/);
});

test('--no-counts: the document says counting was not asked for, and the report says so in one line', () => {
  const dir = scratch('shootout-no-counts-');
  const r = node('bench/shootout/cli.js', [
    ...['--node', `${major},${major}`, '--quick', '--rounds', '2', '--time', '2'],
    ...['--op', 'select', '--driver', 'better-sqlite3', '--no-counts', '--out', dir],
  ]);
  assert.equal(r.status, 0, r.stderr);
  const [file] = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  const doc = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  assert.deepEqual(doc.counting, { status: 'unavailable', reason: 'not asked for (--no-counts)' });
  assert.equal(
    r.stdout.split('\n').filter((l) => l.includes(`not counted: ${inert('not asked for (--no-counts)')}.`)).length,
    1,
    r.stdout,
  );
  assert.doesNotMatch(r.stdout, /Counts per side/);
});

test('counting: differences pair the compared sides case by case, with the larger repeat; a side that failed is kept with its reason', () => {
  /** A count split as a select's: SQLite a quarter, the runtime the rest. */
  const split = (/** @type {number} */ n) => ({
    sqlite: n / 4,
    cipher: 0,
    runtime: (3 * n) / 4,
    binding: 0,
    libc: 0,
    other: 0,
  });
  /** What `npm run counts` writes for one side (bench/counts/cli.js), in the fields the section reads. */
  const out = (/** @type {Record<string, number[]>} */ cases) => ({
    doc: {
      node: 'v24.11.1',
      seconds: 40,
      counting: /** @type {any} */ ({
        status: 'ok',
        flags: { node: ['--no-opt'], valgrind: [], strace: [], setarch: [] },
        processes: 4,
        repeat: { cases: 2, quantiles: { max: 0.001 }, syscallsSame: 2 },
      }),
      cases: Object.entries(cases).map(([key, [instructions, difference, fsync]]) => ({
        key,
        counts: /** @type {any} */ ({
          status: 'ok',
          instructions,
          components: split(instructions),
          syscalls: { fsync, write: 3, read: 0, other: 0, runtime: 0 },
          repeat: {
            instructions: instructions * (1 + difference),
            components: split(instructions * (1 + difference)),
            difference,
            syscallsSame: true,
          },
        }),
      })),
    },
  });
  const sel = 'production/better-sqlite3/none/select';
  const ins = 'production/better-sqlite3/none/insert';
  const comparisons = /** @type {import('../bench/data/run-plan.js').SidePair[]} */ ([
    { comparison: 'same-driver', reference: 'v24 12.x', member: 'v20 12.x' },
    { comparison: 'driver-upgrade', reference: 'v24 12.x', member: 'v24 13.x' },
    { comparison: 'same-driver', reference: 'v24 13.x', member: 'v22 13.x' },
  ]);
  const section = countingSection(
    [
      { label: 'v24 12.x', result: out({ [sel]: [1_000_000, 0.0001, 0], [ins]: [90_000, -0.0003, 0.01] }) },
      { label: 'v20 12.x', result: out({ [sel]: [1_500_000, -0.002, 0] }) },
      { label: 'v24 13.x', result: out({ [sel]: [900_000, 0, 0], [ins]: [90_000, 0.00001, 0.01] }) },
      { label: 'v22 13.x', result: { reason: 'counting under Node v22 13.x exited 1: boom' } },
    ],
    comparisons,
    { mode: 'quick', tools: { valgrind: '3.19.0', strace: '6.1' }, seconds: 100 },
  );
  assert.equal(section.status, 'error');
  assert.equal(section.reason, 'v22 13.x: counting under Node v22 13.x exited 1: boom');
  // each side with its Node, its flags in the counted processes, and how far its repeat went
  assert.deepEqual(section.sides[0], {
    side: 'v24 12.x',
    node: 'v24.11.1',
    status: 'ok',
    seconds: 40,
    processes: 4,
    flags: ['--no-opt'],
    repeat: { cases: 2, max: 0.001, syscallsSame: 2 },
  });
  assert.deepEqual(
    section.differences.map((d) => [d.member, d.reference, `${d.setup}/${d.op}`, d.change, d.spread, d.tolerance]),
    [
      // the one rule: each side the mean of its two counts; the tolerance the larger of 0.1%,
      // 3 × the spread, 2 × the operation's largest spread
      ['v20 12.x', 'v24 12.x', sel, sig((1_500_000 * (1 - 0.001)) / (1_000_000 * (1 + 0.00005)) - 1), 0.002, 0.006],
      ['v24 13.x', 'v24 12.x', sel, sig(900_000 / (1_000_000 * (1 + 0.00005)) - 1), 0.0001, 0.001],
      ['v24 13.x', 'v24 12.x', ins, sig((1 + 0.000005) / (1 - 0.00015) - 1), 0.0003, 0.001],
    ],
  );
  // with the count verdict, the system calls that differ (none) and the PR check's word
  assert.deepEqual(
    section.differences.map((d) => [d.verdict, d.io, d.fails]),
    [
      ['costs more', [], true],
      ['costs less', [], false],
      ['same cost', [], false],
    ],
  );
  assert.deepEqual(
    section.cases.find((x) => x.side === 'v24 12.x' && x.key === ins),
    {
      side: 'v24 12.x',
      key: ins,
      status: 'ok',
      instructions: 90_000,
      difference: -0.0003,
      components: split(90_000),
      // written with 6 significant digits, as every figure of the document
      repeatComponents: Object.fromEntries(Object.entries(split(90_000 * (1 - 0.0003))).map(([k, v]) => [k, sig(v)])),
      fsync: 0.01,
      write: 3,
      read: 0,
      syscallsSame: true,
    },
  );
  // in a document: valid, and the report says which side was not counted and why
  assert.ok(runDoc, 'needs the end-to-end document');
  const doc = structuredClone(runDoc);
  doc.counting = section;
  const problems = documentProblems(doc);
  assert.ok(problems.length > 0, "the sides of this section are not the run's");
  assert.ok(
    problems.some((p) => /^\/counting\/sides\/0\/side 'v24 12\.x' is not a side$/.test(p)),
    problems.join('; '),
  );
  assert.ok(
    problems.some((p) => /^\/counting\/differences\/0 belongs to no pair/.test(p)),
    problems.join('; '),
  );
  const lines = countLines({ ...doc, counting: section });
  assert.ok(lines.some((l) => l.includes('v22 13.x was not counted: counting under Node v22 13.x exited 1: boom.')));
  assert.ok(
    lines.some((l) => /\| v20 12\.x \| *\| *\+50% ±0\.20% *\|/.test(l) || /\+50% ±0\.20%/.test(l)),
    lines.join('\n'),
  );
  assert.ok(
    lines.some((l) => l.includes('−10% ±0.01%')),
    lines.join('\n'),
  );
  assert.ok(
    lines.some((l) => l.includes('+0.02% ±0.03% (within repeat)')),
    lines.join('\n'),
  );
  // where the differences beyond repeat go: a quarter of each count is SQLite's, the rest the runtime's
  const where = lines.filter((l) => l.startsWith('- '));
  assert.equal(where.length, 2, lines.join('\n'));
  assert.match(
    where[0],
    /^- v20 12\.x against v24 12\.x, Select \(better-sqlite3 · none\): \+50% instructions\/op, of which runtime \+374k \(75%\), SQLite \+125k \(25%\)$/,
  );
  assert.match(
    where[1],
    /^- v24 13\.x against v24 12\.x, Select .*: −10% instructions\/op, of which runtime −75k \(75%\), SQLite −25k \(25%\)$/,
  );
});

test('where a Node difference goes: real A/A counts move no component; work added on one side lands in its component, the rest within repeat', () => {
  // test/fixtures/real-linux-x64-v20-counted-shootout.json: `npm run shootout -- --node 20,20 --quick
  // --op insert,select,update` on Linux, counted (valgrind 3.19, strace 6.1)
  const real = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'real-linux-x64-v20-counted-shootout.json'), 'utf8'),
  );
  assert.deepEqual(documentProblems(real), []);
  assert.deepEqual(countDifferences(real.counting.cases, pairsOf(real)), real.counting.differences);
  assert.ok(!countLines(real).some((l) => l.startsWith('**Where the differences go')), 'A/A: nothing to attribute');
  /** The report's attribution lines after the head's select does `more` instructions per operation in each component. */
  const where = (/** @type {Record<string, number>} */ more) => {
    const doc = structuredClone(real);
    const sel = doc.counting.cases.find(
      (/** @type {any} */ x) => x.side === 'v20 12.x (2)' && x.key.endsWith('/chacha20/select'),
    );
    for (const [k, n] of Object.entries(more)) {
      sel.components[k] += n;
      sel.repeatComponents[k] += n;
      sel.instructions += n;
    }
    doc.counting.differences = countDifferences(doc.counting.cases, pairsOf(doc));
    assert.deepEqual(documentProblems(doc), []);
    return countLines(doc).filter((l) => l.startsWith('- '));
  };
  const select =
    '- v20 12.x (2) against v20 12.x, Select (better-sqlite3-multiple-ciphers · chacha20): +97% instructions/op,';
  assert.deepEqual(where({ runtime: 1.02e6 }), [
    `${select} of which runtime +1.02M (100%); SQLite, binding, libc within repeat`,
  ]);
  assert.deepEqual(where({ runtime: 1.02e6, sqlite: 10_000 }), [
    `${select.replace('97%', '98%')} of which runtime +1.02M (99%), SQLite +10k (1.0%); binding, libc within repeat`,
  ]);
});

test('the one count rule: an fsync added per operation fails its case in a shootout and in a compare document', () => {
  for (const f of ['real-linux-x64-v20-counted-shootout.json', 'real-linux-x64-compare.json']) {
    const real = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', f), 'utf8'));
    assert.deepEqual(documentProblems(real, { names: false }), [], f);
    assert.deepEqual(countDifferences(real.counting.cases, pairsOf(real)), real.counting.differences, f);
    assert.ok(
      real.counting.differences.every((/** @type {any} */ d) => d.io.length === 0 && !d.fails),
      `${f}: no case fails as counted`,
    );
    // the member's insert makes one fsync more per 100 operations (its instructions the same)
    const doc = structuredClone(real);
    const pair = pairsOf(doc)[0];
    const insert = doc.counting.cases.find(
      (/** @type {any} */ x) => x.side === pair.member && x.key.endsWith('/insert') && x.status === 'ok',
    );
    insert.fsync += 0.01;
    doc.counting.differences = countDifferences(doc.counting.cases, pairsOf(doc));
    assert.deepEqual(documentProblems(doc, { names: false }), [], f);
    const d = doc.counting.differences.find(
      (/** @type {any} */ x) => x.member === pair.member && `${x.setup}/${x.op}` === insert.key,
    );
    const was = real.counting.cases.find((/** @type {any} */ x) => x.side === pair.reference && x.key === insert.key);
    assert.deepEqual(
      [d.verdict, d.io, d.fails],
      ['costs more', [{ field: 'fsync', reference: was.fsync, member: insert.fsync }], true],
      f,
    );
    // one fewer: reported, not failed
    insert.fsync = Math.max(0, was.fsync - 0.01);
    const fewer = countDifferences(doc.counting.cases, pairsOf(doc)).find(
      (/** @type {any} */ x) => x.member === pair.member && `${x.setup}/${x.op}` === insert.key,
    );
    assert.deepEqual([fewer?.verdict, fewer?.fails], [was.fsync > 0 ? 'costs less' : 'same cost', false], f);
  }
});

test("where Node 20's extra instructions go, from a real Node 20 against Node 24 shootout: the select's are V8's", () => {
  // test/fixtures/real-linux-x64-v20-v24-counted-shootout.json: `npm run shootout -- --node 20,24.11.1 --quick
  // --config production --driver better-sqlite3-multiple-ciphers --cipher none,chacha20` on Linux, counted
  // (valgrind 3.19, strace 6.1), 27 November 2026 (docs/shootout.md)
  const real = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'real-linux-x64-v20-v24-counted-shootout.json'), 'utf8'),
  );
  assert.deepEqual(documentProblems(real), []);
  assert.deepEqual(countDifferences(real.counting.cases, pairsOf(real)), real.counting.differences);
  const v20 = real.counting.differences.filter((/** @type {any} */ d) => d.member === 'v20 12.x');
  assert.equal(v20.length, 16);
  // the same SQLite3 Multiple Ciphers build on both Nodes: the cipher's part never moves
  for (const d of v20) assert.ok(Math.abs(d.components.cipher.delta) <= d.components.cipher.tolerance, d.op);
  const where = countLines(real).filter((l) => l.startsWith('- v20 12.x against v24 12.x, Select'));
  // 12.x builds a row per column through V8 below Node 22 (NODE_MODULE_VERSION < 127), asking SQLite
  // for each column's name again on every row: the runtime pays 97%, SQLite the names
  assert.deepEqual(where, [
    '- v20 12.x against v24 12.x, Select (better-sqlite3-multiple-ciphers · chacha20): +117% instructions/op, of which runtime +549k (97%), SQLite +20.9k (3.7%), libc −8865 (−1.6%), binding +4516 (0.8%)',
    '- v20 12.x against v24 12.x, Select (better-sqlite3-multiple-ciphers · none): +118% instructions/op, of which runtime +553k (97%), SQLite +20.9k (3.7%), libc −8669 (−1.5%), binding +4516 (0.8%)',
  ]);
});

test('document checks: crafted bad shootout documents are refused, each with one line naming the field', () => {
  assert.ok(runDoc, 'needs the end-to-end document');
  const dir = scratch('shootout-bad-');
  /** @type {[string, (d: any) => void, RegExp][]} */
  const cases = [
    [
      'kind',
      (d) => {
        d.kind = 'sqlite-node-bench/shootouts';
      },
      /^\/kind is not 'sqlite-node-bench\/result': not a result document$/,
    ],
    [
      'version',
      (d) => {
        d.schemaVersion = 2;
      },
      /^\/schemaVersion is 2; this aggregate reads documents of version 1$/,
    ],
    [
      'label',
      (d) => {
        d.sides[0].label = 'v24 12.x; rm -rf';
      },
      /^\/sides\/0\/label must match pattern/,
    ],
    [
      'reference',
      (d) => {
        d.comparisons[0].reference = 'v99 12.x';
      },
      /^\/comparisons\/0\/reference 'v99 12\.x' is not a side/,
    ],
    [
      'faster',
      (d) => {
        Object.assign(d.comparisons[0], { verdict: 'faster', low: -0.1, high: 0.1, change: 0 });
      },
      /^\/comparisons\/0 is 'faster' but its interval reaches 0 or below/,
    ],
    [
      'interval',
      (d) => {
        Object.assign(d.comparisons[0], { change: 0.5, low: -0.1, high: 0.1, verdict: 'too noisy to tell' });
      },
      /\/comparisons\/0\/change is outside its interval/,
    ],
    [
      'op',
      (d) => {
        d.comparisons[0].op = 'size';
      },
      /\/comparisons\/0 is a size, compared exactly: no p, and low and high equal to its change/,
    ],
    [
      'itself',
      (d) => {
        d.comparisons[0].member = d.comparisons[0].reference;
      },
      /\/comparisons\/0 compares a side with itself/,
    ],
    [
      'control',
      (d) => {
        d.environment.cpuModel = 'CPU\u202ex';
      },
      /\/environment\/cpuModel contains the Unicode bidirectional control U\+202E/,
    ],
    [
      'date',
      (d) => {
        d.run.finishedAt = '2026-02-30T00:00:00Z';
      },
      /\/run\/finishedAt '2026-02-30T00:00:00Z' is not a real date/,
    ],
    [
      'extra',
      (d) => {
        d.comparisons[0].note = 'x';
      },
      /must NOT have additional properties/,
    ],
  ];
  for (const [name, mutate, pattern] of cases) {
    const d = structuredClone(runDoc);
    mutate(d);
    const file = path.join(dir, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(d));
    const r = readResult(file);
    assert.equal(r.ok, false, name);
    assert.match(r.reason, pattern, name);
    assert.ok(!r.reason.includes('\n'), name);
  }
  // the writer refuses what the reader would: nothing invalid is written
  const bad = structuredClone(runDoc);
  bad.pairs = [];
  assert.throws(
    () => writeChecked(bad, dir),
    /the document does not match bench\/result\/document.schema.json: \/ must NOT have additional properties/,
  );
});

test('aggregate: a shootout document is stored append-only, listed as a shootout, renders as "Node versions on one machine"; a bad one is refused with one line', () => {
  assert.ok(runDoc, 'needs the end-to-end document');
  const ws = scratch('shootout-agg-');
  const results = path.join(ws, 'results');
  const warnings = /** @type {string[]} */ ([]);
  const store = openStore(results, (l) => warnings.push(l));
  const added = store.stage(runDoc);
  assert.equal(added.stored, true);
  assert.match(
    added.file,
    new RegExp(`^\\d{4}/\\d{4}-\\d{2}-\\d{2}-${process.platform}-${process.arch}-shootout-[0-9a-f]{8}\\.json$`),
  );
  assert.deepEqual(store.stage(runDoc), {
    stored: false,
    reason: `results/${added.file} exists; not overwritten`,
  });
  store.commit();
  store.saveIndex();
  // the index: of version 1, its entry a shootout; an index of another version is refused, not read
  const index = JSON.parse(fs.readFileSync(path.join(results, 'index.json'), 'utf8'));
  assert.equal(index.schemaVersion, 1);
  assert.equal(isShootoutEntry(index.entries[0]), true);
  assert.equal(index.entries[0].kind, undefined, 'the file name says it is a shootout');
  fs.writeFileSync(path.join(results, 'index.json'), JSON.stringify({ ...index, schemaVersion: 2 }));
  assert.throws(
    () => openStore(results, (l) => warnings.push(l)),
    /index\.json: unreadable \(\/schemaVersion is 2; this aggregate reads an index of version 1\)/,
  );
  fs.rmSync(path.join(results, 'index.json'));
  const rebuilt = openStore(results, (l) => warnings.push(l));
  assert.equal(isShootoutEntry(rebuilt.entries()[0]), true);
  assert.deepEqual(warnings, []);
  // results/README.md: the chart (aggregate/sections/shootout.js) above the long tables
  const ctx = /** @type {any} */ ({
    platform: process.platform,
    machine: 'm',
    page: 'results',
    load: rebuilt.load,
    resultsLink: 'results',
    chart: (/** @type {string} */ name) => `![alt](results/charts/m-${name}.svg)`,
  });
  const lines = render({ ...ctx, entries: rebuilt.entries() });
  const md = lines.join('\n');
  assert.match(md, /^##### Node versions on one machine$/m);
  assert.match(md, /Same Node twice \(A\/A\)/);
  assert.match(md, /v20 12\.x \(2\)|v\d+ \d+\.x \(2\)/);
  assert.match(md, /\| Select +\|/);
  // each cell: the change with its interval, then its verdict ("≈" before it: too noisy to tell)
  assert.match(
    md,
    /\| (≈ [−+]\d+\.\d% \[[−+]\d+\.\d%, [−+]\d+\.\d%\]|[−+]\d+\.\d% \[[−+]\d+\.\d%, [−+]\d+\.\d%\] (faster|slower|no change)) \|/,
  );
  assert.deepEqual(render({ ...ctx, entries: [] }), [], 'no shootout: no section');
  // the same lines as the CLI's summary
  assert.ok(md.includes(shootoutLines(runDoc)[0]));
  // the aggregate command: a bad shootout document is named with its reason on one line
  const artifacts = path.join(ws, 'artifacts');
  fs.mkdirSync(artifacts);
  const bad = structuredClone(runDoc);
  bad.run.id = '00000000-0000-4000-8000-000000000000';
  // one fault only, whatever the run measured: a 'slower' verdict on an interval that holds 0
  Object.assign(bad.comparisons[0], { verdict: 'slower', change: -0.1, low: -0.3, high: 0.2 });
  fs.writeFileSync(path.join(artifacts, 'bad-shootout.json'), JSON.stringify(bad));
  const readme = path.join(ws, 'README.md');
  fs.writeFileSync(readme, '# t\n<!-- BENCHMARK_RESULTS_START -->\n<!-- BENCHMARK_RESULTS_END -->\n');
  const r = node('aggregate/cli.js', ['--artifacts', artifacts, '--results', results, '--readme', readme]);
  const line = r.stderr.split('\n').find((l) => l.includes('bad-shootout.json'));
  assert.ok(line, r.stderr);
  assert.match(line, /bad-shootout\.json: \/comparisons\/0 is 'slower' but its interval reaches 0 or above/);
  assert.ok(
    !fs
      .readdirSync(path.join(results, String(new Date(runDoc.run.finishedAt).getUTCFullYear())))
      .some((f) => f.includes('00000000')),
    'not stored',
  );
});
