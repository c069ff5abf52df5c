// The counting pass: after the timed rounds, count what every timed case costs per operation, in
// instructions (valgrind's callgrind) and in system calls and bytes (strace), twice, each time in
// new processes, and say how far the two counts differ.
//
// Layout: the templates and the message pool are made once, natively (prepare.js), on /dev/shm
// where there is one (an fsync there returns at once; what is counted is what SQLite asks of the
// kernel, which does not depend on the device). Then four kinds of process run, `jobs` at a time:
// callgrind and strace, each for the first count and for the repeat (jobsOf); the strace ones
// unpinned and without the waits after a full GC, which only the instructions need. With more
// cores the callgrind counts are split across processes; each process pays ~10 s of start under
// valgrind.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../../lib/root.js';
import { BUDGETS } from '../engine/budgets.js';
import { KEY_ENV, sessionKey } from '../engine/session.js';
import { SHM } from '../engine/templates.js';
import { OPS } from '../data/ops.js';
import { caseKey } from '../data/suite.js';
import { dumpCollector } from './callgrind.js';
import { caseCounts, instructionsPerOp, markCostOf, repeatSpread, syscallsPerOp } from './counts.js';
import { prepareTemplates } from './prepare.js';
import { straceIntervals } from './strace.js';
import { instrumentHelper, mallocHelper } from './instrument.js';
import {
  COUNT_ENV,
  KEPT_ENV,
  SETARCH,
  STRACE_ARGS,
  VALGRIND_ARGS,
  FROM_FIRST_MARK_ARGS,
  countingTools,
  nodeFlags,
  pinned,
} from './tools.js';

const WORKER = path.join(ROOT, 'bench', 'counts', 'worker.js');

/**
 * Where two counts are compared across code (the compare's sides, the shootout's Nodes), the
 * repeat's processes first allocate this many small objects (jobsOf padRepeat), so its heap is laid
 * out differently from the first count's. Any change of code does that too, and moves what V8's
 * lookup caches cost: a select by 1–3% (measured: 4 layouts, 9 selects), an update by up to 0.5%.
 * The repeat spread then says how far a count moves without a change in the work done.
 */
export const LAYOUT_PAD = 10_000;

/** How the counts are made, for the document. */
export const COUNT_METHOD =
  'per case: a fresh copy of its template (its cipher keyed with a cheap key derivation, except for setup, which opens new files ' +
  'with the real one), `warmup` operations, a full GC, then `ops` operations in two halves with a mark (a getppid call) around every ' +
  'timed call; instructions (callgrind, no cache simulation) and system calls (strace) between the marks of the timed calls, less what ' +
  'a mark costs, over `ops`; by component from each timed call’s dump (bench/data/components.js). Counted twice, in new processes, each counting its cases in the order of their keys after opening every ' +
  'setup and running every (driver, operation) once; each callgrind process on one CPU, and after each full GC it waits for the GC’s helper thread; ' +
  'every process on a malloc of its own (LD_PRELOAD bench/counts/count-malloc.c: blocks in 64-byte classes, per-thread free lists, no search; and a strcmp a byte at a time)';

/** How the counts are made, where callgrind instruments each process from its first mark on (instrument.js). */
const FIRST_MARK_METHOD =
  'callgrind instrumenting from the first mark on (--instr-atstart=no, then a client request): the process start and warm-up uninstrumented';

/**
 * The counted operations of a case, by the run's mode; null for an operation that is not timed.
 * @param {string} opName
 * @param {'quick'|'full'} mode
 */
export function countPlanOf(opName, mode) {
  const op = OPS.find((o) => o.name === opName);
  if (!op?.count) return null;
  return { k: op.count[mode], warmup: op.count.warmup };
}

/**
 * @typedef {object} Job one counted process
 * @property {'callgrind'|'strace'|'native'} tool native: neither, to time the same plan without them (meta:counting)
 * @property {0|1} repeat 0: the first count, 1: the repeat
 * @property {import('./worker.js').PlanCase[]} cases
 * @property {number} [pad] objects the process allocates and keeps before anything else (worker.js Plan pad)
 */

