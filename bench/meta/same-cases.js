#!/usr/bin/env node
// npm run meta:same-cases -- BEFORE.json AFTER.json: for a refactor, whether two result documents
// of the same seed and filters measured the same cases, statuses, reasons, PRAGMA readings (temp
// directories aside), encryption proofs and kinds of verified counts (not timings or counts).
import fs from 'node:fs';
import { CommandError, UsageError, command, firstLine, parseStrict } from '../../lib/command.js';
import { caseKey, setupKey } from '../data/suite.js';

/** A temp directory path differs per run: compare what follows it. */
const TEMP_DIR = /^.*[/\\]sqlite-bench-[^/\\]+[/\\]/;
const normalised = (/** @type {unknown} */ v) => (typeof v === 'string' ? v.replace(TEMP_DIR, '<tmp>/') : v);
const entries = (/** @type {Record<string, unknown>} */ o) => Object.entries(o).map(([k, v]) => [k, normalised(v)]);
const pragmaText = (/** @type {Record<string, unknown> | undefined} */ p) => JSON.stringify(entries(p ?? {}));
const readingsText = (/** @type {any[] | undefined} */ r) => JSON.stringify((r ?? []).map(entries));

/**
 * The differences between two result documents in what they measured; empty when none.
 * @param {any} a
 * @param {any} b
 * @returns {string[]}
 */
export function caseDifferences(a, b) {
  const out = /** @type {string[]} */ ([]);
  const byKey = (/** @type {any[]} */ xs, /** @type {(x: any) => string} */ key) => new Map(xs.map((x) => [key(x), x]));
  const [ca, cb] = [byKey(a.cases, caseKey), byKey(b.cases, caseKey)];
  for (const k of ca.keys()) if (!cb.has(k)) out.push(`${k}: only in the first`);
  for (const k of cb.keys()) if (!ca.has(k)) out.push(`${k}: only in the second`);
  for (const [k, x] of ca) {
    const y = cb.get(k);
    if (!y) continue;
    const status = (/** @type {any} */ c) => `${c.status}${c.reason ? ` (${c.reason})` : ''}`;
    if (status(x) !== status(y)) out.push(`${k}: ${status(x)} vs ${status(y)}`);
    if (pragmaText(x.pragmas) !== pragmaText(y.pragmas))
      out.push(`${k}: PRAGMA readings differ: ${pragmaText(x.pragmas)} vs ${pragmaText(y.pragmas)}`);
    const [vx, vy] = [x, y].map((c) => [...Object.keys(c.verified ?? {})].sort().join(','));
    if (vx !== vy) out.push(`${k}: verified ${vx || 'nothing'} vs ${vy || 'nothing'}`);
    for (const [name, n] of Object.entries({ ...x.verified, ...y.verified }))
      if (!(Number(n) > 0)) out.push(`${k}: verified ${name} = ${n}`);
    if (x.size && JSON.stringify(x.size) !== JSON.stringify(y.size))
      out.push(`${k}: size ${JSON.stringify(x.size)} vs ${JSON.stringify(y.size)}`);
  }
  const [sa, sb] = [byKey(a.setups, setupKey), byKey(b.setups, setupKey)];
  for (const k of new Set([...sa.keys(), ...sb.keys()])) {
    const [x, y] = [sa.get(k), sb.get(k)];
    if (!x || !y) out.push(`setup ${k}: only in the ${x ? 'first' : 'second'}`);
    else {
      if (x.status !== y.status) out.push(`setup ${k}: ${x.status} vs ${y.status}`);
      if (readingsText(x.pragmas) !== readingsText(y.pragmas)) out.push(`setup ${k}: PRAGMA readings differ`);
      if (JSON.stringify(x.encryption) !== JSON.stringify(y.encryption))
        out.push(`setup ${k}: encryption proof ${JSON.stringify(x.encryption)} vs ${JSON.stringify(y.encryption)}`);
    }
  }
  if (JSON.stringify(a.run.order) !== JSON.stringify(b.run.order))
    out.push('the case order differs (same seed and filters give the same order)');
  return out;
}

/** A result document read, or a one-line error naming the file. */
export const readDocument = (/** @type {string} */ file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`${file}: not a readable JSON result document (${firstLine(err)})`);
  }
};

const HELP = {
  usage: 'npm run meta:same-cases -- BEFORE.json AFTER.json',
  summary:
    'For a refactor: do two result documents of the same seed and filters measure the same cases, statuses, reasons, PRAGMA readings, encryption proofs and kinds of checks? Exit 1 with one line per difference.',
  options: {},
};

command(
  'same-cases',
  import.meta.url,
  (argv) => {
    const files = parseStrict(argv, HELP.options, { positionals: true })._;
    if (files.length !== 2)
      throw new UsageError(`give two result documents, BEFORE.json AFTER.json; got ${files.length}`);
    const [a, b] = files.map(readDocument);
    const diffs = caseDifferences(a, b);
    if (diffs.length) {
      for (const d of diffs) console.error(d);
      throw new CommandError(`${diffs.length} difference(s) in what was measured`);
    }
    console.log(
      `same cases (${a.cases.length}), statuses, reasons, PRAGMA readings, encryption proofs, verified kinds and case order`,
    );
  },
  HELP,
);
