// The result document: assemble it, validate it against the committed schema, write it.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../lib/files.js';
import { ROOT } from '../../lib/root.js';
import { loadSchema } from '../../lib/schema.js';

export const SCHEMA_FILE = path.join(ROOT, 'bench', 'result', 'result.schema.json');
const schema = loadSchema(SCHEMA_FILE);
export const SCHEMA = schema.schema;
/** The version this code writes: the newest the schema knows (it also validates older documents: the aggregate reads them). */
export const SCHEMA_VERSION = Math.max(...SCHEMA.properties.schemaVersion.enum);
/** Every version the schema validates. */
export const SCHEMA_VERSIONS = /** @type {number[]} */ (SCHEMA.properties.schemaVersion.enum);
export const TINYBENCH_VERSION = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'node_modules', 'tinybench', 'package.json'), 'utf8'),
).version;

export const METHOD =
  'per case `rounds` rounds spread across the run, each round a block per operation (its cases in a fresh engine process, each on ' +
  'a fresh copy, tinybench warm-up, one full GC), the block measured in slices: every cycle a slice of ~2 ms of each case in a ' +
  'new shuffled order, until the time budget per case and the minimum slices are met; operations under minSampleMs are ' +
  "batched opsPerSample to a sample. ops/s median (typical under load) = median of the rounds' median slice rates; " +
  "fast.opsPerSec (fastest typical) = median of the rounds' 90th percentile slice rates; paired = per block, median over " +
  "cycles of the log ratio of a case's slice to its reference's; latency statistics are tinybench's over the pooled samples; " +
  'rme = 95% relative margin of error of the mean';

/** A document's problems against the schema, each naming the field; empty when valid. */
export const validate = schema.validate;

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
 * The file a document is written to: one per platform, arch and Node version.
 * @param {{ environment: { platform: string, arch: string, node: string } }} doc
 */
export function resultFileName(doc) {
  const { platform, arch, node } = doc.environment;
  return `${platform}-${arch}-node-${node}.json`;
}

/**
 * Validate, then write atomically. Refuses to write an invalid document.
 * @param {any} doc
 * @param {string} dir
 */
export function writeResult(doc, dir) {
  const problems = validate(doc);
  if (problems.length)
    throw new Error(
      `result document does not match ${path.relative(ROOT, SCHEMA_FILE)}: ${problems.slice(0, 5).join('; ')}`,
    );
  const file = path.join(dir, resultFileName(doc));
  writeFileAtomic(file, `${JSON.stringify(doc, null, 2)}\n`);
  return file;
}
