// The claims of the production write-up, one row each, with how it is checked: a reference
// setup and the variants compared with it, which differ from it in exactly the claim's subject, on
// the operations the claim is about. Both sides are cases of the same run, measured in the same
// blocks (bench/run/run-suite.js blocksOf), so each check is a paired comparison (bench/result/analysis.js), and
// its verdict is bench/claims/verdict.js's. A part of a claim this suite cannot measure says why.
// The rules a row must keep are bench/claims/validate.js's (validateClaims), which checks
// this table when loaded; the table itself is data, and its measured checks as pairs of cases (CLAIM_PAIRS),
// each of which a document names by its judged pair (judgedPair).
import { PRODUCTION_CIPHER } from './ciphers.js';
import { PRODUCTION_CONFIG } from './configs.js';
import { PRODUCTION_DRIVER } from './drivers.js';

/** Where every claim below is quoted from. */
export const SOURCE = {
  publisher: 'Forward Email',
  title: 'SQLite Performance Optimization: Production PRAGMA Settings & ChaCha20 Encryption',
  url: 'https://forwardemail.net/en/blog/docs/sqlite-performance-optimization-pragma-chacha20-production-guide',
};

/** What a check measures: ops/s or time (both from the timed rounds), peak RSS, file size. */
export const METRICS = /** @type {const} */ (['ops/s', 'time', 'peak RSS', 'file size']);

/**
 * A claim's verdict needs this many pairs (rounds of both sides in the same block; a full run's
 * 8 rounds). With no real effect, 5 pairs excluded 0 in 7.4% of judgements (Gaussian noise), 8 in
 * 3.0% or fewer (npm run meta:calibration, row f1); with fewer the check is "too noisy to tell",
 * its figures shown, with the reason.
 */
export const MIN_PAIRS = 8;

/** "Minimal": a change of at most this much either way. */
const MINIMAL = 0.05;

/**
 * What a claim says about the change in ops/s from the reference to the member (a claim about time
 * is written as one about ops/s: faster = fewer ms = more ops/s); bench/claims/verdict.js judges it.
 * - change: by a number (low = high) or a range of numbers, all of one sign, never 0
 * - direction: faster (+1) or slower (−1), no number ("Higher values slow down query planning")
 * - minimal: a gain, if any, of at most `bound` ("Minimal gains")
 * - none: no claim; measured for context (shown, never judged)
 * @typedef {{ kind: 'change', low: number, high: number } | { kind: 'direction', sign: 1 | -1 } | { kind: 'minimal', bound: number } | { kind: 'none' }} ClaimedChange
 */
/** @typedef {{ config?: string, driver?: string, cipher?: string }} Variant a setup, as changes from production (config, driver, cipher) */
/**
 * @typedef {object} Check one thing a claim says, and how it is measured
 * @property {string} says the claimed effect as the write-up puts it
 * @property {typeof METRICS[number]} metric
 * @property {Variant} [member] the variant compared with the reference
 * @property {Variant} [reference] this check's own reference, where it is not the claim's
 * @property {string} [op] the operation (bench/data/ops.js) both are measured on
 * @property {ClaimedChange} [claim] the claimed change in ops/s, member / reference − 1
 * @property {string} [notMeasured] why this suite cannot measure it: its verdict is "not compared"
 * @property {boolean} [pending] not measured yet, for a reason that will go away (a workload being built)
 * @property {{ pair: string, figure: 'reads' | 'writes' }} [workload] measured by a workload instead of
 *   an operation: the run's paired comparison of WAL against DELETE (bench/workloads/workload-figures.js) of
 *   this concurrency pair (bench/data/workloads.js journalPair) with the figure as its op; `notMeasured`
 *   says why when a run has none
 */
