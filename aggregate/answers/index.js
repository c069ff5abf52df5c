// The README block's first lines: the five questions people bring, answered per machine class, in
// this order: what encryption costs (encryption.js), which PRAGMAs help and what they risk
// (tunings.js), which Node (node-ranking.js), node:sqlite or better-sqlite3 (driver-choice.js), and
// did anything change (recent-changes.js). Each answer is a declared question judged over its own
// family with Holm (family.js), never the largest of many comparisons. The first machine class is
// open; the others are collapsed under their one-line answer. Machine classes are separate
// machines: nothing here compares one with another.
import { inert, plain } from '../../lib/markdown.js';
import { day } from '../../lib/format.js';
import { best, comparisonRun } from '../sections/common.js';
import { isShootoutEntry } from '../store.js';
import { encryptionAnswer } from './encryption.js';
import { tuningsAnswer } from './tunings.js';
import { nodeAnswer } from './node-ranking.js';
import { driverAnswer } from './driver-choice.js';
import { changesAnswer } from './recent-changes.js';
/** @import { Entry } from '../store.js' */

/** @typedef {{ text: string, items?: string[], line: string }} Answer */

/**
 * Text inside the raw HTML of a <summary>, where Markdown is not read: a document's string made
 * plain, HTML-escaped, a mention or an issue reference broken by a zero-width space, and a link's
 * brackets and a URL's colon written as character references, so no renderer that does read
 * Markdown or autolinks there finds a link (the browser shows the same characters).
 */
const htmlText = (/** @type {string} */ s) =>
  plain(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/([@#])/g, '$1\u200b')
    .replace(/[[\]]/g, (c) => (c === '[' ? '&#91;' : '&#93;'))
    .replace(/:(?=\/\/)/g, '&#58;')
    .replace(/(www)\./gi, '$1&#46;');

/**
 * One machine class's answers, in order; none where it has no full run and no shootout.
 * @param {{ machine: string, entries: Entry[] }} c
 * @param {{ load: (e: Entry) => any, nights: import('../nights.js').Nights }} o
 * @returns {{ run: any, answers: [string, Answer | null][] }}
 */
export function answersOf(c, o) {
  const results = c.entries.filter((e) => !isShootoutEntry(e));
  const run = comparisonRun({ entries: results, load: o.load });
  const shootout = best(c.entries.filter(isShootoutEntry));
  return {
    run,
    answers: [
      ['Encryption', run && encryptionAnswer(run)],
      ['PRAGMAs', run && tuningsAnswer(run)],
      ['Node', nodeAnswer(shootout && o.load(shootout), run)],
      ['Driver', run && driverAnswer(run)],
      ['Changes', changesAnswer({ machine: c.machine, entries: results }, o)],
    ],
  };
}

const items = (/** @type {ReturnType<typeof answersOf>['answers']} */ answers) =>
  answers.flatMap(([name, a]) => (a ? [`- **${name}**: ${a.text}.`, ...(a.items ?? []).map((i) => `  - ${i}.`)] : []));

/**
 * The answers of every machine class: the first open, the others collapsed.
 * @param {{ classes: { machine: string, entries: Entry[] }[], load: (e: Entry) => any, nights: import('../nights.js').Nights }} ctx
 */
export function renderAnswers(ctx) {
  const all = ctx.classes.map((c) => ({ c, ...answersOf(c, ctx) })).filter((x) => x.answers.some(([, a]) => a));
  if (!all.length) return [];
  const title = (/** @type {(typeof all)[number]} */ x, /** @type {(s: string) => string} */ text) =>
    `${text(x.c.machine)}${x.run ? ` (run of ${day(x.run.run.finishedAt)}, Node ${text(x.run.environment.node)})` : ''}`;
  return [
    '**Answers**, per machine class: "2.00× [1.93, 2.08] −50%": 2.00× the time per operation, its 95% interval (Holm over the question), −50% ops/s; "≈": not decided.',
    '',
    ...all.flatMap((x, i) => {
      if (i === 0) return [`**${title(x, inert)}**`, '', ...items(x.answers), ''];
      // each answer's line made plain on its own: the five together are longer than plain() keeps
      const line = x.answers.flatMap(([name, a]) => (a?.line ? [`${name}: ${htmlText(a.line)}`] : [])).join('; ');
      return [
        `<details><summary><b>${title(x, htmlText)}</b>: ${line}</summary>`,
        '',
        ...items(x.answers),
        '',
        '</details>',
        '',
      ];
    }),
  ];
}