/**
 * The processes of a pass: for each count, the cases split into `chunks` callgrind processes and
 * one strace process (native speed). Every process counts its cases in the order of their keys,
 * and the repeat's processes hold the same cases as the first count's, so a case is counted twice
 * after the same history: what differs between the two is the process, not what ran before.
 * @param {import('./worker.js').PlanCase[]} cases
 * @param {number} chunks
 * @param {{ reverseRepeat?: boolean, native?: boolean, padRepeat?: number }} [o] reverseRepeat: the repeat counts its
 *   cases in the reverse order, to measure how much a count depends on what ran before it (meta:counting --order);
 *   padRepeat: the repeat's processes first allocate this many objects, so everything after them lies elsewhere in the
 *   heap: the repeat then also measures how far a count moves with the heap's layout, as any change of code moves it
 *   (the compare's counts, bench/counts/cli.js --layout);
 *   native: only one process, neither counted nor traced, to time the plan (meta:counting)
 * @returns {Job[]}
 */
export function jobsOf(cases, chunks, o = {}) {
  const sorted = [...cases].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (o.native) return [{ tool: 'native', repeat: 0, cases: sorted }];
  const orderOf = (/** @type {0|1} */ repeat) => (repeat && o.reverseRepeat ? [...sorted].reverse() : sorted);
  /** @type {Job[]} */
  const jobs = [];
  const padOf = (/** @type {0|1} */ repeat) => (repeat && o.padRepeat ? { pad: o.padRepeat } : {});
  for (const repeat of /** @type {const} */ ([0, 1]))
    for (let i = 0; i < chunks; i++)
      jobs.push({
        tool: 'callgrind',
        repeat,
        cases: orderOf(repeat).filter((_, j) => j % chunks === i),
        ...padOf(repeat),
      });
  for (const repeat of /** @type {const} */ ([0, 1]))
    jobs.push({ tool: 'strace', repeat, cases: orderOf(repeat), ...padOf(repeat) });
  return jobs.filter((j) => j.cases.length);
}

/**
 * Run one counted process and read its counts.
 * @param {Job} job
 * @param {object} o
 * @param {string} o.dir this job's directory
 * @param {object} o.plan the plan without its cases
 * @param {NodeJS.ProcessEnv} o.env
 * @param {number} o.cpu the CPU it runs on (tools.js pinned)
 * @param {string} [o.instrument] the addon that starts callgrind's instrumentation at the first mark (instrument.js);
 *   absent: the whole callgrind process is instrumented
 * @returns {Promise<{ out: { marks: number, markCost: number[], cases: import('./worker.js').WorkerCase[] }, costs: any[], parts?: number[][], seconds: number }>}
 */
async function runJob(job, o) {
  fs.mkdirSync(o.dir, { recursive: true });
  const planFile = path.join(o.dir, 'plan.json');
  const outFile = path.join(o.dir, 'out.json');
  const fromFirstMark = job.tool === 'callgrind' && o.instrument ? { instrument: o.instrument } : {};
  const settle = job.tool === 'strace' ? { settle: false } : {};
  fs.writeFileSync(
    planFile,
    JSON.stringify({ ...o.plan, cases: job.cases, ...(job.pad ? { pad: job.pad } : {}), ...fromFirstMark, ...settle }),
  );
  // in its own directory, with paths relative to it: the same strings in every process (worker.js WORKDIR)
  const node = [...nodeFlags(), WORKER, '--plan', 'plan.json', '--out', 'out.json'];
  const [cmd, args] =
    job.tool === 'callgrind'
      ? ['valgrind', [...valgrindArgs(!!o.instrument), '--callgrind-out-file=cg.%p', process.execPath, ...node]]
      : job.tool === 'strace'
        ? ['strace', [...STRACE_ARGS, '-o', 'strace.log', process.execPath, ...node]]
        : [process.execPath, node];
  const started = Date.now();
  // strace's count is system calls, which neither the GC's helper thread nor the CPU changes: it runs anywhere
  const [first, ...rest] = [...(job.tool === 'strace' ? [] : pinned(o.cpu)), ...SETARCH, cmd, ...args];
  const child = spawn(first, rest, {
    cwd: o.dir,
    env: o.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const collector = job.tool === 'callgrind' && child.pid ? dumpCollector(o.dir, child.pid) : null;
  const timer = collector ? setInterval(() => collector.collect(), 1000) : null;
  /** @type {number | null} */
  const code = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c, sig) => resolve(sig ? -1 : c));
  }).finally(() => timer && clearInterval(timer));
  if (code !== 0 || !fs.existsSync(outFile)) {
    const last =
      stderr
        .trim()
        .split('\n')
        .filter((l) => !/^==\d+==/.test(l))
        .slice(-1)[0] ?? 'no message';
    throw new Error(`${job.tool} process (${job.repeat ? 'repeat' : 'first count'}) exited ${code}: ${last}`);
  }
  const seconds = (Date.now() - started) / 1000;
  const out = JSON.parse(fs.readFileSync(outFile, 'utf8'));
  const dumps = collector?.finish(out.marks);
  const costs = dumps?.counts ?? (job.tool === 'strace' ? await straceIntervals(path.join(o.dir, 'strace.log')) : []);
  fs.rmSync(o.dir, { recursive: true, force: true });
  return { out, costs, ...(dumps ? { parts: dumps.components } : {}), seconds };
}

