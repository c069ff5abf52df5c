// What the aggregate trusts a document for, beyond its schema (issue 36): a document is written by
// whoever controls a matrix cell, so nothing in it may move the pages for other cells or other
// nights. Four rules, each refusing with one line that names the field:
// - time: a document finishes between the project's start and the aggregate's own clock plus a
//   day; the clock, never the newest document, says "Last updated" and where the history ends;
// - attempts: a GitHub run id and attempt are whole numbers in GitHub's range, and only a later
//   attempt of the same cell supersedes (store.js latestAttempts);
// - artifacts: a cell's artifact holds one document, the one of the cell the artifact is named for;
// - caps: a batch has at most so many documents and bytes, each document at most so many bytes,
//   all checked by stat before a byte is read.
import path from 'node:path';
import semver from 'semver';
import { isShootout } from '../bench/result/header.js';

/**
 * The earliest finish a document may have: before any run of this project (its first commit is
 * of 2026-11-21), with room for a laptop's clock and for the engine's first trial runs.
 */
const PROJECT_START = '2025-01-01T00:00:00.000Z';
/** How far past the aggregate's clock a finish may be: a runner's clock running ahead, and time zones. */
const CLOCK_SLACK_MS = 86_400_000;

/**
 * The highest run attempt: GitHub re-runs a workflow run at most 50 times (docs.github.com,
 * Re-running workflows and jobs); 100 leaves room for that limit to grow without letting an
 * attempt outbid every real one.
 */
const MAX_ATTEMPT = 100;
/** A GitHub run id: a positive whole number (today 11 digits; 20 fit any 64-bit id). */
const RUN_ID = /^[1-9][0-9]{0,19}$/;
/** A run attempt as GitHub writes GITHUB_RUN_ATTEMPT. */
const ATTEMPT = /^[1-9][0-9]{0,2}$/;

/** The largest document: ten full runs' (about 0.4 MB each), room for more cases and counts. */
export const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;
/** The most documents in one batch: five nights of 24 (20 cells and 4 shootouts), room for more Nodes and runners. */
export const MAX_BATCH_DOCUMENTS = 128;
/** The most bytes in one batch: six nights of about 20 MB pretty-printed, far below the heap limit (docs/pipeline.md). */
export const MAX_BATCH_BYTES = 128 * 1024 * 1024;

/** The limit a batch breaks, as one line; null when it is within both. */
export function batchProblem(/** @type {string} */ dir, /** @type {number} */ count, /** @type {number} */ bytes) {
  if (count > MAX_BATCH_DOCUMENTS)
    return `${dir}: ${count} documents, over the batch limit of ${MAX_BATCH_DOCUMENTS} (aggregate/trust.js MAX_BATCH_DOCUMENTS); none read, nothing written`;
  if (bytes > MAX_BATCH_BYTES)
    return `${dir}: ${bytes} bytes of documents, over the batch limit of ${MAX_BATCH_BYTES} bytes (aggregate/trust.js MAX_BATCH_BYTES); none read, nothing written`;
  return null;
}

const day = (/** @type {number} */ t) => new Date(t).toISOString().slice(0, 10);

/**
 * Why a document's time is not to be trusted, or null: dated after the clock (plus a day), or
 * before the project existed. Reads /run/finishedAt and /run/startedAt.
 * @param {{ run?: { startedAt?: unknown, finishedAt?: unknown } }} doc
 * @param {number} now the aggregate's clock, ms since the epoch
 */
export function timeProblem(doc, now) {
  for (const f of /** @type {const} */ (['finishedAt', 'startedAt'])) {
    const v = doc.run?.[f];
    if (typeof v !== 'string') continue;
    const t = Date.parse(v);
    if (t > now + CLOCK_SLACK_MS)
      return `/run/${f} ${v.slice(0, 30)} is after this aggregate's clock (${new Date(now).toISOString()}) plus a day: a document from the future is refused`;
    if (t < Date.parse(PROJECT_START))
      return `/run/${f} ${v.slice(0, 30)} is before ${day(Date.parse(PROJECT_START))}, before this project existed: refused`;
  }
  return null;
}

/** Whether an attempt (a number) is a whole number in 1..MAX_ATTEMPT. */
export const validAttempt = (/** @type {unknown} */ n) =>
  typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_ATTEMPT;

/**
 * Why a document's GitHub run id or attempt is not one GitHub gives, or null (absent is fine: a
 * local run).
 */
export function attemptProblem(/** @type {any} */ doc) {
  const ci = doc.environment?.ci;
  if (!ci) return null;
  const { runId, runAttempt } = ci;
  if (runId !== undefined && runId !== null && !(typeof runId === 'string' && RUN_ID.test(runId)))
    return `/environment/ci/runId '${String(runId).slice(0, 30)}' is not a GitHub run id (a whole number)`;
  if (runAttempt !== undefined && runAttempt !== null) {
    if (!(typeof runAttempt === 'string' && ATTEMPT.test(runAttempt) && validAttempt(Number(runAttempt))))
      return `/environment/ci/runAttempt '${String(runAttempt).slice(0, 30)}' is not a run attempt: a whole number from 1 to ${MAX_ATTEMPT} (GitHub re-runs a run at most 50 times)`;
    if (!runId) return '/environment/ci/runAttempt is set without /environment/ci/runId';
  }
  return null;
}

/** The artifact names of benchmark.yml: a cell's result, and a runner's shootout. */
const ARTIFACT = /^(result|shootout)-/;

/**
 * Why a document does not belong in the artifact folder it was found in (benchmark.yml's upload
 * steps), or null: a shootout's is shootout-* (its document names no runner label); a cell's is
 * result-<runner label>-node<Node major>, from environment.ci.cellRunner and cellNode, and its
 * Node is of that major.
 * @param {string} folder the artifact's folder name (a top-level folder of --artifacts)
 * @param {any} doc a valid document
 */
export function artifactProblem(folder, doc) {
  if (isShootout(doc))
    return folder.startsWith('shootout-') ? null : `is a shootout document in artifact ${folder}, which is a cell's`;
  const ci = doc.environment?.ci;
  if (typeof ci?.cellRunner !== 'string' || typeof ci?.cellNode !== 'string')
    return `is in artifact ${folder}, but /environment/ci names no cell (cellRunner, cellNode): a cell's artifact holds its cell's document`;
  const want = `result-${ci.cellRunner}-node${ci.cellNode}`;
  if (want !== folder)
    return `is in artifact ${folder}, but /environment/ci names the cell of artifact ${want.slice(0, 80)}: refused`;
  const major = semver.valid(doc.environment.node) ? String(semver.major(doc.environment.node)) : null;
  if (major !== ci.cellNode)
    return `/environment/node ${String(doc.environment.node).slice(0, 30)} is not of the cell's Node major ${ci.cellNode} (artifact ${folder})`;
  return null;
}

/** The top-level folder of dir a file is in, when that folder is named as an artifact; else null. */
export function artifactFolder(/** @type {string} */ dir, /** @type {string} */ file) {
  const first = path.relative(dir, file).split(path.sep)[0];
  return first !== path.relative(dir, file) && ARTIFACT.test(first) ? first : null;
}
