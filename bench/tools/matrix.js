#!/usr/bin/env node
// npm run matrix: the nightly matrix on this machine, for the platform it runs on, a Node at a time,
// then the aggregate (docs/pipeline.md#the-bench-matrix-on-one-machine). Each run writes into a new
// folder, so an earlier run's files are never removed; unsupported Node versions are refused before
// anything is fetched.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { MATRIX_NODES } from '../data/drivers.js';
import { clock } from '../../lib/format.js';
import { command, parseStrict, switchFlag, valueFlag } from '../../lib/command.js';
import { checkedDir } from '../../lib/files.js';
import { BENCH_FLAGS, benchArgs, parseFlags } from '../engine/flags.js';
import { ROOT } from '../../lib/root.js';
import { SUPPORTED_NODE_TEXT } from '../data/node-ranges.js';
import { fetchNode, nodeEnv, nodeSpecs, resolveNodeVersion, runUnder } from './other-node.js';
import { END, START } from '../../lib/markers.js';

/** The bench's flags that every run gets (--quick too); the runs' --out is the matrix's. */
const HELP = {
  usage: 'npm run matrix -- [flags]',
  summary:
    'The nightly bench matrix on this machine: npm run bench under each Node (fetched from the npm registry, drivers compiled for it), aggregated into --out.',
  options: /** @type {const} */ ({
    node: valueFlag('LIST', `the Node majors or versions to run, comma-separated, from ${SUPPORTED_NODE_TEXT}`, {
      default: MATRIX_NODES.join(','),
    }),
    out: valueFlag('DIR', 'where the documents (artifacts/<start>/), results/ and README.md go', {
      default: 'out/matrix',
    }),
    quick: switchFlag("every run with the bench's small budgets: a smoke test"),
    ...BENCH_FLAGS,
  }),
};

function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, HELP.options);
  const specs = nodeSpecs(values.node);
  const passthrough = benchArgs(values);
  parseFlags(passthrough); // the bench's flags, checked here before any Node is fetched and built for
  const out = checkedDir('out', String(values.out));
  if (values['keep-db']) checkedDir('keep-db', String(values['keep-db']));
  const artifacts = path.join(out, 'artifacts', new Date().toISOString().replace(/\.\d+/, '').replace(/[-:]/g, ''));
  const start = Date.now();
  const outcome = [];
  for (const [i, spec] of specs.entries()) {
    const t0 = Date.now();
    const eta = i ? `, ETA ${clock(((Date.now() - start) / i) * (specs.length - i))}` : '';
    let version = spec;
    const cell = path.join(
      artifacts,
      `result-${process.platform}-${process.arch}-node${spec.replace(/^v/, '').split('.')[0]}`,
    );
    try {
      version = resolveNodeVersion(spec);
      console.error(`\nmatrix: [${i + 1}/${specs.length}] Node v${version}: fetching and building the drivers${eta}`);
      const dir = fetchNode(version);
      console.error(`matrix: [${i + 1}/${specs.length}] Node v${version}: running the benchmark`);
      const r = runUnder(dir, 'bench/cli.js', ['--out', cell, ...passthrough], true);
      // exit 1 with a document: some cases failed (the README says which); without one: the run failed
      const wrote = fs.existsSync(cell) && fs.readdirSync(cell).some((f) => f.endsWith('.json'));
      if (r.status !== 0 && !(r.stage === 'run' && r.status === 1 && wrote)) {
        const reason = `${r.stage === 'install' ? 'the driver install/build' : 'the benchmark'} failed under Node v${version} (exit ${r.status})`;
        spawnSync(path.join(dir, 'bin', 'node'), [path.join(ROOT, 'bench/ci/failure.js')], {
          stdio: 'inherit',
          env: { ...nodeEnv(dir), BENCH_OUT: cell, FAILED_STEP: reason, BENCH_QUICK: String(Boolean(values.quick)) },
        });
        outcome.push(`v${version}: FAILED: ${reason}`);
      } else {
        outcome.push(`v${version}: ok${r.status === 1 ? ' (some cases failed; see the README)' : ''}`);
      }
    } catch (err) {
      outcome.push(`${spec}: FAILED: ${/** @type {Error} */ (err).message.split('\n')[0]}`);
    }
    console.error(`matrix: [${i + 1}/${specs.length}] ${outcome.at(-1)} in ${clock(Date.now() - t0)}`);
  }
  const readme = path.join(out, 'README.md');
  if (!fs.existsSync(readme))
    fs.writeFileSync(
      readme,
      `# Local matrix on ${process.platform}-${process.arch}\n\nWritten by \`npm run matrix\`.\n\n${START}\n${END}\n`,
    );
  const agg = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'aggregate/cli.js'),
      '--artifacts',
      artifacts,
      '--results',
      path.join(out, 'results'),
      '--readme',
      readme,
    ],
    { stdio: 'inherit' },
  );
  console.log(`\nmatrix: ${specs.length} Node version(s) in ${clock(Date.now() - start)}`);
  for (const o of outcome) console.log(`  ${o}`);
  console.log(`  README: ${path.relative(process.cwd(), readme)}`);
  return agg.status === 0 && outcome.every((o) => !o.includes('FAILED')) ? 0 : 1;
}

command('matrix', import.meta.url, main, HELP);
