// A small seeded generator (sfc32, seeded through splitmix32): the same seed gives the same
// data and the same case order on every Node and every platform.

/**
 * @param {number} seed unsigned 32-bit integer
 * @returns {() => number} uniform floats in [0, 1)
 */
export function createRandom(seed) {
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split(),
    b = split(),
    c = split(),
    d = split();
  return () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
}

/**
 * @param {() => number} random
 * @param {number} n
 * @returns {number} integer in [0, n)
 */
export function randomInt(random, n) {
  return Math.floor(random() * n);
}

/**
 * Fisher–Yates, in place.
 * @template T
 * @param {() => number} random
 * @param {T[]} items
 * @returns {T[]}
 */
export function shuffle(random, items) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(random, i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** A standard normal draw (Box–Muller). */
export const normal = (/** @type {() => number} */ random) =>
  Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
