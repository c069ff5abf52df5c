// Callgrind instrumenting from the first mark on (bench/counts/instrument.js): the addon is built
// against this Node's headers and does nothing outside valgrind; where it cannot be built the
// reason names what is missing, and the pass instruments whole processes as before. Under valgrind,
// test/e2e/counts-instrument.test.js.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { instrumentHelper } from '../bench/counts/instrument.js';
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
