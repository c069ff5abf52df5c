#!/usr/bin/env node
// npm run meta:changepoints: the history's change-point detection (lib/changepoints.js) on a
// synthetic year of series with the noise real nights have, steps of 1%, 3% and 10% at known nights,
// and none: found at the right night (±1), a few nights off (2 to 5), missed, and false, per 100
// series-years; also as the aggregate shows them, a 13-week window moving a night at a time. The
// noise per measure is docs/pipeline.md's "Change points"; calibration.js uses these series too.
import { SETTINGS, changePointsOf, oneSplit } from '../../lib/changepoints.js';
import { createRandom, normal } from '../../lib/prng.js';
import { command, numberFlag, parseStrict, valueFlag } from '../../lib/command.js';
import { table } from '../../lib/markdown.js';

const NIGHTS = 365;
/** The nights the history shows (aggregate/sections/history.js windowOf: 85 to 91). */
export const WINDOW = 91;
const SIZES = [0.01, 0.03, 0.1];
/** Steps per series-year, at about these nights (± 20): 100 nights apart. */
const STEP_NIGHTS = [70, 170, 270];
/** Found: within this many nights of the injected one; off: within NEAR (a change point placed so near a step is that step's); else false. */
const RIGHT = 1;
export const NEAR = 5;

const sig4 = (/** @type {number} */ x) => Number(x.toPrecision(4));

const student = (/** @type {() => number} */ random, /** @type {number} */ df) => {
  let chi = 0;
  for (let i = 0; i < df; i++) chi += normal(random) ** 2;
  return normal(random) / Math.sqrt(chi / df);
};
/** t(4)'s robust sd (1.4826 × its median absolute value, 0.741): a draw ÷ this has a robust sd of 1. */
const T4_MAD_SD = 1.4826 * 0.7407;

/**
 * The kinds of series, each a generator of one series' level and its noise per night before any
 * step: `noise` draws the log deviation of a night, `mode` the factor of a night's mode (select).
 * @typedef {{ level: number, noise: () => number, mode?: () => number }} Draw
 * @type {Record<string, { measure: 'count' | 'wall', make: (random: () => number) => Draw }>}
 */
const KINDS = {
  instructions: {
    measure: 'count',
    make: (random) => {
      const u = random();
      const sd = u < 0.9 ? 5e-5 + 5e-5 * random() : u < 0.98 ? 1e-3 : 5e-3 + 5e-3 * random();
      return { level: 10 ** (4 + 2 * random()), noise: () => sd * normal(random) };
    },
  },
  fsync: {
    measure: 'count',
    make: (random) => ({ level: [0.02, 0.1, 1.02, 2][Math.floor(4 * random())], noise: () => 0 }),
  },
  writes: { measure: 'count', make: (random) => ({ level: 1 + 5 * random(), noise: () => 0 }) },
  bytesWritten: { measure: 'count', make: (random) => ({ level: 4096 * (1 + 10 * random()), noise: () => 0 }) },
  wall: {
    measure: 'wall',
    make: (random) => {
      const sd = 0.02 + 0.02 * random();
      return { level: 10 ** (1 + 3.5 * random()), noise: () => (sd * student(random, 4)) / T4_MAD_SD };
    },
  },
  'wall, bimodal': {
    measure: 'wall',
    make: (random) => {
      const sd = 0.02 + 0.02 * random();
      const low = 0.2 + 0.3 * random();
      return {
        level: 10_000,
        noise: () => (sd * student(random, 4)) / T4_MAD_SD,
        mode: () => (random() < low ? 0.6 : 1),
      };
    },
  },
};

/** 5% of nights on a VM off by 20–40%, seven in ten slower: a night's factor. */
export function outlier(/** @type {() => number} */ random) {
  if (random() >= 0.05) return 1;
  const by = 0.2 + 0.2 * random();
  return random() < 0.7 ? 1 - by : 1 + by;
}

/**
 * @typedef {object} Noise what the nights share beyond each kind's own noise (docs/checking.md)
 * @property {number} [phi] night-to-night correlation of the noise: AR(1), its sd kept (0: independent)
 * @property {number} [twoState] the share of nights a count is off by ±1% (Node 24's two heap
 *   layouts: a fifth of the nights; the sign drawn per series)
 * @property {number[]} [vm] each night's VM factor, shared by every series of the night (a slow VM
 *   slows every operation); without it, wall time draws its own (outlier)
 * @property {number} [nights] the series' length (NIGHTS)
 * @property {number[]} [at] the nights its steps start at (else 3 a year, STEP_NIGHTS ± 20)
 */

