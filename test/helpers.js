// Shared by the tests: the real drivers for the running Node, scratch directories, and the
// environment of every child process a test starts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadDrivers } from '../bench/engine/load-drivers.js';
import { END, START } from '../lib/markers.js';

/** @type {ReturnType<typeof loadDrivers> | undefined} */
let loading;
export const drivers = () => (loading ??= loadDrivers());

/**
 * A driver that must load on every supported Node.
 * @param {string} name
 */
export async function driver(name) {
  const d = (await drivers()).get(name);
  if (!d?.open) throw new Error(`${name} did not load: ${d?.info.reason}`);
  return { name, open: d.open };
}

export function scratch(prefix = 'bench-test-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  // retried: a worker a test left hung (test/workloads.test.js) may still be closing its database
  // there when the file's tests end (ENOTEMPTY under Node 24 on a busy machine)
  after(() => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
  return dir;
}

/**
 * A scratch workspace as the aggregate reads and writes one: artifacts/ (made, empty), results/ (not
 * yet), and README.md holding `readme` (by default a title and the empty block).
 * @param {string} prefix
 * @param {string} [readme]
 */
export function aggregateWorkspace(prefix, readme = `# Title\n\n${START}\n${END}\n`) {
  const dir = scratch(prefix);
  const ws = {
    dir,
    artifacts: path.join(dir, 'artifacts'),
    results: path.join(dir, 'results'),
    readme: path.join(dir, 'README.md'),
  };
  fs.mkdirSync(ws.artifacts);
  fs.writeFileSync(ws.readme, readme);
  return ws;
}

/**
 * The environment for a child process a test starts: this one's, without the GitHub Actions
 * variables (GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, GITHUB_ENV, …), so no test writes into the job
 * it runs in, and no result it makes claims to come from that job; then `extra`.
 * @param {NodeJS.ProcessEnv} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
export function childEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GITHUB_')));
  return { ...env, ...extra };
}

/** The entries of a directory (a child's TMPDIR), to count what a run leaves behind. */
export const entries = (/** @type {string} */ dir) => fs.readdirSync(dir).sort();

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `npm run counts` (bench/counts/cli.js) of a checkout, as a child process.
 * @param {string[]} args
 * @param {string} [cwd] the checkout (default: this one)
 */
export const countsCli = (args, cwd = ROOT) =>
  spawnSync(process.execPath, [path.join(cwd, 'bench/counts/cli.js'), ...args], {
    cwd,
    encoding: 'utf8',
    env: childEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });

/**
 * The aggregate's clock in tests: a few days after the synthetic documents' default finish
 * (bench/meta/synthetic.js, 2026-11-20), so the history window and "Last updated" do not move
 * with the day the tests run on (aggregate/trust.js: the clock, never a document, says both).
 */
export const TEST_NOW = Date.parse('2026-11-25T06:00:00.000Z');

/**
 * Every file under dir but those under skip, with its bytes: a folder's state, to compare before
 * and after a command that must write nowhere else.
 * @param {string} dir
 * @param {string[]} skip paths relative to dir
 */
export function tree(dir, skip) {
  return Object.fromEntries(
    fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .sort()
      .filter((f) => !skip.some((s) => f === s || f.startsWith(s + path.sep)))
      .map((f) => [f, fs.statSync(path.join(dir, f)).isFile() ? fs.readFileSync(path.join(dir, f), 'latin1') : 'dir']),
  );
}

/** A README's text before and after its generated block, which nothing may change. */
export const outsideBlock = (/** @type {string} */ readme) => [
  readme.slice(0, readme.indexOf(START)),
  readme.slice(readme.indexOf(END)),
];
/** A README's generated block, markers included. */
export const blockWithMarkers = (/** @type {string} */ readme) =>
  readme.slice(readme.indexOf(START), readme.indexOf(END) + END.length);

/**
 * Every GFM table of a Markdown text, as the narrowest a browser can lay it out (its min-content
 * width): per column, the widest run of text no line can break inside (a cell breaks at a space, at
 * <br> and after a hyphen before a letter; never at a no-break space), in width units of about a
 * digit's width (Arial's metrics, which Chromium's Liberation Sans shares): '%', '@', 'm', 'M'
 * and 'W' count 1.5, any other uppercase letter but I 1.25, a space, '.', ',', ':', ';', '|',
 * quotes, brackets, '-', '/', 'f', 'i', 'j', 'l', 'r', 't' and 'I' 0.5, any other character 1. A link
 * counts its text, `**` and escapes nothing. Used with the px per unit measured in Chromium
 * (test/table-widths.test.js).
 * @param {string} md
 * @returns {{ line: number, head: string, columns: number, units: number }[]}
 */
export function tableWidths(md) {
  const lines = md.split('\n');
  const unit = (/** @type {string} */ ch) =>
    /[%@mMW]/.test(ch) ? 1.5 : /[A-HJ-Z]/.test(ch) ? 1.25 : /[\s.,:;|'"()[\]/fijlrtI-]/.test(ch) ? 0.5 : 1;
  const cellsOf = (/** @type {string} */ l) =>
    l
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((c) =>
        c
          .trim()
          .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
          .replace(/\*\*|`/g, '')
          .replace(/\\(.)/g, '$1'),
      );
  const widest = (/** @type {string} */ cell) =>
    Math.max(
      0,
      ...cell
        .split(/<br\s*\/?>| |(?<=[A-Za-z0-9]-)(?=[A-Za-z])/)
        .map((run) => [...run].reduce((n, ch) => n + unit(ch), 0)),
    );
  /** @type {{ line: number, head: string, columns: number, units: number }[]} */
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('|') || lines[i - 1]?.startsWith('|') || !/^\|[\s:|-]+\|$/.test(lines[i + 1] ?? ''))
      continue;
    let end = i;
    while (lines[end + 1]?.startsWith('|')) end++;
    const rows = lines
      .slice(i, end + 1)
      .filter((_, k) => k !== 1)
      .map(cellsOf);
    const columns = rows[0].length;
    const units = [...Array(columns).keys()].reduce(
      (sum, c) => sum + Math.max(...rows.map((r) => widest(r[c] ?? ''))),
      0,
    );
    out.push({ line: i + 1, head: lines[i].slice(0, 80), columns, units });
    i = end;
  }
  return out;
}
