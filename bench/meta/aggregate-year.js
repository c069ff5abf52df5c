#!/usr/bin/env node
// npm run meta:aggregate: the aggregate over a synthetic year of nightly history (synthetic.js, a
// year's events at fixed nights), then one more night timed and its commit and archive measured
// against the bounds of issue #16 (docs/pipeline.md "Bounds"); exit 1 when one is missed. `--keep`
// keeps the folder. buildYear also makes the year of meta:screenshots and meta:same-pages.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { writeFileAtomic, writeNewPair } from '../../lib/files.js';
import { ROOT } from '../../lib/root.js';
import { END, START, replaceBlock } from '../../lib/markers.js';
import { SYNTHETIC_PLATFORMS, syntheticDoc, syntheticShootout } from './synthetic.js';
import { packBundle } from '../../aggregate/assets.js';
import { aggregate as aggregateInProcess } from '../../aggregate/cli.js';
import { MAX_BATCH_DOCUMENTS } from '../../aggregate/trust.js';
import { command, numberFlag, parseStrict, switchFlag, valueFlag } from '../../lib/command.js';

/** Each Node major's patch release before and after the night it is upgraded (UPGRADE_NIGHT). */
const NODES = [
  ['v18.20.7', 'v18.20.8'],
  ['v20.20.1', 'v20.20.2'],
  ['v22.23.2', 'v22.23.3'],
  ['v24.20.0', 'v24.21.0'],
  ['v25.8.0', 'v25.9.0'],
];
const START_DAY = Date.UTC(2026, 0, 1, 3, 17);
/**
 * What a year brings, in its first 30 nights so a month's pages show them: the Node patch upgrade,
 * then a driver bump on the Nodes that load 13.x whose select is 12% slower: a change point with its
 * cause (found with 14 nights either side: lib/changepoints.js SETTINGS.wall).
 */
const UPGRADE_NIGHT = 9;
const DRIVER_BUMP_NIGHT = 15;
const DRIVER_BUMP = { version: '13.0.4', shift: { op: 'select', factor: 0.88 } };
const DAY = 86_400_000;

/** The bounds the issue sets. */
const BOUNDS = {
  blockLines: 300,
  blockBytes: 40 * 1024,
  readmeLines: 500,
  chartBytes: 2 * 1024 * 1024,
  nightlySeconds: 5,
  nightAddedBytes: 200 * 1024,
};

/** A night's documents per platform: one result document per Node major, and one shootout. */
export const PER_NIGHT = { results: SYNTHETIC_PLATFORMS.length * NODES.length, shootouts: SYNTHETIC_PLATFORMS.length };

/**
 * One night's documents: every platform × Node major (result documents), then a shootout per
 * platform (every Node of the night on that machine, as the nightly workflow runs it per runner label).
 * @param {number} n the night
 * @param {number} [classes] how many machine classes (the first of SYNTHETIC_PLATFORMS), 1 to 4
 */
export function night(n, classes = SYNTHETIC_PLATFORMS.length) {
  const platforms = SYNTHETIC_PLATFORMS.slice(0, classes);
  const day = new Date(START_DAY + n * DAY);
  const week = new Date(START_DAY + (n - (n % 7)) * DAY).toISOString().slice(0, 10).replace(/-/g, '');
  // every 29th night one platform's VMs are slow, every 41st fast: nights outside the band
  const scale = (/** @type {number} */ i) =>
    n % 29 === 28 && i === n % 4 ? 0.7 : n % 41 === 40 && i === (n + 1) % 4 ? 1.3 : 1;
  const nodes = NODES.map(([before, after]) => (n >= UPGRADE_NIGHT ? after : before));
  // the bump reaches the Nodes of the 13.x generation (22 and later)
  const bumped = (/** @type {string} */ node) => n >= DRIVER_BUMP_NIGHT && Number(node.slice(1).split('.')[0]) >= 22;
  const common = (/** @type {number} */ i) => ({
    platform: platforms[i],
    finishedAt: day.toISOString(),
    imageVersion: `${week}.1`,
    scale: scale(i),
  });
  return [
    ...platforms.flatMap((_, i) =>
      nodes.map((node, k) =>
        inCell(
          syntheticDoc({
            ...common(i),
            node,
            seed: n * 100 + i * 10 + k,
            real: true,
            ...(bumped(node) ? { driverVersion: DRIVER_BUMP.version, shift: DRIVER_BUMP.shift } : {}),
          }),
        ),
      ),
    ),
    ...platforms.map((_, i) => syntheticShootout({ ...common(i), nodes, seed: n * 100 + 50 + i })),
  ];
}

