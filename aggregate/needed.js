// The stored documents the pages read: what the nightly job fetches from the archive (assets.js)
// before it aggregates, so a clone that holds no document renders the same pages as one that holds all.
import { newestPerMajor } from './sections/common.js';
import { newestShootout } from './sections/shootout.js';

/**
 * The documents the pages read (render.js): of every machine class, the newest result document per
 * Node major (every result section picks among them) and the shootout the shootout section shows.
 * Every other document is read only through the nights cache (results/charts/nights.jsonl).
 * @param {import('./store.js').Entry[]} entries
 * @returns {import('./store.js').Entry[]} sorted by file
 */
export function neededEntries(entries) {
  const classes = new Map();
  for (const e of entries) {
    const key = `${e.platform}\0${e.machine}`;
    classes.set(key, [...(classes.get(key) ?? []), e]);
  }
  const needed = [...classes.values()].flatMap((mine) => {
    const shootout = newestShootout(mine);
    return [...newestPerMajor(mine.filter((e) => (e.kind ?? 'result') === 'result')), ...(shootout ? [shootout] : [])];
  });
  return needed.sort((a, b) => (a.file < b.file ? -1 : 1));
}
