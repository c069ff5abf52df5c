// A session: what one engine process measures with. It holds the budget, the shuffled case list and
// the templates (templates.js), and measures one round of one case on a fresh copy of its template.
// The engine (engine.js) runs one session; the run starts an engine per round.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { generateMessages, schemaOf } from '../data/mail.js';
import { OPS } from '../data/ops.js';
import { caseFields, cases as selectCases } from '../data/suite.js';
import { BUDGETS, budgetOf } from './budgets.js';
import { applyKey, applyPragmas, openConfigured } from './database.js';
import { measureBlock, slicer } from './slices.js';
import { createRandom, shuffle } from '../../lib/prng.js';
import { createTemplates, removeDb } from './templates.js';
/** @import { Message } from '../data/mail.js' */
/** @import { OpTask } from '../data/ops.js' */

/** Messages generated once per session and inserted with fresh uids by the writing operations. */
const POOL = 256;

/** The messages a session's writing operations insert (with fresh uids), from the run's seed. */
export const messagePool = (/** @type {number} */ seed) => generateMessages(seed + 1, POOL);

/** The environment variable through which a run gives its engines one encryption key. */
export const KEY_ENV = 'SQLITE_BENCH_KEY';

/** The encryption key of a run or session: the one it was given, or a new random one. */
export const sessionKey = (env = process.env) => env[KEY_ENV] || crypto.randomBytes(24).toString('base64url');

let gc = /** @type {(() => void) | null} */ (null);
/** A full garbage collection, run untimed before each measured round (gc is exposed on first use, not at import). */
function collectGarbage() {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = /** @type {() => void} */ (vm.runInNewContext('gc'));
  }
  gc();
}

/**
 * @typedef {object} SessionOptions
 * @property {'quick'|'full'} mode
 * @property {{ config?: string[], driver?: string[], cipher?: string[], op?: string[], claim?: string[] }} filters
 * @property {number} seed
 * @property {number} [time] ms per measured task, overriding the mode's budget
 * @property {number} [slowdown] calibration only: throughput fraction taken away from every timed task (measure.js `slowed`)
 * @property {string} [keepDb] keep the database files in this directory
 * @property {Map<string, { info: import('./load-drivers.js').DriverInfo, open?: (file: string) => import('./database.js').Conn }>} drivers
 * @property {Partial<import('./budgets.js').RunBudget>} [budget] replaces parts of the mode's budget (tests)
 * @property {string} [templates] a directory of templates shared by the engines of one run (see templates.js)
 * @property {Message[]} [pool] the messages the writing operations insert, when
 *   made elsewhere (the counting pass makes them natively: bench/counts/); by default made from the seed
 * @property {string} [workdir] this session's directory for copies and temp files, as given (a relative path
 *   stays relative: two counted processes then handle the same strings, bench/counts/worker.js); removed at the end
 * @property {string} [key] the encryption key (default: SQLITE_BENCH_KEY, else a new random one)
 * @property {boolean} [cheapKdf] the counting pass and a quick run: templates and their copies keyed with the ciphers'
 *   cheap key derivation (ciphers.js `countingKdf`); a new database (the setup operation) keeps the real one
 */

/**
 * The cases in the seed's order, and the generator that made it (a run reshuffles every round
 * with it). The same for a run and for each of its engines.
 * @param {Pick<SessionOptions, 'seed' | 'filters'>} o
 */
export function shuffledCases(o) {
  const random = createRandom(o.seed);
  return { random, list: shuffle(random, selectCases(o.filters)) };
}

/** The PRAGMA values a connection ran with, as read back (actions: true once run). */
export function effective(/** @type {import('./database.js').PragmaReading[]} */ readings) {
  return Object.fromEntries(readings.map((r) => [r.name, r.after ?? (r.applied ? true : null)]));
}

/**
 * @typedef {object} Prepared a case opened on a fresh copy, ready to run (see createSession's prepare)
 * @property {'ready'} status
 * @property {OpTask} task
 * @property {Record<string, unknown>} pragmas what its connection's PRAGMAs read back
 * @property {() => void} close closes the connection and removes the copy
 */