/** The runner label of each synthetic platform (benchmark.yml's matrix). */
const RUNNERS = /** @type {Record<string, string>} */ ({
  'linux-x64': 'ubuntu-24.04',
  'linux-arm64': 'ubuntu-24.04-arm',
  'darwin-arm64': 'macos-15',
  'darwin-x64': 'macos-15-intel',
});
const runnerOf = (/** @type {any} */ doc) => RUNNERS[`${doc.environment.platform}-${doc.environment.arch}`];

/**
 * The artifact a document arrives as: one folder per matrix cell or shootout, named as the workflow
 * names them (a result document names its cell: aggregate/trust.js checks the two agree).
 */
export function artifactOf(/** @type {any} */ doc) {
  return doc.sides.length > 1
    ? path.join(`shootout-${runnerOf(doc)}`, 'shootout.json')
    : path.join(`result-${doc.environment.ci.cellRunner}-node${doc.environment.ci.cellNode}`, 'result.json');
}

/** A result document as its matrix cell writes it: naming the cell (runner label and Node major). */
export const inCell = (/** @type {any} */ doc) => {
  const cell = { cellRunner: runnerOf(doc), cellNode: doc.environment.node.slice(1).split('.')[0] };
  doc.environment.ci = { ...doc.environment.ci, ...cell };
  return doc;
};

/** The clock of the aggregate that replays night n: that night, three hours after its runs finished. */
const clockOf = (/** @type {number} */ n) => new Date(START_DAY + n * DAY + 3 * 3_600_000).toISOString();

/**
 * What a file of the night's commit is, by its path: the parts the report splits the commit into
 * (the first that matches), with the name the report gives each.
 * @type {[string, string, (f: string) => boolean][]}
 */
export const COMMIT_PARTS = [
  ['shootoutDocuments', 'shootout documents', (f) => /^results\/\d{4}\/.*-shootout-[0-9a-f]{8}\.json$/.test(f)],
  ['resultDocuments', 'result documents', (f) => /^results\/\d{4}\//.test(f)],
  ['readme', 'README.md', (f) => f === 'README.md'],
  ['resultsPage', 'results/README.md', (f) => f === 'results/README.md'],
  ['index', 'results/index.json', (f) => f === 'results/index.json'],
  ['charts', 'charts', (f) => f.startsWith('results/charts/')],
  ['other', 'other', () => true],
];
const partOf = (/** @type {string} */ f) => COMMIT_PARTS.find(([, , is]) => is(f))?.[0];

/**
 * Every file under dir with its bytes (absent dir: none).
 * @param {string} dir
 * @returns {Map<string, Buffer>}
 */
export function files(dir) {
  if (!fs.existsSync(dir)) return new Map();
  return new Map(
    fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => fs.statSync(path.join(dir, f)).isFile())
      .map((f) => [f, fs.readFileSync(path.join(dir, f))]),
  );
}

/** Nights per aggregate when the year is built: as many as a batch holds (aggregate/trust.js), 5 of 4 classes, 21 of one. */
const partNights = (/** @type {number} */ classes) => Math.floor(MAX_BATCH_DOCUMENTS / (classes * (NODES.length + 1)));
/** The folder of history/ a night's artifacts are in. */
const partOfNight = (/** @type {number} */ n, /** @type {number} */ classes) =>
  `part-${Math.floor(n / partNights(classes))}`;