/**
 * One series: its values (4 significant figures, as aggregate/nights.js stores them) and the nights
 * its steps start at, each step `size` up or down (sign at random).
 * @param {keyof typeof KINDS} kind
 * @param {number} size the steps' relative size (0: none)
 * @param {number} seed
 * @param {Noise} [o]
 */
export function seriesYear(kind, size, seed, o = {}) {
  const random = createRandom(seed);
  const { measure, make } = KINDS[kind];
  const { level, noise, mode } = make(random);
  const steps = !size ? [] : (o.at ?? STEP_NIGHTS.map((n) => n + Math.round(40 * (random() - 0.5))));
  const signs = steps.map(() => (random() < 0.5 ? -1 : 1));
  const phi = o.phi ?? 0;
  const shift = random() < 0.5 ? 0.01 : -0.01;
  let e = noise();
  const values = Array.from({ length: o.nights ?? NIGHTS }, (_, night) => {
    let factor = 1;
    steps.forEach((s, i) => {
      if (night >= s) factor *= 1 + signs[i] * size;
    });
    if (night) e = phi * e + Math.sqrt(1 - phi * phi) * noise();
    const vm = measure === 'wall' ? (o.vm?.[night] ?? outlier(random)) : 1;
    const state = o.twoState && random() < o.twoState ? 1 + shift : 1;
    return sig4(level * Math.exp(e) * (mode?.() ?? 1) * vm * state * factor);
  });
  return { values, steps, sizes: signs.map((s) => s * size) };
}

/**
 * Detections against injections: found (±RIGHT), off (±NEAR), missed, and false detections.
 * @param {number[]} found the nights detected
 * @param {number[]} steps the nights injected
 */
export function score(found, steps) {
  const dist = (/** @type {number} */ x, /** @type {number[]} */ ys) =>
    Math.min(Infinity, ...ys.map((y) => Math.abs(x - y)));
  const right = steps.filter((s) => dist(s, found) <= RIGHT).length;
  const off = steps.filter((s) => dist(s, found) > RIGHT && dist(s, found) <= NEAR).length;
  return { right, off, missed: steps.length - right - off, false: found.filter((f) => dist(f, steps) > NEAR).length };
}

/**
 * The injected steps the best single split places within ±RIGHT, knowing where each step is to a
 * bracket (halfway to the neighbouring steps): what no method placing steps from the data beats.
 * @param {number[]} values
 * @param {number[]} steps
 */
function oracle(values, steps) {
  return steps.filter((s, i) => {
    const a = i ? Math.round((steps[i - 1] + s) / 2) : 0;
    const b = i < steps.length - 1 ? Math.round((s + steps[i + 1]) / 2) : values.length;
    return Math.abs(oneSplit(values, a, b) - s) <= RIGHT;
  }).length;
}

/**
 * False change points as the history shows them: each night, the change points of the window of
 * the last WINDOW nights; every distinct night ever shown as a change point, counted once.
 * @param {number[]} values
 * @param {import('../../lib/changepoints.js').Options} o
 */
export function slidingFalse(values, o) {
  /** @type {Set<number>} */
  const shown = new Set();
  for (let end = 2 * 6; end <= values.length; end++) {
    const start = Math.max(0, end - WINDOW);
    for (const c of changePointsOf(values.slice(start, end), o)) shown.add(start + c.index);
  }
  // a change point shown at neighbouring nights on different nights is one
  const nights = [...shown].sort((a, b) => a - b);
  return nights.filter((x, i) => i === 0 || x - nights[i - 1] > RIGHT).length;
}

const HELP = {
  usage: 'npm run meta:changepoints -- [flags]',
  summary:
    "The history's change-point detection on a synthetic year: steps of 1%, 3% and 10% found at the right night, a few nights off, or missed, and false change points per 100 series-years.",
  options: /** @type {const} */ ({
    series: valueFlag('N', 'synthetic series per measure and step size, 1 to 100000', { default: '200' }),
    sliding: valueFlag('N', "series also read through the aggregate's moving 13-week window (0: none)", {
      default: '40',
    }),
    seed: valueFlag('N', 'seed of the synthetic series', { default: '1' }),
  }),
};

