// Drivers, and which release of each the running Node can use. Data, not branches: the ranges are
// read with semver in node-ranges.js, so this table loads without node_modules (npm run ci:failure
// runs where the install failed).

/**
 * @typedef {object} Driver
 * @property {string} name slug on the command line and in result documents
 * @property {'better-sqlite3'|'node:sqlite'} api which adapter drives it
 * @property {boolean} encryption whether it can key a database
 * @property {string} [package] npm package, installed per Node generation (see GENERATIONS)
 * @property {string} [node] semver range of Node versions that have it built in
 * @property {string} description
 */

/** @type {Driver[]} */
export const DRIVERS = [
  {
    name: 'better-sqlite3-multiple-ciphers',
    api: 'better-sqlite3',
    encryption: true,
    package: 'better-sqlite3-multiple-ciphers',
    description: 'better-sqlite3 with SQLite3 Multiple Ciphers (the production driver)',
  },
  {
    name: 'better-sqlite3',
    api: 'better-sqlite3',
    encryption: false,
    package: 'better-sqlite3',
    description: 'better-sqlite3, no encryption',
  },
  {
    name: 'node:sqlite',
    api: 'node:sqlite',
    encryption: false,
    node: '^22.13.0 || >=23.4.0',
    description: "Node's built-in SQLite (unflagged from 22.13 / 23.4)",
  },
];

export const PRODUCTION_DRIVER = 'better-sqlite3-multiple-ciphers';

/** The Node majors the nightly matrix runs (and `npm run matrix` by default); a test keeps the workflow in step. */
export const MATRIX_NODES = [18, 20, 22, 24, 25];

/**
 * Driver generations: the newest releases that support a range of Node versions. Each has a
 * package.json + package-lock.json in drivers/<id>/; `npm install` installs the one for the running
 * Node into .drivers/ (see bench/tools/install-drivers.js). 13.x segfaults below Node 22.14 instead of
 * throwing, so the ranges never let it near an older Node.
 * @type {{ id: string, node: string, why: string }[]}
 */
export const GENERATIONS = [
  {
    id: 'node18',
    node: '>=18.0.0 <20.0.0',
    why: 'better-sqlite3 12 dropped Node 18; 11.10.0 is the last release for it',
  },
  {
    id: 'node20',
    node: '>=20.0.0 <22.14.0 || >=23.0.0 <23.6.0',
    why: '12.x: prebuilt per ABI, supports Node 20-26 (13.x needs N-API 10: Node 22.14+ / 23.6+)',
  },
  { id: 'napi10', node: '^22.14.0 || >=23.6.0', why: '13.x: N-API, one binary for every Node that has N-API 10' },
];

/**
 * Where a generation may be chosen explicitly (SQLITE_BENCH_GENERATION, `npm run drivers --
 * --generation`): the Node versions each release set supports, wider than where it is the default.
 * The shootout uses it to hold the driver constant across Nodes (12.x on Node 20-25).
 * @type {Record<string, string>}
 */
export const GENERATION_LOADS = {
  node18: '>=18.0.0 <20.0.0',
  node20: '>=20.0.0 <26.0.0',
  napi10: '^22.14.0 || >=23.6.0',
};

/** The environment variable that picks a driver generation other than the running Node's default. */
export const GENERATION_ENV = 'SQLITE_BENCH_GENERATION';
