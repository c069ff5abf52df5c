// Synthetic result documents, valid against the schema: for the aggregate's tests and for its
// benchmark over a year of nightly history. Figures come from a seeded generator, so the same
// parameters always give the same document. Never used for anything a reader sees.
import crypto from 'node:crypto';
import { CIPHERS } from '../bench/tables/ciphers.js';
import { CONFIGS, PRODUCTION_CONFIG, TWIN_CONFIG, configNotes } from '../bench/tables/configs.js';
import { generationFor } from '../bench/tables/drivers.js';
import { METHOD, SCHEMA_VERSION, TINYBENCH_VERSION } from '../bench/result/document.js';
import { BUDGETS } from '../bench/engine/budgets.js';
import { cases, setups, caseKey } from '../bench/tables/suite.js';
import { createRandom } from '../lib/prng.js';
import { median } from '../lib/stats/spread.js';
import { analyseRun } from '../bench/result/analysis.js';

const MACHINES = {
  'linux-x64': { platform: 'linux', arch: 'x64', cpuModel: 'AMD EPYC 7763 64-Core Processor', cores: 4, imageOs: 'ubuntu24', osRelease: '6.11.0-1018-azure' },
  'linux-arm64': { platform: 'linux', arch: 'arm64', cpuModel: 'Neoverse-N2', cores: 4, imageOs: 'ubuntu24', osRelease: '6.11.0-1018-azure' },
  'darwin-arm64': { platform: 'darwin', arch: 'arm64', cpuModel: 'Apple M1 (Virtual)', cores: 3, imageOs: 'macos15', osRelease: '24.6.0' },
  'darwin-x64': { platform: 'darwin', arch: 'x64', cpuModel: 'Intel(R) Core(TM) i7-8700B CPU @ 3.20GHz', cores: 4, imageOs: 'macos15', osRelease: '24.6.0' },
};
export const SYNTHETIC_PLATFORMS = Object.keys(MACHINES);

