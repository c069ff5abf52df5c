// Runs the workloads after the suite (bench/cli.js): templates built once per run, each in its own
// process, then rounds of fresh processes (round.js) in a shuffled order of blocks; a workload that
// fails is an error and is not measured again, the run goes on; one temp directory for everything
// (docs/workloads.md, "Rounds, order, ±" and "Failures and clean-up").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KEY_ENV, sessionKey } from '../engine/session.js';
import { CONFIGS, PRODUCTION_CONFIG } from '../data/configs.js';
import { selectWorkloads, workloadPragmas } from '../data/workloads.js';
import { createRandom, shuffle } from '../../lib/prng.js';
import { analyseWorkloads } from './workload-figures.js';
import { PROCESS_LIMIT_MS, WORKLOAD_BUDGETS } from './workload-budgets.js';
import { runRoundProcess, running } from './spawn.js';
/** @import { Progress } from '../../lib/progress.js' */
/** @import { DriverInfo } from '../engine/load-drivers.js' */

/**
 * @typedef {object} WorkloadRunOptions
 * @property {'quick' | 'full'} mode
 * @property {string[] | undefined} names --workload
 * @property {{ driver?: string[], cipher?: string[] }} filters the suite's filters (--driver, --cipher apply)
 * @property {number} seed
 * @property {Map<string, { info: DriverInfo, open?: unknown }>} drivers
 * @property {{ interrupted: string | null }} state
 * @property {(p: Progress) => void} [onProgress]
 * @property {Partial<import('./workload-budgets.js').WorkloadBudget>} [budget] replaces parts of the mode's budget (tests)
 */

const PRODUCTION = /** @type {import('../data/configs.js').Config} */ (
  CONFIGS.find((c) => c.name === PRODUCTION_CONFIG)
).pragmas;

/**
 * A workload's PRAGMAs: a round's, or (`template`) its template's, which carries the file's;
 * busy_timeout is set by each connection that uses it.
 * @param {import('../data/workloads.js').Workload} w
 */
export const pragmasOf = (w, template = false) =>
  w.kind === 'concurrency' ? workloadPragmas(template ? { ...w, busy: 'configured' } : w) : PRODUCTION;

/** The messages a workload's database holds. */
export const messagesOf = (
  /** @type {import('../data/workloads.js').Workload} */ w,
  /** @type {import('./workload-budgets.js').WorkloadBudget} */ budget,
  /** @type {boolean} */ quick,
) => (w.kind === 'concurrency' ? budget.seedMessages : quick ? w.quickMessages : w.messages);

/** A template's identity: what it is built with (busy_timeout is a connection's, not the file's). */
export const templateId = (/** @type {import('../data/workloads.js').Workload} */ w, /** @type {number} */ messages) =>
  `${w.kind === 'concurrency' ? `c-${w.journal}` : 's'}-${w.driver}-${w.cipher}-${messages}`.replace(
    /[^a-z0-9-]/gi,
    '_',
  );

