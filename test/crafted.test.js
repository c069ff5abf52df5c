// Issue #13: what an attacker with write access to one matrix cell's artifact can do with the
// aggregate. A corpus of documents crafted from one valid document, aggregated together with it:
// the valid one is stored; nothing is written outside results/ and the README's marker block (not
// even where a path was aimed: beside the scratch directory); the README outside the markers stays
// byte for byte; every refused file is named on one line with the field and the reason; a
// document whose rendered strings carry Markdown is valid, and the README shows that text inert.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { aggregate } from '../aggregate/cli.js';
import { fileFor, inside, openStore } from '../aggregate/store.js';
import { syntheticDoc } from '../bench/meta/synthetic.js';
import { END, START } from '../lib/markers.js';
import { aggregateWorkspace, blockWithMarkers, childEnv, outsideBlock, ROOT, TEST_NOW, tree } from './helpers.js';

const README = `# Title\n\nintro stays\n\n${START}\nold block\n${END}\n\nfooter stays\n`;
const Z = '\u200b';
const VALID = syntheticDoc({ node: 'v22.23.3' });
/** A run id of its own for crafted document n. */
const idOf = (/** @type {number} */ n) =>
  `c0ffee${String(n).padStart(2, '0')}-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A workspace: artifacts/, results/, README.md, and a name to aim traversals at beside it. */
function workspace() {
  const ws = aggregateWorkspace('crafted-', README);
  return { ...ws, escape: `escaped-${path.basename(ws.dir)}` };
}

/**
 * The crafted document kinds that must be refused: how each is made from a copy of the valid
 * document (given its own run id first), and the field and reason its line must name.
 * @param {string} escape a file name beside the scratch directory that must never appear
 * @returns {{ name: string, make: (d: any) => any, expect: RegExp }[]}
 */
const refusedKinds = (escape) => [
  // the fields a stored file's path is made of
  {
    name: 'node-relative-traversal',
    make: (d) => {
      d.environment.node = `v1.2.3/../../../../${escape}`;
    },
    expect: /\/environment\/node must match pattern/,
  },
  {
    name: 'node-backslash',
    make: (d) => {
      d.environment.node = `v1.2.3\\..\\..\\..\\..\\${escape}`;
    },
    expect: /\/environment\/node must match pattern/,
  },
  {
    name: 'node-nul',
    make: (d) => {
      d.environment.node = 'v22.23.3\u0000.json';
    },
    expect: /\/environment\/node must match pattern/,
  },
  {
    name: 'node-very-long',
    make: (d) => {
      d.environment.node = `v22.23.3-${'a'.repeat(5000)}`;
    },
    expect: /\/environment\/node must NOT have more than 64 characters/,
  },
  {
    name: 'node-not-semver',
    make: (d) => {
      d.environment.node = 'v22.23.3-rc.01';
    },
    expect: /\/environment\/node 'v22\.23\.3-rc\.01' is not a semantic version/,
  },
  {
    name: 'platform-relative-traversal',
    make: (d) => {
      d.environment.platform = `/../../../../${escape}`;
    },
    expect: /\/environment\/platform must be equal to one of the allowed values \(aix, android/,
  },
  {
    name: 'platform-absolute',
    make: (d) => {
      d.environment.platform = path.join(os.tmpdir(), escape);
    },
    expect: /\/environment\/platform must be equal to one of the allowed values/,
  },
  {
    name: 'arch-windows-separators',
    make: (d) => {
      d.environment.arch = `x64\\..\\..\\..\\..\\${escape}`;
    },
    expect: /\/environment\/arch must be equal to one of the allowed values \(arm, arm64/,
  },
  {
    name: 'arch-very-long',
    make: (d) => {
      d.environment.arch = 'x'.repeat(100_000);
    },
    expect: /\/environment\/arch must be equal to one of the allowed values/,
  },
  {
    name: 'run-id-traversal',
    make: (d) => {
      d.run.id = '../../../../../../../../../../../../';
    },
    expect: /\/run\/id must match pattern/,
  },
  {
    name: 'run-id-not-uuid',
    make: (d) => {
      d.run.id = '------------------------------------';
    },
    expect: /\/run\/id must match pattern/,
  },
  {
    name: 'finished-at-traversal',
    make: (d) => {
      d.run.finishedAt = `../../../${escape}/T03:17:00Z`;
    },
    expect: /\/run\/finishedAt must match pattern/,
  },
  {
    name: 'finished-at-not-a-date',
    make: (d) => {
      d.run.finishedAt = '2026-02-30T03:17:00.000Z';
    },
    expect: /\/run\/finishedAt '2026-02-30T03:17:00\.000Z' is not a real date/,
  },
  // rendered strings: control characters and bidirectional controls; Markdown that needs a new line
  {
    name: 'cpu-model-bidi-override',
    make: (d) => {
      d.environment.cpuModel = 'AMD EPYC \u202egnp.exe';
    },
    expect: /\/environment\/cpuModel contains the Unicode bidirectional control U\+202E/,
  },
  {
    name: 'driver-version-bidi-isolate',
    make: (d) => {
      d.sides[0].drivers[0].version = '13.0.3\u2066';
    },
    expect: /\/sides\/0\/drivers\/0\/version must match pattern/,
  },
  {
    name: 'os-release-nul',
    make: (d) => {
      d.environment.osRelease = '6.11.0\u0000';
    },
    expect: /\/environment\/osRelease contains the control character U\+0000/,
  },
  {
    name: 'cpu-model-c1-control',
    make: (d) => {
      d.environment.cpuModel = 'AMD\u0085EPYC';
    },
    expect: /\/environment\/cpuModel contains the control character U\+0085/,
  },
  {
    name: 'driver-reason-heading',
    make: (d) => {
      d.sides[0].drivers[2] = { name: 'node:sqlite', status: 'skipped', reason: 'x\n# Owned' };
    },
    expect: /\/sides\/0\/drivers\/2\/reason contains the control character U\+000A/,
  },
  {
    name: 'case-reason-fence',
    make: (d) => {
      d.cases[1] = { ...d.cases[1], status: 'error', reason: 'x\n```\nrm -rf /\n```' };
      delete d.cases[1].stats;
    },
    expect: /\/cases\/1\/reason contains the control character U\+000A/,
  },
  {
    name: 'image-version-html-block',
    make: (d) => {
      d.environment.ci.imageVersion = '1\n\n<script>alert(1)</script>';
    },
    expect: /\/environment\/ci\/imageVersion must match pattern/,
  },
  {
    name: 'image-os-table-break',
    make: (d) => {
      d.environment.ci.imageOs = 'ubuntu24 |\n| --- |';
    },
    expect: /\/environment\/ci\/imageOs must match pattern/,
  },
  // names (issue 36): markup where a kind of name belongs does not match its pattern; a free text is bounded
  {
    name: 'image-os-html',
    make: (d) => {
      d.environment.ci.imageOs = '<img src=x onerror=alert(1)>';
    },
    expect: /\/environment\/ci\/imageOs must match pattern/,
  },
  {
    name: 'image-version-table-pipe',
    make: (d) => {
      d.environment.ci.imageVersion = '1 | 2 | 3';
    },
    expect: /\/environment\/ci\/imageVersion must match pattern/,
  },
  {
    name: 'driver-version-mention',
    make: (d) => {
      d.sides[0].drivers[1].version = '@octocat';
    },
    expect: /\/sides\/0\/drivers\/1\/version must match pattern/,
  },
  {
    name: 'cpu-model-very-long',
    make: (d) => {
      d.environment.cpuModel = 'A'.repeat(100_000);
    },
    expect: /\/environment\/cpuModel must NOT have more than 200 characters/,
  },
  // what else a crafted document can try
  {
    name: 'no-cases',
    make: (d) => {
      d.cases = [];
    },
    expect: /\/cases is empty: no case, and no reason/,
  },
  {
    name: 'ok-case-without-figure',
    make: (d) => {
      delete d.cases[1].stats;
      d.cases[1].size = { mainBytes: 1, walBytes: 0, pageSize: 4096, pageCount: 1, freelistCount: 0, messages: 1 };
    },
    expect: /\/cases\/1 is ok but has no stats: 'insert' is timed/,
  },
];

/**
 * Crafted documents that claim the valid one's run id, read before it and after it: each invalid
 * (a path traversal), so neither may block the valid one.
 * @param {string} escape
 */
const sameIdKinds = (escape) => [
  {
    name: '0-same-id-read-first',
    make: (/** @type {any} */ d) => {
      d.run.id = VALID.run.id;
      d.environment.platform = `/../../../../${escape}`;
    },
    expect: /\/environment\/platform must be equal to one of the allowed values/,
  },
  {
    name: 'z-same-id-read-last',
    make: (/** @type {any} */ d) => {
      d.run.id = VALID.run.id;
      d.environment.node = `v22.23.3/../../../../${escape}`;
    },
    expect: /\/environment\/node must match pattern/,
  },
];

/**
 * Valid documents whose rendered strings carry Markdown on one line: stored (a real CPU model
 * has '@', a real reason '||' and '>='), and shown as text. Each is its own machine class (its
 * core count), so each has its own section; `shown` is what the README block must hold.
 * @type {{ name: string, make: (d: any) => void, raw: string, shown: string }[]}
 */
const inertKinds = [
  {
    name: 'cpu-model-link',
    make: (d) => {
      d.environment.cpuModel = '[click](https://evil.example)';
    },
    raw: '[click](https://evil.example)',
    shown: '| \\[click\\](https\\://evil.example), ',
  },
  {
    name: 'os-release-image',
    make: (d) => {
      d.environment.osRelease = '![x](https://evil.example/x.png)';
    },
    raw: '![x](',
    shown: '| linux \\!\\[x\\](https\\://evil.example/x.png), ',
  },
  {
    name: 'case-reason-heading-fence',
    make: (d) => {
      d.cases[1] = { ...d.cases[1], status: 'error', reason: '# Owned ```js' };
      delete d.cases[1].stats;
      delete d.cases[1].verified;
      delete d.cases[1].pragmas;
    },
    raw: '# Owned',
    shown: `- [1] error: \\#${Z} Owned \\\`\\\`\\\`js`,
  },
  {
    name: 'driver-reason-marker',
    make: (d) => {
      d.sides[0].drivers[2] = { name: 'node:sqlite', status: 'skipped', reason: `${END} ${START}` };
    },
    raw: `${END} ${START}`,
    shown: '| skipped: \\<\\!-- BENCHMARK\\_RESULTS\\_END --\\> \\<\\!-- BENCHMARK\\_RESULTS\\_START --\\> |',
  },
];

