// Synthetic documents, valid against the schema, for the aggregate's tests and its synthetic year
// (aggregate-year.js): seeded figures (or a real run's, real-run.json) put through the bench's own
// rounding and analyses, so they read as a real cell's or shootout's. Never shown to a reader.
import crypto from 'node:crypto';
import fs from 'node:fs';
import semver from 'semver';
import { CIPHERS } from '../data/ciphers.js';
import { CONFIGS, PRODUCTION_CONFIG, TWIN_CONFIG, configNotes } from '../data/configs.js';
import { DRIVERS, PRODUCTION_DRIVER } from '../data/drivers.js';
import { generationFor } from '../data/node-ranges.js';
import { KIND, METHOD, SCHEMA_VERSION, TINYBENCH_VERSION, oneSide } from '../result/header.js';
import { BUDGETS } from '../engine/budgets.js';
import { cases, caseKey, setupDir, setupKey } from '../data/suite.js';
import { selectWorkloads } from '../data/workloads.js';
import { createRandom } from '../../lib/prng.js';
import { median, medianRse } from '../../lib/stats/spread.js';
import { analyseRun, withWorkloadPairs } from '../result/analysis.js';
import { rounded } from '../run/run-suite.js';
import { nextExtraRound } from '../run/extra-rounds.js';
import {
  defaultFilters,
  inScope,
  planPairs,
  planSides,
  referenceSide,
  referencesIn,
  runPlan,
  sideFilters,
} from '../data/run-plan.js';
import { analyseWorkloads } from '../workloads/workload-figures.js';
import { effective } from '../workloads/round.js';
import { messagesOf, pragmasOf as workloadPragmasOf, templateId } from '../workloads/run-workloads.js';
import { WORKLOAD_BUDGETS } from '../workloads/workload-budgets.js';
import { judgeSidePairs, roundCases } from '../paired/judge-sides.js';
import { runDocument, runFields, runMethod } from '../paired/run-sides.js';
import { shootoutFlags } from '../shootout/cli.js';
import { SHOOTOUT_SERVER, documentSide } from '../shootout/run.js';
import { engineArgs } from '../shootout/prepare-sides.js';

/** Per platform-arch, a runner of that class, and its speed against the real run's machine (a linux-x64 of 2 cores). */
const MACHINES = {
  'linux-x64': { cpuModel: 'AMD EPYC 7763 64-Core Processor', cores: 4, speed: 1 },
  'linux-arm64': { cpuModel: 'Neoverse-N2', cores: 4, speed: 0.85 },
  'darwin-arm64': { cpuModel: 'Apple M1 (Virtual)', cores: 3, speed: 1.25 },
  'darwin-x64': { cpuModel: 'Intel(R) Core(TM) i7-8700B CPU @ 3.20GHz', cores: 4, speed: 0.7 },
};
/** Per platform, the runner image and its kernel. */
const IMAGES = /** @type {Record<string, { imageOs: string, osRelease: string }>} */ ({
  linux: { imageOs: 'ubuntu24', osRelease: '6.11.0-1018-azure' },
  darwin: { imageOs: 'macos15', osRelease: '24.6.0' },
});
export const SYNTHETIC_PLATFORMS = Object.keys(MACHINES);

/** Per Node major, what process.versions says (real releases' figures). */
const NODE_BUILDS = /** @type {Record<number, { v8: string, napi: string, modules: string, sqlite: string }>} */ ({
  18: { v8: '10.2.154.26-node.39', napi: '9', modules: '108', sqlite: '' },
  20: { v8: '11.3.244.8-node.38', napi: '9', modules: '115', sqlite: '' },
  22: { v8: '12.4.254.21-node.57', napi: '10', modules: '127', sqlite: '3.51.3' },
  24: { v8: '13.6.233.17-node.53', napi: '10', modules: '137', sqlite: '3.53.4' },
  25: { v8: '14.1.146.11-node.25', napi: '10', modules: '141', sqlite: '3.51.3' },
});

/**
 * Per driver generation, how its binaries came, then what its two packages report (drivers/<id>/, as
 * a real run loads them): better-sqlite3-multiple-ciphers' version, its SQLite and SQLite3 Multiple
 * Ciphers' versions; better-sqlite3's version and its SQLite's.
 * @type {Record<string, [string, string[], string[]]>}
 */
const GENERATION_RELEASES = {
  napi10: ['bundled-prebuild', ['13.0.3', '3.53.4', '2.4.0'], ['13.2.0', '3.54.1']],
  node20: ['built-from-source', ['12.11.1', '3.53.2', '2.3.5'], ['12.11.1', '3.53.2']],
  node18: ['built-from-source', ['11.10.0', '3.49.2', '2.1.1'], ['11.10.0', '3.49.2']],
};
const PACKAGES = ['better-sqlite3-multiple-ciphers', 'better-sqlite3'];