/**
 * @typedef {object} Claim
 * @property {string} id slug: --claim NAME, and the document's `claims[].id`
 * @property {number} n the claim's number in issue #18
 * @property {string} short the claim in a few words, for the README
 * @property {string} quote the claim, quoted from SOURCE
 * @property {string[]} subject what the variants may differ in: PRAGMA names, 'cipher', 'driver', 'schema', 'tempdir'
 * @property {Variant} reference
 * @property {Check[]} checks
 * @property {string} holds what "holds" means for this claim
 * @property {string} [note] what a reader should know to read the verdict
 */

// Shorthands the rows below write their claims in: each builds a claimed change from the write-up's figures.
const by = (/** @type {number} */ x) => /** @type {const} */ ({ kind: 'change', low: x, high: x });
/** A claimed change in ops/s from rates (ops/s before and after). */
const rates = (/** @type {number} */ before, /** @type {number} */ after) => by(after / before - 1);
/** A claimed change in ops/s from times (seconds before and after): ops/s goes as 1/time. */
const times = (/** @type {number} */ before, /** @type {number} */ after) => rates(1 / before, 1 / after);
const SLOWER = /** @type {const} */ ({ kind: 'direction', sign: -1 });
const NONE = /** @type {const} */ ({ kind: 'none' });
const WORKLOAD =
  'pending: needs the concurrency workload (bench/workloads/): this run has no paired WAL-against-DELETE comparison of it; every operation of the suite runs on one connection';
const RAM =
  "peak RSS is not measured: an engine process measures many cases, one after another, so its peak is not one case's";

