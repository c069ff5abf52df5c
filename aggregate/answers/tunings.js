// The PRAGMA answer: each tuning's effect against production on writes, reads and opening (the
// encryption answer's groups: bench/data/ops.js OP_GROUPS), where the judge decides it over the
// declared family (every tuning × the three, Holm: family.js),
// grouped by what a commit survives under it (bench/data/configs.js durability), with fsync
// calls per commit (an insert is one commit) beside it where the run counted them. Only tunings
// are asked: the A/A twin (production itself), Baseline (no PRAGMAs at all) and a config that
// equals production (SQLite's default) are never offered as "helps".
import { DURABILITY_WORDS, PRODUCTION_CONFIG, TUNINGS } from '../../bench/data/configs.js';
import { PRODUCTION_CIPHER } from '../../bench/data/ciphers.js';
import { PRODUCTION_DRIVER } from '../../bench/data/drivers.js';
import { countText } from '../render/counts-text.js';
import { caseOf, decided, judgeFamily, runPairs } from './family.js';
import { timeText } from './time-ratio.js';
import { configLabel } from '../sections/common.js';
import { OP_GROUPS } from '../../bench/data/ops.js';

const setup = (/** @type {string} */ config) => `${config}/${PRODUCTION_DRIVER}/${PRODUCTION_CIPHER}`;

/** Every tuning × group of operations of a full run, judged as one family. */
export function tuningsOf(/** @type {any} */ doc) {
  return judgeFamily(
    TUNINGS.flatMap((c) =>
      Object.entries(OP_GROUPS).map(([group, ops]) => ({
        config: c.name,
        group,
        pairs: runPairs(doc, setup(PRODUCTION_CONFIG), setup(c.name), [...ops]),
      })),
    ),
  );
}

/** fsync calls per commit (the insert case's counts), or null where not counted. */
const fsyncs = (/** @type {any} */ doc, /** @type {string} */ config) => {
  const c = caseOf(doc, setup(config), 'insert');
  return c?.counts?.status === 'ok' ? c.counts.syscalls.fsync : null;
};

/** The answer's words: a line per group that has a tuning in the run. */
export function tuningsAnswer(/** @type {any} */ doc) {
  const judged = tuningsOf(doc).filter((a) => a.judgement);
  if (!judged.length) return null;
  const base = fsyncs(doc, PRODUCTION_CONFIG);
  const lines = Object.entries(DURABILITY_WORDS).flatMap(([durability, heading]) => {
    const mine = TUNINGS.filter((c) => c.durability === durability && judged.some((a) => a.config === c.name));
    if (!mine.length) return [];
    const effects = mine.map((c) => {
      const found = judged.filter((a) => a.config === c.name && decided(a));
      const f = fsyncs(doc, c.name);
      const sync =
        f !== null && base !== null && f !== base ? ` (fsync/commit ${countText(f)} against ${countText(base)})` : '';
      return {
        c,
        found,
        text: `${configLabel(c.name)}${sync}: ${found.map((a) => `${a.group} ${timeText(a.judgement)}`).join(', ')}`,
      };
    });
    const none = effects.filter((e) => !e.found.length).map((e) => configLabel(e.c.name));
    const some = effects.filter((e) => e.found.length).map((e) => e.text);
    return [`${heading}: ${[...some, ...(none.length ? [`≈: ${none.join(', ')}`] : [])].join('; ')}`];
  });
  const helps = judged.filter(
    (a) =>
      decided(a) &&
      a.judgement?.verdict === 'faster' &&
      TUNINGS.find((c) => c.name === a.config)?.durability !== 'unsafe',
  );
  return {
    text: 'each tuning against Production (writes, reads, opening as above), where decided',
    items: lines,
    line: `${new Set(helps.map((a) => a.config)).size} safe tuning(s) decided faster somewhere`,
  };
}
