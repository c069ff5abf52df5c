// The counting's C helpers (bench/counts/instrument.js). Callgrind instrumenting from the first
// mark on: the addon is built against this Node's headers and does nothing outside valgrind; where
// it cannot be built the reason names what is missing, and the pass instruments whole processes as
// before (under valgrind, test/e2e/counts-instrument.test.js). The counted processes' malloc: a
// process preloading it runs SQLite and V8 on a real file; where it cannot be built, the reason.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { instrumentHelper, mallocHelper } from '../bench/counts/instrument.js';
import { componentOf } from '../bench/data/components.js';
import { ROOT } from './helpers.js';
import { valgrindArgs } from '../bench/counts/pass.js';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'count-instrument-'));

test('the addon is built once into its cache, loads, and its start() does nothing outside valgrind', (t) => {
  const cache = tmp();
  t.after(() => fs.rmSync(cache, { recursive: true, force: true }));
  const built = instrumentHelper({ cache });
  if (built.status !== 'ok') return t.skip(`cannot build here: ${built.reason}`);
  assert.equal(path.dirname(built.file), cache);
  const mtime = fs.statSync(built.file).mtimeMs;
  const again = instrumentHelper({ cache });
  assert.deepEqual(again, built);
  assert.equal(fs.statSync(built.file).mtimeMs, mtime, 'built again');
  const fns = createRequire(import.meta.url)(built.file);
  assert.equal(fns.start(), undefined);
  assert.deepEqual(
    fs.readdirSync(cache).filter((f) => f.endsWith('.tmp')),
    [],
  );
});

test('where it cannot be built, the reason names the missing compiler or headers, and nothing is cached', (t) => {
  const cache = tmp();
  t.after(() => fs.rmSync(cache, { recursive: true, force: true }));
  const noCc = instrumentHelper({ cache, cc: 'no-such-cc' });
  assert.deepEqual(noCc, {
    status: 'unavailable',
    reason: "could not build bench/counts/instrument.c: no C compiler 'no-such-cc'",
  });
  const noHeaders = instrumentHelper({ cache, headers: path.join(cache, 'include') });
  assert.equal(noHeaders.status, 'unavailable');
  assert.match(/** @type {any} */ (noHeaders).reason, /no node_api\.h in .*include/);
  assert.deepEqual(fs.readdirSync(cache), []);
});

test('callgrind starts uninstrumented only where the worker switches it on', () => {
  assert.ok(valgrindArgs(true).includes('--instr-atstart=no'));
  assert.ok(!valgrindArgs(false).some((a) => a.startsWith('--instr-atstart')));
  assert.ok(valgrindArgs(false).includes('--dump-before=uv_os_getppid'));
});

test("the counted processes' malloc: built once, preloaded, and a process runs a real encrypted database on it", (t) => {
  const cache = tmp();
  t.after(() => fs.rmSync(cache, { recursive: true, force: true }));
  const built = mallocHelper({ cache });
  if (built.status !== 'ok') return t.skip(`cannot build here: ${built.reason}`);
  assert.match(path.basename(built.file), /^count-malloc-[0-9a-f]{16}\.so$/);
  assert.deepEqual(mallocHelper({ cache }), built);
  assert.equal(componentOf(built.file, 'malloc'), 'libc');
  // SQLite, the cipher, V8 and a 40 MB buffer (a mapping of its own) on it, and on its strcmp (the cipher finds its
  // parameters by name with it; Node's OpenSSL configuration does not load with a wrong one); the file read back in a
  // new connection
  const script = `
    const fs = await import('node:fs');
    const { loadDrivers } = await import(${JSON.stringify(path.join(ROOT, 'bench/engine/load-drivers.js'))});
    const { open } = (await loadDrivers()).get('better-sqlite3-multiple-ciphers');
    const file = ${JSON.stringify(path.join(cache, 'x.db'))};
    let db = open(file);
    db.pragma("cipher='chacha20'"); db.pragma("key='k'");
    db.exec('CREATE TABLE t(x)');
    const ins = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 3000; i++) ins.run('x'.repeat(i % 700));
    db.exec('VACUUM'); db.close();
    db = open(file); db.pragma("cipher='chacha20'"); db.pragma("key='k'");
    const big = Buffer.alloc(40 << 20, 1);
    const row = db.prepare('SELECT count(*) AS n, sum(length(x)) AS bytes FROM t').get();
    console.log(JSON.stringify({ ...row, big: big.length, mapped: fs.readFileSync('/proc/self/maps', 'utf8').includes(${JSON.stringify(built.file)}) }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, LD_PRELOAD: built.file },
  });
  assert.equal(r.status, 0, r.stderr);
  let bytes = 0;
  for (let i = 0; i < 3000; i++) bytes += i % 700;
  assert.deepEqual(JSON.parse(r.stdout), { n: 3000, bytes, big: 40 << 20, mapped: true });
});

test("where the counted processes' malloc cannot be built, the reason names it, and nothing is cached", (t) => {
  const cache = tmp();
  t.after(() => fs.rmSync(cache, { recursive: true, force: true }));
  assert.deepEqual(mallocHelper({ cache, cc: 'no-such-cc' }), {
    status: 'unavailable',
    reason: "could not build bench/counts/count-malloc.c: no C compiler 'no-such-cc'",
  });
  assert.deepEqual(fs.readdirSync(cache), []);
});
