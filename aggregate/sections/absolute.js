// results/README.md: the absolute figures, one table per (config, driver, cipher) with a row per
// Node version (each row from its own matrix cell: a different machine, not a comparison).
import { PRODUCTION_CIPHER } from '../../bench/data/ciphers.js';
import { CONFIGS, PRODUCTION_CONFIG, describeChanges } from '../../bench/data/configs.js';
import { PRODUCTION_DRIVER } from '../../bench/data/drivers.js';
import { OPS } from '../../bench/data/ops.js';
import { caseKey, setupKey, setups } from '../../bench/data/suite.js';
import { ABSOLUTE_COVERAGE, STEADY_OPS, fastText, figureText } from '../render/figure.js';
import { REASON_MAX, inert } from '../../lib/markdown.js';
import { cipherLabel, configLabel, newestPerMajor, readmeTable } from './common.js';
import { num } from '../../lib/format.js';

/** Rows a table can footnote: cells without a figure point to a numbered reason under the table. */
function notes() {
  /** @type {string[]} */
  const list = [];
  return {
    ref(/** @type {string} */ reason) {
      let i = list.indexOf(reason);
      if (i < 0) i = list.push(reason) - 1;
      return `n/a [${i + 1}]`;
    },
    lines: () => list.map((r, i) => `- [${i + 1}] ${inert(r, REASON_MAX)}`),
  };
}

/**
 * @param {any[]} docs one per Node major
 * @param {{ config: string, driver: string, cipher: string }} s
 */
function configTable(docs, s) {
  const n = notes();
  // the driver's version per Node is in the machines table; a driver that did not run, in each cell's reason
  // operations in table order, headed by their label: the units are in the caption (the table fits GitHub's column)
  const t = [['Node', ...OPS.map((op) => op.label)]];
  for (const doc of docs) {
    t.push([
      inert(doc.environment.node),
      ...OPS.map((op) => {
        const c = doc.cases.find((/** @type {any} */ x) => caseKey(x) === `${setupKey(s)}/${op.name}`);
        const f = figureText(c, num);
        const fast = fastText(c, num);
        return f.text === null ? n.ref(f.reason) : fast ? `${f.text} · fastest ${fast}` : f.text;
      }),
    ]);
  }
  const { note } = describeChanges(/** @type {any} */ (CONFIGS.find((c) => c.name === s.config)));
  const title = `${configLabel(s.config)} — ${s.driver}${s.cipher === 'none' ? ', no encryption' : `, ${cipherLabel(s.cipher)}`}`;
  return [
    `##### ${title}`,
    '',
    ...(note ? [`_${inert(note)}._`, ''] : []),
    'Typical under load ± the wider side of its 95% interval (ops/s; Setup and VACUUM in ms; DB size: the database and its WAL, in MB), a row per Node major (its own machine):',
    readmeTable(t, ['l', ...OPS.map(() => /** @type {'r'} */ ('r'))]),
    ...(n.lines().length ? ['', ...n.lines()] : []),
  ];
}

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const docs = newestPerMajor(ctx.entries).map((e) => ctx.load(e));
  if (!docs.length) return [];
  const shown = setups().filter(
    (s) => !(s.config === PRODUCTION_CONFIG && s.driver === PRODUCTION_DRIVER && s.cipher !== PRODUCTION_CIPHER),
  );
  return [
    '##### Absolute figures per configuration',
    `${shown.length} tables, a row per Node version (each row from its own matrix cell, a different machine: not a comparison between Node versions). Figures: typical under load (the median of the rounds' median slices) with the wider side of its 95% interval (measured, it ${ABSOLUTE_COVERAGE}: [calibration](../docs/checking.md#the-calibration-registry-npm-run-metacalibration)), and, for ${STEADY_OPS.join(', ')}, the operations that write nothing, "fastest" (the median of the rounds' 90th-percentile slices) with its own: an operation that writes has its fastest slices where it did not checkpoint or sync, not where the machine disturbed it least.`,
    '',
    `<details><summary>The ${shown.length} tables</summary>`,
    ...shown.flatMap((s) => ['', ...configTable(docs, s)]),
    '',
    '</details>',
  ];
}