export async function runWorkloads(/** @type {WorkloadRunOptions} */ o) {
  const started = Date.now();
  const budget = { ...WORKLOAD_BUDGETS[o.mode], ...o.budget };
  const quick = o.mode === 'quick';
  const selected = selectWorkloads({
    names: o.names,
    quick,
    driver: o.filters.driver,
    cipher: o.filters.cipher,
  }).filter((w) => w.kind === 'concurrency' || (quick ? w.quickMessages > 0 : true));
  const random = createRandom((o.seed ^ 0x0017) >>> 0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-workloads-'));
  const env = { ...process.env, [KEY_ENV]: sessionKey() };
  let seq = 0;
  const workdir = () => path.join(dir, `p${seq++}`);
  /** @type {import('./workload-figures.js').Measured[]} */
  const measured = selected.map((w) => ({
    w,
    status: 'ok',
    messages: messagesOf(w, budget, quick),
    rounds: [],
    slots: [],
  }));
  const templates = /** @type {Map<string, any>} */ (new Map());
  const processes =
    measured.reduce((a, m) => a + (m.w.kind === 'scale' ? 2 : 1), 0) * budget.rounds +
    new Set(measured.map((m) => templateId(m.w, m.messages))).size;
  let done = 0;
  const progress = (/** @type {import('./workload-figures.js').Measured} */ m, /** @type {string} */ what) =>
    o.onProgress?.({
      done: done++,
      total: processes,
      current: { config: `workload ${m.w.name}`, driver: m.w.driver, cipher: m.w.cipher, op: what },
    });

  /** The template of a workload, built on first use; null (and the workload an error) when it cannot be. */
  const templateOf = async (/** @type {import('./workload-figures.js').Measured} */ m) => {
    const id = templateId(m.w, m.messages);
    if (!templates.has(id)) {
      progress(m, `template of ${m.messages} messages`);
      const file = path.join(dir, 'templates', id, 'template.db');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const w = m.w;
      const r = await runRoundProcess(
        {
          kind: 'build',
          driver: w.driver,
          cipher: w.cipher,
          pragmas: pragmasOf(w, true),
          seed: o.seed,
          workdir: workdir(),
          template: file,
          messages: m.messages,
        },
        { env, limitMs: PROCESS_LIMIT_MS.build },
      );
      const { status, reason, pragmas, encryption, size } = r; // as the document has it
      templates.set(id, {
        file,
        doc: {
          id,
          messages: m.messages,
          ...(w.kind === 'concurrency' ? { journal: w.journal } : {}),
          driver: w.driver,
          cipher: w.cipher,
          status,
          ...(reason ? { reason } : {}),
          ...(status === 'ok' ? { pragmas, encryption, size } : {}),
        },
      });
    }
    const t = templates.get(id);
    if (t.doc.status !== 'ok') {
      m.status = 'error';
      m.reason = `its template could not be built: ${t.doc.reason}`;
      return null;
    }
    return t;
  };

  /** One round of a workload, in one or two fresh processes. */
  const measureOne = async (/** @type {import('./workload-figures.js').Measured} */ m, /** @type {number} */ round) => {
    if (m.status !== 'ok') return;
    const driver = o.drivers.get(m.w.driver);
    if (!driver?.open) {
      m.status = driver?.info.status === 'error' ? 'error' : 'skipped';
      m.reason = driver?.info.reason ?? `driver ${m.w.driver} not loaded`;
      return;
    }
    const t = await templateOf(m);
    if (!t || o.state.interrupted) return;
    const common = {
      driver: m.w.driver,
      cipher: m.w.cipher,
      pragmas: pragmasOf(m.w),
      seed: o.seed,
      template: t.file,
      seeded: m.messages,
    };
    /** @type {any} */
    let r;
    if (m.w.kind === 'concurrency') {
      progress(m, `round ${round + 1}`);
      r = await runRoundProcess(
        {
          kind: 'concurrency',
          ...common,
          workdir: workdir(),
          readers: m.w.readers,
          writer: m.w.writer,
          durationMs: budget.durationMs,
        },
        { env, limitMs: PROCESS_LIMIT_MS.concurrency },
      );
    } else {
      progress(m, `round ${round + 1}: operations`);
      const ops = await runRoundProcess(
        { kind: 'scale-ops', ...common, workdir: workdir(), budget: budget.ops },
        { env, limitMs: PROCESS_LIMIT_MS['scale-ops'] },
      );
      if (ops.status !== 'ok' || o.state.interrupted) {
        r = ops;
      } else {
        progress(m, `round ${round + 1}: VACUUM`);
        const vac = await runRoundProcess(
          { kind: 'scale-vacuum', ...common, workdir: workdir() },
          { env, limitMs: PROCESS_LIMIT_MS['scale-vacuum'] },
        );
        r = vac.status === 'ok' ? { ...ops, ...vac, verified: { ...ops.verified, ...vac.verified } } : vac;
      }
    }
    if (o.state.interrupted) return; // a round cut short by the signal is not a result
    if (r.status !== 'ok') {
      m.status = 'error';
      m.reason = `round ${round + 1}: ${r.reason}`;
      return;
    }
    m.rounds.push(r);
    m.slots.push(`r${round}/${m.w.kind}`);
  };

  // a signal to this process alone (not its group) still stops the round processes, which clean up
  const stop = () => {
    for (const child of running) child.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    rounds: for (let round = 0; round < budget.rounds; round++) {
      for (const m of roundOrder(random, measured)) {
        if (o.state.interrupted) break rounds;
        await measureOne(m, round);
      }
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
  o.onProgress?.({ done, total: done, current: null });
  const analysed = analyseWorkloads(measured);
  return {
    mode: o.mode,
    selection: o.names ?? [quick ? 'quick' : 'default'],
    budget,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    templates: [...templates.values()].map((t) => t.doc),
    ...analysed,
  };
}

/**
 * A round's order: blocks in a shuffled order; a concurrency block is a pair (WAL and DELETE of the
 * same shape and setup, in a shuffled order), the scale block all sizes (shuffled).
 * @param {() => number} random
 * @param {import('./workload-figures.js').Measured[]} measured
 */
function roundOrder(random, measured) {
  const blocks = /** @type {Map<string, import('./workload-figures.js').Measured[]>} */ (new Map());
  for (const m of measured) {
    const b = m.w.kind === 'concurrency' ? `c:${m.w.pair}` : 'scale';
    blocks.set(b, [...(blocks.get(b) ?? []), m]);
  }
  return shuffle(random, [...blocks.keys()]).flatMap((b) =>
    shuffle(random, /** @type {import('./workload-figures.js').Measured[]} */ (blocks.get(b))),
  );
}
