#!/usr/bin/env node
// npm run meta:counting: the counting pass (bench/counts/) against its targets (docs/counting.md) on
// this machine: repeatability, sensitivity (one more statement per operation, counted paired, seen
// as what it costs alone), cost (wall time, valgrind's slowdown, what was instrumented); --order,
// --whole and --components [--layout] as their --help says. Writes counting-<time>
// (or components-<time>) .json and .md to --out, a new pair per run.
import os from 'node:os';
import path from 'node:path';
import { command, numberFlag, parseStrict, switchFlag, valueFlag } from '../../lib/command.js';
import { writeNewPair } from '../../lib/files.js';
import { percent } from '../../lib/format.js';
import { table as markdownTable } from '../../lib/markdown.js';
import { loadDrivers } from '../engine/load-drivers.js';
import { caseCounts, repeatSpread } from '../counts/counts.js';
import { countPass, countPlanOf, countPlans, LAYOUT_PAD } from '../counts/pass.js';
import { componentDifference } from '../../lib/costs.js';
import { COMPONENTS } from '../data/components.js';
import { countingTools } from '../counts/tools.js';
import { cases, caseKey } from '../data/suite.js';
import { countText } from '../../aggregate/render/counts-text.js';

/** The cases that get one more statement per operation, and the statement. */
const EXTRA_CASES = [
  'production/better-sqlite3-multiple-ciphers/chacha20/update',
  'production/better-sqlite3-multiple-ciphers/chacha20/insert',
  'production/better-sqlite3/none/select',
];
/**
 * A deterministic statement of about 1% of an insert or a select (a recursive CTE of 4 rows,
 * ~12,000 instructions): the size of change the counts must show, well outside the cases' repeat
 * spread, which `SELECT 1` (3,400 instructions, 0.3% of a select) is not always.
 */
const EXTRA_SQL = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 4) SELECT sum(x) FROM c';

const HELP = {
  usage: 'npm run meta:counting -- [flags]',
  summary:
    'The counting pass against its targets on this machine: repeatability, sensitivity (one more statement seen as what it costs) and cost (wall time, valgrind slowdown).',
  options: /** @type {const} */ ({
    quick: switchFlag("the quick run's cases only"),
    jobs: valueFlag('N', 'callgrind processes at once', { shown: 'one per core' }),
    order: switchFlag('count the repeat in the reverse order: how much a count depends on what ran before it'),
    whole: switchFlag(
      'callgrind instruments whole processes, not from their first mark on: the cost before instrument.js',
    ),
    components: switchFlag("only how each component repeats, on production's cases of both better-sqlite3 drivers"),
    layout: switchFlag("with --components: the repeat's heap laid out differently (LAYOUT_PAD), as across code"),
    out: valueFlag('DIR', 'where the report goes, a new .md and .json per run', { default: 'out/meta' }),
  }),
};

