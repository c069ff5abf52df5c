// The stored documents the pages read: what the nightly job fetches from the archive (assets.js)
// before it aggregates, so a clone that holds no document renders the same pages as one that holds all.
import { classesOf } from '../aggregate/render-pages.js';
import { best, newestPerMajor } from '../aggregate/sections/common.js';
import { isShootoutEntry, latestAttempts } from '../aggregate/store.js';

/**
 * The documents the pages read (render-pages.js): of every machine class, the newest result document per
 * Node major (every result section picks among them) and the shootout the shootout section shows.
 * Every other document is read only through the nights cache (results/charts/nights.jsonl).
 * @param {import('../aggregate/store.js').Entry[]} entries
 * @returns {import('../aggregate/store.js').Entry[]} sorted by file
 */
export function neededEntries(entries) {
  const needed = classesOf(latestAttempts(entries)).flatMap(({ entries: mine }) => {
    const shootout = best(mine.filter(isShootoutEntry));
    return [...newestPerMajor(mine.filter((e) => !isShootoutEntry(e))), ...(shootout ? [shootout] : [])];
  });
  return needed.sort((a, b) => (a.file < b.file ? -1 : 1));
}