const stored = (/** @type {string} */ results) =>
  fs.existsSync(results)
    ? fs
        .readdirSync(results, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.json') && f !== 'index.json')
    : [];

/**
 * Write the valid document and the crafted ones; returns each crafted file with what its line must say.
 * @param {ReturnType<typeof workspace>} ws
 * @param {{ inert?: boolean }} [o]
 */
function corpus(ws, { inert = true } = {}) {
  const put = (/** @type {string} */ name, /** @type {any} */ doc) => {
    const file = path.join(ws.artifacts, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(doc, null, 2));
    return file;
  };
  put('m-valid', VALID);
  const refused = [...refusedKinds(ws.escape), ...sameIdKinds(ws.escape)].map((k, i) => {
    const d = structuredClone(VALID);
    d.run.id = idOf(i);
    k.make(d);
    return {
      name: k.name,
      file: put(k.name.startsWith('0-') || k.name.startsWith('z-') ? k.name : `c-${k.name}`, d),
      expect: k.expect,
    };
  });
  const shown = inert
    ? inertKinds.map((k, i) => {
        const d = structuredClone(VALID);
        d.run.id = idOf(50 + i);
        d.environment.cores = 10 + i;
        k.make(d);
        return { ...k, file: put(`i-${k.name}`, d) };
      })
    : [];
  return { refused, shown };
}

test('the corpus has at least 15 kinds, one for each field that forms a path and for each kind of rendered Markdown', () => {
  const names = [...refusedKinds('x'), ...sameIdKinds('x'), ...inertKinds].map((k) => k.name);
  assert.ok(names.length >= 15, String(names.length));
  for (const field of ['node', 'platform', 'arch', 'run-id', 'finished-at'])
    assert.ok(
      names.some((n) => n.startsWith(field)),
      field,
    );
  for (const what of ['relative-traversal', 'absolute', 'backslash', 'windows-separators', 'nul', 'very-long'])
    assert.ok(
      names.some((n) => n.includes(what)),
      what,
    );
  for (const what of ['link', 'image', 'html', 'heading', 'fence', 'table', 'mention', 'bidi'])
    assert.ok(
      names.some((n) => n.includes(what)),
      what,
    );
  assert.ok(names.includes('0-same-id-read-first') && names.includes('z-same-id-read-last'));
});

test('aggregate over the valid document and every crafted one: the valid one stored, each bad file named with field and reason, nothing written outside results/ and the marker block', async () => {
  const ws = workspace();
  const { refused, shown } = corpus(ws);
  const before = tree(ws.dir, ['results', 'README.md']);
  const beside = fs.readdirSync(path.dirname(ws.dir)).filter((f) => f.includes(ws.escape));
  /** @type {string[]} */
  const warn = [];
  /** @type {string[]} */
  const log = [];
  const code = await aggregate(
    { artifacts: ws.artifacts, results: ws.results, readme: ws.readme, now: TEST_NOW },
    { log: (s) => log.push(s), warn: (s) => warn.push(s) },
  );
  assert.equal(code, 0, warn.join('\n'));

  // the valid document is stored, and so is each valid document with Markdown in its strings; nothing else
  const files = stored(ws.results);
  const valid = fileFor(VALID);
  assert.ok(valid && files.includes(valid.split('/').join(path.sep)), files.join(' '));
  assert.equal(files.length, 1 + shown.length, files.join('\n'));
  // every refused file: exactly one line, naming it, the field and the reason
  assert.equal(warn.length, refused.length, warn.join('\n'));
  for (const r of refused) {
    const lines = warn.filter((w) => w.startsWith(`${r.file}: `));
    assert.equal(lines.length, 1, `${r.name}: ${lines.length} lines`);
    assert.match(lines[0], r.expect, r.name);
    assert.ok(
      // eslint-disable-next-line no-control-regex -- a printable line is one without control characters
      !/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(lines[0]),
      `${r.name}: one printable line`,
    );
  }
  assert.match(
    log.join('\n'),
    new RegExp(
      `${refused.length + shown.length + 1} file\\(s\\) read, ${shown.length + 1} valid, ${shown.length + 1} stored, ${refused.length} skipped, 0 refused`,
    ),
  );

  // nothing written anywhere else: the scratch directory outside results/ and README.md, beside it, the README outside its block
  assert.deepEqual(tree(ws.dir, ['results', 'README.md']), before);
  assert.deepEqual(
    fs.readdirSync(path.dirname(ws.dir)).filter((f) => f.includes(ws.escape)),
    beside,
  );
  assert.ok(!fs.existsSync(path.join(path.dirname(ws.dir), ws.escape)));
  for (const f of fs.readdirSync(ws.results, { recursive: true }).map(String)) assert.ok(inside(ws.results, f), f);
  const readme = fs.readFileSync(ws.readme, 'utf8');
  assert.deepEqual(outsideBlock(readme), outsideBlock(README));

  // Markdown in a valid document's strings is shown as text (a case's reason is in the long form, results/README.md)
  const b = blockWithMarkers(readme) + fs.readFileSync(path.join(ws.results, 'README.md'), 'utf8');
  for (const k of shown) {
    assert.ok(b.includes(k.shown), `${k.name}: ${k.shown} not in the block`);
    assert.ok(!b.includes(k.raw), `${k.name}: ${k.raw} reached the README as it is`);
  }
  assert.doesNotMatch(b, /@[A-Za-z0-9]/, 'a mention');
  assert.equal(readme.split(START).length, 2, 'one start marker');
  assert.equal(readme.split(END).length, 2, 'one end marker');

  // and the next aggregate reads that README again: a marker in a document cannot lock it
  const again = await aggregate(
    { artifacts: ws.artifacts, results: ws.results, readme: ws.readme, now: TEST_NOW },
    { log: () => {}, warn: () => {} },
  );
  assert.equal(again, 0);
  assert.equal(fs.readFileSync(ws.readme, 'utf8'), readme);
});

test('npm run aggregate over the valid document and the crafted ones that are invalid: exit 0, exactly the valid one stored, every other named', () => {
  const ws = workspace();
  const { refused } = corpus(ws, { inert: false });
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, 'aggregate/cli.js'), '--artifacts', ws.artifacts, '--results', ws.results, '--readme', ws.readme],
    { encoding: 'utf8', env: childEnv() },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(stored(ws.results), [fileFor(VALID)?.split('/').join(path.sep)]);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, refused.length, r.stderr);
  for (const x of refused)
    assert.match(lines.find((l) => l.startsWith(`${x.file}: `)) ?? `${x.name}: not named`, x.expect, x.name);
  assert.match(r.stdout, /1 stored/);
  assert.deepEqual(outsideBlock(fs.readFileSync(ws.readme, 'utf8')), outsideBlock(README));
});

