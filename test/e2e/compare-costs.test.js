// End to end (npm run test:e2e): the compare's counts on real counts of real SQLite files, in new
// processes under valgrind and strace: known work injected must be found, and a pull request that
// adds one statement per insert must be named with its instruction and system-call change. The
// rule itself, on crafted counts, is test/compare-costs.test.js. Needs valgrind and strace (Linux).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { countingTools } from '../../bench/counts/tools.js';
import { costRows, movedComponents } from '../../lib/costs.js';
import { copyCheckout } from '../../compare/sides.js';
import { ROOT, childEnv, countsCli, scratch } from '../helpers.js';

const tools = countingTools();
const skip = tools.status === 'ok' ? false : `cannot count here: ${tools.reason}`;

const K = (/** @type {string} */ op, cipher = 'none') => `production/better-sqlite3/${cipher}/${op}`;

test(
  'npm run counts on real databases: a loop added to every update, an fsync to every 10th insert and a query to every delete are found; the rest is the same',
  { skip, timeout: 600_000 },
  () => {
    const dir = scratch('counts-inject-');
    const small = ['--quick', '--config', 'production', '--driver', 'better-sqlite3', '--cipher', 'none'];
    const ops = ['--op', 'insert,update,delete'];
    const plain = countsCli([...small, ...ops, '--out', path.join(dir, 'plain.json')]);
    assert.equal(plain.status, 0, plain.stderr);
    const a = JSON.parse(fs.readFileSync(path.join(dir, 'plain.json'), 'utf8'));
    assert.equal(a.kind, 'sqlite-node-bench/counts');
    assert.equal(a.counting.status, 'ok');
    assert.deepEqual(a.cases.map((/** @type {any} */ c) => c.op).sort(), ['delete', 'insert', 'update']);
    const update = a.cases.find((/** @type {any} */ c) => c.op === 'update');
    // the loop alone: what one iteration costs, to size 2% of an update
    const probe = countsCli([
      ...small,
      '--op',
      'update',
      '--probe-loop',
      '20000',
      '--out',
      path.join(dir, 'probe.json'),
    ]);
    assert.equal(probe.status, 0, probe.stderr);
    const perIteration = JSON.parse(fs.readFileSync(path.join(dir, 'probe.json'), 'utf8')).probe.perIteration;
    assert.ok(perIteration > 10 && perIteration < 10000, `one iteration: ${perIteration} instructions`);
    const loop = Math.round((0.02 * update.counts.instructions) / perIteration);
    fs.writeFileSync(
      path.join(dir, 'inject.json'),
      JSON.stringify({ [K('update')]: { loop }, [K('insert')]: { fsyncEvery: 10 }, [K('delete')]: { sql: 200 } }),
    );
    const injected = countsCli([
      ...small,
      ...ops,
      '--inject',
      path.join(dir, 'inject.json'),
      '--out',
      path.join(dir, 'b.json'),
    ]);
    assert.equal(injected.status, 0, injected.stderr);
    const b = JSON.parse(fs.readFileSync(path.join(dir, 'b.json'), 'utf8'));
    assert.deepEqual(
      b.inject,
      { [K('update')]: { loop }, [K('insert')]: { fsyncEvery: 10 }, [K('delete')]: { sql: 200 } },
      'the output names it',
    );
    const by = new Map(costRows(a.cases, b.cases).map((r) => [r.op, r]));
    const u = by.get('update');
    assert.equal(u?.verdict, 'costs more', JSON.stringify(u));
    assert.ok(
      (u?.change ?? 0) > 0.015 && (u?.change ?? 0) < 0.06,
      `the loop of 2% (and the wrapper's own per-operation cost) counted as ${u?.change}`,
    );
    assert.deepEqual(u?.io, [], 'a loop makes no system call');
    const ins = by.get('insert');
    const k = a.cases.find((/** @type {any} */ c) => c.op === 'insert').counts.ops;
    assert.deepEqual(
      ins?.io.filter((x) => x.field === 'fsync'),
      [
        {
          field: 'fsync',
          base: a.cases.find((/** @type {any} */ c) => c.op === 'insert').counts.syscalls.fsync,
          head: ins?.io.find((x) => x.field === 'fsync')?.head,
        },
      ],
    );
    const added = ((ins?.io.find((x) => x.field === 'fsync')?.head ?? 0) - (ins?.base?.io.fsync ?? 0)) * k;
    assert.equal(Math.round(added), Math.ceil(k / 10), `${k} inserts, an fsync on every 10th: ${added} more`);
    assert.equal(ins?.fails, true);
    const d = by.get('delete');
    assert.deepEqual(d?.io, [], 'a query on an in-memory database makes no system call');
    const sqlite = movedComponents(/** @type {any} */ (d)).find((c) => c.component === 'sqlite');
    // hex() of a 200-byte blob: some thousands of SQLite's instructions, with the statement's own
    assert.ok(sqlite && sqlite.delta > 2000 && sqlite.delta < 50_000, JSON.stringify(d?.components));
    assert.equal(d?.verdict, 'costs more');
  },
);

