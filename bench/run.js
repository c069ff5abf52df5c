// Runs the suite: for each (config, driver, cipher) a seeded template database is built once and
// proven (PRAGMAs read back, encryption on disk); each case then measures one operation on a fresh
// copy of it, so no case inherits another's writes. Cases run in an order shuffled by the seed,
// after an untimed warm-up, so no config is always the cold one.
//
// A full run gives every case `rounds` rounds, then extra rounds to the cases whose headline is not
// yet precise (`medianRse` of their round medians above `targetRse`), pass after pass in a new
// shuffled order, the least precise first (each pass takes the cases within a factor 2 of the
// worst, and at least 16), until each is precise, has `maxRounds`, or the run reaches
// `deadlineSeconds`.
// Fsync-bound cases swing from round to round with the disk; CPU-bound ones mostly do not, so the
// time goes where the uncertainty is. Every case's rounds are in its result (`stats.rounds`).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { CIPHERS } from './ciphers.js';
import { CONFIGS, describeChanges } from './configs.js';
import { applyKey, applyPragmas, openConfigured, proveEncryption, readPragma, scalar } from './database.js';
import { MAILBOXES, INSERT_MAILBOX, INSERT_MESSAGE, SCHEMA, generateMessages, messageParams } from './mail.js';
import { combine, measure, medianRse, sig } from './measure.js';
import { OPS } from './ops.js';
import { createRandom, shuffle } from './prng.js';
import { cases as selectCases, caseKey, filterArgs } from './suite.js';
import { startEngine } from './engine.js';
import { writeFileAtomic } from './fsutil.js';

/** @typedef {import('./measure.js').Budget & { seedMessages: number }} RunBudget */

/** @type {Record<'quick'|'full', RunBudget>} */
export const BUDGETS = {
  quick: { time: 40, warmupTime: 10, minSamples: 3, minSampleMs: 0.02, rounds: 1, seedMessages: 800 },
  full: { time: 200, warmupTime: 50, minSamples: 2, minSampleMs: 0.02, rounds: 5, maxRounds: 25, targetRse: 1, deadlineSeconds: 570, seedMessages: 2000 },
};

/** What an engine server's --budget may set: the measuring parts of a budget (see serverArgs). */
export const BUDGET_KEYS = /** @type {const} */ (['time', 'warmupTime', 'minSamples', 'minSampleMs', 'seedMessages']);

const POOL = 256;

/** An extra pass measures at least this many cases (all the imprecise ones, if fewer). */
const MIN_PASS = 16;

v8.setFlagsFromString('--expose-gc');
/** A full garbage collection, run untimed before each measured round. */
const collectGarbage = /** @type {() => void} */ (vm.runInNewContext('gc'));

/**
 * @typedef {object} RunOptions
 * @property {'quick'|'full'} mode
 * @property {{ config?: string[], driver?: string[], cipher?: string[], op?: string[] }} filters
 * @property {number} seed
 * @property {number} [time] ms per measured task, overriding the mode's budget
 * @property {number} [slowdown] calibration only: throughput fraction taken away from every timed task (measure.js `slowed`)
 * @property {string} [keepDb] keep the database files in this directory
 * @property {Map<string, { info: import('./load.js').DriverInfo, open?: (file: string) => import('./database.js').Conn }>} drivers
 * @property {{ interrupted: string | null }} state set `interrupted` to stop after the current case
 * @property {Partial<RunBudget>} [budget] replaces parts of the mode's budget (tests)
 * @property {string} [templates] a directory of templates shared by the engines of one run (see createSession)
 * @property {(p: import('./progress.js').Progress) => void} [onProgress]
 */

/**
 * @param {string} file
 * @returns {number}
 */
const sizeOf = (file) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

const removeDb = (/** @type {string} */ file) => {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
};

/** Beside a shared template: what the engine that built and proved it found (see createSession). */
const STAMP = 'template.json';

/**
 * What a run and the compare's serve mode share: the budget, the shuffled case list, the templates
 * (built on first use) and measuring one round of one case on a fresh copy of its template.
 *
 * With `templates` (a run's engines, one after another, with the same key and seed), a template is
 * built and proven once per run: the engine that builds it writes what it found (PRAGMA readings,
 * size, encryption proof) to a stamp beside it, and later engines copy that file instead of
 * writing 300 MB of templates each, whose writeback would disturb the fsync-bound cases they
 * measure. The run removes stale stamps before its first engine. Every round still reads every
 * PRAGMA back on its own copy.
 * @param {Omit<RunOptions, 'state' | 'onProgress'>} o
 */