/**
 * A synthetic year in dir: history/ of artifacts, results/ and README.md aggregated from it.
 * @param {{ dir: string, nights: number, classes?: number, log?: (s: string) => void }} o classes: how many machine classes (default 4)
 */
export async function buildYear(o) {
  const results = path.join(o.dir, 'results');
  const readme = path.join(o.dir, 'README.md');
  fs.writeFileSync(readme, replaceBlock(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'), ''));
  const classes = o.classes ?? SYNTHETIC_PLATFORMS.length;
  /** npm run aggregate over artifacts, its clock the night n it replays (clockOf). */
  const aggregate = (/** @type {string} */ artifacts, /** @type {number} */ n) => {
    const t0 = performance.now();
    const args = ['--artifacts', artifacts, '--results', results, '--readme', readme, '--now', clockOf(n)];
    const cli = path.join(ROOT, 'aggregate/cli.js');
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`aggregate exited ${r.status}: ${r.stderr.slice(0, 500)}`);
    return { ms, log: r.stdout.trim() };
  };
  o.log?.(
    `year: writing and storing ${o.nights} nights × ${classes} platform(s) × (${NODES.length} Node majors + a shootout) = ${o.nights * classes * (NODES.length + 1)} documents`,
  );
  const history = path.join(o.dir, 'history');
  const per = partNights(classes);
  let bytes = 0;
  const t0 = performance.now();
  // stores the year a batch at a time (a batch has caps: aggregate/trust.js), each at its last
  // night's clock, in this process; only the last batch draws the charts (the earlier ones'
  // charts would be replaced: drawing them was most of a year's time)
  for (let from = 0; from < o.nights; from += per) {
    const to = Math.min(from + per, o.nights);
    for (let n = from; n < to; n++) {
      for (const doc of night(n, classes)) {
        const text = JSON.stringify(doc);
        bytes += text.length;
        writeFileAtomic(path.join(history, partOfNight(n, classes), `night-${n}`, artifactOf(doc)), text);
      }
    }
    const log = /** @type {string[]} */ ([]);
    const artifacts = path.join(history, partOfNight(from, classes));
    const now = Date.parse(clockOf(to - 1));
    const code = await aggregateInProcess(
      { artifacts, results, readme, now, draw: to === o.nights },
      { log: (s) => log.push(s), warn: (s) => log.push(s) },
    );
    if (code !== 0)
      throw new Error(`aggregate of nights ${from} to ${to - 1} exited ${code}: ${log.join('\n').slice(0, 500)}`);
    o.log?.(`year: nights 0 to ${to - 1} stored, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  return { results, readme, history, bytes, ms: performance.now() - t0, aggregate };
}

/**
 * A scratch git repository: commit a set of files, and say what the repository holds so far, two
 * ways: `packed`, its packs' bytes after an incremental `git gc` (what a host keeps once it has
 * repacked: new objects deltified against the night before where git finds a base), and `pushed`,
 * the bytes of every commit's push pack so far (git pack-objects --revs --thin: what a `git push`
 * of the commit sends, deltified only against the parent's objects at the same paths; a night's
 * documents have new names, so they go nearly whole).
 * @param {string} dir
 */
function gitRepo(dir) {
  const config = ['user.name=bench', 'user.email=bench@example.com', 'init.defaultBranch=main', 'gc.auto=0'];
  const git = (/** @type {string[]} */ args, /** @type {string} */ input = '') => {
    const options = { cwd: dir, input, maxBuffer: 1024 * 1024 * 1024 };
    const r = spawnSync('git', [...config.flatMap((c) => ['-c', c]), ...args], options);
    if (r.status !== 0) throw new Error(`git ${args[0]}: ${r.stderr.toString().trim()}`);
    return r.stdout;
  };
  fs.mkdirSync(dir, { recursive: true });
  git(['init', '-q']);
  let pushed = 0;
  let commits = 0;
  return {
    /**
     * @param {Map<string, Buffer>} changed files to write (paths relative to the repository)
     * @returns {{ packed: number, pushed: number }} bytes so far
     */
    commit(changed) {
      for (const [f, b] of changed) {
        fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
        fs.writeFileSync(path.join(dir, f), b);
      }
      git(['add', '-A']);
      git(['commit', '-q', '--allow-empty', '-m', 'night']);
      pushed += git(
        ['pack-objects', '--revs', '--thin', '--stdout', '-q'],
        commits++ ? 'HEAD\n^HEAD~1\n' : 'HEAD\n',
      ).length;
      git(['gc', '-q']);
      const pack = path.join(dir, '.git', 'objects', 'pack');
      const packs = fs.readdirSync(pack).filter((f) => f.endsWith('.pack'));
      return { packed: packs.reduce((n, f) => n + fs.statSync(path.join(pack, f)).size, 0), pushed };
    },
  };
}

const HELP = {
  usage: 'npm run meta:aggregate -- [flags]',
  summary:
    "The aggregate over a synthetic year of nightly history: one more night's time, the README's and the charts' sizes, and what a night's commit adds, against their bounds (exit 1 when one is missed).",
  options: /** @type {const} */ ({
    nights: valueFlag('N', 'nights of synthetic history, 1 to 3660', { default: '183' }),
    out: valueFlag('DIR', 'where the report goes, a new aggregate-year-<time>.md and .json per run', {
      default: 'out/meta',
    }),
    keep: switchFlag('keep the temporary folder of the year, and say where'),
  }),
};

async function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, HELP.options);
  const nights = numberFlag('nights', values.nights, 1, 3660);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-year-'));
  try {
    const year = await buildYear({ dir, nights, log: (s) => console.error(s) });
    const { results, readme, aggregate } = year;
    // a lost index: every stored document is read and checked again (the input is one known document)
    fs.rmSync(path.join(results, 'index.json'));
    const rebuild = aggregate(
      path.join(year.history, partOfNight(0, SYNTHETIC_PLATFORMS.length), 'night-0'),
      nights - 1,
    );
    const tonight = path.join(dir, 'tonight');
    for (const doc of night(nights)) writeFileAtomic(path.join(tonight, artifactOf(doc)), JSON.stringify(doc));
    const derived = () =>
      new Map([...files(results)].map(([f, b]) => [`results/${f}`, b])).set('README.md', fs.readFileSync(readme));
    const before = derived();
    const git = gitRepo(path.join(dir, 'git'));
    const isDoc = (/** @type {string} */ f) => /^results\/\d{4}\//.test(f);
    // the repository before tonight: every derived file; the documents are not in git (.gitignore)
    const packedBefore = git.commit(new Map([...before].filter(([f]) => !isDoc(f))));
    const nightly = aggregate(tonight, nights);
    const after = derived();
    const again = aggregate(tonight, nights);
    // one timing on a shared machine moves by a second: the nightly step is the median of three
    // nights (tonight's, measured above for what it commits, and the two after it)
    const nightlies = [nightly.ms];
    for (const n of [nights + 1, nights + 2]) {
      const more = path.join(dir, `night-after-${n}`);
      for (const doc of night(n)) writeFileAtomic(path.join(more, artifactOf(doc)), JSON.stringify(doc));
      nightlies.push(aggregate(more, n).ms);
    }
    const nightlyMs = [...nightlies].sort((a, b) => a - b)[1];
    // what the night's commit adds: every new or changed file, raw and as git stores a new blob (zlib)
    const added = [...after].filter(([f, b]) => !before.get(f)?.equals(b));
    const bytes = (/** @type {[string, Buffer][]} */ xs) => xs.reduce((n, [, b]) => n + b.length, 0);
    const deflated = (/** @type {[string, Buffer][]} */ xs) =>
      xs.reduce((n, [, b]) => n + zlib.deflateSync(b).length, 0);
    // committed part by part, documents first: what each part's push sends
    const nightParts =
      /** @type {Record<string, { files: number, bytes: number, deflatedBytes: number, archivedBytes: number, packedBytes: number, pushedBytes: number }>} */ ({});
    let last = packedBefore;
    for (const [part] of COMMIT_PARTS) {
      const mine = added.filter(([f]) => partOf(f) === part);
      const sizes = { files: mine.length, bytes: bytes(mine), deflatedBytes: deflated(mine) };
      if (mine.some(([f]) => isDoc(f))) {
        // the night's documents go to the archive (one release, one gzipped asset), not into git
        const archivedBytes = packBundle(mine.map(([f, b]) => ({ file: f, text: b.toString('utf8') }))).length;
        nightParts[part] = { ...sizes, archivedBytes, packedBytes: 0, pushedBytes: 0 };
        continue;
      }
      const next = git.commit(new Map(mine));
      const [packedBytes, pushedBytes] = [next.packed - last.packed, next.pushed - last.pushed];
      nightParts[part] = { ...sizes, archivedBytes: 0, packedBytes, pushedBytes };
      last = next;
    }
    const sum = (/** @type {'packedBytes' | 'pushedBytes' | 'archivedBytes'} */ k) =>
      Object.values(nightParts).reduce((n, x) => n + x[k], 0);
    const readmeText = fs.readFileSync(readme, 'utf8');
    const block = readmeText.slice(readmeText.indexOf(START), readmeText.indexOf(END) + END.length);
    const charts = [...after].filter(([f]) => f.endsWith('.svg'));
    const page = fs.readFileSync(path.join(results, 'README.md'), 'utf8');
    const report = {
      node: process.version,
      documents: (nights + 1) * (PER_NIGHT.results + PER_NIGHT.shootouts),
      resultDocuments: (nights + 1) * PER_NIGHT.results,
      shootoutDocuments: (nights + 1) * PER_NIGHT.shootouts,
      historyBytes: year.bytes,
      nightlySeconds: nightlyMs / 1000,
      nightlySecondsEach: nightlies.map((ms) => Math.round(ms) / 1000),
      noChangeSeconds: again.ms / 1000,
      yearSeconds: year.ms / 1000,
      indexRebuildSeconds: rebuild.ms / 1000,
      readmeLines: readmeText.split('\n').length,
      readmeBlockBytes: Buffer.byteLength(block),
      readmeBlockLines: block.split('\n').length,
      readmeBlockTables: (block.match(/^\|\s?:?-/gm) ?? []).length,
      readmeBlockImages: (block.match(/!\[/g) ?? []).length,
      resultsPageBytes: Buffer.byteLength(page),
      resultsPageLines: page.split('\n').length,
      charts: charts.length,
      chartBytes: bytes(charts),
      nightFilesChanged: added.length,
      nightChartsRewritten: added.filter(([f]) => f.endsWith('.svg')).length,
      nightAddedBytes: bytes(added),
      nightAddedDeflatedBytes: deflated(added),
      nightAddedDeflatedBytesWithoutDocuments: deflated(added.filter(([f]) => !isDoc(f))),
      nightAddedDeflatedBytesOfDocuments: deflated(added.filter(([f]) => isDoc(f))),
      nightAddedPackedBytes: sum('packedBytes'),
      nightPushedBytes: sum('pushedBytes'),
      nightArchivedBytes: sum('archivedBytes'),
      nightParts,
      loadAverage: os.loadavg().map((x) => Math.round(x * 10) / 10),
      cores: os.cpus().length,
      bounds: BOUNDS,
    };
    const kib = (/** @type {number} */ b) => `${(b / 1024).toFixed(0)} KiB`;
    const docs = PER_NIGHT.results + PER_NIGHT.shootouts;
    const r = report;
    const within = {
      nightly: r.nightlySeconds <= BOUNDS.nightlySeconds,
      blockLines: r.readmeBlockLines <= BOUNDS.blockLines,
      blockBytes: r.readmeBlockBytes <= BOUNDS.blockBytes,
      readme: r.readmeLines <= BOUNDS.readmeLines,
      charts: r.chartBytes < BOUNDS.chartBytes,
      night: r.nightAddedPackedBytes <= BOUNDS.nightAddedBytes,
    };
    const mark = (/** @type {keyof typeof within} */ k) => (within[k] ? 'within' : 'OVER');
    const text = [
      `Aggregate over a synthetic year: ${r.documents} documents (${(year.bytes / 1e6).toFixed(0)} MB), ${process.version}\n`,
      `- nightly run (${docs} new documents, ${PER_NIGHT.results} results and ${PER_NIGHT.shootouts} shootouts, into a year of history; README, results/README.md and charts regenerated): ${r.nightlySeconds.toFixed(2)} s, the median of 3 nights (${r.nightlySecondsEach.map((x) => x.toFixed(2)).join(', ')} s) (${mark('nightly')} ≤ 5 s)`,
      `- the same night again (nothing new, nothing written): ${r.noChangeSeconds.toFixed(2)} s`,
      `- the year written and stored a batch at a time, in one process, charts drawn once: ${r.yearSeconds.toFixed(1)} s; rebuilding a lost index: ${r.indexRebuildSeconds.toFixed(1)} s`,
      `- README block: ${r.readmeBlockLines} lines (${mark('blockLines')} ≤ 300), ${kib(r.readmeBlockBytes)} (${mark('blockBytes')} ≤ 40 KiB), ${r.readmeBlockTables} tables, ${r.readmeBlockImages} charts; whole README ${r.readmeLines} lines (${mark('readme')} ≤ 500)`,
      `- results/README.md: ${r.resultsPageLines} lines, ${kib(r.resultsPageBytes)}`,
      `- charts: ${r.charts} SVG files, ${kib(r.chartBytes)} together (${mark('charts')} < 2 MiB)`,
      `- one night's commit (the derived files: README, results/README.md, the index, the charts and the nights cache): ${r.nightFilesChanged - docs} files new or changed (${r.nightChartsRewritten} charts), ` +
        `${kib(r.nightAddedDeflatedBytesWithoutDocuments)} as new git blobs (zlib, before delta packing); packed by git gc (deltas against the night before): ${kib(r.nightAddedPackedBytes)} (${mark('night')} ≤ 200 KiB); ` +
        `as git push sends it (a thin pack): ${kib(r.nightPushedBytes)}`,
      `- the night's ${docs} documents, archived as one release asset (gzipped JSON lines, not in git): ${kib(r.nightArchivedBytes)}`,
      '- the night, part by part (files; raw; as new git blobs; archived; packed by git gc; pushed):',
      ...COMMIT_PARTS.map(([part, name]) => {
        const x = nightParts[part];
        const sizes = [x.bytes, x.deflatedBytes, x.archivedBytes, x.packedBytes, x.pushedBytes];
        return `  - ${name}: ${x.files} files; ${sizes.map(kib).join('; ')}`;
      }),
      `- this machine: ${r.cores} cores, load average ${r.loadAverage.join(' / ')} (1, 5, 15 min): times on a busy machine are longer`,
      `\n${nightly.log}`,
    ].join('\n');
    const name = writeNewPair(values.out, 'aggregate-year', `${text}\n`, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`${text}\nwrote ${path.relative(process.cwd(), name)}.md and .json`);
    return Object.values(within).every(Boolean) ? 0 : 1;
  } finally {
    if (values.keep) console.error(`kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

command('meta:aggregate', import.meta.url, main, HELP);
