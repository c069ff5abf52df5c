import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CONFIGS, DEFAULT_CONFIGS, describeChanges } from '../bench/data/configs.js';
import { CLAIMS, CLAIM_PAIRS, SOURCE } from '../bench/data/production-claims.js';
import { differences, validateClaims } from '../bench/claims/validate.js';
import { caseKey, cases, setups } from '../bench/data/suite.js';
import { runPlan } from '../bench/data/run-plan.js';
import { SCHEMA_BLOB_FIRST, schemaOf } from '../bench/data/mail.js';
import { openConfigured } from '../bench/engine/database.js';
import { SELECT_SQL } from '../bench/data/ops.js';
import { CIPHERS } from '../bench/data/ciphers.js';
import { driver, scratch } from './helpers.js';

/** A valid claim to break one field at a time. */
const good = () => ({
  id: 'crafted',
  n: 99,
  short: 'cache_size: 8% faster reads',
  quote: 'cache_size=-64000: 8% improvement',
  subject: ['cache_size'],
  reference: {},
  checks: [
    {
      says: '8% faster reads',
      metric: 'ops/s',
      member: { config: 'cache-size-64mb' },
      op: 'select',
      claim: { kind: 'change', low: 0.08, high: 0.08 },
    },
  ],
  holds: 'the claim is inside the interval',
});

/** The problems of one crafted row. */
const problemsOf = (/** @type {(e: any) => void} */ change) => {
  const e = good();
  change(e);
  return validateClaims([e]);
};