export function createSession(o) {
  const budget = budgetOf(o);
  const key = process.env.SQLITE_BENCH_KEY || crypto.randomBytes(24).toString('base64url');
  const hide = (/** @type {string} */ s) => s.split(key).join('***');
  const workdir = o.keepDb ? path.resolve(o.keepDb) : fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-'));
  fs.mkdirSync(workdir, { recursive: true });
  /** @type {ReturnType<typeof generateMessages> | null} the seed data, made when a template is built (a fifth of a second) */
  let messages = null;
  const pool = generateMessages(o.seed + 1, POOL);
  const { list } = shuffledCases(o);

  /** @type {Map<string, any>} */
  const templates = new Map();

  /** Build, seed and prove the template of a (config, driver, cipher). */
  const template = (/** @type {import('./suite.js').Setup} */ s) => {
    const id = `${s.config}__${s.driver.replace(/[^a-z0-9-]/gi, '_')}__${s.cipher}`;
    if (templates.has(id)) return templates.get(id);
    const config = /** @type {import('./configs.js').Config} */ (CONFIGS.find((c) => c.name === s.config));
    const cipher = /** @type {import('./ciphers.js').Cipher} */ (CIPHERS.find((c) => c.name === s.cipher));
    const driver = o.drivers.get(s.driver);
    const dir = path.join(workdir, id);
    const tempdir = path.join(dir, 'tmp');
    const file = path.join(o.templates ? path.resolve(o.templates) : workdir, id, 'template.db');
    const stamp = path.join(path.dirname(file), STAMP);
    let t;
    if (!driver?.open) {
      t = { status: driver?.info.status === 'error' ? 'error' : 'skipped', reason: driver?.info.reason ?? `driver ${s.driver} not loaded` };
    } else if (o.templates && fs.existsSync(stamp)) {
      fs.mkdirSync(tempdir, { recursive: true });
      const found = JSON.parse(fs.readFileSync(stamp, 'utf8'));
      t = { status: 'ok', file, dir, tempdir, config, cipher, open: driver.open, ...found };
    } else {
      fs.mkdirSync(tempdir, { recursive: true });
      fs.mkdirSync(path.dirname(file), { recursive: true });
      removeDb(file); // --keep-db: an earlier run left its template here
      const open = driver.open;
      const loaded = { name: s.driver, open };
      try {
        const { conn, pragmas } = openConfigured(loaded, file, { pragmas: config.pragmas, cipher, key, tempdir, schema: SCHEMA });
        try {
          const addMailbox = conn.prepare(INSERT_MAILBOX);
          MAILBOXES.forEach((p, i) => addMailbox.run(i + 1, p, 1_700_000_000 + i, 1));
          const insert = conn.prepare(INSERT_MESSAGE);
          messages ??= generateMessages(o.seed, budget.seedMessages);
          conn.exec('BEGIN');
          messages.forEach((m, i) => insert.run(...messageParams(m, i + 1)));
          conn.exec('COMMIT');
          const size = {
            mainBytes: sizeOf(file),
            walBytes: sizeOf(`${file}-wal`),
            pageSize: Number(scalar(conn, 'PRAGMA page_size')),
            pageCount: Number(scalar(conn, 'PRAGMA page_count')),
            freelistCount: Number(scalar(conn, 'PRAGMA freelist_count')),
            messages: messages.length,
          };
          const journalMode = String(readPragma(conn, 'journal_mode'));
          conn.close();
          const encryption = proveEncryption(loaded, file, cipher);
          t = { status: 'ok', file, dir, tempdir, config, cipher, open, pragmas, size, journalMode, encryption };
          if (o.templates) writeFileAtomic(stamp, JSON.stringify({ pragmas, size, journalMode, encryption }));
        } catch (err) {
          conn.close();
          throw err;
        }
      } catch (err) {
        const e = /** @type {any} */ (err);
        const unknownCipher = /Cipher '.*' unknown/i.test(String(e?.message));
        t = {
          status: unknownCipher ? 'skipped' : 'error',
          reason: hide(unknownCipher ? `cipher not supported by this SQLite3MC build: ${e.message}` : String(e?.message ?? e).split('\n')[0]),
          pragmas: e?.pragmas,
        };
      }
    }
    t.setup = { config: s.config, driver: s.driver, cipher: s.cipher };
    templates.set(id, t);
    return t;
  };

  /**
   * Measure one case on a fresh copy of its template.
   * @param {import('./suite.js').Case} c
   * @param {RunBudget} b
   */
  const runCase = (c, b) => {
    const op = /** @type {import('./ops.js').Op} */ (OPS.find((x) => x.name === c.op));
    const t = template(c);
    const base = { config: c.config, driver: c.driver, cipher: c.cipher, op: c.op };
    if (t.status !== 'ok') return { ...base, status: t.status, reason: t.reason };
    if (op.kind === 'size') return { ...base, status: 'ok', size: t.size, pragmas: effective(t.pragmas) };
    const skip = op.skip?.({ journalMode: t.journalMode });
    if (skip) return { ...base, status: 'skipped', reason: skip };
    const loaded = { name: c.driver, open: t.open };
    const file = path.join(t.dir, `${c.op}.db`);
    /** @type {import('./database.js').Conn | null} */
    let conn = null;
    let pragmas = t.pragmas;
    let made = 0;
    try {
      if (op.needsSeed !== false) {
        fs.copyFileSync(t.file, file);
        conn = t.open(file);
        applyKey(conn, t.cipher, key);
        pragmas = applyPragmas(conn, t.config.pragmas, { tempdir: t.tempdir });
      }
      const fresh = () => {
        const f = path.join(t.dir, `setup-${made++}.db`);
        const opened = openConfigured(loaded, f, { pragmas: t.config.pragmas, cipher: t.cipher, key, tempdir: t.tempdir, schema: SCHEMA });
        return { conn: opened.conn, dispose: () => { opened.conn.close(); removeDb(f); } };
      };
      const ctx = { conn: /** @type {any} */ (conn), file, pool, random: createRandom(o.seed ^ 0x5eed), seeded: budget.seedMessages, journalMode: t.journalMode, fresh };
      const task = /** @type {NonNullable<typeof op.task>} */ (op.task)(ctx);
      collectGarbage(); // each round starts from a clean heap
      const round = measure(task, b);
      return { round, verified: task.verify?.() ?? {}, pragmas: effective(pragmas) };
    } catch (err) {
      return { ...base, status: 'error', reason: hide(String(/** @type {any} */ (err)?.message ?? err).split('\n')[0]) };
    } finally {
      conn?.close();
      if (!o.keepDb) removeDb(file);
    }
  };

  /** Untimed warm-up: one short select per usable driver, so the first measured case is not cold. */
  const warm = () => {
    const warmBudget = { ...BUDGETS.quick, time: Math.min(50, budget.time) };
    const warmed = new Set();
    for (const c of list) {
      if (warmed.has(c.driver) || !o.drivers.get(c.driver)?.open) continue;
      warmed.add(c.driver);
      runCase({ ...c, op: 'select' }, warmBudget);
    }
  };

  /** One entry per (config, driver, cipher) used so far: the full PRAGMA readings and the proof. */
  const setups = () => [...templates.values()].map((t) => ({
    ...t.setup,
    status: t.status,
    ...(t.reason ? { reason: t.reason } : {}),
    ...(t.pragmas ? { pragmas: t.pragmas } : {}),
    ...(t.encryption ? { encryption: t.encryption } : {}),
  }));

  const dispose = () => {
    if (!o.keepDb) fs.rmSync(workdir, { recursive: true, force: true });
  };

  return { budget, list, runCase, warm, setups, dispose, workdir };
}