async function main(/** @type {string[]} */ argv) {
  const v = parseStrict(argv, HELP.options);
  const tools = countingTools();
  if (tools.status !== 'ok') {
    console.log(`meta:counting: cannot count here: ${tools.reason}`);
    return 1;
  }
  const mode = v.quick ? 'quick' : 'full';
  const jobs = numberFlag('jobs', v.jobs, 1, 256);
  const drivers = await loadDrivers();
  const usable = cases({}).filter((c) => countPlanOf(c.op, mode) && drivers.get(c.driver)?.open);
  /** @type {import('../counts/worker.js').PlanCase[]} */
  const plans = usable.map((c) => ({
    key: caseKey(c),
    .../** @type {{ k: number, warmup: number }} */ (countPlanOf(c.op, mode)),
  }));
  const base = { mode: /** @type {'quick' | 'full'} */ (mode), seed: 1, cases: usable, drivers };
  // Sensitivity, paired as a user compares two commits: the same small plan counted twice in
  // processes of the same history, the second time with one more statement per operation in its
  // cases; and the statement alone, around a task that does nothing, with each case's driver.
  const sensitivity = async () => {
    const small = plans.filter((p) => EXTRA_CASES.includes(p.key));
    const alone = small.map((p) => ({ ...p, id: `alone:${p.key}`, extra: EXTRA_SQL, alone: true }));
    const countSmall = async (/** @type {import('../counts/worker.js').PlanCase[]} */ ps) =>
      (await countPlans({ ...base, plans: [...ps, ...alone], jobs })).found[0];
    const without = await countSmall(small);
    const withExtra = await countSmall(small.map((p) => ({ ...p, extra: EXTRA_SQL })));
    return small.map((p) => {
      const base = without.get(p.key)?.instructions?.perOp ?? NaN;
      const added = (withExtra.get(p.key)?.instructions?.perOp ?? NaN) - base;
      const cost = withExtra.get(`alone:${p.key}`)?.instructions?.perOp ?? NaN;
      return { key: p.key, base, added, alone: cost, error: added / cost - 1, relative: cost / base };
    });
  };
  const pc = (/** @type {number} */ x) => percent(x, 4);
  if (v.components) {
    const driver = ['better-sqlite3-multiple-ciphers', 'better-sqlite3'];
    const layout = v.layout ? { layout: { padRepeat: LAYOUT_PAD } } : {};
    const { counts } = await countPass({ ...base, cases: cases({ config: ['production'], driver }), jobs, ...layout });
    const all = [...counts].filter(([, c]) => c.status === 'ok' && c.repeat);
    /** @param {(c: import('../counts/counts.js').CaseCounts) => number | null} of */
    const row = (of) => {
      const d = all.map(([k, c]) => ({ k, d: of(c) ?? NaN })).sort((x, y) => x.d - y.d);
      const worst = d.at(-1);
      return [
        ...[1e-4, 5e-4, 1e-3].map((t) => d.filter((x) => x.d <= t).length),
        worst ? `${pc(worst.d)} (${worst.k})` : '',
      ];
    };
    const sum = (/** @type {Record<string, number>} */ o) => Object.values(o).reduce((x, y) => x + y, 0);
    const addUp = Math.max(...all.map(([, c]) => Math.abs(sum(c.components ?? {}) / (c.instructions ?? NaN) - 1)));
    const total = (/** @type {import('../counts/counts.js').CaseCounts} */ c) => Math.abs(c.repeat?.difference ?? NaN);
    const text = [
      `Components' repeat, ${mode}, ${v.layout ? `across heap layouts (pad ${LAYOUT_PAD})` : 'one history'}, Node ${process.version}, ${all.length} cases, load average ${os.loadavg()[0].toFixed(1)}; the components add up to within ${addUp.toExponential(1)}:`,
      '',
      markdownTable(
        [
          ['Component', '≤ 0.01%', '≤ 0.05%', '≤ 0.1%', 'worst'],
          ...COMPONENTS.map((c) => [c, ...row((x) => componentDifference(x, c))]),
          ['the total', ...row(total)],
        ],
        ['l', 'r', 'r', 'r', 'l'],
      ),
    ].join('\n');
    const json = `${JSON.stringify(Object.fromEntries(all), null, 2)}\n`;
    const name = writeNewPair(v.out, `components${v.layout ? '-layout' : ''}`, `${text}\n`, json);
    console.log(`${text}\n\nwrote ${path.relative(process.cwd(), name)}.md and .json`);
    return 0;
  }
  const started = Date.now();
  const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);
  const r = await countPlans({ ...base, plans, jobs, layout: { reverseRepeat: v.order }, wholeProcess: v.whole, log });
  const seconds = (Date.now() - started) / 1000;
  // the same plan once more, in one process neither counted nor traced: valgrind's slowdown
  const untraced = await countPlans({ ...base, plans, jobs: 1, layout: { native: true } });
  const [a, b] = r.found;
  const none = { reason: 'not counted' };
  const counted = plans
    .filter((p) => !p.id && !a.get(p.key)?.skipped && !b.get(p.key)?.skipped)
    .map((p) => ({ key: p.key, counts: caseCounts(a.get(p.key) ?? none, b.get(p.key) ?? none) }));
  const spread = repeatSpread(counted);
  const under1 = counted.filter((c) => c.counts.repeat && Math.abs(c.counts.repeat.difference) < 0.01).length;
  const extra = await sensitivity();
  const native = untraced.times.find((t) => t.tool === 'native')?.seconds ?? NaN;
  const grind = r.times.filter((t) => t.tool === 'callgrind');
  const slowdown = grind.map((t) => (t.seconds * (plans.length / t.cases)) / native);
  const sum = (/** @type {'beforeFirstMark' | 'total' | 'counted'} */ k) =>
    r.instrumented.reduce((x, p) => x + p[k], 0);
  const instrumented = {
    mode: r.instrument.status === 'ok' ? 'from the first mark' : 'whole processes',
    ...(r.instrument.status === 'unavailable' ? { reason: r.instrument.reason } : {}),
    beforeFirstMark: sum('beforeFirstMark'),
    total: sum('total'),
    counted: sum('counted'),
  };
  const report = {
    machine: { cores: os.cpus().length, node: process.version, tools },
    mode,
    order: v.order ? 'repeat in the reverse order' : 'repeat in the same order',
    seconds,
    processes: r.times,
    failures: r.failures,
    markCost: r.markCost,
    repeat: spread,
    sensitivity: { under1Percent: under1, cases: counted.length },
    extra,
    slowdown,
    native,
    instrumented,
    cases: counted,
  };
  const text = [
    `Counting pass, ${mode}, ${report.machine.cores} cores, Node ${process.version}, valgrind ${tools.valgrind}, strace ${tools.strace}; ${report.order}:`,
    '',
    `- cost: ${Math.round(seconds)} s for ${counted.length} cases (${r.times.length} processes: ${r.times.map((t) => `${t.tool} ${Math.round(t.seconds)} s`).join(', ')}; target ≤ 120 s on 2 cores; load average ${os.loadavg()[0].toFixed(1)}); valgrind's slowdown over the same plan untraced (${native.toFixed(1)} s): ${slowdown.map((x) => `${x.toFixed(1)}×`).join(', ')}`,
    `- instrumented: ${instrumented.mode}${instrumented.reason ? ` (${instrumented.reason})` : ''}; ${countText(instrumented.beforeFirstMark)} instructions before the first marks, ${countText(instrumented.total)} up to the last, ${countText(instrumented.counted)} of them in counted calls (${percent(instrumented.counted / Math.max(1, instrumented.total))})`,
    `- repeatability: ${spread.within['0.1%']} of ${spread.cases} cases (${percent(spread.within['0.1%'] / Math.max(1, spread.cases))}) within 0.1% (target ≥ 99%); within 0.01%: ${spread.within['0.01%']}; |difference| p50 ${pc(spread.quantiles.p50)}, p90 ${pc(spread.quantiles.p90)}, p99 ${pc(spread.quantiles.p99)}, max ${pc(spread.quantiles.max)}${spread.worst ? ` (${spread.worst.key})` : ''}; system calls and bytes the same in ${spread.syscallsSame} of ${spread.cases}`,
    `- sensitivity: a 1% change is outside the repeat spread of ${under1} of ${counted.length} cases (${percent(under1 / Math.max(1, counted.length))}; target ≥ 95%)`,
    `- one more statement per operation (${EXTRA_SQL}; paired: the same plan counted without and with it), against what it costs alone on the case's driver:`,
    '',
    markdownTable(
      [
        ['Case', 'instructions/op', 'added', 'alone', 'added vs alone', 'share of the op'],
        ...extra.map((e) => [e.key, ...[e.base, e.added, e.alone].map(countText), pc(e.error), percent(e.relative, 2)]),
      ],
      ['l', 'r', 'r', 'r', 'r', 'r'],
    ),
  ].join('\n');
  const name = writeNewPair(v.out, 'counting', `${text}\n`, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`${text}\n\nwrote ${path.relative(process.cwd(), name)}.md and .json`);
  return r.failures.length ? 1 : 0;
}

command('meta:counting', import.meta.url, main, HELP);