function main(/** @type {string[]} */ argv) {
  const values = parseStrict(argv, HELP.options);
  const perCell = numberFlag('series', values.series, 1, 100_000);
  const sliding = numberFlag('sliding', values.sliding, 0, 100_000);
  const seed0 = numberFlag('seed', values.seed, 0, 2 ** 31);
  const t0 = performance.now();
  /** @type {unknown[][]} */
  const rows = [];
  /** @type {Record<string, { right: number, steps: number, false: number, years: number }>} */
  const byMeasure = {};
  const share = (/** @type {number} */ k, /** @type {number} */ n, digits = 1) => ((100 * k) / n).toFixed(digits);
  let detections = 0;
  for (const [k, kind] of Object.entries(KINDS))
    for (const size of [0, ...SIZES]) {
      const t = { right: 0, off: 0, missed: 0, false: 0, oracle: 0 };
      for (let s = 0; s < perCell; s++) {
        const { values: v, steps } = seriesYear(/** @type {any} */ (k), size, seed0 * 1_000_003 + s * 101 + size * 1e4);
        const found = changePointsOf(v, SETTINGS[kind.measure]).map((c) => c.index);
        detections++;
        const r = { ...score(found, steps), oracle: oracle(v, steps) };
        for (const key of /** @type {(keyof typeof t)[]} */ (Object.keys(t))) t[key] += r[key];
      }
      const steps = t.right + t.off + t.missed;
      const m = (byMeasure[`${kind.measure}|${size}`] ??= { right: 0, steps: 0, false: 0, years: 0 });
      Object.assign(m, { right: m.right + t.right, steps: m.steps + steps, false: m.false + t.false });
      m.years += perCell;
      const stepped = size
        ? [`${t.right} (${share(t.right, steps)}%)`, t.off, t.missed, `${share(t.oracle, steps)}%`]
        : ['–', '–', '–', '–'];
      rows.push([k, size ? `${size * 100}%` : 'none', perCell, ...stepped, t.false, share(t.false, perCell, 2)]);
    }
  const detectMs = performance.now() - t0;
  const out = [
    `Change points on a synthetic year: ${NIGHTS} nights per series, steps at 3 known nights per series-year (±20 around nights ${STEP_NIGHTS.join(', ')}, random signs); ${perCell} series-years per row; found: within ±${RIGHT} night, off: 2–${NEAR} nights away, elsewhere: a change point with no step within ${NEAR} nights (where there is no step, a false one; where there are, also a step placed far off); best split: the share of steps the best single split places within ±${RIGHT} knowing each step to a bracket (halfway to its neighbours), what no method beats.\n`,
    table(
      [
        [
          'series',
          'step',
          'series-years',
          'found ±1',
          'off 2–5',
          'missed',
          'best split ±1',
          'elsewhere',
          'per 100 series-years',
        ],
        ...rows,
      ],
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '\nBy measure (every kind of series of the measure together):\n',
    table(
      [
        ['measure', 'step', 'found ±1', 'elsewhere / 100 series-years'],
        ...Object.entries(byMeasure).map(([key, m]) => {
          const size = Number(key.split('|')[1]);
          const found = m.steps ? `${m.right} of ${m.steps} (${share(m.right, m.steps)}%)` : '–';
          return [key.split('|')[0], size ? `${size * 100}%` : 'none', found, share(m.false, m.years, 2)];
        }),
      ],
      ['l', 'r', 'r', 'r'],
    ),
  ];
  if (sliding) {
    const srows = Object.entries(KINDS).map(([k, kind]) => {
      let f = 0;
      for (let s = 0; s < sliding; s++)
        f += slidingFalse(seriesYear(/** @type {any} */ (k), 0, seed0 * 7919 + s).values, SETTINGS[kind.measure]);
      return [k, sliding, f, share(f, sliding, 2)];
    });
    out.push(
      `\nAs the history shows them: each night the change points of the last ${WINDOW} nights, every night of a year; a change point shown on several nights counted once (series with no step):\n`,
      table([['series', 'series-years', 'false', 'false / 100 series-years'], ...srows], ['l', 'r', 'r', 'r']),
    );
  }
  out.push(
    `\n${detections} series-years analysed in ${(detectMs / 1000).toFixed(2)} s (${(detectMs / detections).toFixed(2)} ms per series-year), ${process.version}`,
  );
  console.log(out.join('\n'));
  return 0;
}

command('meta:changepoints', import.meta.url, main, HELP);