for (const order of ['the valid one first', 'the other first']) {
  test(`two valid documents with one run id and different content (${order}): neither is stored, both are named, exit 1`, async () => {
    const ws = workspace();
    const other = structuredClone(VALID);
    other.cases.find((/** @type {any} */ c) => c.status === 'ok' && c.stats).stats.opsPerSec.median *= 2;
    const [first, second] = order === 'the valid one first' ? [VALID, other] : [other, VALID];
    const a = path.join(ws.artifacts, 'a.json');
    const b = path.join(ws.artifacts, 'b.json');
    fs.writeFileSync(a, JSON.stringify(first));
    fs.writeFileSync(b, JSON.stringify(second));
    fs.writeFileSync(path.join(ws.artifacts, 'c.json'), JSON.stringify(first)); // the same document again: not an error
    /** @type {string[]} */
    const warn = [];
    const code = await aggregate(
      { artifacts: ws.artifacts, results: ws.results, readme: ws.readme, now: TEST_NOW },
      { log: () => {}, warn: (s) => warn.push(s) },
    );
    assert.equal(code, 1);
    assert.deepEqual(stored(ws.results), []);
    assert.match(
      warn.find((w) => w.startsWith(`${a}: `)) ?? '',
      new RegExp(`/run/id ${VALID.run.id} is also claimed by ${b} with different content; neither is stored$`),
    );
    assert.match(
      warn.find((w) => w.startsWith(`${b}: `)) ?? '',
      new RegExp(
        `/run/id ${VALID.run.id} is also claimed by ${a}, .*c\\.json with different content; neither is stored$`,
      ),
    );
    assert.match(warn.at(-1) ?? '', /^aggregate: 3 valid document\(s\) refused/);
  });
}

