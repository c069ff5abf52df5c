// End to end (npm run test:e2e): npm run bench -- --quick with the workloads, as a user runs it:
// the document with them, valid, summarised and read by the aggregate. The workloads' own pieces
// (the barrier, SQLITE_BUSY, a crashed or hung worker, the table) are test/workloads.test.js.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, childEnv, entries, scratch } from '../helpers.js';

test('npm run bench -- --quick with workloads: a document with them, valid, summarised, read by the aggregate, and refused of another version; nothing left in the temp dir', async () => {
  const out = scratch('workloads-out-');
  const tmp = scratch('workloads-tmp-');
  const args = [
    'bench/cli.js',
    '--quick',
    '--config',
    'production',
    '--driver',
    'better-sqlite3-multiple-ciphers',
    '--cipher',
    'chacha20',
    '--op',
    'select',
    '--workload',
    'wal-w1r1,delete-w1r1,scale',
    '--no-counts',
    '--out',
    out,
  ];
  const { code, stdout, stderr } = await new Promise((res) => {
    const c = spawn(process.execPath, args, { cwd: ROOT, env: childEnv({ TMPDIR: tmp }) });
    let so = '';
    let se = '';
    c.stdout.on('data', (d) => {
      so += d;
    });
    c.stderr.on('data', (d) => {
      se += d;
    });
    c.on('close', (code) => res({ code, stdout: so, stderr: se }));
  });
  assert.equal(code, 0, stderr.slice(-800));
  const [file] = fs.readdirSync(out);
  const doc = JSON.parse(fs.readFileSync(path.join(out, file), 'utf8'));
  assert.equal(doc.schemaVersion, 1);
  assert.deepEqual(doc.counting, { status: 'unavailable', reason: 'not asked for (--no-counts)' });
  assert.deepEqual(doc.workloads.cases.map((/** @type {any} */ c) => `${c.name}:${c.status}`).sort(), [
    'delete-w1r1:ok',
    'scale-20k:ok',
    'scale-2k:ok',
    'wal-w1r1:ok',
  ]);
  const scale = doc.workloads.cases.find((/** @type {any} */ c) => c.name === 'scale-20k');
  assert.equal(scale.setup.messages, 4000, 'quick: the quick size');
  assert.ok(
    scale.verified.vacuums === 1 && scale.verified['insert.inserted'] > 0 && scale.verified['delete.deleted'] > 0,
  );
  assert.ok(
    doc.workloads.templates.every(
      (/** @type {any} */ t) =>
        t.status === 'ok' && t.encryption.encrypted && t.pragmas.every((/** @type {any} */ p) => p.applied),
    ),
  );
  assert.match(stdout, /Workloads \(/);
  assert.match(stdout, /1 writer \+ 1 reader/);
  assert.match(stdout, /Cost per 10× messages/);
  assert.deepEqual(entries(tmp), [], 'the run left nothing in its temp dir');

  const { validate } = await import('../../bench/result/document.js');
  const { readResult } = await import('../../aggregate/read.js');
  assert.deepEqual(validate(doc), []);
  assert.ok(
    validate({ ...doc, noise: undefined }).length > 0,
    'a document with comparisons says how noisy its machine was',
  );
  const copy = path.join(tmp, 'doc.json');
  fs.writeFileSync(copy, JSON.stringify(doc));
  const read = readResult(copy);
  assert.ok(read.ok, !read.ok ? read.reason : '');
  fs.writeFileSync(copy, JSON.stringify({ ...doc, schemaVersion: 2 }));
  assert.deepEqual(readResult(copy), {
    ok: false,
    reason: '/schemaVersion is 2; this aggregate reads documents of version 1',
  });
  fs.rmSync(copy);

  // the section: on results/README.md the concurrency and scale tables, strings made inert; in the
  // README a quick run (one round, no ±) is said to be one, without figures
  const { render } = await import('../../aggregate/sections/workload-tables.js');
  const entry = {
    file: 'x.json',
    node: doc.environment.node,
    finishedAt: doc.run.finishedAt,
    status: 'complete',
    mode: 'quick',
  };
  const text = render(
    /** @type {any} */ ({
      platform: 'linux-x64',
      machine: 'm',
      entries: [entry],
      load: () => doc,
      resultsLink: '.',
      page: 'results',
    }),
  ).join('\n');
  assert.match(text, /^##### Concurrency and scale/);
  assert.match(text, /\| 1 writer \+ 1 reader +\|/);
  assert.match(text, /A quick run: one round/);
  assert.match(text, /\| VACUUM \(ms\) +\|/);
  const readme = render(
    /** @type {any} */ ({
      platform: 'linux-x64',
      machine: 'm',
      entries: [entry],
      load: () => doc,
      resultsLink: 'results',
      page: 'readme',
    }),
  );
  assert.equal(readme.length, 2);
  assert.match(readme[1], /a quick run: one round per workload, a smoke test without ±, so no figures here/);
  const crafted = structuredClone(doc);
  crafted.workloads.cases[0].status = 'error';
  crafted.workloads.cases[0].reason = '<img src=x> [link](http://evil)';
  const page = render(
    /** @type {any} */ ({
      platform: 'linux-x64',
      machine: 'm',
      entries: [entry],
      load: () => crafted,
      resultsLink: 'results',
      page: 'results',
    }),
  ).join('\n');
  const { inert } = await import('../../lib/markdown.js');
  assert.ok(page.includes(inert(crafted.workloads.cases[0].reason)), 'the reason is shown made inert');
  assert.doesNotMatch(page, /(^|[^\\])<img/);
});
