// What a document (a run with its sides: one for npm run bench, several for a shootout) is
// stamped with and how it is written, without validating it: its kind, the schema version, the
// harness, the run id and commit, the file name (the run's start and id in it, so a document never
// replaces another), the atomic write that refuses an existing name. Built-ins and project files only (no npm package), so npm run
// ci:failure can write a document on a runner whose install failed; document.js validates against
// the schema (ajv) and the checks a schema cannot say before it writes.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileNew } from '../../lib/files.js';
import { CommandError } from '../../lib/command.js';
import { ROOT } from '../../lib/root.js';

/** The one schema of every document. */
export const SCHEMA_FILE = path.join(ROOT, 'bench', 'result', 'document.schema.json');
/** The schema's one version: the version written and the only one read. */
export const SCHEMA_VERSION = /** @type {number} */ (
  JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')).properties.schemaVersion.enum[0]
);
/** The one kind of document: a run's, whatever its sides (one Node, or every Node on one machine). */
export const KIND = 'sqlite-node-bench/result';
/** Whether a document is a shootout's: a run of several sides. */
export const isShootout = (/** @type {{ sides?: unknown[] }} */ doc) => (doc.sides?.length ?? 0) > 1;

/**
 * The pairs of sides a run of several judged, as its plan had them (bench/data/run-plan.js
 * SidePair), in the run's order: each judged item's id is the pair's comparison.
 * @param {{ comparisons?: { id: string, reference: string, member: string }[] }} doc
 * @returns {{ comparison: any, reference: string, member: string }[]}
 */
export function pairsOf(doc) {
  const pairs = new Map();
  for (const c of doc.comparisons ?? [])
    pairs.set(`${c.id}|${c.reference}|${c.member}`, { comparison: c.id, reference: c.reference, member: c.member });
  return [...pairs.values()];
}

/**
 * The reference side of a run of several, as its plan stated it (`reference: true`,
 * bench/data/run-plan.js referenceSide); null in a run of one side.
 * @param {{ sides?: { label: string, reference?: boolean }[] }} doc
 */
export const referenceOf = (doc) => doc.sides?.find((s) => s.reference)?.label ?? null;

/**
 * The one side of a run of `npm run bench`: the running Node with the drivers it loaded.
 * @param {string} node environment.node
 * @param {any[]} drivers
 * @param {string} [reason] why the side measured nothing (npm run ci:failure)
 */
export const oneSide = (node, drivers, reason) => [
  {
    label: `v${node.slice(1).split('.')[0]}`,
    node,
    status: reason ? 'failed' : 'ok',
    ...(reason ? { reason } : {}),
    drivers,
  },
];
/** The tinybench release package.json pins, exactly: the one npm ci installs. */
export const TINYBENCH_VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).dependencies
  .tinybench;

export const METHOD =
  'per case `rounds` rounds spread across the run, each round a block per operation (its cases in a fresh engine process, each on ' +
  'a fresh copy, tinybench warm-up, one full GC), the block measured in slices: every cycle a slice of ~2 ms of each case in a ' +
  'new shuffled order, until the time budget per case and the minimum slices are met; operations under minSampleMs are ' +
  "batched opsPerSample to a sample. ops/s median (typical under load) = median of the rounds' median slice rates; " +
  "fast.opsPerSec (fastest typical) = median of the rounds' 90th percentile slice rates; paired = per block, median over " +
  "cycles of the log ratio of a case's slice to its reference's; latency statistics are tinybench's over the pooled samples; " +
  'rme = 95% relative margin of error of the mean';

/** The commit being measured: CI's, else the checkout's, else null. */
export function currentCommit() {
  if (process.env.GITHUB_SHA) return process.env.GITHUB_SHA;
  try {
    return (
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() || null
    );
  } catch {
    return null;
  }
}

export const newRunId = () => crypto.randomUUID();

/**
 * The file a document is written to: its platform, arch and Node version (the matrix cell), then
 * the run's start (UTC, to the second) and the first 8 characters of its id, so an interrupted or
 * filtered run never replaces a complete one: e.g. linux-x64-node-v22.12.0-20260105T021500Z-0a1b2c3d.json.
 * A shootout's: shootout-<finish date>-<platform>-<arch>-<id>.json.
 * @param {{ sides: unknown[], environment: { platform: string, arch: string, node: string }, run: { id: string, startedAt: string, finishedAt: string } }} doc
 */
function fileName(doc) {
  const { platform, arch, node } = doc.environment;
  const id = doc.run.id.slice(0, 8);
  if (isShootout(doc)) return `shootout-${doc.run.finishedAt.slice(0, 10)}-${platform}-${arch}-${id}.json`;
  const at = doc.run.startedAt.replace(/\.\d+/, '').replace(/[-:]/g, '');
  return `${platform}-${arch}-node-${node}-${at}-${id}.json`;
}

/** The names fileName gives a run's document, to find a run's documents in a folder. */
export const RESULT_FILE = /^[a-z0-9]+-[a-z0-9]+-node-v[^/]*-\d{8}T\d{6}Z-[0-9a-f]{8}\.json$/;

/**
 * Write a document into dir, whole or not at all and never over another file, unchecked:
 * document.js writeChecked validates first.
 * @param {any} doc
 * @param {string} dir
 * @returns {string} the file written
 */
export function writeDocument(doc, dir) {
  const file = path.join(dir, fileName(doc));
  if (!writeFileNew(file, `${JSON.stringify(doc, null, 2)}\n`))
    throw new CommandError(`${file} exists; a document never replaces another`);
  return file;
}
