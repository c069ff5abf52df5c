// Workloads: cases beside the operations that run more than one statement at a time, one row
// each, as data (docs/workloads.md): concurrency (one writer and K readers, or K readers alone, the
// control) and scale (the production config at a database size). Names are what `--workload` takes;
// `default` rows run when none is given.
import { PRODUCTION_CIPHER } from './ciphers.js';
import { PRODUCTION_CONFIG, production } from './configs.js';
import { PRODUCTION_DRIVER } from './drivers.js';

/**
 * @typedef {object} ConcurrencyWorkload
 * @property {string} name
 * @property {'concurrency'} kind
 * @property {'WAL' | 'DELETE'} journal journal_mode; every other PRAGMA is production's
 * @property {number} readers K reader workers
 * @property {boolean} writer whether a writer worker runs beside them (false: the readers-only control)
 * @property {string} driver
 * @property {string} cipher
 * @property {'configured' | 0} busy busy_timeout: production's, or 0 (SQLITE_BUSY at once)
 * @property {string} pair the name shared with the other journal mode's row: WAL and DELETE of a pair are measured back to back and compared paired
 * @property {boolean} default in the run when no --workload is given
 * @property {boolean} quick in a --quick run when no --workload is given
 */
/**
 * @typedef {object} ScaleWorkload
 * @property {string} name
 * @property {'scale'} kind
 * @property {number} messages the database's size in messages (full runs; quick runs use `quickMessages`)
 * @property {number} quickMessages the size in a --quick run (a smoke test of the same code)
 * @property {string} config
 * @property {string} driver
 * @property {string} cipher
 * @property {boolean} default
 * @property {boolean} quick
 */
/** @typedef {ConcurrencyWorkload | ScaleWorkload} Workload */

/** Reader/writer shapes: K readers with a writer, and the readers-only control. */
const SHAPES = [
  { readers: 1, writer: true },
  { readers: 2, writer: true },
  { readers: 4, writer: true },
  { readers: 4, writer: false },
];

/** The setups concurrency runs on: the production driver and cipher, no key, the other drivers (no key). */
const SETUPS = [
  { driver: PRODUCTION_DRIVER, cipher: PRODUCTION_CIPHER },
  { driver: PRODUCTION_DRIVER, cipher: 'none' },
  { driver: 'better-sqlite3', cipher: 'none' },
  { driver: 'node:sqlite', cipher: 'none' },
];

const SHORT = /** @type {Record<string, string>} */ ({
  [PRODUCTION_DRIVER]: 'bs3mc',
  'better-sqlite3': 'bs3',
  'node:sqlite': 'nodesqlite',
});

/**
 * A concurrency row's name: journal, shape, then what differs from production (cipher, driver,
 * busy_timeout), e.g. wal-w1r2, delete-r4, wal-w1r2-none, wal-w1r2-bs3, delete-w1r2-busy0.
 * @param {Omit<ConcurrencyWorkload, 'name' | 'pair' | 'default' | 'quick' | 'kind'>} w
 */
function concurrencyName(w) {
  const shape = `${w.writer ? 'w1' : ''}r${w.readers}`;
  const setup = [
    ...(w.cipher !== PRODUCTION_CIPHER && w.driver === PRODUCTION_DRIVER ? [w.cipher] : []), // the other drivers have no key anyway
    ...(w.driver !== PRODUCTION_DRIVER ? [SHORT[w.driver]] : []),
    ...(w.busy === 0 ? ['busy0'] : []),
  ];
  return [shape, ...setup].join('-');
}

/**
 * Which rows a run measures by default (kept small for a cell's budget; `--workload all` runs every
 * row): the four shapes in both journal modes on the production setup; with 2 readers and a
 * writer also without a key, on the other drivers, and with busy_timeout 0.
 * @param {{ readers: number, writer: boolean, driver: string, cipher: string, busy: 'configured' | 0 }} w
 */
function isDefault(w) {
  const onProduction = w.driver === PRODUCTION_DRIVER && w.cipher === PRODUCTION_CIPHER;
  if (onProduction && w.busy === 'configured') return true;
  return w.readers === 2 && w.writer;
}

