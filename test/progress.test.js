// Progress on stderr (lib/progress.js, bench/counts/count-progress.js): a line at least every 10 s in
// every phase, with an ETA, whatever the phase reports on its own. Driven by a fake clock and a
// fake timer, so nothing here waits or depends on the machine's speed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HEARTBEAT_MS, createProgress } from '../lib/progress.js';
import { countingProgress } from '../bench/counts/count-progress.js';

/** A fake stream, clock and interval timer. */
function fakes(isTTY = false) {
  const out = { lines: /** @type {string[]} */ ([]), isTTY, write: (/** @type {string} */ s) => out.lines.push(s) };
  const clock = { t: 1_000_000 };
  /** @type {{ fn: (() => void) | null, cleared: boolean }} */
  const timer = { fn: null, cleared: false };
  const timers = {
    setInterval: (/** @type {() => void} */ fn) => {
      timer.fn = fn;
      return { unref() {} };
    },
    clearInterval: () => {
      timer.cleared = true;
    },
  };
  /** Move the clock to `ms` after the start, firing the timer each second on the way, as setInterval would. */
  const advanceTo = (/** @type {number} */ ms) => {
    while (clock.t < 1_000_000 + ms) {
      clock.t = Math.min(clock.t + 1000, 1_000_000 + ms);
      if (!timer.cleared) timer.fn?.();
    }
  };
  return { out, clock, timer, timers, advanceTo, now: () => clock.t };
}

const CASE = { config: 'production', driver: 'better-sqlite3-multiple-ciphers', cipher: 'chacha20', op: 'setup' };

test('a phase that reports nothing for 10 s still prints a line, at most every 10 s', () => {
  const f = fakes();
  const report = createProgress(/** @type {any} */ (f.out), { now: f.now, timers: f.timers, label: 'suite' });
  report({ done: 0, total: 10, current: CASE });
  assert.equal(f.out.lines.length, 1);
  f.advanceTo(9_000);
  assert.equal(f.out.lines.length, 1, 'nothing new before 10 s');
  f.advanceTo(HEARTBEAT_MS);
  assert.equal(f.out.lines.length, 2, 'a heartbeat once 10 s passed without a line');
  assert.match(f.out.lines[1], /^suite \[ 1\/10\] 00:10 elapsed, ETA --:-- {2}production · .* · setup\n$/);
  // a line of the phase's own resets the wait
  f.advanceTo(15_000);
  report({ done: 4, total: 10, current: CASE });
  f.advanceTo(24_000);
  assert.equal(f.out.lines.length, 3);
  f.advanceTo(25_000);
  assert.equal(f.out.lines.length, 4);
  // 4 done in 15 s: 6 more take 22.5 s from the report at 15 s; 10 s later, 12.5 s remain
  assert.match(f.out.lines[3], /\[ 5\/10\] 00:25 elapsed, ETA 00:13 /);
  f.advanceTo(200_000);
  assert.ok(f.out.lines.length >= 20, `a line at least every 10 s over 200 s: ${f.out.lines.length}`);
  // never a 0 ETA while work remains past the estimate: it says so instead
  assert.match(f.out.lines[f.out.lines.length - 1], /ETA overdue/);
  report({ done: 10, total: 10, current: null });
  assert.ok(f.timer.cleared, 'the timer stops with the phase');
  const n = f.out.lines.length;
  f.advanceTo(300_000);
  assert.equal(f.out.lines.length, n, 'nothing after the phase finished');
});

test('on a terminal the heartbeat rewrites the one line', () => {
  const f = fakes(true);
  const report = createProgress(/** @type {any} */ (f.out), { now: f.now, timers: f.timers });
  report({ done: 0, total: 3, current: CASE });
  f.advanceTo(10_000);
  assert.equal(f.out.lines.length, 2);
  assert.ok(f.out.lines.every((l) => l.startsWith('\r\x1b[K') && !l.endsWith('\n')));
});

test("a phase may give its own ETA, which the heartbeat asks again and the line shows, and its own 'what'", () => {
  const f = fakes();
  let left = 50_000;
  const report = createProgress(/** @type {any} */ (f.out), { now: f.now, timers: f.timers, label: 'counting' });
  report({ done: 0, total: 4, current: 'callgrind ×2 running', eta: () => left });
  assert.match(f.out.lines[0], /^counting \[1\/4\] 00:00 elapsed, ETA 00:50 {2}callgrind ×2 running\n$/);
  left = 38_000;
  f.advanceTo(10_000);
  assert.match(f.out.lines[1], /00:10 elapsed, ETA 00:38 {2}callgrind ×2 running/);
});