/**
 * callgrind's flags, by whether it instruments from the first mark on (instrument.js) or the whole process.
 * @param {boolean} fromFirstMark
 */
export const valgrindArgs = (fromFirstMark) => [...VALGRIND_ARGS, ...(fromFirstMark ? FROM_FIRST_MARK_ARGS : [])];

/**
 * Run tasks, `lanes` at a time, in order, each on the first free lane.
 * @template T
 * @param {(() => Promise<T>)[]} tasks
 * @param {number} lanes
 * @returns {Promise<PromiseSettledResult<T>[]>}
 */
async function pool(tasks, lanes) {
  /** @type {PromiseSettledResult<T>[]} */
  const results = [];
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++;
      [results[i]] = await Promise.allSettled([tasks[i]()]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, tasks.length) }, lane));
  return results;
}

/**
 * @typedef {object} CountingSection the document's `counting` (schema)
 * @property {'ok'|'unavailable'|'error'} status
 * @property {string} [reason]
 * @property {{ valgrind: string, strace: string }} [tools]
 * @property {{ node: string[], valgrind: string[], strace: string[], setarch: string[] }} [flags]
 * @property {string} [method]
 * @property {number} [processes]
 * @property {number} [seconds] wall time of the pass
 * @property {number[]} [markCost] instructions a mark costs, per callgrind process
 * @property {ReturnType<typeof repeatSpread>} [repeat]
 */

/**
 * @typedef {object} Counted what the counted processes found, per plan case id, for each count
 * @property {[Map<string, any>, Map<string, any>]} found per count (0: first, 1: repeat): id -> what it found
 *   ({ ops, warmup, instructions?, syscalls?, reason?, skipped? })
 * @property {number[]} markCost instructions a mark costs, per callgrind process
 * @property {string[]} failures the first line of every process that failed
 * @property {number} processes
 * @property {{ tool: string, repeat: number, cases: number, seconds: number }[]} times each process's wall time
 * @property {import('./instrument.js').Helper | { status: 'off' }} instrument whether callgrind instrumented each
 *   process from its first mark on (ok, with the addon), or the whole process: asked to (off), or the addon could not
 *   be built (unavailable, and why)
 * @property {{ repeat: number, beforeFirstMark: number, total: number, counted: number }[]} instrumented per callgrind
 *   process, the instructions callgrind instrumented before its first mark (the start and warm-up, when the whole
 *   process is instrumented), in all (up to its last mark) and inside the counted calls
 */

/**
 * Count plan cases: templates and pool made natively, then the processes of jobsOf, `jobs` at a
 * time. The low level of countPass; the tests and meta:counting give it calibration cases
 * (worker.js `extra`, `alone`).
 * @param {object} o
 * @param {'quick'|'full'} o.mode
 * @param {number} o.seed
 * @param {import('../data/suite.js').Case[]} o.cases whose templates the plans need
 * @param {import('./worker.js').PlanCase[]} o.plans
 * @param {import('../engine/session.js').SessionOptions['drivers']} o.drivers
 * @param {number} [o.jobs] processes at once (default: the cores)
 * @param {(line: string) => void} [o.log]
 * @param {(e: import('./count-progress.js').CountEvent) => void} [o.onProgress] the processes as they start and
 *   end, for progress with an ETA (count-progress.js); instead of their lines in `log`
 * @param {{ reverseRepeat?: boolean, native?: boolean, padRepeat?: number }} [o.layout] see jobsOf
 * @param {boolean} [o.wholeProcess] instrument the whole callgrind process, not from its first mark on (meta:counting
 *   --whole measures it)
 * @returns {Promise<Counted>}
 */