/** @type {Claim[]} */
export const CLAIMS = [
  {
    id: 'wal-autocheckpoint-1000',
    n: 1,
    short: 'wal_autocheckpoint=1000: 12% faster',
    quote:
      '`wal_autocheckpoint=1000` … Our benchmarks show 12% performance gain (inserts 10,548 → 11,800/s, selects +5%, updates +33%)',
    subject: ['wal_autocheckpoint'],
    reference: {},
    checks: [
      {
        says: 'inserts 10,548 → 11,800/s',
        metric: 'ops/s',
        member: { config: 'wal-autocheckpoint-1000' },
        op: 'insert',
        claim: rates(10548, 11800),
      },
      {
        says: 'selects +5%',
        metric: 'ops/s',
        member: { config: 'wal-autocheckpoint-1000' },
        op: 'select',
        claim: by(0.05),
      },
      {
        says: 'updates +33%',
        metric: 'ops/s',
        member: { config: 'wal-autocheckpoint-1000' },
        op: 'update',
        claim: by(0.33),
      },
    ],
    holds: 'the claimed change is inside our 95% interval, which excludes 0',
    note: "1000 is SQLite's default: production, which leaves wal_autocheckpoint unset, already runs with it, so the expected change is none",
  },
  {
    id: 'wal-autocheckpoint-0',
    n: 2,
    short: 'wal_autocheckpoint=0: 13% slower inserts',
    quote: '`wal_autocheckpoint=0`: 9,200 inserts/sec (WAL grows too large), against 10,548 by default',
    subject: ['wal_autocheckpoint'],
    reference: {},
    checks: [
      {
        says: 'inserts 10,548 → 9,200/s',
        metric: 'ops/s',
        member: { config: 'wal-autocheckpoint-0' },
        op: 'insert',
        claim: rates(10548, 9200),
      },
      {
        says: 'not in the write-up: 10000, for the shape of the curve',
        metric: 'ops/s',
        member: { config: 'wal-autocheckpoint-10000' },
        op: 'insert',
        claim: NONE,
      },
      {
        says: 'WAL grows too large',
        metric: 'file size',
        member: { config: 'wal-autocheckpoint-0' },
        notMeasured:
          'the size operation reads the files once after seeding, not as inserts grow the WAL; no operation measures the WAL over a run of inserts',
      },
    ],
    holds: 'the claimed change is inside our 95% interval, which excludes 0',
  },
  {
    id: 'synchronous-normal',
    n: 3,
    short: 'synchronous=NORMAL: 3x faster than FULL',
    quote: '`synchronous=NORMAL`: 3x faster than FULL',
    subject: ['synchronous'],
    reference: { config: 'synchronous-full' },
    checks: [
      { says: '3x faster inserts', metric: 'ops/s', member: {}, op: 'insert', claim: by(2) },
      { says: '3x faster updates', metric: 'ops/s', member: {}, op: 'update', claim: by(2) },
    ],
    holds:
      'NORMAL (production) against FULL, both in WAL mode: the claimed +200% is inside our 95% interval, which excludes 0',
  },
  {
    id: 'secure-delete',
    n: 4,
    short: 'secure_delete=ON: 5% slower',
    quote: '`secure_delete=ON`: Security vs 5% performance cost',
    subject: ['secure_delete'],
    reference: { config: 'secure-delete-off' },
    checks: [
      { says: '5% cost on deletes', metric: 'ops/s', member: {}, op: 'delete', claim: by(-0.05) },
      { says: '5% cost on updates', metric: 'ops/s', member: {}, op: 'update', claim: by(-0.05) },
    ],
    holds: 'ON (production) against OFF: the claimed −5% is inside our 95% interval, which excludes 0',
  },
  {
    id: 'auto-vacuum',
    n: 5,
    short: 'auto_vacuum=FULL: 5% write overhead; NONE fastest',
    quote: '`auto_vacuum=FULL`: Immediate space reclamation, 5% write overhead; NONE: Fastest writes',
    subject: ['auto_vacuum'],
    reference: { config: 'no-auto-vacuum' },
    checks: [
      { says: 'FULL: 5% write overhead (inserts)', metric: 'ops/s', member: {}, op: 'insert', claim: by(-0.05) },
      { says: 'FULL: 5% write overhead (deletes)', metric: 'ops/s', member: {}, op: 'delete', claim: by(-0.05) },
      {
        says: 'NONE: fastest writes (INCREMENTAL slower, inserts)',
        metric: 'ops/s',
        member: { config: 'incremental-vacuum' },
        op: 'insert',
        claim: SLOWER,
      },
      {
        says: 'NONE: fastest writes (INCREMENTAL slower, deletes)',
        metric: 'ops/s',
        member: { config: 'incremental-vacuum' },
        op: 'delete',
        claim: SLOWER,
      },
      {
        says: 'FULL: immediate space reclamation',
        metric: 'file size',
        member: {},
        notMeasured: 'no operation reads the file size after deletes: the size operation reads it once, after seeding',
      },
    ],
    holds:
      'against NONE: FULL (production) is within our 95% interval of −5%, which excludes 0; "fastest writes": the other mode is slower, its interval wholly below 0',
  },
  {
    id: 'temp-storage',
    n: 6,
    short: 'VACUUM temp files: /dev/shm 0.8 s vs /tmp 2.3 s vs default 4.1 s',
    quote:
      'Temp storage for VACUUM: `/tmp` (disk) 2.3 s and 50 MB; `/dev/shm` (RAM) 0.8 s and 2GB+; default 4.1 s; a 10GB SQLite file can consume 10+ GB of RAM during VACUUM (temp_store=MEMORY)',
    subject: ['tempdir', 'temp_store', 'temp_store_directory'],
    reference: {},
    checks: [
      {
        says: 'VACUUM 2.3 s → 0.8 s with temp files on /dev/shm',
        metric: 'time',
        member: { config: 'shm-temp-storage' },
        op: 'vacuum',
        claim: times(2.3, 0.8),
      },
      {
        says: 'VACUUM 2.3 s → 4.1 s with the default temp storage',
        metric: 'time',
        member: { config: 'default-temp-storage' },
        op: 'vacuum',
        claim: times(2.3, 4.1),
      },
      {
        says: 'not timed in the write-up: temp_store=MEMORY',
        metric: 'time',
        member: { config: 'memory-temp-storage' },
        op: 'vacuum',
        claim: NONE,
      },
      {
        says: '/tmp 50 MB, /dev/shm 2GB+ of RAM',
        metric: 'peak RSS',
        member: { config: 'shm-temp-storage' },
        notMeasured: RAM,
      },
      {
        says: 'a 10GB file can consume 10+ GB of RAM during VACUUM with temp_store=MEMORY',
        metric: 'peak RSS',
        member: { config: 'memory-temp-storage' },
        notMeasured: `${RAM}; and the seeded database is about 7 MB (2,000 messages in a full run: its size case), not 10 GB`,
      },
    ],
    holds: 'the claimed change in VACUUM time is inside our 95% interval, which excludes 0',
    note: 'production keeps its temp files on disk beside the database: the write-up\'s "/tmp (disk)"; VACUUM is of the seeded database, about 7 MB (2,000 messages in a full run: see its size case), not 10 GB',
  },
  {
    id: 'cipher',
    n: 7,
    short: 'ChaCha20 6% slower than AES-256; ~18% under unencrypted',
    quote:
      'ChaCha20 ~10,500 inserts/sec, AES-256 ~11,200, unencrypted ~12,800: The 6% performance cost of ChaCha20 vs AES (elsewhere the same project states 70–75% encryption overhead on inserts)',
    subject: ['cipher'],
    reference: { cipher: 'aes256cbc' },
    checks: [
      {
        says: 'ChaCha20 vs AES-256: 11,200 → 10,500 inserts/s',
        metric: 'ops/s',
        member: {},
        op: 'insert',
        claim: rates(11200, 10500),
      },
      {
        says: 'ChaCha20 vs unencrypted: 12,800 → 10,500 inserts/s',
        metric: 'ops/s',
        reference: { cipher: 'none' },
        member: {},
        op: 'insert',
        claim: rates(12800, 10500),
      },
      {
        says: 'AES-256 vs unencrypted: 12,800 → 11,200 inserts/s',
        metric: 'ops/s',
        reference: { cipher: 'none' },
        member: { cipher: 'aes256cbc' },
        op: 'insert',
        claim: rates(12800, 11200),
      },
      {
        says: 'elsewhere: 70–75% encryption overhead on inserts',
        metric: 'ops/s',
        reference: { cipher: 'none' },
        member: {},
        op: 'insert',
        claim: { kind: 'change', low: -0.75, high: -0.7 },
      },
    ],
    holds: 'the claimed change is inside our 95% interval, which excludes 0 (a range: the interval meets it)',
    note: 'all with the production PRAGMAs on better-sqlite3-multiple-ciphers; "unencrypted" is the same driver without a key',
  },
  {
    id: 'cache-size',
    n: 8,
    short: 'cache_size=-64000: 8% faster reads',
    quote: '`cache_size=-64000`: 8% improvement for read-heavy workloads',
    subject: ['cache_size'],
    reference: {},
    checks: [
      {
        says: '8% faster reads',
        metric: 'ops/s',
        member: { config: 'cache-size-64mb' },
        op: 'select',
        claim: by(0.08),
      },
    ],
    holds: 'the claimed +8% is inside our 95% interval, which excludes 0',
  },
  {
    id: 'mmap',
    n: 9,
    short: 'mmap_size=268435456: minimal gains',
    quote: '`mmap_size=268435456`: Minimal gains',
    subject: ['mmap_size'],
    reference: {},
    checks: [
      {
        says: 'minimal gains on reads',
        metric: 'ops/s',
        member: { config: 'mmap-256mb' },
        op: 'select',
        claim: { kind: 'minimal', bound: MINIMAL },
      },
    ],
    holds: `"minimal": our 95% interval lies within ±${MINIMAL * 100}%`,
  },
  {
    id: 'analysis-limit',
    n: 10,
    short: 'analysis_limit 400; higher values slow query planning',
    quote: '`analysis_limit`: they run 400; Higher values slow down query planning',
    subject: ['analysis_limit'],
    reference: { config: 'analysis-limit-400' },
    checks: [
      {
        says: 'higher (1000): slower',
        metric: 'ops/s',
        member: { config: 'analysis-limit-1000' },
        op: 'select',
        claim: SLOWER,
      },
      { says: 'higher (0, no limit: production): slower', metric: 'ops/s', member: {}, op: 'select', claim: SLOWER },
    ],
    holds: 'against 400, a higher limit makes the planned select slower: its 95% interval lies wholly below 0',
    note: 'planning itself happens in prepare(), which no operation times; what is measured is the select the plan runs, after optimize has analysed the table under each limit',
  },
  {
    id: 'blob-last',
    n: 11,
    short: 'BLOB columns last',
    quote:
      "Always put BLOB columns at the end of your table definition (D. Richard Hipp: small columns after a BLOB make SQLite walk the BLOB's overflow pages)",
    subject: ['schema'],
    reference: {},
    checks: [
      {
        says: 'BLOB first: reading the small columns is slower',
        metric: 'ops/s',
        member: { config: 'blob-first' },
        op: 'select',
        claim: SLOWER,
      },
    ],
    holds: 'with the BLOB first, the select of small columns is slower: its 95% interval lies wholly below 0',
  },
  {
    id: 'wal-concurrency',
    n: 12,
    short: 'journal_mode=WAL: +40% concurrent',
    quote: '`journal_mode=WAL`: +40% concurrent performance',
    subject: ['journal_mode'],
    reference: {},
    checks: [
      {
        says: '+40%: writes of 1 writer beside 2 readers',
        metric: 'ops/s',
        workload: { pair: 'w1r2', figure: 'writes' },
        claim: by(0.4),
        pending: true,
        notMeasured: WORKLOAD,
      },
      {
        says: '+40%: reads of 2 readers beside 1 writer',
        metric: 'ops/s',
        workload: { pair: 'w1r2', figure: 'reads' },
        claim: by(0.4),
        pending: true,
        notMeasured: WORKLOAD,
      },
    ],
    holds:
      'WAL against DELETE, 1 writer and 2 readers on the production setup (the concurrency workload, paired by round): the claimed +40% is inside our 95% interval, which excludes 0',
    note: "every operation of the suite runs on one connection; WAL's gain is readers not blocking the writer, which only the concurrency workload measures",
  },
];