/**
 * The cases in the seed's order, and the generator that made it (a run reshuffles every round
 * with it). The same for a run and for each of its engines.
 * @param {Pick<RunOptions, 'seed' | 'filters'>} o
 */
function shuffledCases(o) {
  const random = createRandom(o.seed);
  return { random, list: shuffle(random, selectCases(o.filters)) };
}

/** The budget of a run or session: the mode's, with the options' overrides. */
const budgetOf = (/** @type {Pick<RunOptions, 'mode' | 'budget' | 'time' | 'slowdown'>} */ o) => /** @type {RunBudget} */ ({
  ...BUDGETS[o.mode], ...o.budget, ...(o.time ? { time: o.time } : {}), ...(o.slowdown ? { slowdown: o.slowdown } : {}),
});

/**
 * The flags of an engine server that measures exactly what this run measures, with the run's
 * shared templates.
 * @param {RunOptions} o
 * @param {string} templates
 */
export function serverArgs(o, templates) {
  const measuring = Object.fromEntries(Object.entries(o.budget ?? {}).filter(([k]) => /** @type {readonly string[]} */ (BUDGET_KEYS).includes(k)));
  return [
    ...(o.mode === 'quick' ? ['--quick'] : []),
    '--seed', String(o.seed),
    ...filterArgs(o.filters),
    ...(o.time ? ['--time', String(o.time)] : []),
    ...(o.slowdown ? ['--slowdown', String(o.slowdown * 100)] : []),
    ...(o.keepDb ? ['--keep-db', o.keepDb] : []),
    '--templates', templates,
    ...(Object.keys(measuring).length ? ['--budget', JSON.stringify(measuring)] : []),
  ];
}

