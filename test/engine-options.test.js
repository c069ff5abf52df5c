// The session options a run gives its engines (bench/run/run-suite.js sessionOptions, their first
// message) and those the compare's engine flags make (flags.js sessionOfFlags): exactly what the
// run measures. A quick run keys its templates and their copies with the ciphers' cheap key
// derivation, as the counting pass does, and only a quick run without --keep-db: a full run
// measures with the real one, and kept files open with the key alone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { sessionOfFlags } from '../bench/engine/flags.js';
import { createSession } from '../bench/engine/session.js';
import { sessionOptions } from '../bench/run/run-suite.js';
import { applyKey } from '../bench/engine/database.js';
import { CIPHERS } from '../bench/data/ciphers.js';
import { ROOT, drivers, scratch } from './helpers.js';

/** The options as the engine receives them: through the IPC channel's JSON. */
const run = (/** @type {object} */ o, templates = '/t') =>
  JSON.parse(
    JSON.stringify(sessionOptions(/** @type {any} */ ({ mode: 'quick', filters: {}, seed: 1, ...o }), templates)),
  );

test("a run's engines get exactly what the run measures, on its templates, and of its budget only what measures a round", () => {
  const o = {
    mode: 'full',
    filters: { config: ['production', 'baseline'], driver: ['better-sqlite3'], op: ['select', 'vacuum'] },
    seed: 77,
    time: 120,
    slowdown: 0.05,
    keepDb: path.join(ROOT, 'out', 'kept'),
    budget: { warmupTime: 7, seedMessages: 300, rounds: 4, targetRse: 0.5 },
  };
  assert.deepEqual(run(o, '/tmp/shared-templates'), {
    ...o,
    budget: { warmupTime: 7, seedMessages: 300 }, // the run keeps the rounds and the deadline
    templates: '/tmp/shared-templates',
    cheapKdf: false,
  });
  assert.deepEqual(run({}), { mode: 'quick', filters: {}, seed: 1, templates: '/t', cheapKdf: true });
});

test('only a quick run without --keep-db asks its engines for the cheap key derivation', () => {
  assert.equal(run({}).cheapKdf, true);
  assert.equal(run({ mode: 'full' }).cheapKdf, false);
  assert.equal(run({ keepDb: '/tmp/kept' }).cheapKdf, false);
});

test("the compare's engine flags make the session options of its engines", () => {
  assert.deepEqual(
    JSON.parse(
      JSON.stringify(
        sessionOfFlags(['--quick', '--op', 'insert,select', '--time', '80', '--seed', '9', '--slowdown', '10']),
      ),
    ),
    { mode: 'quick', filters: { op: ['insert', 'select'] }, seed: 9, time: 80, slowdown: 0.1 },
  );
  assert.deepEqual(JSON.parse(JSON.stringify(sessionOfFlags([]))), { mode: 'full', filters: {}, seed: 1 });
});
test('with it, a copy opens only with the cheap derivation, and the setup operation makes its file with the real one', async () => {
  const d = await drivers();
  const driver = d.get('better-sqlite3-multiple-ciphers');
  if (!driver?.open) return;
  const open = /** @type {(file: string) => any} */ (driver.open);
  const key = 'a-test-key';
  const chacha = /** @type {import('../bench/data/ciphers.js').Cipher} */ (CIPHERS.find((c) => c.name === 'chacha20'));
  /** Whether the file opens with this key derivation: 'ok', or the error's code. */
  const opensWith = (/** @type {string} */ file, /** @type {[string, number][]} */ kdf) => {
    const conn = open(file);
    try {
      applyKey(conn, chacha, key, kdf);
      conn.prepare('SELECT count(*) FROM sqlite_master').get();
      return 'ok';
    } catch (err) {
      return /** @type {any} */ (err).code;
    } finally {
      conn.close();
    }
  };
  const c = { config: 'production', driver: 'better-sqlite3-multiple-ciphers', cipher: 'chacha20' };
  const s = createSession({
    mode: 'quick',
    filters: { config: [c.config], driver: [c.driver], cipher: [c.cipher], op: ['select', 'setup'] },
    seed: 1,
    drivers: d,
    key,
    workdir: scratch('bench-kdf-'),
    cheapKdf: true,
    budget: { seedMessages: 20 },
  });
  try {
    const t = s.templates.get(c);
    assert.equal(t.status, 'ok', t.reason);
    assert.equal(opensWith(t.file, [['kdf_iter', 1]]), 'ok', 'the template: the cheap derivation');
    assert.equal(opensWith(t.file, []), 'SQLITE_NOTADB', 'not the real one');
    const setup = s.prepare({ ...c, op: 'setup' });
    assert.ok('task' in setup, JSON.stringify(setup));
    setup.task.run(1); // opens a new file, as the timed operation does
    const [made] = fs.readdirSync(t.dir).filter((f) => /^setup-\d+\.db$/.test(f));
    assert.ok(made, fs.readdirSync(t.dir).join(', '));
    assert.equal(opensWith(path.join(t.dir, made), []), 'ok', "the setup operation's file: the real derivation");
    setup.task.after?.();
    setup.close();
  } finally {
    s.dispose();
  }
});
