// The result document: assemble it, validate it against the committed schema, write it.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { writeFileAtomic } from '../../lib/files.js';
import { ROOT } from '../../lib/root.js';

export const SCHEMA_FILE = path.join(ROOT, 'bench', 'result', 'result.schema.json');
export const SCHEMA = JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8'));
/** The version this code writes: the newest the schema knows (it also validates older documents: the aggregate reads them). */
export const SCHEMA_VERSION = Math.max(...SCHEMA.properties.schemaVersion.enum);
/** Every version the schema validates. */
export const SCHEMA_VERSIONS = /** @type {number[]} */ (SCHEMA.properties.schemaVersion.enum);
export const TINYBENCH_VERSION = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'node_modules', 'tinybench', 'package.json'), 'utf8'),
).version;

export const METHOD =
  'tinybench runSync, per case `rounds` rounds spread across the run in reshuffled order, each on a fresh copy after a full GC: ' +
  'warm-up, then samples until the time budget and the minimum sample count are both met; operations under minSampleMs are ' +
  "batched opsPerSample to a sample. ops/s median = median of the rounds' median ops/s; every other statistic is tinybench's " +
  'over the pooled per-operation samples; rme = 95% relative margin of error of the mean';

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const validator = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(
  SCHEMA,
);

/**
 * @param {unknown} doc
 * @returns {string[]} problems, each naming the field; empty when valid
 */
export function validate(doc) {
  if (validator(doc)) return [];
  return (validator.errors ?? []).map(
    (/** @type {any} */ e) =>
      `${e.instancePath || '/'} ${e.message}${e.params?.allowedValues ? ` (${e.params.allowedValues.join(', ')})` : ''}`,
  );
}

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
