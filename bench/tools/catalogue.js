// What the suite measures, from the same tables the code runs: for `--list` and for the README
// (between the CATALOGUE markers; `npm run catalogue` rewrites it, a test checks it is current).
import fs from 'node:fs';
import path from 'node:path';
import { table as markdownTable } from '../../lib/markdown.js';
import { CIPHERS } from '../data/ciphers.js';
import { CONFIGS, PRODUCTION_CONFIG, describeChanges } from '../data/configs.js';
import { DRIVERS, GENERATIONS } from '../data/drivers.js';
import { writeFileAtomic } from '../../lib/files.js';
import { command, parseStrict } from '../../lib/command.js';
import { ROOT } from '../../lib/root.js';
import { replaceBetween } from '../../lib/markers.js';
import { OPS } from '../data/ops.js';
import { RULES } from '../data/suite.js';
import { CLAIMS } from '../data/production-claims.js';
import { SUITE_CLAIMS, runPlan } from '../data/run-plan.js';

/** A claim's pairs (bench/data/run-plan.js): its measured checks. */
const { pairs } = runPlan();
const claimPairs = (/** @type {string} */ id) => pairs.filter((p) => p.claim?.id === id);

export const CATALOGUE_START = '<!-- CATALOGUE_START -->';
export const CATALOGUE_END = '<!-- CATALOGUE_END -->';

const settings = (/** @type {[string, string|number][]} */ p) =>
  p.length ? p.map(([n, v]) => `${n}=${v}`).join(', ') : '(none)';

/** Plain text for `npm run bench -- --list`. */
export function listText() {
  const out = ['configs (--config):'];
  for (const c of CONFIGS) {
    const { note } = describeChanges(c);
    out.push(`  ${c.name.padEnd(24)} ${c.label}: ${c.description}${note ? ` [${note}]` : ''}`);
  }
  out.push('drivers (--driver):', ...DRIVERS.map((d) => `  ${d.name.padEnd(32)} ${d.description}`));
  out.push('ciphers (--cipher):', ...CIPHERS.map((c) => `  ${c.name.padEnd(10)} ${c.label}: ${c.description}`));
  out.push('ops (--op):', ...OPS.map((o) => `  ${o.name.padEnd(13)} ${o.label}: ${o.unit}`));
  out.push(
    'claims (--claim; npm run claims, which also takes wal-concurrency, measured by the concurrency workload):',
    ...CLAIMS.filter((e) => SUITE_CLAIMS.includes(e.id)).map((e) => `  ${e.id.padEnd(24)} claim ${e.n}: ${e.short}`),
  );
  return out.join('\n');
}

/**
 * A table of one of bench/data/: a row per entry, its name (what a flag takes) as code first.
 * @template {{ name: string }} T
 * @param {string[]} header
 * @param {readonly T[]} entries
 * @param {(entry: T) => string[]} rest the other cells of an entry's row
 */
const namedTable = (header, entries, rest) =>
  markdownTable([header, ...entries.map((x) => [`\`${x.name}\``, ...rest(x)])]);