test('a valid document whose file name another new run would take: neither is stored, exit 1', async () => {
  const ws = workspace();
  const twin = structuredClone(VALID);
  twin.run.id = `${VALID.run.id.slice(0, 8)}-0000-4000-8000-000000000000`; // another run id, the same first 8 characters
  fs.writeFileSync(path.join(ws.artifacts, 'a.json'), JSON.stringify(VALID));
  fs.writeFileSync(path.join(ws.artifacts, 'b.json'), JSON.stringify(twin));
  /** @type {string[]} */
  const warn = [];
  assert.equal(
    await aggregate(
      { artifacts: ws.artifacts, results: ws.results, readme: ws.readme, now: TEST_NOW },
      { log: () => {}, warn: (s) => warn.push(s) },
    ),
    1,
  );
  assert.deepEqual(stored(ws.results), []);
  assert.match(
    warn[0],
    /a\.json: would be stored as results\/2026\/2026-11-20-linux-x64-node-v22\.23\.3-aa45f544\.json, as would .*b\.json \(another run id\); neither is stored$/,
  );
});

test('defence in depth: the store builds no path from parts the schema does not allow, and writes nothing outside results/', () => {
  const ws = workspace();
  const store = openStore(ws.results, () => {});
  for (const make of [
    (/** @type {any} */ d) => {
      d.environment.node = `v1.2.3/../../../../${ws.escape}`;
    },
    (/** @type {any} */ d) => {
      d.environment.platform = '..';
    },
    (/** @type {any} */ d) => {
      d.environment.arch = '/etc';
    },
    (/** @type {any} */ d) => {
      d.run.id = '../../../../../../../../../../../../';
    },
    (/** @type {any} */ d) => {
      d.run.finishedAt = '../../../x/T03:17:00Z';
    },
  ]) {
    const d = structuredClone(VALID);
    make(d);
    assert.equal(fileFor(d), null);
    assert.deepEqual(store.stage(d), {
      stored: false,
      reason: '/run and /environment do not make a file name inside results/; not stored',
    });
  }
  assert.equal(fs.existsSync(ws.results), false);
  assert.equal(inside('/r/results', '2026/x.json'), true);
  assert.equal(inside('/r/results', '2026/../../x.json'), false);
  assert.equal(inside('/r/results', '/etc/passwd'), false);
  assert.equal(inside('/r/results', '..'), false);
});