test('the claim table is valid: every claim of issue #18 (1 to 12) is a row, quoted from the write-up, each check measured or saying why not', () => {
  assert.deepEqual(validateClaims(CLAIMS), []);
  assert.deepEqual(
    CLAIMS.map((e) => e.n),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  );
  assert.match(SOURCE.url, /^https:\/\/forwardemail\.net\//);
  for (const e of CLAIMS) {
    for (const c of e.checks) assert.ok((c.op && c.claim) || c.notMeasured, `${e.id}: ${c.says}`);
  }
  // the claim that needs the concurrency workload is pending, not silently missing
  const wal = CLAIMS.find((e) => e.n === 12);
  assert.ok(wal?.checks.every((c) => c.pending && /concurrency workload/.test(String(c.notMeasured))));
});

test('a crafted row that is valid passes, so the refusals below are about what each one breaks', () => {
  assert.deepEqual(validateClaims([good()]), []);
});

test('a claim whose variants differ in more than its subject is refused, naming what else differs', () => {
  // cache + mmap differs from production in mmap_size too
  const both = problemsOf((e) => {
    e.checks[0].member = { config: 'cache-mmap' };
  });
  assert.equal(both.length, 1);
  assert.match(
    both[0],
    /^claim 1 'crafted': check 1: cache-mmap\/better-sqlite3-multiple-ciphers\/chacha20 differs from production\/better-sqlite3-multiple-ciphers\/chacha20 in mmap_size, beyond the subject \(cache_size\)$/,
  );
  // a cipher, a driver, a schema, a temp directory: each is a difference of its own
  assert.match(
    problemsOf((e) => {
      e.checks[0].member = { config: 'cache-size-64mb', cipher: 'none' };
    }).join(),
    /in cipher, beyond/,
  );
  assert.match(
    problemsOf((e) => {
      e.reference = { cipher: 'none' };
      e.checks[0].member = { config: 'cache-size-64mb', driver: 'better-sqlite3', cipher: 'none' };
    }).join(),
    /in driver, beyond/,
  );
  assert.match(
    problemsOf((e) => {
      e.subject = ['cache_size', 'schema'];
      e.checks.push({ ...e.checks[0], member: { config: 'blob-first' } });
      e.checks[0].member = { config: 'shm-temp-storage' };
    }).join(),
    /shm-temp-storage.* in tempdir, beyond the subject \(cache_size, schema\)/,
  );
  // the subject must say what differs, and nothing it lists may go unvaried
  assert.match(
    problemsOf((e) => {
      e.subject = ['cache_size', 'mmap_size'];
    }).join(),
    /subject lists mmap_size, in which no check's variants differ/,
  );
  // identical setups compare nothing
  assert.match(
    problemsOf((e) => {
      e.checks[0].member = { config: 'production-twin' };
    }).join(),
    /the same setup/,
  );
});

test('differences() sees values, PRAGMAs set in one only, their order, schema, temp directory, cipher and driver', () => {
  const base = CONFIGS[0];
  const crafted = [
    base,
    { ...base, name: 'reordered', pragmas: [base.pragmas[1], base.pragmas[0], ...base.pragmas.slice(2)] },
    { ...base, name: 'unset', pragmas: base.pragmas.filter(([n]) => n !== 'secure_delete') },
  ];
  const s = (/** @type {string} */ config, cipher = 'chacha20', d = 'better-sqlite3-multiple-ciphers') => ({
    config,
    driver: d,
    cipher,
  });
  assert.deepEqual(differences(s('production'), s('reordered'), { configs: crafted }), ['PRAGMA order']);
  assert.deepEqual(differences(s('production'), s('unset'), { configs: crafted }), ['secure_delete']);
  assert.deepEqual(differences(s('production'), s('blob-first')), ['schema']);
  assert.deepEqual(differences(s('production'), s('shm-temp-storage')), ['tempdir']);
  assert.deepEqual(differences(s('production'), s('default-temp-storage')).sort(), [
    'temp_store',
    'temp_store_directory',
  ]);
  assert.deepEqual(differences(s('production', 'none'), s('baseline', 'none', 'better-sqlite3')).length > 5, true);
  assert.deepEqual(differences(s('production'), s('nope')), ["unknown config 'nope'"]);
});

test('bad rows are refused with one line each, naming the row and the field', () => {
  /** @type {[(e: any) => void, RegExp][]} */
  const cases = [
    [
      (/** @type {any} */ e) => {
        e.id = 'Not A Slug';
      },
      /id must be a slug/,
    ],
    [
      (/** @type {any} */ e) => {
        e.quote = '';
      },
      /quote must be a non-empty string/,
    ],
    [
      (/** @type {any} */ e) => {
        e.holds = undefined;
      },
      /holds must be a non-empty string/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks = [];
      },
      /checks must be a non-empty list/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0].op = 'nope';
      },
      /unknown op 'nope'; valid: setup, insert/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0].op = 'size';
      },
      /op 'size' is not timed/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0].metric = 'joy';
      },
      /unknown metric 'joy'; valid: ops\/s, time, peak RSS, file size/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0].metric = 'peak RSS';
      },
      /metric 'peak RSS' is not measured by a timed operation; say why in notMeasured/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0].claim = { kind: 'change', low: 0, high: 0.1 };
      },
      /a change claim has low <= high, both above -1, of one sign, never 0/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0].claim = { kind: 'change', low: -0.1, high: 0.1 };
      },
      /of one sign/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0].claim = { kind: 'direction', sign: 0 };
      },
      /sign 1 \(faster\) or -1 \(slower\)/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0].claim = { kind: 'vibes' };
      },
      /unknown claim kind 'vibes'/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0].member = { config: 'nope' };
      },
      /check 1 member: unknown config 'nope'/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0].member = { config: 'cache-size-64mb', driver: 'better-sqlite3' };
      },
      /has no encryption, so no cipher 'chacha20'/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0].member = { config: 'cache-size-64mb', colour: 'red' };
      },
      /member has colour; valid: config, driver, cipher/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0] = { says: 'x', metric: 'peak RSS', notMeasured: '' };
      },
      /notMeasured must be the reason/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0] = { says: 'x', metric: 'peak RSS', notMeasured: 'why', op: 'select' };
      },
      /a check that is not measured has no op or claim/,
    ],
    [
      (/** @type {any} */ e) => {
        e.checks[0].pending = true;
      },
      /pending needs a notMeasured reason/,
    ],
  ];
  for (const [change, re] of cases) {
    const p = problemsOf(change);
    assert.ok(p.length >= 1, String(re));
    assert.ok(
      p.some((x) => re.test(x)),
      `${re}: ${p.join(' / ')}`,
    );
    for (const x of p) assert.ok(!x.includes('\n') && x.startsWith("claim 1 '"), x);
  }
  assert.match(validateClaims([good(), good()]).join(), /claim 2 'crafted': id repeats an earlier claim's/);
  // a check measured by a workload: a known concurrency pair, a claim, a reason for runs without it, subject journal_mode
  const wl = (/** @type {any} */ check, subject = ['journal_mode']) =>
    validateClaims([
      {
        ...good(),
        subject,
        checks: [
          {
            says: 'x',
            metric: 'ops/s',
            workload: { pair: 'w1r2', figure: 'writes' },
            claim: { kind: 'change', low: 0.4, high: 0.4 },
            notMeasured: 'why',
            ...check,
          },
        ],
      },
    ]);
  assert.deepEqual(wl({}), []);
  assert.match(wl({ workload: { pair: 'nope', figure: 'writes' } }).join(), /no concurrency pair 'nope'/);
  assert.match(wl({ workload: { pair: 'w1r2', figure: 'joy' } }).join(), /workload must be \{ pair, figure/);
  assert.match(wl({ notMeasured: undefined }).join(), /says in notMeasured why/);
  assert.match(wl({ op: 'select' }).join(), /a workload check has no op or member/);
  assert.match(wl({}, ['cache_size']).join(), /its subject is journal_mode/);
  assert.match(validateClaims([null]).join(), /claim 1: not an object/);
});

