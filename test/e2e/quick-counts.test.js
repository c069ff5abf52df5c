// End to end (npm run test:e2e): a quick run counts only the cases of bench/data/quick-counts.js,
// the document says which were counted and why the others were not, and every phase prints
// progress with an ETA, the counting pass included. A real `npm run bench -- --quick`, narrowed
// to two cases (one counted in a quick run, one not) so it takes seconds of timing; the counting
// part needs valgrind and strace (Linux) and is skipped with the reason where they are missing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { countingTools } from '../../bench/counts/tools.js';
import { validate } from '../../bench/result/document.js';
import { quickCounted } from '../../bench/data/quick-counts.js';
import { caseKey, parseCaseKey } from '../../bench/data/suite.js';
import { ROOT, childEnv, scratch } from '../helpers.js';

const tools = countingTools();
const skip = tools.status === 'ok' ? false : `cannot count here: ${tools.reason}`;

const COUNTED = 'production/better-sqlite3-multiple-ciphers/chacha20/select';
const NOT_COUNTED = 'production/better-sqlite3-multiple-ciphers/aes128cbc/select';

test(
  'a quick run counts only its representative cases, says which, and prints counting progress with an ETA',
  { skip, timeout: 600_000 },
  () => {
    assert.ok(quickCounted(parseCaseKey(COUNTED)), `${COUNTED} is one a quick run counts`);
    assert.ok(!quickCounted(parseCaseKey(NOT_COUNTED)), `${NOT_COUNTED} is not`);
    const out = scratch('bench-out-');
    const r = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'bench/cli.js'),
        '--quick',
        '--config',
        'production',
        '--driver',
        'better-sqlite3-multiple-ciphers',
        '--cipher',
        'chacha20,aes128cbc',
        '--op',
        'select',
        '--workload',
        'none',
        '--out',
        out,
      ],
      { encoding: 'utf8', env: childEnv({ TMPDIR: scratch('bench-tmp-') }) },
    );
    assert.equal(r.status, 0, r.stderr);
    const [file] = fs.readdirSync(out);
    const doc = JSON.parse(fs.readFileSync(path.join(out, file), 'utf8'));
    assert.deepEqual(validate(doc), []);
    const byKey = new Map(doc.cases.map((/** @type {any} */ c) => [caseKey(c), c]));
    assert.equal(byKey.get(COUNTED)?.counts?.status, 'ok', JSON.stringify(doc.counting));
    assert.equal(byKey.get(NOT_COUNTED)?.status, 'ok', 'timed');
    assert.equal(byKey.get(NOT_COUNTED)?.counts, undefined, 'timed but not counted in a quick run');
    assert.equal(doc.counting.status, 'ok');
    assert.match(
      doc.counting.reason,
      /^quick run: counted 1 of 2 timed cases \(those of bench\/data\/quick-counts\.js: /,
    );
    assert.match(doc.counting.reason, /; not counted: 1, /);
    assert.match(doc.counting.reason, /a full run counts every timed case/);
    assert.equal(doc.counting.repeat.cases, 1);
    // the summary says it too, instead of "every case counted twice"
    assert.match(
      r.stdout,
      /Counts \(.*\): quick run: counted 1 of 2 timed cases.*\. Each counted twice in new processes/,
    );
    // progress in each phase, the counting pass's lines with an ETA from the first
    const lines = r.stderr.split('\n');
    assert.ok(
      lines.some((l) => /^suite \[\s*\d+\/\d+\] \d\d:\d\d elapsed, ETA /.test(l)),
      r.stderr,
    );
    const counting = lines.filter((l) => l.startsWith('counting ['));
    assert.ok(counting.length >= 2, r.stderr);
    for (const l of counting.slice(0, -1))
      assert.match(l, /^counting \[\s*\d+\/\d+\] \d\d:\d\d elapsed, ETA (\d\d:\d\d|overdue) {2}\S/);
    assert.match(counting[counting.length - 1], /^counting \[\d+\/\d+\] \d\d:\d\d elapsed, ETA .* {2}done$/);
  },
);
