// The result document checked against its committed schema, then written (header.js writes it).
import path from 'node:path';
import { ROOT } from '../../lib/root.js';
import { loadSchema } from '../../lib/schema.js';
import { SCHEMA_FILE, writeDocument } from './header.js';

const schema = loadSchema(SCHEMA_FILE);
export const SCHEMA = schema.schema;

/** A document's problems against the schema, each naming the field; empty when valid. */
export const validate = schema.validate;

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
  return writeDocument(doc, dir);
}
