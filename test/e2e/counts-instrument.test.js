// End to end (npm run test:e2e): callgrind instruments a counted process from its first mark on
// (bench/counts/instrument.js), not its start and warm-up, and counts what it counted when it
// instrumented the whole process. Needs valgrind and strace (Linux) and a C compiler; skipped with
// the reason where they are missing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { instrumentHelper } from '../../bench/counts/instrument.js';
import { countPlans } from '../../bench/counts/pass.js';
import { countingTools } from '../../bench/counts/tools.js';
import { cases, caseKey } from '../../bench/data/suite.js';
import { drivers } from '../helpers.js';

const tools = countingTools();
const helper = tools.status === 'ok' ? instrumentHelper() : null;
const skip =
  tools.status !== 'ok'
    ? `cannot count here: ${tools.reason}`
    : helper?.status !== 'ok'
      ? `cannot build the addon: ${/** @type {any} */ (helper).reason}`
      : false;

const PROD = 'production/better-sqlite3-multiple-ciphers';
/**
 * 0.2% where V8's sources of variation were removed (V8 11 and older), 2% after. Two processes that
 * instrument from different points are two heap layouts, as two passes are: an update measured
 * 0.11% apart across the two modes while each repeated exactly, and the compare's tolerance for an
 * update across two checkouts is 0.11–0.16% (docs/compare.md, the counts' calibration).
 */
const WITHIN = Number(process.versions.v8.split('.')[0]) <= 11 ? 0.002 : 0.02;

test(
  'callgrind instruments from the first mark on, and the counts are those of the whole process instrumented',
  { skip, timeout: 900_000 },
  async () => {
    const plans = [
      { key: `${PROD}/none/update`, k: 200, warmup: 20 },
      { key: `${PROD}/chacha20/insert`, k: 60, warmup: 20 },
    ];
    const keys = new Set(plans.map((p) => p.key));
    const o = { mode: /** @type {const} */ ('quick'), seed: 1, plans, drivers: await drivers(), jobs: 2 };
    const some = cases({}).filter((c) => keys.has(caseKey(c)));
    const late = await countPlans({ ...o, cases: some });
    const whole = await countPlans({ ...o, cases: some, wholeProcess: true });
    assert.deepEqual([late.failures, whole.failures], [[], []]);
    assert.equal(late.instrument.status, 'ok');
    assert.equal(whole.instrument.status, 'off');
    // before its first mark a process starts Node, loads the drivers and warms every case up: hundreds of
    // millions of instructions, which callgrind no longer instruments: what is left is the return from
    // the start request to the first mark (under 100k instructions on Node 20, 119k on Node 24)
    for (const p of late.instrumented) assert.ok(p.beforeFirstMark < 1_000_000, `${p.beforeFirstMark} before mark 1`);
    for (const p of whole.instrumented)
      assert.ok(p.beforeFirstMark > 100_000_000, `${p.beforeFirstMark} before mark 1`);
    assert.equal(late.instrumented.length, 2);
    for (const p of late.instrumented) assert.ok(p.counted > 0 && p.counted < p.total);
    for (const key of keys) {
      const perOp = (/** @type {any} */ r, /** @type {number} */ n) => r.found[n].get(key)?.instructions?.perOp;
      // as the compare's rule (lib/costs.js): beyond 3 × the larger repeat spread, never under WITHIN
      // (an update's two counts of one mode differ by up to about 0.16%: docs/compare.md)
      const spread = Math.max(
        ...[late, whole].map((r) => Math.abs(perOp(r, 1) / perOp(r, 0) - 1)).filter(Number.isFinite),
      );
      const within = Math.max(WITHIN, 3 * spread);
      for (const n of [0, 1]) {
        const a = perOp(late, n);
        const b = perOp(whole, n);
        assert.ok(a > 0 && b > 0, `${key}: ${a}, ${b}`);
        assert.ok(
          Math.abs(a / b - 1) <= within,
          `${key}, count ${n}: ${a} from the first mark, ${b} whole (tolerance ${within})`,
        );
        // strace's processes are the same in both; what they find, but the runtime's own calls (docs/counting.md)
        const calls = (/** @type {any} */ c) => ({ ...c?.syscalls?.syscalls, runtime: 0, bytes: c?.syscalls?.bytes });
        assert.deepEqual(calls(late.found[n].get(key)), calls(whole.found[n].get(key)));
      }
    }
  },
);