/** A deterministic UUID-shaped id from a string. */
const idFrom = (/** @type {string} */ s) => {
  const h = crypto.createHash('sha256').update(s).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** Configs that measure production again: the A/A twin, and a config whose change is SQLite's default. */
const SAME_AS_PRODUCTION = new Set([TWIN_CONFIG, ...configNotes().filter((c) => c.equalsDefault).map((c) => c.name)]);

/**
 * @param {{ platform?: string, node?: string, finishedAt?: string, mode?: 'quick'|'full', seed?: number, runId?: string, scale?: number, imageVersion?: string, driverVersion?: string }} p
 *   scale: every figure of the night multiplied by it (a slow or fast VM); imageVersion, driverVersion:
 *   the runner image and better-sqlite3-multiple-ciphers version the document reports
 */
export function syntheticDoc(p = {}) {
  const m = MACHINES[/** @type {keyof typeof MACHINES} */ (p.platform ?? 'linux-x64')];
  const node = p.node ?? 'v22.23.3';
  const finishedAt = p.finishedAt ?? '2026-11-20T03:17:00.000Z';
  const startedAt = new Date(Date.parse(finishedAt) - 8 * 60_000).toISOString();
  const mode = p.mode ?? 'full';
  const random = createRandom(p.seed ?? 1);
  const gen = generationFor(node)?.id ?? 'napi10';
  const versions = [...({ napi10: ['13.0.3', '13.2.0'], node20: ['12.11.1', '12.11.1'], node18: ['11.10.0', '11.10.0'] }[gen] ?? ['13.0.3', '13.2.0'])];
  if (p.driverVersion) versions[0] = p.driverVersion;
  const hasSqlite = /^v(2[4-9]|22\.(1[3-9]|2\d)|23\.([4-9]|1\d))/.test(node);
  const drivers = [
    { name: 'better-sqlite3-multiple-ciphers', status: 'ok', version: versions[0], generation: gen, sqlite: '3.53.4', sqlite3mc: 'SQLite3 Multiple Ciphers 2.4.0', binary: { file: `.drivers/x/node_modules/better-sqlite3-multiple-ciphers/build/Release/better_sqlite3.node`, origin: 'built-from-source', sha256: 'a'.repeat(64) }, compileOptions: ['DEFAULT_CACHE_SIZE=-16000'] },
    { name: 'better-sqlite3', status: 'ok', version: versions[1], generation: gen, sqlite: '3.54.1', binary: { file: '.drivers/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node', origin: 'built-from-source', sha256: 'b'.repeat(64) }, compileOptions: ['DEFAULT_CACHE_SIZE=-16000'] },
    hasSqlite
      ? { name: 'node:sqlite', status: 'ok', version: node, sqlite: '3.51.3', binary: { file: '/usr/bin/node', origin: 'built-into-node' }, compileOptions: [] }
      : { name: 'node:sqlite', status: 'skipped', reason: `node:sqlite needs Node ^22.13.0 || >=23.4.0 without a flag; this is ${node}` },
  ];
  const ok = (/** @type {string} */ d) => drivers.find((x) => x.name === d)?.status === 'ok';
  const pragmasOf = (/** @type {string} */ config) => Object.fromEntries((CONFIGS.find((c) => c.name === config)?.pragmas ?? []).map(([n, v]) => [n, n === 'optimize' ? true : typeof v === 'number' ? v : String(v).toLowerCase()]));
  const list = cases();
  const nRounds = BUDGETS[mode].rounds;
  /** the machine's level in each round: every case of a round moves with it */
  const levels = Array.from({ length: nRounds }, () => 1 + 0.02 * (random() - 0.5));
  /** @type {Map<string, number>} */
  const truth = new Map();
  const docCases = list.map((c) => {
    if (!ok(c.driver)) return { ...c, status: 'skipped', reason: /** @type {any} */ (drivers.find((x) => x.name === c.driver)).reason };
    if (c.op === 'checkpoint' && c.config === 'baseline') return { ...c, status: 'skipped', reason: 'journal_mode is delete, not wal: there is no WAL to checkpoint' };
    if (c.op === 'size') return { ...c, status: 'ok', pragmas: pragmasOf(c.config), size: { mainBytes: 7_000_000 + Math.round(random() * 1e5), walBytes: c.config === 'baseline' ? 0 : 6_900_000, pageSize: 4096, pageCount: 1700, freelistCount: 0, messages: 2000 } };
    const base = { setup: 40, insert: 8000, 'insert-batch': 320, select: 7700, update: 38000, delete: 6000, vacuum: 12, checkpoint: 650 }[c.op] ?? 1000;
    // the A/A twin (and a config that sets SQLite's default) is production measured again: the same true figure
    const key = caseKey({ ...c, config: SAME_AS_PRODUCTION.has(c.config) ? PRODUCTION_CONFIG : c.config });
    if (!truth.has(key)) truth.set(key, base * (p.scale ?? 1) * (0.9 + 0.2 * random()) * (c.cipher === 'none' ? 2 : 1));
    const ops = /** @type {number} */ (truth.get(key));
    const rme = 0.2 + 2 * random();
    const lat = 1000 / ops;
    return {
      ...c,
      status: 'ok',
      stats: { opsPerSec: { median: ops, mean: ops * 0.98, rme }, latencyMs: { median: lat, mean: lat * 1.02, p99: lat * 3, min: lat * 0.8, max: lat * 20, sd: lat * 0.3 }, rme: rme * 1.5, samples: 500, opsPerSample: 1, rounds: levels.map((l) => ops * l * (1 + 0.01 * (random() - 0.5))), slots: levels.map((_, i) => `r${i}/${c.op}`), totalMs: 1000 },
      verified: { operations: 500 },
      pragmas: pragmasOf(c.config),
    };
  });
  const docSetups = setups().map((s) => {
    if (!ok(s.driver)) return { ...s, status: 'skipped', reason: /** @type {any} */ (drivers.find((x) => x.name === s.driver)).reason };
    const cipher = /** @type {any} */ (CIPHERS.find((c) => c.name === s.cipher));
    return {
      ...s,
      status: 'ok',
      pragmas: (CONFIGS.find((c) => c.name === s.config)?.pragmas ?? []).map(([n, v]) => ({ name: n, requested: v, before: null, after: n === 'optimize' ? null : v, applied: true })),
      encryption: { encrypted: Boolean(cipher.sqlite3mc), plainHeader: !cipher.sqlite3mc, keylessOpen: cipher.sqlite3mc ? 'SQLITE_NOTADB' : 'ok' },
    };
  });
  const analysed = analyseRun(docCases.map((c) => (c.stats ? { ...c, stats: { ...c.stats, opsPerSec: { ...c.stats.opsPerSec, median: median(c.stats.rounds) } } } : c)));
  return {
    schemaVersion: SCHEMA_VERSION,
    kind: 'sqlite-node-bench/result',
    run: {
      id: p.runId ?? idFrom(`${p.platform}|${node}|${finishedAt}|${mode}|${p.seed ?? 1}`),
      startedAt,
      finishedAt,
      status: 'complete',
      mode,
      commit: null,
      seed: 1,
      budget: BUDGETS[mode],
      filters: {},
      order: list.map(caseKey),
    },
    environment: {
      node, v8: '12.4.254.21-node.33', napi: '10', modules: '127', platform: m.platform, arch: m.arch, osRelease: m.osRelease, osVersion: null,
      cpuModel: m.cpuModel, cores: m.cores, memoryBytes: 16 * 2 ** 30,
      ci: { provider: 'github-actions', runnerOs: m.platform === 'linux' ? 'Linux' : 'macOS', runnerArch: m.arch.toUpperCase(), imageOs: m.imageOs, imageVersion: p.imageVersion ?? '20261115.1', runId: '1' },
    },
    harness: { tinybench: TINYBENCH_VERSION, method: METHOD },
    drivers,
    configs: configNotes(),
    setups: docSetups,
    cases: analysed.cases,
    machine: analysed.machine,
    comparisons: analysed.comparisons,
    selfCheck: analysed.selfCheck,
  };
}