/**
 * A variant as a setup: production's config, driver and cipher, with the variant's changes.
 * @param {Variant} v
 * @returns {import('./suite.js').Setup}
 */
export const setupOf = (v) => ({
  config: v.config ?? PRODUCTION_CONFIG,
  driver: v.driver ?? PRODUCTION_DRIVER,
  cipher: v.cipher ?? PRODUCTION_CIPHER,
});

/**
 * Every measured check of every claim as a pair of cases (bench/data/run-plan.js): its reference and
 * member on its operation, with the claim and the check's index; a check this suite cannot measure has none.
 */
export const CLAIM_PAIRS = CLAIMS.flatMap((e) =>
  e.checks.flatMap((c, check) =>
    c.op && c.member && c.claim && !c.notMeasured
      ? [
          {
            reference: { ...setupOf(c.reference ?? e.reference), op: c.op },
            member: { ...setupOf(c.member), op: c.op },
            claim: { id: e.id, check },
          },
        ]
      : [],
  ),
);

/**
 * The judged pair a check of a claim names: the item of the document's `comparisons` with its
 * reference, member and op (a workload figure is the op of a WAL-against-DELETE pair); null when
 * there is none (nothing of the document is trusted).
 * @param {any} doc
 * @param {any} check an item of a claim's `checks`
 * @returns {any}
 */
export function judgedPair(doc, check) {
  const key = (/** @type {any} */ c) => `${c?.reference}/${c?.member}/${c?.op}`;
  const all = /** @type {any[]} */ (Array.isArray(doc?.comparisons) ? doc.comparisons : []);
  return all.find((c) => key(c) === key(check)) ?? null;
}
