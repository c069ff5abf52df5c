// PRAGMA configurations: one row each, named as users know them from the published tables.
// Every variant is Production with the listed changes; `{tempdir}` is replaced by
// a directory beside the database file.
import { PRAGMAS, normalise } from './pragmas.js';

/** @typedef {[name: string, value: number|string]} PragmaSetting */
/**
 * @typedef {object} Config
 * @property {string} name slug used on the command line and in result documents
 * @property {string} label the name users know
 * @property {PragmaSetting[]} pragmas applied in this order, after the cipher and key
 * @property {string} description one line on what it changes
 * @property {boolean} [claimOnly] measured only for the claims it tests (bench/data/production-claims.js), on
 *   their operations: not in the per-config tables or the config comparison
 * @property {import('./mail.js').SchemaName} [schema] the schema it creates (bench/data/mail.js); default 'blob-last'
 * @property {'beside' | 'shm'} [tempdir] where `{tempdir}` is: beside the database (default), or on
 *   /dev/shm, a RAM file system (skipped with a reason where there is none)
 * @property {Durability} durability what a commit survives (durabilityOf): added below from its PRAGMAs
 */
/**
 * What a committed transaction survives, decided by journal_mode and synchronous alone (SQLite's
 * docs, https://www.sqlite.org/pragma.html#pragma_synchronous and
 * https://www.sqlite.org/wal.html#performance_considerations):
 * - 'power loss': synchronous FULL or EXTRA: a commit is synced before it returns, so it survives
 *   an OS crash or a power loss (SQLite's default, FULL, in either journal mode);
 * - 'crash': WAL with synchronous NORMAL (or a rollback journal with NORMAL): a commit survives the
 *   application crashing; a power loss can roll back the last commits but never corrupts
 *   ("WAL mode is always consistent with synchronous=NORMAL, but WAL mode does lose durability");
 * - 'unsafe': synchronous OFF ("the database might become corrupted if the operating system
 *   crashes or the computer loses power"), or journal_mode OFF or MEMORY (an application crash in
 *   a transaction can corrupt the database).
 * @typedef {'power loss' | 'crash' | 'unsafe'} Durability
 */

/** @type {PragmaSetting[]} */
const PRODUCTION = [
  // auto_vacuum and encoding only apply to an empty database, so they come before journal_mode=WAL,
  // which writes the header. In the opposite order auto_vacuum silently stays 0.
  ['auto_vacuum', 'FULL'],
  ['encoding', 'UTF-8'],
  ['journal_mode', 'WAL'],
  ['secure_delete', 'ON'],
  ['busy_timeout', 30000],
  ['synchronous', 'NORMAL'],
  ['foreign_keys', 'ON'],
  ['temp_store', 1],
  ['temp_store_directory', '{tempdir}'],
  ['optimize', '0x10002'],
];

/**
 * Production with changes: a changed PRAGMA keeps its place, a new one goes before `optimize`
 * (so that e.g. analysis_limit is in force when optimize runs); `drop` leaves PRAGMAs unset.
 * @param {Record<string, number|string>} changes
 * @returns {PragmaSetting[]}
 */
export function production(changes, drop = /** @type {string[]} */ ([])) {
  const out = PRODUCTION.filter(([n]) => !drop.includes(n)).map(
    ([n, v]) => /** @type {PragmaSetting} */ ([n, n in changes ? changes[n] : v]),
  );
  const at = out.findIndex(([n]) => n === 'optimize');
  const added = Object.entries(changes).filter(([n]) => !PRODUCTION.some(([p]) => p === n));
  out.splice(at, 0, ...added.map(([n, v]) => /** @type {PragmaSetting} */ ([n, v])));
  return out;
}

const CACHE_64MB = { cache_size: -64000 };
const MMAP_256MB = { mmap_size: 268435456 };

/**
 * A row that is Production with these PRAGMA changes, described by them (`name=value`, joined by
 * ' and '), then by `more` as written.
 * @param {string} name
 * @param {string} label
 * @param {Record<string, number|string>} changes
 * @returns {Omit<Config, 'durability'>}
 */
const tuning = (name, label, changes, more = '') => ({
  name,
  label,
  pragmas: production(changes),
  description: `${Object.entries(changes)
    .map(([n, v]) => `${n}=${v}`)
    .join(' and ')}${more}`,
});