test("the claim-only variants run only in their claims: not in setups() (the per-config tables), yet in cases() on their claims' operations", () => {
  const claimOnly = CONFIGS.filter((c) => c.claimOnly).map((c) => c.name);
  assert.ok(claimOnly.length >= 8);
  assert.deepEqual(
    DEFAULT_CONFIGS.filter((c) => claimOnly.includes(c)),
    [],
  );
  assert.ok(!setups().some((s) => claimOnly.includes(s.config)));
  const all = new Set(cases().map(caseKey));
  const claimCases = (/** @type {string} */ id) =>
    CLAIM_PAIRS.filter((p) => p.claim.id === id).flatMap((p) => [p.reference, p.member]);
  for (const c of CLAIMS.flatMap((e) => claimCases(e.id))) assert.ok(all.has(caseKey(c)), caseKey(c));
  const extra = cases().filter((c) => claimOnly.includes(c.config));
  const ops = new Set(
    CLAIMS.flatMap((e) => claimCases(e.id))
      .filter((c) => claimOnly.includes(c.config))
      .map(caseKey),
  );
  assert.deepEqual(new Set(extra.map(caseKey)), ops, "a claim-only config runs exactly its claims' cases");
  // --claim: exactly its cases, reference included
  const picked = cases({ claim: ['synchronous-normal'] })
    .map(caseKey)
    .sort();
  assert.deepEqual(picked, [...new Set(claimCases('synchronous-normal').map(caseKey))].sort());
  assert.ok(
    picked.includes('synchronous-full/better-sqlite3-multiple-ciphers/chacha20/insert') &&
      picked.includes('production/better-sqlite3-multiple-ciphers/chacha20/insert'),
  );
});

test("the plan pairs a claim's member with its reference, so an extra round measuring one measures both", () => {
  const member = 'production/better-sqlite3-multiple-ciphers/chacha20';
  const refsOf = (/** @type {string} */ op, /** @type {object} */ filters = {}) =>
    runPlan(filters)
      .pairs.filter((p) => p.claim && caseKey(p.member) === `${member}/${op}`)
      .map((p) => caseKey(p.reference));
  const refs = refsOf('insert');
  assert.ok(refs.includes('synchronous-full/better-sqlite3-multiple-ciphers/chacha20/insert'), refs.join());
  assert.ok(refs.includes('production/better-sqlite3-multiple-ciphers/aes256cbc/insert'), refs.join());
  assert.deepEqual(refsOf('insert', { claim: ['synchronous-normal'] }), [
    'synchronous-full/better-sqlite3-multiple-ciphers/chacha20/insert',
  ]);
  assert.deepEqual(refsOf('checkpoint'), []);
});

