// The changes answer: the newest change points of the machine class's nightly history
// (sections/history.js, lib/changepoints.js) with their cause where one was recorded, or "none in
// the last N nights".
import { day } from '../../lib/format.js';
import { opLabel } from '../render/pair-table.js';
import { historyOf, measureLabel, sizeText } from '../sections/history.js';

/** The change points listed, newest first. */
const LISTED = 2;

/** The answer of a machine class's runs of one side; null without a full run. */
export function changesAnswer(
  /** @type {{ machine: string, entries: import('../store.js').Entry[] }} */ c,
  /** @type {{ nights: import('../nights.js').Nights }} */ o,
) {
  const history = historyOf({ machine: c.machine, entries: c.entries, nights: o.nights });
  if (!history.length) return null;
  const nights = new Set(history.flatMap((h) => h.nights.map((n) => n.finishedAt))).size;
  const newest = history
    .flatMap((h) => h.changes)
    .sort((a, b) => (a.finishedAt < b.finishedAt ? 1 : a.finishedAt > b.finishedAt ? -1 : 0))
    .slice(0, LISTED);
  if (!newest.length) {
    const none = `none in the last ${nights === 1 ? 'night' : `${nights} nights`}`;
    return { text: none, line: none };
  }
  return {
    text: newest
      .map(
        (x) =>
          `${day(x.finishedAt)}, Node ${x.major} ${opLabel(x.op)} ${measureLabel(x.measure)} ${sizeText(x)} (${x.cause})`,
      )
      .join('; '),
    line: `newest change point ${day(newest[0].finishedAt)}`,
  };
}
