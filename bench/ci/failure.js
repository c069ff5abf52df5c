#!/usr/bin/env node
// npm run ci:failure — for a matrix cell that wrote no document (setup-node, the install and driver
// build, the driver check, the counting tools or the bench failed, or hit its step timeout): writes
// a schema-valid result document in which every driver and case says which step failed, so the
// aggregate shows the reason instead of a missing cell. Does nothing when the bench already wrote a
// document (a complete one, or one a signal interrupted, with the cases it finished). At a step's
// timeout the runner signals the step's shell, not the bench, then kills the process tree: the
// bench writes nothing, and this names the bench step and its timeout.
//
// It runs where the install may have failed: no node_modules, and when setup-node failed, the runner
// image's Node instead of the matrix Node. So it imports only node: built-ins and project files that
// import no npm package (a test runs it in a copy without node_modules), and it writes without
// validating (header.js); the aggregate validates every document it reads.
//
// Where the document is filed (aggregate/store.js entryOf: machine class and Node major): this VM's
// class, and the running Node's environment when it has the cell's major; else (setup-node failed)
// environment.node is v<CELL_NODE>.0.0-not-installed, the matrix Node's version being unknown, and
// the rest is what truly ran (the image's Node's version in environment.ci.failureNode).
//
// Environment (benchmark.yml's failure step sets it):
//   CELL_NODE, CELL_RUNNER  the matrix Node major and runner label (environment.js records them)
//   SETUP_NODE_OUTCOME, INSTALL_OUTCOME, VERIFY_OUTCOME, COUNTING_OUTCOME, BENCH_OUTCOME
//                           steps.<id>.outcome of the steps before it; the first that failed is named
//   INSTALL_TIMEOUT, COUNTING_TIMEOUT, BENCH_TIMEOUT  those steps' timeout-minutes, for the reason
//   FAILED_STEP             what failed, when the caller knows it (npm run matrix): the reason as it is
//   BENCH_OUT (default out), BENCH_QUICK
import fs from 'node:fs';
import path from 'node:path';
import { environment } from '../result/environment.js';
import { UsageError, command } from '../../lib/command.js';
import { DRIVERS } from '../data/drivers.js';
import {
  KIND,
  METHOD,
  SCHEMA_VERSION,
  TINYBENCH_VERSION,
  currentCommit,
  newRunId,
  oneSide,
  RESULT_FILE,
  writeDocument,
} from '../result/header.js';
import { BUDGETS } from '../engine/budgets.js';
import { configNotes } from '../data/configs.js';
import { cases } from '../data/suite.js';

/** The longest reason written (the aggregate shows up to 320 characters, with "not measured: "). */
const REASON_MAX = 300;

/**
 * The steps before this one, in the order the job runs them: the prefix of the environment
 * variables of its outcome (and timeout), what it is in words, and what else the reason says.
 * setup-node's reason is its own: it says which Node wrote the document.
 * @type {{ env: string, what: string, more?: string }[]}
 */
const STEPS = [
  { env: 'SETUP_NODE', what: 'setup-node' },
  { env: 'INSTALL', what: 'the install (npm run ci:install-from-source: npm ci, the drivers built from source)' },
  { env: 'VERIFY', what: 'the driver check (npm run ci:verify-drivers)' },
  { env: 'COUNTING', what: 'installing valgrind and strace (npm run ci:install-counting)' },
  { env: 'BENCH', what: 'the bench (npm run ci:bench)', more: ' and wrote no document,' },
];
const OUTCOMES = ['success', 'failure', 'cancelled', 'skipped', ''];

/** A variable that must be empty or a whole number. */
function wholeNumber(/** @type {NodeJS.ProcessEnv} */ env, /** @type {string} */ name, /** @type {string} */ what) {
  const v = env[name] ?? '';
  if (v !== '' && !/^[1-9]\d{0,3}$/.test(v)) throw new UsageError(`${name} '${v}' is not ${what}`);
  return v;
}

/** The matrix Node major, e.g. '22', or '' when CELL_NODE is not set. */
const cellNodeOf = (/** @type {NodeJS.ProcessEnv} */ env) => wholeNumber(env, 'CELL_NODE', 'a Node major (e.g. 22)');

