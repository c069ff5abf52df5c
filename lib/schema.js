// What every document kind (a result, a shootout) is checked with: its committed JSON Schema
// (2020-12, one Ajv set-up, the kinds of name of lib/names.schema.json beside it), and the checks
// of its run and environment a schema cannot express.
import fs from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import semver from 'semver';
import { NAMES_SCHEMA } from './names.js';

const Ajv2020 = /** @type {any} */ (Ajv2020Module).default ?? Ajv2020Module;

/**
 * A schema file and its validator.
 * @param {string} file
 * @returns {{ schema: any, validate: (doc: unknown) => string[] }} validate: the problems, each
 *   naming the field; empty when valid
 */
export function loadSchema(file) {
  const schema = JSON.parse(fs.readFileSync(file, 'utf8'));
  const validator = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
  })
    // the kinds of name (lib/names.schema.json) both document schemas refer to
    .addSchema(NAMES_SCHEMA)
    .compile(schema);
  /** @param {unknown} doc */
  const validate = (doc) => {
    if (validator(doc)) return [];
    return (validator.errors ?? []).map(
      (/** @type {any} */ e) =>
        `${e.instancePath || '/'} ${e.message}${e.params?.allowedValues ? ` (${e.params.allowedValues.join(', ')})` : ''}`,
    );
  };
  return { schema, validate };
}

/** Whether an ISO UTC timestamp names a real instant (a schema checks only its shape: 2026-02-30 passes it). */
const realDate = (/** @type {string} */ s) => {
  const t = Date.parse(s);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 19) === s.slice(0, 19);
};

/**
 * What a schema cannot say of a document's run and environment: real dates, the finish not before
 * the start, a Node version semver reads.
 * @param {any} doc a schema-valid document
 * @param {(v: unknown) => string} quote how a value is quoted in a message (cut: a huge one cannot flood the log)
 * @returns {string[]}
 */
export function runProblems(doc, quote) {
  /** @type {string[]} */
  const problems = [];
  for (const f of /** @type {const} */ (['startedAt', 'finishedAt']))
    if (!realDate(doc.run[f])) problems.push(`/run/${f} '${quote(doc.run[f])}' is not a real date`);
  if (Date.parse(doc.run.finishedAt) < Date.parse(doc.run.startedAt))
    problems.push('/run/finishedAt is before /run/startedAt');
  if (!semver.valid(doc.environment.node))
    problems.push(`/environment/node '${quote(doc.environment.node)}' is not a semantic version`);
  return problems;
}
