// The start line of a concurrency round, shared by its workers (a SharedArrayBuffer and Atomics):
// the workers open their connections one at a time (turns: two connections setting PRAGMAs at
// once could meet a lock before anything is measured), say they are ready, and wait; the main
// thread starts them all at once when every one is ready, or aborts them if one failed.
//
// Layout (Int32): [0] turn: whose turn it is to open; [1] arrived: how many are ready; [2] state:
// WAITING, GO or ABORT.

const TURN = 0;
const ARRIVED = 1;
const STATE = 2;
const WAITING = 0;
const GO = 1;
const ABORT = 2;

/** A new barrier's memory, to give every worker (workerData). */
export const createBarrier = () => new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);

/** A worker's side. */
export function workerSide(/** @type {SharedArrayBuffer} */ sab) {
  const a = new Int32Array(sab);
  return {
    /** Wait until it is worker i's turn to open (false: aborted). */
    myTurn(/** @type {number} */ i) {
      for (;;) {
        if (Atomics.load(a, STATE) === ABORT) return false;
        const t = Atomics.load(a, TURN);
        if (t === i) return true;
        Atomics.wait(a, TURN, t, 50);
      }
    },
    /** Done opening: the next worker's turn. */
    passTurn() {
      Atomics.add(a, TURN, 1);
      Atomics.notify(a, TURN);
    },
    /** Ready; block until the start (true) or an abort (false). */
    arriveAndWait() {
      Atomics.add(a, ARRIVED, 1);
      Atomics.notify(a, ARRIVED);
      while (Atomics.load(a, STATE) === WAITING) Atomics.wait(a, STATE, WAITING, 1000);
      return Atomics.load(a, STATE) === GO;
    },
    /** How many workers had arrived, read when released: all of them, if the barrier works. */
    arrived: () => Atomics.load(a, ARRIVED),
    /** Stopped by the main thread (a signal): the measuring loop ends at its next operation. */
    aborted: () => Atomics.load(a, STATE) === ABORT,
  };
}

/** The main thread's side. It never blocks (it polls), so it can still hear a worker fail. */
export function mainSide(/** @type {SharedArrayBuffer} */ sab) {
  const a = new Int32Array(sab);
  return {
    arrived: () => Atomics.load(a, ARRIVED),
    state: () => Atomics.load(a, STATE),
    /** Start every waiting worker at once. */
    go() {
      Atomics.store(a, STATE, GO);
      Atomics.notify(a, STATE);
    },
    /** Release every waiting worker to stop (one failed before the start, or a signal came). */
    abort() {
      Atomics.store(a, STATE, ABORT);
      Atomics.notify(a, STATE);
      Atomics.notify(a, TURN);
    },
  };
}