/** A build's compile options, as a real driver lists them (about 60; their bytes are in every document). */
const COMPILE_OPTIONS = [
  'ATOMIC_INTRINSICS=1 COMPILER=gcc-12.2.0 DEFAULT_AUTOVACUUM DEFAULT_CACHE_SIZE=-16000 DEFAULT_FILE_FORMAT=4',
  'DEFAULT_FOREIGN_KEYS DEFAULT_JOURNAL_SIZE_LIMIT=-1 DEFAULT_MEMSTATUS=0 DEFAULT_MMAP_SIZE=0',
  'DEFAULT_PAGE_SIZE=4096 DEFAULT_PCACHE_INITSZ=20 DEFAULT_RECURSIVE_TRIGGERS DEFAULT_SECTOR_SIZE=4096',
  'DEFAULT_SYNCHRONOUS=2 DEFAULT_WAL_AUTOCHECKPOINT=1000 DEFAULT_WAL_SYNCHRONOUS=1 DEFAULT_WORKER_THREADS=0',
  'DIRECT_OVERFLOW_READ DQS=0 ENABLE_COLUMN_METADATA ENABLE_DBSTAT_VTAB ENABLE_FTS3 ENABLE_FTS3_PARENTHESIS',
  'ENABLE_FTS4 ENABLE_FTS5 ENABLE_GEOPOLY ENABLE_MATH_FUNCTIONS ENABLE_PERCENTILE ENABLE_RTREE ENABLE_STAT4',
  'ENABLE_UPDATE_DELETE_LIMIT LIKE_DOESNT_MATCH_BLOBS MALLOC_SOFT_LIMIT=1024 MAX_ATTACHED=10 MAX_COLUMN=2000',
  'MAX_COMPOUND_SELECT=500 MAX_DEFAULT_PAGE_SIZE=8192 MAX_EXPR_DEPTH=1000 MAX_FUNCTION_ARG=1000',
  'MAX_LENGTH=1000000000 MAX_LIKE_PATTERN_LENGTH=50000 MAX_MMAP_SIZE=0x7fff0000 MAX_PAGE_COUNT=0xfffffffe',
  'MAX_PAGE_SIZE=65536 MAX_SQL_LENGTH=1000000000 MAX_TRIGGER_DEPTH=1000 MAX_VARIABLE_NUMBER=32766',
  'MAX_VDBE_OP=250000000 MAX_WORKER_THREADS=8 MUTEX_PTHREADS OMIT_DEPRECATED OMIT_PROGRESS_CALLBACK',
  'OMIT_SHARED_CACHE OMIT_TCL_VARIABLE SOUNDEX SYSTEM_MALLOC TEMP_STORE=1 THREADSAFE=2 USE_URI',
].flatMap((line) => line.split(' '));

/**
 * What SQLite reads back for a PRAGMA: its value on a fresh connection (`before`), and the value a
 * setting reads back as (`as`: enums as numbers, journal_mode in lower case). Absent: read back as set.
 * @type {Record<string, { before: string | number | null, as?: Record<string, string | number> }>}
 */
const READBACK = {
  auto_vacuum: { before: 0, as: { NONE: 0, FULL: 1, INCREMENTAL: 2 } },
  encoding: { before: 'UTF-8' },
  journal_mode: { before: 'delete', as: { WAL: 'wal', DELETE: 'delete' } },
  secure_delete: { before: 1, as: { OFF: 0, ON: 1 } },
  busy_timeout: { before: 5000 },
  synchronous: { before: 2, as: { OFF: 0, NORMAL: 1, FULL: 2, EXTRA: 3 } },
  foreign_keys: { before: 1, as: { OFF: 0, ON: 1 } },
  temp_store: { before: 0 },
  temp_store_directory: { before: null },
  cache_size: { before: -16000 },
  mmap_size: { before: 0 },
  wal_autocheckpoint: { before: 1000 },
  analysis_limit: { before: 0 },
};