export function catalogueMarkdown() {
  const rule = (/** @type {string[] | '*'} */ x, /** @type {string} */ all) =>
    x === '*' ? `every ${all}${all === 'config' ? ' but the claim-only ones' : ''}` : x.join(', ');
  return [
    '### Configurations',
    '',
    namedTable(['Config (`--config`)', 'Name', 'PRAGMAs (after cipher and key)', 'Note'], CONFIGS, (c) => {
      const { changes, note } = describeChanges(c);
      const what =
        c.name === PRODUCTION_CONFIG || !c.pragmas.length
          ? settings(c.pragmas)
          : changes.length
            ? `production, with ${settings(changes)}`
            : 'production';
      const only = c.claimOnly
        ? `only for claim ${CLAIMS.filter((e) =>
            claimPairs(e.id).some((p) => p.reference.config === c.name || p.member.config === c.name),
          )
            .map((e) => e.n)
            .join(', ')}`
        : '';
      return [c.label, what, [note, only].filter(Boolean).join('; ')];
    }),
    '',
    'In the order applied. `{tempdir}` is a directory beside the database file (on `/dev/shm` for `shm-temp-storage`). Every PRAGMA is read back after setup; one that did not take fails its case.',
    '',
    '### Ciphers',
    '',
    namedTable(['Cipher (`--cipher`)', 'Name', 'What it is'], CIPHERS, (c) => [c.label, c.description]),
    '',
    '### Drivers',
    '',
    namedTable(['Driver (`--driver`)', 'What it is'], DRIVERS, (d) => [d.description]),
    '',
    markdownTable([
      ['Driver release set', 'For Node', 'Why'],
      ...GENERATIONS.map((g) => [`\`drivers/${g.id}\``, `\`${g.node}\``, g.why]),
    ]),
    '',
    '### Operations',
    '',
    namedTable(['Operation (`--op`)', 'Name', 'One operation is', 'Counted: warm-up, K (quick)'], OPS, (o) => [
      o.label,
      o.unit,
      o.count ? `${o.count.warmup}, ${o.count.full} (${o.count.quick})` : 'not timed',
    ]),
    '',
    '### Which combinations run',
    '',
    ...RULES.map(
      (r) =>
        `- configs: ${rule(r.configs, 'config')}; drivers: ${rule(r.drivers, 'driver')}; ciphers: ${rule(r.ciphers, 'cipher')} (a driver without encryption runs only \`none\`)`,
    ),
    '- each on every operation; the claims below add their own cases: the claim-only configs, on the operations of their claims',
    '',
    '### Claims checked',
    '',
    'Each claim of the production write-up, its reference and what is compared with it (`npm run claims`, [claims.md](claims.md)).',
    '',
    markdownTable([
      ['Claim', '`--claim`', 'Subject', 'Reference', 'Compared (operation)'],
      ...CLAIMS.map((e) => {
        const m = claimPairs(e.id);
        const key = (/** @type {{ config: string, driver: string, cipher: string }} */ x) => `${x.config}/${x.cipher}`;
        const refs = [
          ...new Set([
            ...m.map((x) => key(x.reference)),
            ...e.checks.flatMap((c) => (c.workload ? [`workload delete-${c.workload.pair}`] : [])),
          ]),
        ];
        const compared = [
          ...new Set([
            ...m.map((x) => `${key(x.member)} (${x.member.op})`),
            ...e.checks.flatMap((c) => (c.workload ? [`workload wal-${c.workload.pair} (${c.workload.figure})`] : [])),
          ]),
        ];
        return [
          `${e.n}. ${e.short}`,
          m.length || refs.length ? `\`${e.id}\`` : `${e.id} (not measured)`,
          e.subject.join(', '),
          refs.join(', ') || '—',
          compared.join(', ') || '—',
        ];
      }),
    ]),
  ].join('\n');
}

/** The page the catalogue is written into. */
export const CATALOGUE_FILE = path.join(ROOT, 'docs', 'catalogue.md');

/**
 * The page with its catalogue block regenerated (the same strict marker rule as the README's results).
 * @param {string} page
 */
export const withCatalogue = (page) =>
  replaceBetween(page, CATALOGUE_START, CATALOGUE_END, catalogueMarkdown(), 'docs/catalogue.md');

const HELP = {
  usage: 'npm run catalogue',
  summary: 'Regenerates docs/catalogue.md (between its markers) from the data in bench/data/. No flags.',
  options: {},
};

function main(/** @type {string[]} */ argv) {
  parseStrict(argv, HELP.options);
  writeFileAtomic(CATALOGUE_FILE, withCatalogue(fs.readFileSync(CATALOGUE_FILE, 'utf8')));
  console.error('docs/catalogue.md: catalogue rewritten');
}

command('catalogue', import.meta.url, main, HELP);
