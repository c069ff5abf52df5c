#!/usr/bin/env node
// npm run meta:interference: interference on purpose, so a quiet machine can be measured as a shared
// runner: one core busy in bursts of 50 ms to 1 s, streaming a buffer larger than the caches or
// spinning, with short pauses. Stops after --seconds or when its parent goes.
import { command, numberFlag, parseStrict, valueFlag } from '../../lib/command.js';
import { createRandom } from '../../lib/prng.js';

const HELP = {
  usage: 'npm run meta:interference -- [flags]',
  summary:
    'Interference on purpose: one core kept busy in bursts of 50 ms to 1 s, streaming memory or spinning, so a quiet machine can be measured as a shared runner.',
  options: /** @type {const} */ ({
    seconds: valueFlag('N', 'stop after this many seconds (or when its parent goes)', { default: '3600' }),
    seed: valueFlag('N', 'seed of the bursts', { default: '1' }),
  }),
};

/** Busy for `ms`: either stream through `buf` (read and write every cache line) or spin. */
function burst(/** @type {Float64Array} */ buf, /** @type {boolean} */ stream, /** @type {number} */ ms) {
  const until = performance.now() + ms;
  let x = 0;
  while (performance.now() < until) {
    if (stream) for (let i = 0; i < buf.length; i += 8) buf[i] += 1;
    else for (let i = 0; i < 1e5; i++) x += Math.sqrt(i);
  }
  return x;
}

async function main(/** @type {string[]} */ argv) {
  const v = parseStrict(argv, HELP.options);
  const seconds = numberFlag('seconds', v.seconds, 1, 86_400);
  const random = createRandom(numberFlag('seed', v.seed, 0, 2 ** 31));
  const buf = new Float64Array((64 * 1024 * 1024) / 8); // 64 MB streamed through: larger than the caches
  const end = Date.now() + seconds * 1000;
  const parent = process.ppid;
  while (Date.now() < end) {
    burst(buf, random() < 0.5, 50 + random() * 950);
    await new Promise((r) => setTimeout(r, random() * 200));
    try {
      process.kill(parent, 0);
    } catch {
      break; // the parent is gone
    }
  }
}

command('interference', import.meta.url, main, HELP);
