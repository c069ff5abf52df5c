// Which test files run where (issue 40: the tests in five minutes). `npm test` runs every
// test/*.test.js: the unit and integration tests, each fast. The end-to-end tests, which run the
// bench, the counting pass under valgrind or the compare as a user does (several processes each,
// minutes together), live in test/e2e/ and run once per CI run (`npm run test:e2e`, under one
// Node). A second Node runs only what differs between Nodes (`npm test -- --set node`, as
// `npm run test:nodes -- --set node` does in .ci/run): the drivers loading, their binaries,
// node:sqlite, the engine on real files, and the counts, whose repeat depends on V8. One list,
// read by test/run.js and bench/tools/test-nodes.js.
import fs from 'node:fs';
import path from 'node:path';

/** The files of the `node` set: what can differ from one Node to another. */
export const NODE_FILES = [
  'test/drivers.test.js', // each generation loads, with its SQLite, compile options and binary origin
  'test/every-driver.test.js', // every driver this Node offers runs every operation, node:sqlite included
  'test/encryption.test.js', // the ciphers on real files
  'test/pragmas.test.js', // every config applies and reads back on a real file
  'test/ops.test.js', // the operations on real files, and the measuring around them
  'test/suite.test.js', // the engine processes: rounds, templates, a killed engine
  'test/workloads.test.js', // workers on real files, SQLITE_BUSY from every driver
  'test/e2e/counts.test.js', // how close two counts come depends on V8 (its thresholds are per V8 major)
];

/** The sets `--set` names, with what each holds (for --help and the one-line errors). */
export const SETS = /** @type {const} */ ({
  unit: 'every test/*.test.js (npm test)',
  e2e: 'every test/e2e/*.test.js: the end-to-end runs (npm run test:e2e)',
  node: `what differs between Nodes: ${NODE_FILES.map((f) => path.basename(f, '.test.js')).join(', ')}`,
});

/**
 * The test files of a set, relative to root, sorted.
 * @param {keyof typeof SETS} set
 * @param {string} root the checkout
 */
export function filesOf(set, root) {
  if (set === 'node') return [...NODE_FILES];
  const dir = set === 'e2e' ? 'test/e2e' : 'test';
  return fs
    .readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => `${dir}/${f}`);
}
