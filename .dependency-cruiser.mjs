// The folders' import rules, checked by dependency-cruiser over aggregate/, bench/, compare/, lib/
// and publish/ (test/layers.test.js runs them; so does
// `npx depcruise aggregate bench compare lib publish -c .dependency-cruiser.mjs`). Every import
// counts: static, re-exported, dynamic, and the JSDoc type references `import('…').Name` (a type
// names the module it comes from as surely as a value does). The tree breaks none of them:
// the test fails on any breach.

/** The lib/ modules the data may import: each imports nothing, not even a built-in. */
const LIB_LEAVES = '^lib/(prng|sqlite)[.]js$';

/**
 * What aggregate/ may import from bench/: the data, and the document contract (the document's
 * checks and its header, for every kind). Its renderers are its own
 * (aggregate/render/, which the summary, the claims, the shootout and the compare import).
 */
const AGGREGATE_READS = ['^bench/data/', '^bench/result/(document|header)[.]js$'];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'data-imports-no-logic',
      comment:
        'The data (bench/data/) imports only the data, built-ins, npm packages and the lib/ leaves: loading it never loads logic of the repository (the engine, the claims, a run), so aggregate/, which reads the data, stays free of it',
      severity: 'error',
      from: { path: '^bench/data/' },
      to: { pathNot: ['^bench/data/', LIB_LEAVES, '^node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'lib-leaf-imports-nothing',
      comment: 'A lib/ module the data may import imports nothing (add a module to LIB_LEAVES only if it is a leaf)',
      severity: 'error',
      from: { path: LIB_LEAVES },
      to: {},
    },
    {
      name: 'bench-never-loads-compare',
      comment: 'The PR check (compare/) builds on the bench, never the reverse: directly or through what it imports',
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '^compare/', reachable: true },
    },
    {
      name: 'aggregate-never-loads-a-run',
      comment:
        'The aggregate reads documents and the data: it never loads bench/engine/ or bench/run/, directly or through what it imports',
      severity: 'error',
      from: { path: '^aggregate/' },
      to: { path: '^bench/(engine|run)/', reachable: true },
    },
    {
      name: 'aggregate-imports-data-and-documents',
      comment:
        'From bench/, aggregate/ imports only the data (bench/data/) and the document contract (bench/result/document.js, bench/result/header.js): data flows bench → document → aggregate, and what renders a document lives in aggregate/render/',
      severity: 'error',
      from: { path: '^aggregate/' },
      to: { path: '^bench/', pathNot: AGGREGATE_READS },
    },
    {
      name: 'no-folder-cycle',
      comment: 'No folder imports, through its files, a folder that imports it back',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    detectJSDocImports: true,
    doNotFollow: { path: 'node_modules' },
  },
};