test('before its total is known a phase prints no count; with several running, all of them count', () => {
  const f = fakes();
  const report = createProgress(/** @type {any} */ (f.out), { now: f.now, timers: f.timers, label: 'counting' });
  report({ done: 0, total: 0, current: 'making the templates of 14 cases natively', eta: () => 9000 });
  report({ done: 1, total: 4, running: 2, current: 'running two', eta: () => 9000 });
  assert.match(f.out.lines[0], /^counting 00:00 elapsed, ETA 00:09 {2}making/);
  assert.match(f.out.lines[1], /^counting \[3\/4\] /);
});

test('a phase with nothing to do prints nothing', () => {
  const f = fakes();
  const report = createProgress(/** @type {any} */ (f.out), { now: f.now, timers: f.timers });
  report({ done: 0, total: 0, current: null });
  assert.deepEqual(f.out.lines, []);
});

test('the counting pass has an ETA from its first line, scaled by the processes that finished', async () => {
  const jobs = [
    { tool: 'callgrind', repeat: 0, cases: 7 },
    { tool: 'callgrind', repeat: 1, cases: 7 },
    { tool: 'strace', repeat: 0, cases: 7 },
    { tool: 'strace', repeat: 1, cases: 7 },
  ];
  const turn = () => new Promise((r) => setImmediate(r));
  /** The ETA once both callgrind processes took `ms`, and what was reported on the way. */
  const run = async (/** @type {number} */ ms) => {
    const f = fakes();
    const seen = /** @type {any[]} */ ([]);
    const track = countingProgress((p) => seen.push({ ...p, etaNow: p.eta?.() }), f.now);
    track({ step: 'begin', cases: 7 });
    assert.equal(seen.length, 1, 'at once, before the templates block the event loop');
    assert.match(seen[0].current, /templates of 7 cases/);
    assert.equal(seen[0].total, 0, 'no total before the plan');
    track({ step: 'plan', jobs, lanes: 2 });
    track({ step: 'start', i: 0 });
    track({ step: 'start', i: 1 });
    await turn();
    assert.equal(seen.length, 2, 'one line for the events of one moment');
    const first = seen[1];
    f.advanceTo(ms);
    track({ step: 'end', i: 0 });
    track({ step: 'end', i: 1 });
    track({ step: 'start', i: 2 });
    track({ step: 'start', i: 3 });
    await turn();
    const later = seen[seen.length - 1];
    track({ step: 'end', i: 2 });
    track({ step: 'end', i: 3 });
    await turn();
    return { first, later, last: seen[seen.length - 1] };
  };
  const fast = await run(1000);
  const slow = await run(120_000);
  assert.ok(fast.first.etaNow > 0, 'an ETA before any process finished');
  assert.equal(fast.first.total, 4);
  assert.equal(fast.first.done, 0);
  assert.equal(fast.first.running, 2);
  assert.match(fast.first.current, /^running callgrind \(first count, 7 cases\), callgrind \(repeat, 7 cases\)$/);
  assert.equal(fast.later.done, 2);
  assert.match(fast.later.current, /strace/);
  assert.ok(
    slow.later.etaNow > 4 * fast.later.etaNow,
    `a machine that ran callgrind slowly runs strace slowly too: ${slow.later.etaNow} vs ${fast.later.etaNow}`,
  );
  assert.equal(fast.last.current, null);
  assert.equal(fast.last.done, 4);
});

test('a counting process past its estimate moves the ETA out instead of leaving it stuck', async () => {
  const f = fakes();
  const seen = /** @type {any[]} */ ([]);
  const track = countingProgress((p) => seen.push(p), f.now);
  const jobs = [
    { tool: 'callgrind', repeat: 0, cases: 2 },
    { tool: 'strace', repeat: 0, cases: 2 },
  ];
  track({ step: 'plan', jobs, lanes: 1 });
  track({ step: 'start', i: 0 });
  await new Promise((r) => setImmediate(r));
  const { eta } = seen[seen.length - 1];
  const first = eta();
  f.advanceTo(first * 3);
  const late = eta();
  f.advanceTo(first * 6);
  const later = eta();
  assert.ok(late > 0 && later > late, `${first} then ${late} then ${later}`);
});