/**
 * Which step failed, from the outcomes the workflow passes: the first step whose outcome is failure
 * (or cancelled), with its timeout when it has one ("failed or hit its step timeout of N minutes":
 * the outcome does not tell the two apart).
 * @param {NodeJS.ProcessEnv} env
 */
export function failureReason(env) {
  const node = cellNodeOf(env) || process.versions.node.split('.')[0];
  const runner = env.CELL_RUNNER || `${process.platform}-${process.arch}`;
  for (const s of STEPS) {
    const outcome = env[`${s.env}_OUTCOME`] ?? '';
    if (!OUTCOMES.includes(outcome))
      throw new UsageError(
        `${s.env}_OUTCOME '${outcome}' is not a step outcome (${OUTCOMES.filter(Boolean).join(', ')})`,
      );
    const timeout = wholeNumber(env, `${s.env}_TIMEOUT`, 'a whole number of minutes');
    if (outcome !== 'failure' && outcome !== 'cancelled') continue;
    const failed = timeout ? `failed or hit its step timeout of ${timeout} minutes` : 'failed';
    if (s.env === 'SETUP_NODE')
      return `setup-node could not install Node ${node} on ${runner} (the image's Node ${process.version} wrote this document); see the job log`;
    return `${s.what} ${failed}${s.more ?? ''} on ${runner} with Node ${process.version}; see the job log`;
  }
  return `the job failed before the bench wrote a document, and no step before it reports a failure, on ${runner}; see the job log`;
}

/**
 * The environment to file the document under (see the header): this process's, with the cell's
 * major as environment.node when another Node runs this.
 * @param {ReturnType<typeof environment>} env
 * @param {string} [cellNode] the matrix Node major, e.g. '22'
 */
function cellEnvironment(env, cellNode) {
  if (!cellNode || env.node.slice(1).split('.')[0] === cellNode) return env;
  return { ...env, node: `v${cellNode}.0.0-not-installed`, ci: env.ci && { ...env.ci, failureNode: env.node } };
}

/**
 * @param {string} reason
 * @param {{ mode?: 'quick'|'full', now?: Date, cellNode?: string }} [o]
 */
export function failureDocument(reason, { mode = 'full', now = new Date(), cellNode } = {}) {
  const at = now.toISOString();
  const why = `not measured: ${reason}`;
  const list = cases();
  const env = cellEnvironment(environment(), cellNode);
  return {
    schemaVersion: SCHEMA_VERSION,
    kind: KIND,
    run: {
      id: newRunId(),
      startedAt: at,
      finishedAt: at,
      status: 'complete',
      mode,
      commit: currentCommit(),
      seed: 1,
      budget: BUDGETS[mode],
      filters: {},
      order: [],
    },
    environment: env,
    harness: { tinybench: TINYBENCH_VERSION, method: METHOD },
    sides: oneSide(
      env.node,
      DRIVERS.map((d) => ({ name: d.name, status: 'error', reason: why })),
      why.slice(0, 1000),
    ),
    configs: configNotes(),
    setups: [],
    cases: list.map((c) => ({ ...c, status: 'error', reason: why })),
    counting: { status: 'unavailable', reason: why },
  };
}

const HELP = {
  usage: 'npm run ci:failure',
  summary:
    "For a matrix cell that wrote no document: writes a schema-valid result document saying which step failed (FAILED_STEP, or the steps' outcomes in the environment) into BENCH_OUT (default out); nothing when a result document is there already. No flags.",
};

function main() {
  const env = process.env;
  const out = path.resolve(env.BENCH_OUT || 'out');
  const reason = (env.FAILED_STEP || failureReason(env)).replace(/\s+/g, ' ').slice(0, REASON_MAX);
  const doc = failureDocument(reason, {
    mode: env.BENCH_QUICK === 'true' ? 'quick' : 'full',
    cellNode: cellNodeOf(env) || undefined,
  });
  // each run's document has a name of its own: any result document there is the bench's (or an earlier failure's)
  const there = fs.existsSync(out) ? fs.readdirSync(out).find((f) => RESULT_FILE.test(f)) : undefined;
  if (there) console.log(`ci:failure: ${path.join(out, there)} exists; the bench wrote its own document`);
  else console.log(`ci:failure: wrote ${writeDocument(doc, out)} (${reason})`);
}

command('ci:failure', import.meta.url, main, HELP);