test(
  "a pull request that adds one statement per insert: the compare's report names the insert with its instruction and system-call change, and fails",
  { skip, timeout: 900_000 },
  () => {
    // the head: this checkout, copied, with one more UPDATE per inserted message (what a PR might do)
    const head = scratch('compare-pr-head-');
    copyCheckout(ROOT, head);
    const ops = path.join(head, 'bench/data/ops.js');
    const text = fs.readFileSync(ops, 'utf8');
    const loop = '          for (let i = 0; i < n; i++) insert();';
    assert.equal(text.split(loop).length, 2, 'the insert loop is where this test expects it');
    fs.writeFileSync(
      ops,
      text.replace(
        loop,
        "          const bump = ctx.conn.prepare('UPDATE mailboxes SET uidnext = uidnext + 1');\n" +
          '          for (let i = 0; i < n; i++) {\n            insert();\n            bump.run();\n          }',
      ),
    );
    const out = scratch('compare-pr-out-');
    const r = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'compare/cli.js'),
        '--base',
        ROOT,
        '--head',
        head,
        '--quick',
        '--rounds',
        '2',
        '--time',
        '5',
        '--config',
        'production',
        '--driver',
        'better-sqlite3',
        '--cipher',
        'none',
        '--op',
        'insert,update',
        '--out',
        out,
      ],
      { cwd: ROOT, encoding: 'utf8', env: childEnv(), maxBuffer: 64 * 1024 * 1024 },
    );
    assert.equal(r.status, 1, `the added statement fails the check: ${r.stderr.slice(-800)}`);
    const result = JSON.parse(fs.readFileSync(path.join(out, 'compare.json'), 'utf8'));
    assert.equal(result.counting.status, 'ok', result.counting.reason);
    // the one count rule's judgement, head against base (lib/costs.js countDifferences)
    const differenceOf = (/** @type {string} */ op) =>
      result.counting.differences.find((/** @type {any} */ x) => x.op === op && x.member === 'head');
    const insert = differenceOf('insert');
    assert.equal(insert.verdict, 'costs more');
    assert.ok(insert.change > 0.05, `one more UPDATE per insert: instructions ${insert.change}`);
    assert.ok(
      insert.io.some((/** @type {any} */ x) => x.field === 'write' && x.member > x.reference),
      'its own transaction writes to the WAL',
    );
    assert.equal(insert.fails, true);
    const update = differenceOf('update');
    assert.deepEqual(update.io, [], 'the update is untouched: the same system calls and bytes');
    const md = fs.readFileSync(path.join(out, 'compare.md'), 'utf8');
    const line = md.split('\n').find((l) => l.startsWith('| production/better-sqlite3/none/insert') && l.includes('→'));
    assert.ok(line, md);
    assert.match(line, /\*\*\+\d+\.\d%\*\* \(±\d\.\d\d%\)/, 'its instruction change and tolerance');
    assert.match(line, /\|\s+yes\s+\|$/, 'it fails');
  },
);
