// What each PRAGMA change does (docs/pipeline.md#what-the-readme-shows, item 2): every config against Production,
// paired within the newest full run, as a chart and the table under it; the twin's and the
// non-tunings' rows kept in the README (they show the run's noise, and the non-tunings for what
// they are), results/README.md in full.
import { CONFIGS, PRODUCTION_CONFIG, TWIN_CONFIG } from '../../bench/data/configs.js';
import { COMPARISONS } from '../../bench/data/comparisons.js';
import { parseSetupKey } from '../../bench/data/suite.js';
import { day } from '../../lib/format.js';
import { comparisonSpec } from '../charts/specs.js';
import { classLink, comparisonPoints, comparisonRun, configLabel, notATuning, signed } from './common.js';
import { COMPARED, comparisonTable, opLabel } from '../render/pair-table.js';

const TITLE = /** @type {any} */ (COMPARISONS.find((c) => c.id === 'config')).title;

/** A config as a row: its name, and what it is when it is no tuning. */
const configRow = (/** @type {string} */ key) => configTitle(parseSetupKey(key).config);

/** A config as a README table row: as in the chart, the A/A twin in fewer words. */
const shortRow = (/** @type {string} */ key) =>
  parseSetupKey(key).config === TWIN_CONFIG ? 'A/A twin' : configRow(key);

/** A config's name, and what it is when it is no tuning. */
function configTitle(/** @type {string} */ config) {
  if (config === TWIN_CONFIG) return 'A/A twin: Production again';
  if (notATuning(config)) return `${configLabel(config)} (not a tuning)`;
  return configLabel(config);
}

/**
 * The main finding in words, from the points of the chart.
 * @param {ReturnType<typeof comparisonPoints>} points
 * @param {string} [reference] named when the text is read apart from the heading naming it
 * @param {string} [run] named when the text is read apart from the line naming the run
 */
export function findings(points, reference, run) {
  const real = points.filter((p) => p.verdict !== 'too noisy to tell');
  const best = real.reduce((/** @type {any} */ a, p) => (!a || p.change > a.change ? p : a), null);
  const worst = real.reduce((/** @type {any} */ a, p) => (!a || p.change < a.change ? p : a), null);
  const parts = [reference ? `Against ${reference}${run ? ` (${run})` : ''}: largest gain` : 'Largest gain'];
  parts[0] += best && best.change > 0 ? ` ${best.member}, ${best.op} ${signed(best.change)}` : ' none';
  parts.push(
    `largest loss ${worst && worst.change < 0 ? `${worst.member}, ${worst.op} ${signed(worst.change)}` : 'none'}`,
  );
  parts.push(`${points.length - real.length} of ${points.length} too noisy to tell`);
  return parts.join('; ');
}

/** @param {import('./index.js').SectionContext} ctx */
export function render(ctx) {
  const doc = comparisonRun(ctx);
  if (!doc?.comparisons?.length) return [];
  const points = comparisonPoints(doc, 'config', configRow);
  if (!points.length) return [];
  const twin = points.filter((p) => p.member === configTitle(TWIN_CONFIG));
  const members = CONFIGS.filter((c) => c.name !== PRODUCTION_CONFIG)
    .map((c) => configTitle(c.name))
    .filter((m) => points.some((p) => p.member === m));
  // the reference is named by the heading and the chart's title, the run by the line above the
  // heading (self-check.js) and the chart's subtitle
  const alt = `${findings(points)}; A/A twin: ${twin.filter((p) => p.verdict !== 'too noisy to tell').length} of ${twin.length} differ.`;
  const chart = ctx.chart(
    'config',
    comparisonSpec({
      title: TITLE,
      subtitle: [
        `${ctx.platform}, Node ${doc.environment.node}, run of ${day(doc.run.finishedAt)}: change in ops/s against Production (+ is faster), measured side by side (paired),`,
        'with its 95% interval. The A/A twin is Production measured again: how far apart two identical configs land.',
      ],
      alt,
      points,
      members,
      ops: COMPARED.map(opLabel),
    }),
    alt,
  );
  // the README: the table right under the chart (a table may start after a paragraph's line); a
  // brief machine class links it
  if (ctx.page !== 'readme') return [`##### ${TITLE}`, chart, '', comparisonTable(doc, 'config', configRow, 'Config')];
  return ctx.brief
    ? [`##### ${TITLE}`, `${chart} [The table](${classLink(ctx)}).`]
    : [`##### ${TITLE}`, chart, comparisonTable(doc, 'config', shortRow, 'Config', { compact: true })];
}