export async function countPlans(o) {
  const jobs = Math.max(1, o.jobs ?? os.cpus().length);
  const base = fs.mkdtempSync(path.join(fs.existsSync(SHM) ? SHM : os.tmpdir(), 'sqlite-bench-count-'));
  const key = sessionKey({}); // a new random key, whatever this process was given
  /** @type {NodeJS.ProcessEnv} */
  const env = Object.fromEntries(KEPT_ENV.flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])));
  const malloc = mallocHelper();
  if (malloc.status !== 'ok') throw new Error(`counting: ${malloc.reason}`);
  Object.assign(env, COUNT_ENV, { [KEY_ENV]: key, TMPDIR: base, TMP: base, TEMP: base, LD_PRELOAD: malloc.file });
  try {
    const templates = path.join(base, 'templates');
    const poolFile = path.join(base, 'pool.bin');
    const seedMessages = BUDGETS[o.mode].seedMessages;
    prepareTemplates({
      mode: o.mode,
      seed: o.seed,
      seedMessages,
      key,
      dir: templates,
      pool: poolFile,
      cases: o.cases,
      drivers: o.drivers,
    });
    const plan = { mode: o.mode, seed: o.seed, seedMessages, templates, pool: poolFile };
    const list = jobsOf(o.plans, Math.max(1, Math.floor(jobs / 2)), o.layout);
    // `jobs` at a time: a strace process beside a callgrind one would share its pinned CPU with the GC's
    // helper thread it waits for (worker.js collect), and the runtime's count would move (docs/counting.md)
    const lanes = jobs;
    o.onProgress?.({ step: 'plan', jobs: list.map((j) => ({ ...j, cases: j.cases.length })), lanes });
    /** @type {Counted['instrument']} */
    const instrument =
      o.wholeProcess || !list.some((j) => j.tool === 'callgrind') ? { status: 'off' } : instrumentHelper();
    if (instrument.status === 'unavailable') o.log?.(`counting: whole processes instrumented: ${instrument.reason}`);
    let finished = 0;
    const results = await pool(
      list.map((job, i) => async () => {
        o.onProgress?.({ step: 'start', i });
        const r = await runJob(job, {
          dir: path.join(base, `job-${i}`),
          plan,
          env,
          cpu: i % os.cpus().length,
          ...(instrument.status === 'ok' ? { instrument: instrument.file } : {}),
        }).finally(() => o.onProgress?.({ step: 'end', i }));
        if (!o.onProgress)
          o.log?.(`counting: ${++finished}/${list.length} processes done (${job.tool}, ${job.cases.length} cases)`);
        return r;
      }),
      lanes,
    );
    /** @type {Counted['found']} */
    const found = [new Map(), new Map()];
    /** @type {number[]} */
    const markCost = [];
    /** @type {string[]} */
    const failures = [];
    /** @type {Counted['times']} */
    const times = [];
    /** @type {Counted['instrumented']} */
    const instrumented = [];
    results.forEach((r, i) => {
      const job = list[i];
      const into = found[job.repeat];
      const idOf = (/** @type {import('./worker.js').PlanCase} */ p) => p.id ?? p.key;
      if (r.status === 'rejected') {
        const reason = String(r.reason?.message ?? r.reason).split('\n')[0];
        failures.push(reason);
        for (const p of job.cases) into.set(idOf(p), { ...into.get(idOf(p)), reason });
        return;
      }
      const { out, costs, parts, seconds } = r.value;
      times.push({ tool: job.tool, repeat: job.repeat, cases: job.cases.length, seconds });
      if (job.tool === 'native') return;
      const mc = job.tool === 'callgrind' ? markCostOf(out.markCost, costs, parts) : { instructions: 0 };
      if (job.tool === 'callgrind') {
        markCost.push(mc.instructions);
        const counted = out.cases.flatMap((/** @type {import('./worker.js').WorkerCase} */ w) =>
          (w.windows ?? []).flatMap((x) => x.ends),
        );
        instrumented.push({
          repeat: job.repeat,
          beforeFirstMark: costs[1] ?? 0,
          total: costs.reduce((a, b) => a + (b ?? 0), 0),
          counted: counted.reduce((a, n) => a + (costs[n] ?? 0), 0),
        });
      }
      const plans = new Map(job.cases.map((p) => [idOf(p), p]));
      for (const w of out.cases) {
        const entry = into.get(w.key) ?? { ops: plans.get(w.key)?.k, warmup: plans.get(w.key)?.warmup };
        if (w.status === 'ok' && w.windows) {
          if (job.tool === 'callgrind') entry.instructions = instructionsPerOp(w.windows, costs, mc, parts);
          else entry.syscalls = syscallsPerOp(w.windows, costs);
        } else if (w.status === 'error') entry.reason = w.reason;
        else entry.skipped = w.reason ?? w.status;
        into.set(w.key, entry);
      }
    });
    return { found, markCost, failures, processes: list.length, times, instrument, instrumented };
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

/**
 * Count every case. Never throws for a case: a case that could not be counted has counts with
 * status 'error' and the reason; a machine that cannot count gets a section saying why.
 * @param {object} o
 * @param {'quick'|'full'} o.mode
 * @param {number} o.seed
 * @param {import('../data/suite.js').Case[]} o.cases the run's cases
 * @param {import('../engine/session.js').SessionOptions['drivers']} o.drivers
 * @param {number} [o.jobs] processes at once (default: the cores)
 * @param {(line: string) => void} [o.log]
 * @param {(e: import('./count-progress.js').CountEvent) => void} [o.onProgress] see countPlans
 * @param {Record<string, import('./worker.js').Inject>} [o.inject] calibration only: known work added to these cases
 *   (by key), which the compare's calibration must find (bench/counts/cli.js --inject)
 * @param {{ padRepeat?: number }} [o.layout] see jobsOf
 * @returns {Promise<{ counting: CountingSection, counts: Map<string, import('./counts.js').CaseCounts> }>}
 */
export async function countPass(o) {
  const started = Date.now();
  /** @type {Map<string, import('./counts.js').CaseCounts>} */
  const counts = new Map();
  const tools = countingTools();
  if (tools.status !== 'ok') return { counting: tools, counts };
  const planned = o.cases.flatMap((c) => {
    const p = countPlanOf(c.op, o.mode);
    const inject = o.inject?.[caseKey(c)];
    return p ? [{ c, p: { key: caseKey(c), ...p, ...(inject ? { inject } : {}) } }] : [];
  });
  if (!planned.length) return { counting: { status: 'unavailable', reason: 'no timed case to count' }, counts };
  const { found, markCost, failures, processes, instrument, times } = await countPlans({
    ...o,
    cases: planned.map((x) => x.c),
    plans: planned.map((x) => x.p),
  });
  const took = times.map((t) => `${t.tool}${t.repeat ? ' (repeat)' : ''} ${t.seconds.toFixed(0)} s`);
  o.log?.(`counting: ${took.join(', ')} (each process's wall time)`);
  for (const { p } of planned) {
    const a = found[0].get(p.key);
    const b = found[1].get(p.key);
    if (a?.skipped || b?.skipped) continue; // the timed run skipped it too, and says why
    counts.set(p.key, caseCounts(a ?? { reason: 'not counted' }, b ?? { reason: 'not counted' }));
  }
  const counted = [...counts].map(([k, c]) => ({ key: k, counts: c }));
  return {
    counting: {
      status: failures.length ? 'error' : 'ok',
      ...(failures.length ? { reason: failures[0] } : {}),
      tools: { valgrind: tools.valgrind, strace: tools.strace },
      flags: {
        node: nodeFlags(),
        valgrind: valgrindArgs(instrument.status === 'ok'),
        strace: [...STRACE_ARGS],
        setarch: [...SETARCH],
      },
      method: `${COUNT_METHOD}; ${instrument.status === 'ok' ? FIRST_MARK_METHOD : `the whole callgrind process instrumented${instrument.status === 'unavailable' ? ` (${instrument.reason.slice(0, 300)})` : ''}`}`,
      processes,
      seconds: (Date.now() - started) / 1000,
      markCost,
      repeat: repeatSpread(counted),
    },
    counts,
  };
}