/** @returns {ConcurrencyWorkload[]} */
function concurrencyRows() {
  const out = /** @type {ConcurrencyWorkload[]} */ ([]);
  for (const s of SETUPS) {
    for (const busy of /** @type {const} */ (['configured', 0])) {
      // busy_timeout 0 on the other setups adds nothing the production setup does not show
      if (busy === 0 && !(s.driver === PRODUCTION_DRIVER && s.cipher === PRODUCTION_CIPHER)) continue;
      for (const shape of SHAPES) {
        const pair = concurrencyName({ ...shape, ...s, busy, journal: 'WAL' });
        for (const journal of /** @type {const} */ (['WAL', 'DELETE'])) {
          const w = { ...shape, ...s, busy, journal };
          const def = isDefault(w);
          out.push({
            name: `${journal.toLowerCase()}-${pair}`,
            kind: 'concurrency',
            ...w,
            pair,
            default: def,
            quick: def && pair === 'w1r2',
          });
        }
      }
    }
  }
  return out;
}

/**
 * Scale: the production setup at three sizes, a factor 10 apart. 2,000 messages is the suite's
 * database; 200,000 (about 0.7 GB encrypted with these message sizes, up to three times that on
 * disk during VACUUM) fits a hosted runner's disk and a cell's time (docs/workloads.md).
 * @type {ScaleWorkload[]}
 */
const SCALE = [2_000, 20_000, 200_000].map((messages, i) => ({
  name: `scale-${messages / 1000}k`,
  kind: /** @type {const} */ ('scale'),
  messages,
  quickMessages: [400, 4_000, 0][i],
  config: PRODUCTION_CONFIG,
  driver: PRODUCTION_DRIVER,
  cipher: PRODUCTION_CIPHER,
  default: true,
  quick: i < 2,
}));

/** @type {Workload[]} */
export const WORKLOADS = [...concurrencyRows(), ...SCALE];

/** The id of a concurrency pair's judged pair in a run's `comparisons`: what tells it from the suite's. */
export const JOURNAL = 'journal';

/**
 * A concurrency pair's rows as its judged pair names them (bench/workloads/workload-figures.js):
 * DELETE the reference, WAL the member, each `<journal>-<pair>` as concurrencyRows names it.
 * @param {string} pair
 */
export const journalPair = (pair) => ({ reference: `delete-${pair}`, member: `wal-${pair}` });

/** Names `--workload` takes besides the rows': groups of rows. */
const WORKLOAD_GROUPS = /** @type {Record<string, (w: Workload) => boolean>} */ ({
  default: (w) => w.default,
  all: () => true,
  none: () => false,
  concurrency: (w) => w.kind === 'concurrency',
  scale: (w) => w.kind === 'scale',
});

/** Every name `--workload` accepts. */
export const WORKLOAD_NAMES = [...Object.keys(WORKLOAD_GROUPS), ...WORKLOADS.map((w) => w.name)];

/**
 * The rows a run measures: those named (rows or groups), else the mode's default rows; then only
 * those on the drivers and ciphers the suite's filters allow (--driver, --cipher).
 * @param {{ names?: string[], quick: boolean, driver?: string[], cipher?: string[] }} o
 * @returns {Workload[]}
 */
export function selectWorkloads(o) {
  const names = o.names?.length ? o.names : [o.quick ? 'quick' : 'default'];
  const chosen = WORKLOADS.filter((w) =>
    names.some((n) => (n === 'quick' ? w.quick : WORKLOAD_GROUPS[n] ? WORKLOAD_GROUPS[n](w) : w.name === n)),
  );
  const keep = (/** @type {string[] | undefined} */ f, /** @type {string} */ v) => !f?.length || f.includes(v);
  return chosen.filter((w) => keep(o.driver, w.driver) && keep(o.cipher, w.cipher));
}

/**
 * The PRAGMAs of a concurrency row: production's, in production's order, with its journal mode
 * and busy_timeout.
 * @param {ConcurrencyWorkload} w
 * @returns {[string, number | string][]}
 */
export const workloadPragmas = (w) =>
  production({ journal_mode: w.journal, ...(w.busy === 0 ? { busy_timeout: 0 } : {}) });

/** Plain text for `npm run bench -- --list`. */
export function workloadListText() {
  const out = ['workloads (--workload; groups: default, all, none, concurrency, scale; default rows marked *):'];
  for (const w of WORKLOADS) {
    const what =
      w.kind === 'concurrency'
        ? `${w.writer ? '1 writer + ' : ''}${w.readers} reader${w.readers > 1 ? 's' : ''}${w.writer ? '' : ' only (control)'}, journal_mode=${w.journal}, ${w.driver}, ${w.cipher}, busy_timeout ${w.busy === 0 ? 0 : 'as configured'}`
        : `production at ${w.messages.toLocaleString('en-US')} messages (--quick: ${w.quickMessages ? w.quickMessages.toLocaleString('en-US') : 'not run'}), ${w.driver}, ${w.cipher}`;
    out.push(`  ${w.default ? '*' : ' '} ${w.name.padEnd(26)} ${what}`);
  }
  return out.join('\n');
}