/**
 * @typedef {ReturnType<typeof caseFields> & { status: string, reason?: string, size?: object, pragmas?: Record<string, unknown> }} CaseEntry
 *   a case that does not run (skipped, an error) or is a size
 */

export function createSession(/** @type {SessionOptions} */ o) {
  const budget = budgetOf(o);
  const key = o.key ?? sessionKey();
  const hide = (/** @type {string} */ s) => s.split(key).join('***');
  const workdir = o.keepDb
    ? path.resolve(o.keepDb)
    : (o.workdir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-')));
  fs.mkdirSync(workdir, { recursive: true });
  const pool = o.pool ?? messagePool(o.seed);
  const { list } = shuffledCases(o);
  const templates = createTemplates({
    drivers: o.drivers,
    workdir,
    shared: o.templates ? path.resolve(o.templates) : undefined,
    key,
    hide,
    seed: o.seed,
    seedMessages: budget.seedMessages,
    cheapKdf: o.cheapKdf,
  });

  /**
   * Open one case on a fresh copy of its template: its task, ready to run, with the PRAGMAs its
   * connection reads back and a `close` that removes the copy; or the case's entry when it does not
   * run (skipped, an error, or a size). The timed round (runBlock) and the counting pass
   * (bench/counts/worker.js) both start here, so they run the same task on the same kind of copy.
   * @param {import('../data/suite.js').Case} c
   * @returns {Prepared | CaseEntry}
   */
  const prepare = (c) => {
    const op = /** @type {import('../data/ops.js').Op} */ (OPS.find((x) => x.name === c.op));
    const t = templates.get(c);
    const base = caseFields(c);
    if (t.status !== 'ok') return { ...base, status: t.status, reason: t.reason };
    if (op.kind === 'size') return { ...base, status: 'ok', size: t.size, pragmas: effective(t.pragmas) };
    const skip = op.skip?.({ journalMode: t.journalMode });
    if (skip) return { ...base, status: 'skipped', reason: skip };
    const loaded = { name: c.driver, open: t.open };
    const file = path.join(t.dir, `${c.op}.db`);
    let conn = /** @type {import('./database.js').Conn | null} */ (null);
    let pragmas = t.pragmas;
    let made = 0;
    const close = () => {
      conn?.close();
      conn = null;
      if (!o.keepDb) removeDb(file);
    };
    try {
      if (op.needsSeed !== false) {
        fs.copyFileSync(t.file, file);
        conn = /** @type {import('./database.js').Conn} */ (t.open(file)); // a template is untyped (any)
        applyKey(conn, t.cipher, key, t.kdf);
        pragmas = applyPragmas(conn, t.config.pragmas, { tempdir: t.tempdir });
      }
      const fresh = () => {
        const f = path.join(t.dir, `setup-${made++}.db`);
        const opened = openConfigured(loaded, f, {
          pragmas: t.config.pragmas,
          cipher: t.cipher,
          key,
          tempdir: t.tempdir,
          schema: schemaOf(t.config),
        });
        return {
          conn: opened.conn,
          dispose: () => {
            opened.conn.close();
            removeDb(f);
          },
        };
      };
      const ctx = {
        conn: /** @type {any} */ (conn),
        file,
        pool,
        random: createRandom(o.seed ^ 0x5eed),
        seeded: budget.seedMessages,
        journalMode: t.journalMode,
        fresh,
      };
      const task = /** @type {NonNullable<typeof op.task>} */ (op.task)(ctx);
      return { status: /** @type {const} */ ('ready'), task, pragmas: effective(pragmas), close };
    } catch (err) {
      close();
      return failed(c, err);
    }
  };

  /** An error's first line, without the key. */
  const errorReason = (/** @type {unknown} */ err) =>
    hide(String(/** @type {any} */ (err)?.message ?? err).split('\n')[0]);

  /** The entry of a case whose preparation or measuring threw. */
  const failed = (/** @type {import('../data/suite.js').Case} */ c, /** @type {unknown} */ err) => ({
    ...caseFields(c),
    status: 'error',
    reason: errorReason(err),
  });

  /**
   * Measure one round of the cases of one block together, in slices (slices.js), each on a fresh
   * copy of its template: the cycles start after every case is opened and warmed up, and a full GC.
   * @param {import('../data/suite.js').Case[]} cs
   * @param {import('./budgets.js').RunBudget} b
   * @param {() => number} random the block's order of slices
   */
  const runBlock = (cs, b, random) => {
    const prepared = cs.map((c) => prepare(c));
    try {
      const ready = /** @type {Prepared[]} */ (prepared.filter((p) => 'task' in p));
      const measured = measureBlock(ready, b, random, collectGarbage);
      return cs.map((c, i) => {
        const p = prepared[i];
        if (!('task' in p)) return p;
        const m = measured[ready.indexOf(p)];
        if ('error' in m) return failed(c, m.error);
        try {
          return { round: m.round, verified: p.task.verify?.() ?? {}, pragmas: p.pragmas };
        } catch (err) {
          return failed(c, err);
        }
      });
    } finally {
      for (const p of prepared) if ('close' in p) p.close();
    }
  };

  const open = /** @type {Map<string, { prepared: Prepared, slicer: import('./slices.js').Slicer }>} */ (new Map());
  /**
   * Open one case for slices asked for one at a time (the compare and the shootout alternate
   * slices of the same case between engine processes): a fresh copy, the warm-up, a full GC.
   * @param {import('../data/suite.js').Case} c
   * @param {string} key
   * @param {import('./budgets.js').RunBudget} b
   * @returns {{ status: 'ok', batch: number } | CaseEntry}
   */
  const openCase = (c, key, b) => {
    closeCase(key);
    const p = prepare(c);
    if (!('task' in p)) return p;
    try {
      const s = slicer(p.task, b);
      collectGarbage();
      open.set(key, { prepared: p, slicer: s });
      return { status: 'ok', batch: s.batch };
    } catch (err) {
      p.close();
      return failed(c, err);
    }
  };
  const sliceCase = (/** @type {string} */ key, /** @type {number} */ ms) => {
    const o = open.get(key);
    if (!o) throw new Error(`${key} is not open`);
    return o.slicer.slice(ms);
  };
  /** Close an open case: what its task verified. */
  const closeCase = (/** @type {string} */ key) => {
    const o = open.get(key);
    if (!o) return null;
    open.delete(key);
    try {
      return o.prepared.task.verify?.() ?? {};
    } finally {
      o.prepared.close();
    }
  };

  /** Untimed warm-up: one short block of a select per usable driver, so the first measured case is not cold. */
  const warm = () => {
    const warmBudget = { ...BUDGETS.quick, time: Math.min(50, budget.time) };
    const warmed = new Set();
    for (const c of list) {
      if (warmed.has(c.driver) || !o.drivers.get(c.driver)?.open) continue;
      warmed.add(c.driver);
      runBlock([{ ...c, op: 'select' }], warmBudget, createRandom(o.seed));
    }
  };

  /** One entry per (config, driver, cipher) used so far: the full PRAGMA readings and the proof. */
  const setups = () =>
    templates.all().map((t) => ({
      ...t.setup,
      status: t.status,
      ...(t.reason ? { reason: t.reason } : {}),
      ...(t.pragmas ? { pragmas: t.pragmas } : {}),
      ...(t.encryption ? { encryption: t.encryption } : {}),
    }));

  const dispose = () => {
    for (const key of [...open.keys()]) {
      try {
        closeCase(key);
      } catch {
        // disposing: its copy goes with the workdir
      }
    }
    templates.dispose();
    if (!o.keepDb) fs.rmSync(workdir, { recursive: true, force: true });
  };

  return {
    budget,
    list,
    prepare,
    errorReason,
    runBlock,
    openCase,
    sliceCase,
    closeCase,
    warm,
    setups,
    dispose,
    workdir,
    templates,
  };
}