/** A deterministic UUID-shaped id from a string. */
const idFrom = (/** @type {string} */ s) => {
  const h = crypto.createHash('sha256').update(s).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** A mkdtemp suffix (6 letters and digits), seeded: a real run's temp directories differ every night. */
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const tempSuffix = (/** @type {() => number} */ random) =>
  Array.from({ length: 6 }, () => ALNUM[Math.floor(random() * 62)]).join('');

/**
 * Every PRAGMA of a list applied and read back, as applyPragmas (bench/engine/database.js) reports it.
 * @param {[string, number | string][]} pragmas
 * @param {string} tempdir
 * @param {string} driver
 */
function readings(pragmas, tempdir, driver) {
  return pragmas.map(([name, raw]) => {
    const requested = raw === '{tempdir}' ? tempdir : raw;
    if (name === 'optimize')
      return { name, requested, before: null, after: null, applied: true, note: 'action: ran, nothing to read back' };
    const r = READBACK[name] ?? { before: null };
    // better-sqlite3 is built without SQLITE_SECURE_DELETE
    const before = name === 'secure_delete' && driver !== PRODUCTION_DRIVER ? 0 : r.before;
    return { name, requested, before, after: r.as?.[String(requested)] ?? requested, applied: true };
  });
}

/** The machine of a platform, or a one-line error naming the valid ones. */
function machineFor(/** @type {string} */ platform) {
  const m = MACHINES[/** @type {keyof typeof MACHINES} */ (platform)];
  if (!m) throw new Error(`unknown synthetic platform '${platform}'; valid: ${SYNTHETIC_PLATFORMS.join(', ')}`);
  const [os, arch] = platform.split('-');
  return { ...m, ...IMAGES[os], platform: os, arch };
}

/**
 * The environment a document reports (bench/result/environment.js).
 * @param {ReturnType<typeof machineFor>} m
 * @param {string} node
 * @param {string} imageVersion
 */
function environmentOf(m, node, imageVersion) {
  const { v8, napi, modules } = NODE_BUILDS[semver.major(node)] ?? NODE_BUILDS[22];
  const { platform, arch, osRelease, cpuModel, cores, imageOs } = m;
  const runnerOs = platform === 'linux' ? 'Linux' : 'macOS';
  const ci = { provider: 'github-actions', runnerOs, runnerArch: arch.toUpperCase() };
  const machine = { platform, arch, osRelease, osVersion: null, cpuModel, cores, memoryBytes: 16 * 2 ** 30 };
  return { node, v8, napi, modules, ...machine, ci: { ...ci, imageOs, imageVersion, runId: '1' } };
}

/**
 * The drivers a Node loads with a generation (load-drivers.js info): node:sqlite where the Node has it.
 * @param {string} node
 * @param {string} generation
 * @param {string} [driverVersion] better-sqlite3-multiple-ciphers' version, instead of the generation's
 */
function driversOf(node, generation, driverVersion) {
  const [origin, ...packages] = GENERATION_RELEASES[generation] ?? GENERATION_RELEASES.napi10;
  const own = /** @type {any[]} */ (
    DRIVERS.filter((d) => d.package).map((d) => {
      const [release, sqlite, mc] = packages[PACKAGES.indexOf(d.name)];
      const version = d.name === PRODUCTION_DRIVER && driverVersion ? driverVersion : release;
      const file = `.drivers/${generation}/node_modules/${d.name}/build/Release/better_sqlite3.node`;
      const sha256 = crypto.createHash('sha256').update(`${d.name}@${version}`).digest('hex');
      const binary = { file, origin, sha256 };
      const sqlite3mc = mc ? { sqlite3mc: `SQLite3 Multiple Ciphers ${mc}` } : {};
      return {
        name: d.name,
        status: 'ok',
        version,
        generation,
        binary,
        sqlite,
        compileOptions: COMPILE_OPTIONS,
        ...sqlite3mc,
      };
    })
  );
  const builtIn = /** @type {import('../data/drivers.js').Driver} */ (DRIVERS.find((d) => d.node));
  const reason = `${builtIn.name} needs Node ${builtIn.node} without a flag; this is ${node}`;
  const sqlite = NODE_BUILDS[semver.major(node)]?.sqlite || '3.51.3';
  const binary = { file: '/usr/bin/node', origin: 'built-into-node' };
  return [
    ...own,
    semver.satisfies(node, /** @type {string} */ (builtIn.node))
      ? { name: builtIn.name, status: 'ok', version: node, sqlite, binary, compileOptions: [] }
      : { name: builtIn.name, status: 'skipped', reason },
  ];
}

/** Configs that measure production again: the A/A twin, and a config whose change is SQLite's default. */
const SAME_AS_PRODUCTION = new Set([TWIN_CONFIG, ...configNotes().flatMap((c) => (c.equalsDefault ? [c.name] : []))]);

/**
 * A real run's profile (real-run.json is one, see its `source`): per timed case, its typical figure
 * (4 significant figures) and the robust spread of its rounds (1.4826 × MAD / median).
 * @param {any} doc a result document
 */
export function realProfile(doc) {
  /** @type {Record<string, [number, number]>} */
  const profile = {};
  for (const c of doc.cases)
    if (c.stats?.rounds?.length) {
      const m = median(c.stats.rounds);
      const mad = median(c.stats.rounds.map((/** @type {number} */ x) => Math.abs(x - m)));
      profile[caseKey(c)] = [Number(m.toPrecision(4)), Number(((1.4826 * mad) / m).toFixed(4))];
    }
  const { environment: e, run } = doc;
  const source = { run: run.id.slice(0, 8), finishedAt: run.finishedAt, commit: run.commit?.slice(0, 12) ?? null };
  const where = { node: e.node, platform: `${e.platform}-${e.arch}`, cpuModel: e.cpuModel, cores: e.cores };
  return { source: { ...source, ...where, rounds: run.budget.rounds, timeMs: run.budget.time }, cases: profile };
}

/** real-run.json, read once. @type {ReturnType<typeof realProfile> | undefined} */
let real;
const realRun = () => (real ??= JSON.parse(fs.readFileSync(new URL('./real-run.json', import.meta.url), 'utf8')));
/**
 * A case's figure and spread in the real run: node:sqlite's from better-sqlite3's (OP_FIGURES nodeSqlite).
 * @param {string} key a case key
 * @param {string} op
 * @returns {[number, number] | null}
 */
function realOf(key, op) {
  const cases = realRun().cases;
  if (cases[key]) return cases[key];
  const twin = cases[key.replace('/node:sqlite/', '/better-sqlite3/')];
  return key.includes('/node:sqlite/') && twin ? [twin[0] * (OP_FIGURES[op]?.nodeSqlite ?? 1), twin[1]] : null;
}

/**
 * Per timed operation: `rate`, its ops/s on a typical runner (production, encrypted); `noise`, its
 * spread between rounds (each case draws its own around it); `nodeSqlite`, node:sqlite against
 * better-sqlite3 (invented: the real run's Node 20 has no node:sqlite); `verified`, what its task
 * counts (bench/data/ops.js verify) from the operations it ran.
 * @type {Record<string, { rate: number, noise: number, nodeSqlite: number, verified: (n: number) => Record<string, number> }>}
 */
const OP_FIGURES = {
  setup: { rate: 40, noise: 0.04, nodeSqlite: 1, verified: (n) => ({ databases: n }) },
  insert: { rate: 8000, noise: 0.012, nodeSqlite: 0.93, verified: (n) => ({ inserted: n }) },
  'insert-batch': { rate: 320, noise: 0.03, nodeSqlite: 0.85, verified: (n) => ({ inserted: n * 100 }) },
  select: { rate: 7700, noise: 0.008, nodeSqlite: 0.9, verified: (n) => ({ rowsRead: n * 50 }) },
  update: { rate: 38000, noise: 0.01, nodeSqlite: 0.97, verified: (n) => ({ updated: n }) },
  delete: { rate: 6000, noise: 0.014, nodeSqlite: 0.95, verified: (n) => ({ deleted: n, replaced: n }) },
  vacuum: { rate: 12, noise: 0.035, nodeSqlite: 1, verified: (n) => ({ vacuums: n }) },
  checkpoint: {
    rate: 650,
    noise: 0.035,
    nodeSqlite: 1,
    verified: (n) => ({ checkpoints: n, walBytesCheckpointed: n * 81_932 }),
  },
};
/** Extra rounds a full run's deadline leaves room for (a real cell reaches about p24). */
const MAX_EXTRA_ROUNDS = 24;

/** The keys of each case's references, from the plan's pairs (the same for every document). */
const referencesOf = referencesIn(runPlan().pairs);
const referenceKeys = (/** @type {Case} */ c) => referencesOf(c).map(caseKey);

/**
 * Every timed case's rounds as run-suite.js measures them: the mode's rounds, then extra rounds for
 * the least precise cases and their references (extra-rounds.js nextExtraRound). Each round moves
 * the whole machine (its level); each case has its own noise.
 * @param {{ c: Case, ops: number, noise: number }[]} timed
 * @param {import('../engine/measure.js').Budget & { maxRounds?: number, targetRse?: number }} budget
 * @param {() => number} random
 * @returns {Map<string, { rounds: number[], slots: string[] }>}
 */
function measureRounds(timed, budget, random) {
  const byKey = new Map(
    timed.map((t) => [caseKey(t.c), { ...t, rounds: [], slots: [], rse: /** @type {number | null} */ (null) }]),
  );
  const measureOne = (/** @type {any} */ t, /** @type {string} */ slot, /** @type {number} */ level) => {
    t.rounds.push(t.ops * level * (1 + t.noise * Math.sqrt(12) * (random() - 0.5)));
    t.slots.push(`${slot}/${t.c.op}`);
    t.rse = null; // worked out again only when the extra rounds next rank the cases
  };
  for (let r = 0; r < budget.rounds; r++) {
    const level = 1 + 0.02 * (random() - 0.5);
    for (const t of byKey.values()) measureOne(t, `r${r}`, level);
  }
  const maxRounds = budget.maxRounds ?? budget.rounds;
  for (let n = 1; n <= MAX_EXTRA_ROUNDS && budget.rounds < maxRounds; n++) {
    const imprecise = [...byKey.values()].flatMap((t) => {
      const rse = (t.rse ??= medianRse(t.rounds));
      return t.rounds.length < maxRounds && rse > (budget.targetRse ?? Infinity) ? [{ c: t.c, rse }] : [];
    });
    const chosen = nextExtraRound(imprecise);
    if (!chosen.length) break;
    const keys = new Set([...chosen.map(caseKey), ...chosen.flatMap(referenceKeys)]);
    const level = 1 + 0.02 * (random() - 0.5);
    for (const k of keys) {
      const t = byKey.get(k);
      if (t && t.rounds.length < maxRounds) measureOne(t, `p${n}`, level);
    }
  }
  return byKey;
}

/**
 * A timed case's statistics from its rounds, as measure.js combine gives them and run-suite.js
 * rounded stores them.
 * @param {string} op
 * @param {any} m its rounds and slots
 * @param {import('../engine/measure.js').Budget} budget
 * @param {() => number} random
 */
function statsOf(op, m, budget, random) {
  const med = median(m.rounds);
  const rse = medianRse(m.rounds);
  const lat = 1000 / med;
  const opsPerSample = Math.max(1, Math.ceil((budget.minSampleMs * med) / 1000));
  const totalMs = m.rounds.length * Math.max(budget.time, budget.minSamples * lat) * (1 + 0.5 * random());
  const samples = Math.max(
    budget.minSamples * m.rounds.length,
    Math.round(((totalMs / 1000) * med * (0.3 + 0.6 * random())) / opsPerSample),
  );
  const rme = 0.2 + 2 * random();
  const stats = rounded({
    opsPerSec: { median: med, mean: med * (0.85 + 0.3 * random()), rme, ...(Number.isNaN(rse) ? {} : { rse }) },
    latencyMs: {
      median: lat,
      mean: lat * (1 + random()),
      p99: lat * (2 + 5 * random()),
      min: lat * (0.6 + 0.3 * random()),
      max: lat * (20 + 800 * random()),
      sd: lat * (0.3 + 20 * random()),
    },
    rme: rme * (1 + 10 * random()),
    samples,
    opsPerSample,
    rounds: m.rounds,
    totalMs,
  });
  return {
    stats: { ...stats, slots: m.slots },
    verified: OP_FIGURES[op]?.verified(samples * opsPerSample) ?? { operations: samples * opsPerSample },
  };
}

/**
 * @param {{ platform?: string, node?: string, finishedAt?: string, mode?: 'quick'|'full', seed?: number, runId?: string, scale?: number, imageVersion?: string, driverVersion?: string, real?: boolean, shift?: { op: string, factor: number } }} p
 *   scale: every figure times it (a slow or fast VM); real: figures and noise from real-run.json;
 *   shift: one operation's figures with the production driver times factor (a driver change)
 */
export function syntheticDoc(p = {}) {
  const m = machineFor(p.platform ?? 'linux-x64');
  const node = p.node ?? 'v22.23.3';
  const finishedAt = p.finishedAt ?? '2026-11-20T03:17:00.000Z';
  const startedAt = new Date(Date.parse(finishedAt) - 12 * 60_000).toISOString();
  const mode = p.mode ?? 'full';
  const budget = BUDGETS[mode];
  const random = createRandom(p.seed ?? 1);
  const gen = generationFor(node)?.id ?? 'napi10';
  const drivers = driversOf(node, gen, p.driverVersion);
  const ok = (/** @type {string} */ d) => drivers.find((x) => x.name === d)?.status === 'ok';
  const reasonOf = (/** @type {string} */ d) => /** @type {any} */ (drivers.find((x) => x.name === d)).reason;
  const engineDir = `/tmp/sqlite-bench-engine-${tempSuffix(random)}/sqlite-bench-${tempSuffix(random)}`;
  const tempdirOf = (/** @type {import('../data/suite.js').Setup} */ s) => `${engineDir}/${setupDir(s)}/tmp`;
  const pragmasOf = (/** @type {import('../data/suite.js').Setup} */ s) =>
    readings(CONFIGS.find((c) => c.name === s.config)?.pragmas ?? [], tempdirOf(s), s.driver);
  const list = cases();
  const skipped = (/** @type {Case} */ c) =>
    !ok(c.driver)
      ? reasonOf(c.driver)
      : c.op === 'checkpoint' && c.config === 'baseline'
        ? 'journal_mode is delete, not wal: there is no WAL to checkpoint'
        : null;
  /** @type {Map<string, number>} */
  const truth = new Map();
  const timed = list
    .filter((c) => !skipped(c) && c.op !== 'size')
    .map((c) => {
      // the A/A twin (and a config that sets SQLite's default) is production measured again: the same true figure
      const key = caseKey({ ...c, config: SAME_AS_PRODUCTION.has(c.config) ? PRODUCTION_CONFIG : c.config });
      const shift = p.shift && p.shift.op === c.op && c.driver === PRODUCTION_DRIVER ? p.shift.factor : 1;
      const from = p.real ? realOf(key, c.op) : null;
      const scale = p.scale ?? 1;
      if (!truth.has(key))
        truth.set(
          key,
          from
            ? from[0] * scale * m.speed * (NODE_SPEED[semver.major(node)] ?? 1) * shift
            : (OP_FIGURES[c.op]?.rate ?? 1000) * scale * (0.9 + 0.2 * random()) * (c.cipher === 'none' ? 2 : 1) * shift,
        );
      return {
        c,
        ops: /** @type {number} */ (truth.get(key)),
        // the real run's spread, bounded: 4 rounds of 40 ms on 2 shared cores spread up to 84%
        noise: from
          ? Math.min(0.08, Math.max(0.005, from[1]))
          : (OP_FIGURES[c.op]?.noise ?? 0.02) * Math.exp(2 * (random() - 0.5)),
      };
    });
  const measured = measureRounds(timed, budget, random);
  const docCases = list.map((c) => {
    const why = skipped(c);
    if (why) return { ...c, status: 'skipped', reason: why };
    const pragmas = effective(pragmasOf(c));
    if (c.op === 'size') {
      const wal = c.config === 'baseline' ? 0 : 6_900_000;
      return {
        ...c,
        status: 'ok',
        pragmas,
        size: sizeOf(6_800_000 + 4096 * Math.round(random() * 10), wal, 1700, 2000),
      };
    }
    return { ...c, status: 'ok', ...statsOf(c.op, measured.get(caseKey(c)), budget, random), pragmas };
  });
  // temp_store_directory is the process's: each setup reads back the one the setup before it set
  let lastTempdir = /** @type {string | null} */ (null);
  // the setups the run prepared: every (config, driver, cipher) of its cases, the claims' too
  const runSetups = [
    ...new Map(list.map((c) => [setupKey(c), { config: c.config, driver: c.driver, cipher: c.cipher }])).values(),
  ];
  const docSetups = runSetups.map((s) => {
    if (!ok(s.driver)) return { ...s, status: 'skipped', reason: reasonOf(s.driver) };
    const pragmas = pragmasOf(s).map((r) => (r.name === 'temp_store_directory' ? { ...r, before: lastTempdir } : r));
    lastTempdir = tempdirOf(s);
    return { ...s, status: 'ok', pragmas, encryption: encryptionOf(s.cipher) };
  });
  const analysed = analyseRun(docCases);
  const workloads = syntheticWorkloads({ mode, random, ok, reasonOf, scale: p.scale ?? 1 });
  return {
    schemaVersion: SCHEMA_VERSION,
    kind: KIND,
    run: {
      id: p.runId ?? idFrom(`${p.platform}|${node}|${finishedAt}|${mode}|${p.seed ?? 1}`),
      startedAt,
      finishedAt,
      status: 'complete',
      mode,
      commit: null,
      seed: 1,
      budget,
      filters: {},
      order: list.map(caseKey),
      engines: budget.rounds + Math.max(0, ...[...measured.values()].map((x) => x.rounds.length - budget.rounds)),
    },
    environment: environmentOf(m, node, p.imageVersion ?? '20261115.1'),
    harness: { tinybench: TINYBENCH_VERSION, method: METHOD },
    sides: oneSide(node, drivers),
    configs: configNotes(),
    setups: docSetups,
    cases: analysed.cases,
    machine: analysed.machine,
    // a synthetic run has no slices to tell the slow state by, nor a machine to read
    noise: { slowShare: null, byOp: {}, machineFast: analysed.machineFast, steal: null, topology: null },
    selfCheck: analysed.selfCheck,
    ...withWorkloadPairs(analysed, workloads),
    counting: { status: 'unavailable', reason: 'a synthetic document: nothing was counted' },
  };
}

/** A database's size as the engine reads it (4 KiB pages, none free). */
const sizeOf = (/** @type {number[]} */ ...[mainBytes, walBytes, pageCount, messages]) =>
  /** @type {const} */ ({ mainBytes, walBytes, pageSize: 4096, pageCount, freelistCount: 0, messages });

/** The on-disk proof of a database's encryption (bench/engine/database.js). */
const encryptionOf = (/** @type {string} */ cipher) => {
  const mc = CIPHERS.find((c) => c.name === cipher)?.sqlite3mc;
  return { encrypted: Boolean(mc), plainHeader: !mc, keylessOpen: mc ? 'SQLITE_NOTADB' : 'ok' };
};

/**
 * A concurrency round's figures (bench/workloads/concurrency.js summarise) on a typical runner,
 * production's setup, 2,000 messages: per reader reads/s, the writer's writes/s, latencies in ms.
 * Keyed by journal mode, and by what changes them most: no writer, or busy_timeout 0.
 */
const CONCURRENCY =
  /** @type {Record<string, { reads: number, writes?: number, readP50: number, readP99: number, writeP50?: number, writeP99?: number }>} */ ({
    WAL: { reads: 2300, writes: 2700, readP50: 0.1, readP99: 6, writeP50: 0.09, writeP99: 7 },
    DELETE: { reads: 10, writes: 900, readP50: 2, readP99: 900, writeP50: 0.85, writeP99: 4 },
    'WAL readers only': { reads: 4300, readP50: 0.075, readP99: 8 },
    'DELETE readers only': { reads: 4350, readP50: 0.08, readP99: 8 },
    'DELETE busy 0': { reads: 4700, writes: 29, readP50: 0.08, readP99: 4, writeP50: 15, writeP99: 215 },
  });

/** Scale at 2,000 messages on a typical runner: each operation's ops/s and how it changes per tenfold. */
const SCALE_RATES = {
  select: [13600, 0.99],
  update: [60000, 0.8],
  checkpoint: [990, 0.92],
  insert: [13300, 1],
  delete: [10400, 0.88],
};

/**
 * One concurrency round as its process reports it.
 * @param {import('../data/workloads.js').ConcurrencyWorkload} w
 * @param {{ random: () => number, level: number, durationMs: number, pragmas: Record<string, unknown> }} o
 */
function concurrencyRound(w, o) {
  const variant = !w.writer ? ' readers only' : w.busy === 0 && w.journal === 'DELETE' ? ' busy 0' : '';
  const t = CONCURRENCY[`${w.journal}${variant}`] ?? CONCURRENCY[w.journal];
  const speed = (w.cipher === 'none' ? 1.7 : 1) * o.level;
  const vary = (/** @type {number} */ x, /** @type {number} */ by) => x * (1 + by * (o.random() - 0.5));
  const perReader = Array.from({ length: w.readers }, () => vary(t.reads * speed, 0.3));
  const readsPerSec = perReader.reduce((a, b) => a + b, 0);
  const writer =
    w.writer && t.writes
      ? {
          writesPerSec: vary(t.writes * speed, 0.3),
          writeP50Ms: vary(/** @type {number} */ (t.writeP50), 0.4),
          writeP99Ms: vary(/** @type {number} */ (t.writeP99), 1),
        }
      : null;
  const reads = Math.round((readsPerSec * o.durationMs) / 1000);
  const writes = writer ? Math.round((writer.writesPerSec * o.durationMs) / 1000) : 0;
  return {
    readers: w.readers,
    readsPerSec,
    perReader,
    readP50Ms: vary(t.readP50, 0.4),
    readP99Ms: vary(t.readP99, 1),
    ...(writer ?? {}),
    busy: { reads: 0, writes: 0 },
    pragmas: o.pragmas,
    verified: { reads, rowsRead: reads * 50, writes, writesCounted: writes },
  };
}

/**
 * One scale round (operations and VACUUM merged, as run-workloads.js merges them).
 * @param {number} messages
 * @param {{ random: () => number, level: number, pragmas: Record<string, unknown> }} o
 */
function scaleRound(messages, o) {
  const tenfolds = Math.log10(messages / 2000);
  const vary = (/** @type {number} */ x, /** @type {number} */ by) => x * (1 + by * (o.random() - 0.5));
  const rates = Object.fromEntries(
    Object.entries(SCALE_RATES).map(([op, [rate, per]]) => [op, vary(rate * per ** tenfolds * o.level, 0.1)]),
  );
  const mainBytes = 3416 * messages;
  const n = (/** @type {number} */ rate) => Math.round(rate * 0.2);
  return {
    rates,
    vacuumMs: vary((110 * 9.5 ** tenfolds) / o.level, 0.1),
    checkpointMs: vary((3.35 * 8.5 ** tenfolds) / o.level, 0.2),
    rssBeforeBytes: Math.round(vary(63_400_000, 0.01)),
    rssPeakBytes: Math.round(vary(78_000_000 * 1.12 ** tenfolds, 0.01)),
    files: {
      before: { mainBytes, walBytes: 4152 },
      walAfterVacuumBytes: mainBytes + 27704,
      after: { mainBytes: mainBytes - 16384, walBytes: 0 },
    },
    verified: {
      'select.rowsRead': n(rates.select) * 50,
      'update.updated': n(rates.update),
      'checkpoint.checkpoints': n(rates.checkpoint),
      'checkpoint.walBytesCheckpointed': n(rates.checkpoint) * 104_320,
      'insert.inserted': n(rates.insert),
      insertedRemoved: n(rates.insert),
      'delete.deleted': n(rates.delete),
      'delete.replaced': n(rates.delete),
      vacuums: 1,
      messagesVacuumed: messages,
    },
    pragmas: o.pragmas,
  };
}

/**
 * The workloads of a run (bench/workloads/run-workloads.js), from seeded rounds: the mode's default
 * rows and budget, each round in fresh processes (a temp directory each), analysed by the
 * workloads' own analysis.
 * @param {{ mode: 'quick' | 'full', random: () => number, ok: (driver: string) => boolean, reasonOf: (driver: string) => string, scale: number }} o
 */
function syntheticWorkloads(o) {
  const budget = WORKLOAD_BUDGETS[o.mode];
  const quick = o.mode === 'quick';
  const selected = selectWorkloads({ quick }).filter((w) => w.kind === 'concurrency' || !quick || w.quickMessages > 0);
  const dir = `/tmp/sqlite-bench-workloads-${tempSuffix(o.random)}`;
  let seq = 0;
  const tempdir = () => `${dir}/p${seq++}/tmp`;
  const levels = Array.from({ length: budget.rounds }, () => o.scale * (1 + 0.04 * (o.random() - 0.5)));
  /** @type {import('../workloads/workload-figures.js').Measured[]} */
  const measured = selected.map((w) => {
    const messages = messagesOf(w, budget, quick);
    if (!o.ok(w.driver)) return { w, status: 'skipped', reason: o.reasonOf(w.driver), messages, rounds: [], slots: [] };
    const rounds = levels.map((level) => {
      const pragmas = effective(readings(workloadPragmasOf(w), tempdir(), w.driver));
      return w.kind === 'concurrency'
        ? concurrencyRound(w, { random: o.random, level, durationMs: budget.durationMs, pragmas })
        : scaleRound(messages, { random: o.random, level, pragmas });
    });
    return { w, status: 'ok', messages, rounds, slots: levels.map((_, i) => `r${i}/${w.kind}`) };
  });
  /** @type {Map<string, any>} */
  const templates = new Map();
  for (const m of measured.filter((x) => x.status === 'ok')) {
    const w = m.w;
    const id = templateId(w, m.messages);
    if (templates.has(id)) continue;
    const pragmas = readings(workloadPragmasOf(w, true), tempdir(), w.driver);
    const mainBytes = 3416 * m.messages;
    const { driver, cipher } = w;
    const head = { id, messages: m.messages, ...(w.kind === 'concurrency' ? { journal: w.journal } : {}) };
    const size = sizeOf(mainBytes, 0, mainBytes / 4096, m.messages);
    templates.set(id, { ...head, driver, cipher, status: 'ok', pragmas, encryption: encryptionOf(cipher), size });
  }
  return {
    mode: o.mode,
    selection: [quick ? 'quick' : 'default'],
    budget,
    seconds: Math.round((quick ? 20 : 240) * (1 + 0.1 * o.random()) * 10) / 10,
    templates: [...templates.values()],
    ...analyseWorkloads(measured),
  };
}

/** @typedef {import('../data/run-plan.js').SidePlan} SidePlan @typedef {import('../data/suite.js').Case} Case */

/** Each Node major's speed against Node 22, and each driver generation's against 12.x (the shootout's truth). */
const NODE_SPEED = /** @type {Record<number, number>} */ ({ 18: 0.95, 20: 0.98, 22: 1, 24: 1.02, 25: 1.03 });
const GENERATION_SPEED = /** @type {Record<string, number>} */ ({ node18: 0.97, node20: 1, napi10: 1.01 });

/** Sides a real shootout cannot run, and why (12.x aborts on Node 24 when a database closes). */
const FAILING_SIDES = [
  {
    major: 24,
    generation: 'node20',
    reason: (/** @type {string} */ version) =>
      `engine server under Node v${version} (node20) stopped (signal SIGABRT): node[2695]: void node::RemoveEnvironmentCleanupHook(v8::Isolate*, CleanupHook, void*) at ../src/api/hooks.cc:142 | Assertion failed: (env) != nullptr | Database::~Database() [better-sqlite3-multiple-ciphers]`,
  },
];

/**
 * A shootout's run for one machine and night: a side per Node of the matrix and driver generation
 * (bench/data/run-plan.js), seeded per-round figures, rows and cases from the shootout's own
 * analysis (bench/paired/judge-sides.js).
 * @param {{ platform?: string, nodes?: string[], finishedAt?: string, seed?: number, scale?: number, imageVersion?: string }} p
 *   nodes: the exact versions (default: the matrix's newest)
 */
export function syntheticShootout(p = {}) {
  const m = machineFor(p.platform ?? 'linux-x64');
  const f = shootoutFlags([]);
  const nodes = p.nodes ?? ['v18.20.8', 'v20.20.2', 'v22.23.3', 'v24.21.0', 'v25.9.0'];
  const versions = nodes.map((v) => v.replace(/^v/, ''));
  const finishedAt = p.finishedAt ?? '2026-11-20T03:17:00.000Z';
  const random = createRandom(((p.seed ?? 1) ^ 0x5400) >>> 0);
  const seconds = Math.round(400_000 + 100_000 * random()) / 1000;
  const plans = planSides(versions);
  const failure = (/** @type {SidePlan} */ s) =>
    FAILING_SIDES.find((x) => x.major === s.major && x.generation === s.generation)?.reason(s.version);
  const ok = plans.filter((s) => !failure(s));
  const pairs = planPairs(ok);
  const ref = referenceSide(ok);
  const filters = defaultFilters({});
  /** a side's drivers, as its engine server loads them */
  const sideDrivers = (/** @type {SidePlan} */ s) => driversOf(`v${s.version}`, s.generation);
  /** per side, the in-scope cases its server runs: its filters narrow a 13.x side to the drivers 13.x changes */
  const sideCases = new Map(
    ok.map((s) => {
      const sf = /** @type {Record<string, string[]>} */ (sideFilters(s, plans, filters));
      return [s.label, cases().filter((c) => inScope(c, {}) && sf.driver.includes(c.driver))];
    }),
  );
  /** @type {Map<string, number>} */
  const truth = new Map();
  const trueRate = (/** @type {SidePlan} */ s, /** @type {Case} */ c) => {
    const key = `${s.major}|${s.generation}|${caseKey(c)}`;
    const base = (OP_FIGURES[c.op]?.rate ?? 1000) * (c.cipher === 'none' ? 2 : 1) * (NODE_SPEED[s.major] ?? 1);
    if (!truth.has(key))
      truth.set(key, base * (GENERATION_SPEED[s.generation] ?? 1) * (0.97 + 0.06 * random()) * (p.scale ?? 1));
    return /** @type {number} */ (truth.get(key));
  };
  const rounds = Array.from({ length: f.rounds }, () => {
    const level = 1 + 0.04 * (random() - 0.5);
    return Object.fromEntries(
      ok.map((s) => {
        const drivers = sideDrivers(s);
        const roundCase = (/** @type {any} */ c) => {
          const d = /** @type {any} */ (drivers.find((x) => x.name === c.driver));
          if (d.status !== 'ok') return { ...c, status: d.status, reason: d.reason };
          const median = trueRate(s, c) * level * (1 + 0.08 * (random() - 0.5));
          return { ...c, status: 'ok', stats: { opsPerSec: { median } } };
        };
        return [s.label, { cases: /** @type {any[]} */ (sideCases.get(s.label)).map(roundCase) }];
      }),
    );
  });
  // the cases each side ran: the same in every round
  const listed = Object.fromEntries(
    ok.map((s) => [s.label, rounds[0][s.label].cases.filter((c) => c.status === 'ok').map(caseKey)]),
  );
  const refEnv = environmentOf(m, `v${ref.version}`, p.imageVersion ?? '20261115.1');
  const run = runFields(f, {
    id: idFrom(`shootout|${p.platform}|${versions.join(',')}|${finishedAt}|${p.seed ?? 1}`),
    startedAt: new Date(Date.parse(finishedAt) - Math.round(seconds * 1000)).toISOString(),
    finishedAt,
    seconds,
    commit: null,
    filters,
    engine: engineArgs(f, filters),
  });
  const sides = plans.map((s) => {
    const reason = failure(s);
    if (reason) return documentSide(s, ref, { status: 'failed', drivers: [], reason });
    return documentSide(s, ref, { status: 'ok', drivers: sideDrivers(s), v8: NODE_BUILDS[s.major]?.v8 });
  });
  return runDocument(
    run,
    {
      environment: refEnv,
      harness: { tinybench: TINYBENCH_VERSION, method: runMethod(SHOOTOUT_SERVER, ok.length) },
      comparisons: judgeSidePairs(rounds, pairs, listed, { threshold: f.threshold, alpha: f.alpha }),
      cases: roundCases(
        rounds,
        ok.map((s) => s.label),
      ),
    },
    sides,
  );
}