/**
 * Run the suite. Every round, and every pass of extra rounds, is measured by a new engine process
 * (bench/serve.js), on the templates built once for the run: two processes of the same code can
 * differ by a steady percent or two on a case (memory layout, code placement), and measured here that offset
 * was most of the run-to-run spread of CPU-bound cases. With a process per round it becomes
 * round-to-round spread, which the median of the rounds absorbs and `stats.opsPerSec.rse` shows.
 * @param {RunOptions} o
 * @returns {Promise<{ cases: object[], setups: object[], budget: RunBudget, order: string[], engines: number }>}
 */
export async function runSuite(o) {
  const started = Date.now();
  const budget = budgetOf(o);
  const { random, list } = shuffledCases(o);
  /** @type {Map<string, any>} final entries of cases that are not (or no longer) measured */
  const done = new Map();
  /** @type {Map<string, { rounds: import('./measure.js').Round[], verified: Record<string, number>, pragmas: object }>} */
  const measured = new Map();
  /** @type {Map<string, object>} each setup's PRAGMA readings and proof, as its first engine found them */
  const setups = new Map();
  let total = list.length * budget.rounds;
  let step = 0;
  const deadline = started + (budget.deadlineSeconds ?? Infinity) * 1000;
  /** @type {import('./engine.js').Engine | null} */
  let engine = null;
  let engines = 0;
  // The templates, built and proven once for the whole run (see createSession), under one key.
  const templates = o.keepDb ? path.resolve(o.keepDb) : fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-run-'));
  fs.mkdirSync(templates, { recursive: true });
  for (const d of fs.readdirSync(templates)) fs.rmSync(path.join(templates, d, STAMP), { force: true }); // --keep-db: an earlier run's
  const env = { ...process.env, SQLITE_BENCH_KEY: process.env.SQLITE_BENCH_KEY || crypto.randomBytes(24).toString('base64url') };
  /** Stop the current engine, after asking it for the setups it proved. */
  const retire = async () => {
    const e = engine;
    engine = null;
    if (!e) return;
    try {
      const r = await e.request({ setups: true });
      for (const x of r.setups ?? []) {
        const id = `${x.config}/${x.driver}/${x.cipher}`;
        if (!setups.has(id)) setups.set(id, x);
      }
    } catch {
      // it died: what it proved died with it; the cases it measured say so
    } finally {
      await e.stop();
    }
  };
  /** One round of one case, by the current engine (started if there is none); false when interrupted. */
  const measureOne = async (/** @type {import('./suite.js').Case} */ c, /** @type {number} */ pass) => {
    await new Promise((r) => setImmediate(r)); // lets a pending SIGINT/SIGTERM be seen
    if (o.state.interrupted) return false;
    const k = caseKey(c);
    o.onProgress?.({ done: step++, total, current: c, ...(pass ? { extra: { pass, deadline } } : {}) });
    let r;
    try {
      if (!engine) {
        engine = await startEngine(serverArgs(o, templates), { env });
        engines++;
      }
      r = await engine.measure(k, true);
    } catch (err) {
      engine?.kill();
      engine = null;
      await new Promise((res) => setTimeout(res, 100)); // a Ctrl-C reaches the engine and this process alike
      if (o.state.interrupted) return false;
      r = { config: c.config, driver: c.driver, cipher: c.cipher, op: c.op, status: 'error', reason: `the engine process measuring it failed: ${/** @type {Error} */ (err).message.split('\n')[0]}` };
    }
    const { key: _, ...entry } = r;
    if (!entry.round) {
      done.set(k, entry);
      measured.delete(k);
      return true;
    }
    const m = measured.get(k) ?? { rounds: [], verified: {}, pragmas: entry.pragmas };
    m.rounds.push(entry.round);
    for (const [name, n] of Object.entries(/** @type {Record<string, number>} */ (entry.verified))) m.verified[name] = (m.verified[name] ?? 0) + n;
    measured.set(k, m);
    return true;
  };
  try {
    // Rounds: every case once per round, each round in its own shuffled order, so each case's
    // samples are spread across the whole run and no case always follows the same neighbour.
    rounds: for (let round = 0; round < budget.rounds; round++) {
      const order = round === 0 ? list : shuffle(random, [...list]);
      for (const c of order) {
        if (done.has(caseKey(c))) {
          step++;
          continue;
        }
        if (!(await measureOne(c, 0))) break rounds;
      }
      await retire();
    }
    // Extra rounds for the cases not yet precise, the least precise first, until the deadline.
    const maxRounds = budget.maxRounds ?? budget.rounds;
    /** A case's rse while it may get more rounds and is above the target; else null. */
    const imprecision = (/** @type {import('./suite.js').Case} */ c) => {
      const m = measured.get(caseKey(c));
      if (!m || m.rounds.length >= maxRounds) return null;
      const rse = medianRse(m.rounds.map((x) => x.opsPerSec));
      return rse <= (budget.targetRse ?? Infinity) ? null : Number.isNaN(rse) ? Infinity : rse;
    };
    extra: for (let pass = 1; !o.state.interrupted && Date.now() < deadline; pass++) {
      // the imprecise cases, least precise first
      const ranked = list.flatMap((c) => { const rse = imprecision(c); return rse ? [{ c, rse }] : []; }).sort((a, b) => b.rse - a.rse);
      if (!ranked.length) break;
      // this pass: the cases within a factor 2 of the least precise one, so the time goes where
      // the uncertainty is largest (halving a standard error takes four times the rounds), and at
      // least the MIN_PASS least precise, so a pass is worth its engine's start (about 0.4 s)
      const floor = Math.min(ranked[0].rse / 2, ranked[Math.min(MIN_PASS, ranked.length) - 1].rse);
      const pending = shuffle(random, ranked.filter((x) => x.rse >= floor).map((x) => x.c));
      total = step + pending.length;
      for (const c of pending) {
        if (Date.now() >= deadline) break extra;
        if (!(await measureOne(c, pass))) break extra;
      }
      await retire();
    }
    o.onProgress?.({ done: step, total: step, current: null });
  } finally {
    await retire();
    if (!o.keepDb) fs.rmSync(templates, { recursive: true, force: true });
  }
  // An interrupted run keeps the cases that finished at least one round (stats.rounds says how many).
  const out = list.flatMap((c) => {
    const k = caseKey(c);
    if (done.has(k)) return [done.get(k)];
    const m = measured.get(k);
    if (!m) return [];
    return [{ config: c.config, driver: c.driver, cipher: c.cipher, op: c.op, status: 'ok', stats: rounded(combine(m.rounds)), verified: m.verified, pragmas: m.pragmas }];
  });
  return { cases: out, setups: [...setups.values()], budget, order: list.map(caseKey), engines };
}

/**
 * The PRAGMA values a connection ran with, as read back (actions: true once run).
 * @param {import('./database.js').PragmaReading[]} readings
 */
export function effective(readings) {
  return Object.fromEntries(readings.map((r) => [r.name, r.after ?? (r.applied ? true : null)]));
}

/**
 * @param {import('./measure.js').Stats} s
 * @returns {import('./measure.js').Stats}
 */
export function rounded(s) {
  const map = (/** @type {Record<string, number>} */ o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, sig(v)]));
  return { ...s, opsPerSec: /** @type {any} */ (map(s.opsPerSec)), latencyMs: /** @type {any} */ (map(s.latencyMs)), rme: sig(s.rme), rounds: s.rounds.map(sig), totalMs: sig(s.totalMs) };
}

/** Notes a result carries about configs: e.g. one that equals SQLite's default. */
export function configNotes() {
  return CONFIGS.map((c) => ({ name: c.name, label: c.label, pragmas: c.pragmas, ...describeChanges(c) }));
}