test('the new variants say how they differ from production', () => {
  const note = (/** @type {string} */ n) =>
    describeChanges(/** @type {any} */ (CONFIGS.find((c) => c.name === n))).note;
  assert.match(String(note('blob-first')), /schema 'blob-first'/);
  assert.match(String(note('shm-temp-storage')), /\/dev\/shm/);
  assert.match(String(note('default-temp-storage')), /without temp_store/);
  assert.equal(
    describeChanges(/** @type {any} */ (CONFIGS.find((c) => c.name === 'synchronous-full'))).equalsDefault,
    false,
    'FULL changes a PRAGMA production sets: a real change',
  );
});

test('the BLOB-first schema has the same columns with raw first, and the select still uses its index on a real file', async () => {
  assert.equal(schemaOf({}), schemaOf({ schema: 'blob-last' }));
  assert.equal(schemaOf({ schema: 'blob-first' }), SCHEMA_BLOB_FIRST);
  const mc = await driver('better-sqlite3-multiple-ciphers');
  const chacha = /** @type {any} */ (CIPHERS.find((c) => c.name === 'chacha20'));
  const dir = scratch();
  const cols = /** @type {Record<string, string[]>} */ ({});
  for (const name of ['production', 'blob-first']) {
    const config = /** @type {any} */ (CONFIGS.find((c) => c.name === name));
    const { conn } = openConfigured(mc, path.join(dir, `${name}.db`), {
      pragmas: config.pragmas,
      cipher: chacha,
      key: 'k',
      tempdir: dir,
      schema: schemaOf(config),
    });
    cols[name] = conn
      .prepare("SELECT name FROM pragma_table_info('messages')")
      .all()
      .map((r) => String(r.name));
    const plan = conn
      .prepare(`EXPLAIN QUERY PLAN ${SELECT_SQL}`)
      .all(1)
      .map((r) => String(r.detail))
      .join();
    assert.match(plan, /messages_mailbox_date/, name);
    conn.close();
  }
  assert.equal(cols.production.at(-1), 'raw');
  assert.equal(cols['blob-first'][1], 'raw');
  assert.deepEqual([...cols['blob-first']].sort(), [...cols.production].sort());
});

test('temp files on /dev/shm: a session puts the temp directory there, reads it back, and removes it; where there is none the case is skipped with the reason', async () => {
  const { loadDrivers } = await import('../bench/engine/load-drivers.js');
  const { createSession } = await import('../bench/engine/session.js');
  const drivers = await loadDrivers();
  const s = createSession({
    mode: 'full',
    filters: /** @type {any} */ ({ claim: ['temp-storage'], config: ['shm-temp-storage'] }),
    seed: 5,
    drivers,
    budget: { time: 5, warmupTime: 2, seedMessages: 100 },
  });
  try {
    const [c] = s.list;
    const [r] = /** @type {any[]} */ (s.runBlock([c], s.budget, Math.random));
    if (!fs.existsSync('/dev/shm')) {
      assert.equal(r.status, 'skipped');
      assert.match(r.reason, /\/dev\/shm, which this machine .* does not have/);
      return;
    }
    assert.ok(r.round, r.reason);
    assert.ok(
      String(r.pragmas.temp_store_directory).startsWith('/dev/shm/sqlite-bench-'),
      r.pragmas.temp_store_directory,
    );
    assert.ok(r.verified.vacuums > 0);
    assert.ok(fs.existsSync(r.pragmas.temp_store_directory));
    s.dispose();
    assert.ok(
      !fs.existsSync(path.dirname(r.pragmas.temp_store_directory)),
      'the /dev/shm directory outlived its engine',
    );
  } finally {
    s.dispose();
  }
});