/** @type {Omit<Config, 'durability'>[]} */
const ROWS = [
  {
    name: 'production',
    label: 'Production',
    pragmas: PRODUCTION,
    description:
      'the production PRAGMAs: WAL, secure_delete, auto_vacuum=FULL, synchronous=NORMAL, temp files on disk beside the database',
  },
  {
    name: 'production-twin',
    label: 'Production (A/A twin)',
    pragmas: PRODUCTION,
    description:
      'the production PRAGMAs again, measured as a case of its own: the self-check that two identical configs measured side by side show no difference',
  },
  tuning('wal-autocheckpoint-1000', 'WAL Autocheckpoint 1000', { wal_autocheckpoint: 1000 }),
  tuning('memory-temp-storage', 'Memory Temp Storage', { temp_store: 2 }, ' (MEMORY)'),
  tuning('cache-size-64mb', 'Cache Size 64MB', CACHE_64MB),
  tuning('mmap-256mb', 'MMAP 256MB', MMAP_256MB),
  tuning(
    'synchronous-off',
    'Synchronous OFF (Unsafe)',
    { synchronous: 'OFF' },
    ': a crash or power loss can corrupt the database',
  ),
  tuning('synchronous-extra', 'Synchronous EXTRA (Safe)', { synchronous: 'EXTRA' }),
  tuning('incremental-vacuum', 'Incremental Vacuum', { auto_vacuum: 'INCREMENTAL' }),
  tuning('no-auto-vacuum', 'No Auto Vacuum', { auto_vacuum: 'NONE' }),
  tuning(
    'analysis-limit-1000',
    'Analysis Limit 1000',
    { analysis_limit: 1000 },
    ' (bounds the work of optimize/ANALYZE)',
  ),
  tuning(
    'busy-timeout-60s',
    'Busy Timeout 60s',
    { busy_timeout: 60000 },
    ' (only matters under lock contention, which a single connection never meets)',
  ),
  tuning('cache-mmap', 'Cache + MMAP', { ...CACHE_64MB, ...MMAP_256MB }),
  {
    name: 'all-optimizations',
    label: 'All Optimizations',
    pragmas: production({ temp_store: 2, ...CACHE_64MB, ...MMAP_256MB, analysis_limit: 1000 }),
    description:
      'every safe single change together: temp_store=2, cache_size=-64000, mmap_size=268435456, analysis_limit=1000 (not synchronous=OFF)',
  },
  {
    name: 'baseline',
    label: 'Baseline',
    pragmas: [],
    description: "no PRAGMAs beyond the cipher: the driver's build defaults (see pragma_compile_options)",
  },
  // Claim-only variants (bench/data/production-claims.js): each measured only on the operations of the claims it tests.
  ...[
    tuning(
      'wal-autocheckpoint-0',
      'WAL Autocheckpoint 0',
      { wal_autocheckpoint: 0 },
      ': no automatic checkpoint, the WAL grows until one is run',
    ),
    tuning('wal-autocheckpoint-10000', 'WAL Autocheckpoint 10000', { wal_autocheckpoint: 10000 }),
    tuning('synchronous-full', 'Synchronous FULL', { synchronous: 'FULL' }, ' in WAL mode: every commit syncs the WAL'),
    tuning('secure-delete-off', 'Secure Delete OFF', { secure_delete: 'OFF' }, ': deleted content is not overwritten'),
    {
      name: 'shm-temp-storage',
      label: 'Temp Files on /dev/shm',
      pragmas: PRODUCTION,
      tempdir: /** @type {const} */ ('shm'),
      description:
        'the production PRAGMAs with `{tempdir}` on /dev/shm (RAM) instead of beside the database (skipped where there is no /dev/shm)',
    },
    {
      name: 'default-temp-storage',
      label: 'Default Temp Storage',
      pragmas: production({ temp_store_directory: '' }, ['temp_store']),
      description:
        "production without temp_store and with temp_store_directory='' (SQLite's default directory; the setting is process-wide, so it is reset, not left unset): SQLite's default temp files",
    },
    tuning('analysis-limit-400', 'Analysis Limit 400', { analysis_limit: 400 }),
    {
      name: 'blob-first',
      label: 'BLOB First',
      pragmas: PRODUCTION,
      schema: /** @type {const} */ ('blob-first'),
      description:
        'the production PRAGMAs with the message BLOB as the first column after the id instead of the last (bench/data/mail.js)',
    },
  ].map((c) => ({ ...c, claimOnly: true })),
];

