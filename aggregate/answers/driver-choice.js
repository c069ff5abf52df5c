// The driver answer: node:sqlite against better-sqlite3 and against better-sqlite3-multiple-ciphers
// (both without a key, production's PRAGMAs), per operation, where the run's Node has node:sqlite:
// one declared family (both references × every timed operation), judged with Holm (family.js);
// against better-sqlite3, where both were counted, each decided operation's instructions and the
// components they go to (aggregate/render/mechanism.js).
import { PRODUCTION_CONFIG } from '../../bench/data/configs.js';
import { PRODUCTION_DRIVER } from '../../bench/data/drivers.js';
import { inert } from '../../lib/markdown.js';
import { mechanismOf } from '../render/mechanism.js';
import { caseOf, decided, judgeFamily, runPairs } from './family.js';
import { timeText } from './time-ratio.js';
import { COMPARED, opLabel } from '../render/pair-table.js';

const NODE_SQLITE = 'node:sqlite';
const REFERENCES = ['better-sqlite3', PRODUCTION_DRIVER];
const setup = (/** @type {string} */ driver) => `${PRODUCTION_CONFIG}/${driver}/none`;

/** The answer's words: per reference, the operations decided, the rest ≈. */
export function driverAnswer(/** @type {any} */ doc) {
  // node:sqlite against each reference driver, per operation, judged as one family
  const judged = judgeFamily(
    REFERENCES.flatMap((driver) =>
      COMPARED.map((op) => ({ driver, op, pairs: runPairs(doc, setup(driver), setup(NODE_SQLITE), [op]) })),
    ),
  ).filter((a) => a.judgement);
  if (!judged.length) {
    const status = doc.sides[0].drivers.find((/** @type {any} */ d) => d.name === NODE_SQLITE)?.status;
    return {
      text: `node:sqlite not measured on Node ${inert(doc.environment.node)} (${inert(status ?? 'absent')})`,
      line: '',
    };
  }
  const why = (/** @type {string} */ driver, /** @type {string} */ op) => {
    const m =
      driver === 'better-sqlite3' &&
      mechanismOf(caseOf(doc, setup(driver), op), caseOf(doc, setup(NODE_SQLITE), op), { io: false });
    return m ? ` (${m})` : '';
  };
  const parts = REFERENCES.map((driver) => {
    const mine = judged.filter((a) => a.driver === driver);
    const found = mine.filter(decided);
    return `against ${driver}: ${[
      ...found.map((a) => `${opLabel(a.op)} ${timeText(a.judgement)}${why(driver, a.op)}`),
      ...(found.length < mine.length ? [`≈ on ${mine.length - found.length} other operation(s)`] : []),
    ].join(', ')}`;
  });
  const vs = judged.filter((a) => a.driver === 'better-sqlite3');
  return {
    text: `node:sqlite, × time per operation, ${parts.join('; ')}`,
    line: `node:sqlite slower than better-sqlite3 on ${vs.filter((a) => a.judgement?.verdict === 'slower').length} of ${vs.length} operations`,
  };
}