/**
 * What a commit under these PRAGMAs survives (Durability above); SQLite's defaults where unset.
 * @param {PragmaSetting[]} pragmas
 * @returns {Durability}
 */
export function durabilityOf(pragmas) {
  const value = (/** @type {string} */ name) => {
    const set = pragmas.find(([n]) => n === name);
    return set ? normalise(name, set[1]) : PRAGMAS[name].sqliteDefault;
  };
  const sync = Number(value('synchronous'));
  if (sync === 0 || ['off', 'memory'].includes(String(value('journal_mode')))) return 'unsafe';
  return sync >= 2 ? 'power loss' : 'crash';
}

/** @type {Config[]} */
export const CONFIGS = ROWS.map((c) => ({ ...c, durability: durabilityOf(c.pragmas) }));

/** The configs of the per-config tables and the config comparison: every one but the claim-only variants. */
export const DEFAULT_CONFIGS = CONFIGS.filter((c) => !c.claimOnly).map((c) => c.name);

export const PRODUCTION_CONFIG = 'production';

/** The A/A twin of production: the same PRAGMAs, a case of its own (the run's self-check). */
export const TWIN_CONFIG = 'production-twin';

/**
 * The PRAGMAs in which a config differs from production, and whether every one of them sets
 * SQLite's own default for a PRAGMA production leaves unset — a change that changes nothing.
 * @param {Omit<Config, 'durability'>} config
 * @returns {{ changes: PragmaSetting[], equalsDefault: boolean, note: string | null }}
 */
export function describeChanges(config) {
  const base = new Map(PRODUCTION);
  const changes = config.pragmas.filter(([n, v]) => !base.has(n) || String(base.get(n)) !== String(v));
  const unset = config.pragmas.length
    ? PRODUCTION.filter(([n]) => !config.pragmas.some(([p]) => p === n)).map(([n]) => n)
    : [];
  const other = [
    ...(unset.length ? [`without ${unset.join(', ')} (SQLite's defaults)`] : []),
    ...(config.schema && config.schema !== 'blob-last' ? [`schema '${config.schema}' instead of 'blob-last'`] : []),
    ...(config.tempdir === 'shm' ? ['{tempdir} on /dev/shm (RAM) instead of beside the database'] : []),
  ];
  if (other.length)
    return {
      changes,
      equalsDefault: false,
      note: `differs from ${CONFIGS[0].label} ${changes.length ? 'also ' : ''}in: ${other.join('; ')}`,
    };
  // Production, its twin and Baseline (no PRAGMAs at all) change no PRAGMA of Production's
  const equalsDefault =
    changes.length > 0 && changes.every(([n, v]) => !base.has(n) && normalise(n, v) === PRAGMAS[n].sqliteDefault);
  const note = equalsDefault
    ? `not a tuning: ${changes.map(([n, v]) => `${n}=${v}`).join(', ')} is SQLite's default, so this equals ${CONFIGS[0].label}`
    : null;
  return { changes, equalsDefault, note };
}

/** Notes a result carries about configs: e.g. one that equals SQLite's default. */
export function configNotes() {
  return CONFIGS.map((c) => ({ name: c.name, label: c.label, pragmas: c.pragmas, ...describeChanges(c) }));
}

/** What a commit survives, in the words the answers head each group with, safest first. */
export const DURABILITY_WORDS = /** @type {const} */ ({
  'power loss': 'safe across power loss',
  crash: 'safe across an application crash (as Production)',
  unsafe: 'unsafe (a power loss can corrupt)',
});

/**
 * The configs the answers ask about: tunings of Production, never Production itself, its A/A twin,
 * Baseline (no PRAGMAs at all) or a config that equals Production (SQLite's default).
 */
export const TUNINGS = CONFIGS.filter(
  (c) =>
    DEFAULT_CONFIGS.includes(c.name) &&
    c.name !== PRODUCTION_CONFIG &&
    c.name !== TWIN_CONFIG &&
    c.pragmas.length > 0 &&
    !describeChanges(c).equalsDefault,
);
