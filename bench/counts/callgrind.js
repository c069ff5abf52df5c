// Instructions between marks, from callgrind's dumps. A process counted with
// --dump-before=uv_os_getppid (marks.js) and --callgrind-out-file=DIR/cg.%p writes DIR/cg.<pid>.<n>
// at mark n, holding the instructions executed since mark n-1 (since the start, for n = 1), and
// DIR/cg.<pid> at its exit. Each file's header says so ("part: n", "summary: <Ir>"); its body
// lists the instructions of every function that ran, by object file (ob=) and function (fn=), which
// the components table (bench/data/components.js) groups into components, and every call's inclusive
// cost, by which the runtime's calls into the C library are charged to the runtime.
import fs from 'node:fs';
import path from 'node:path';
import { CHARGED_TO_CALLER, COMPONENTS, componentOf } from '../data/components.js';

/** Callgrind writes the header, with its summary line, in the first few hundred bytes. */
const HEAD = 8192;

/** A component's index in COMPONENTS, by "object\nsymbol": the same names recur in every dump. */
const componentIndex = new Map();
const indexOf = (/** @type {string} */ ob, /** @type {string} */ fn) => {
  const key = `${ob}\n${fn}`;
  let at = componentIndex.get(key);
  if (at === undefined) componentIndex.set(key, (at = COMPONENTS.indexOf(componentOf(ob, fn))));
  return at;
};

/**
 * The instructions of a dump by component (COMPONENTS order): each function's own cost (a cost
 * line, but for the line after `calls=`, which is what the call cost inside its callee), by its
 * object and name. Names are compressed: "fn=(12) name" the first time, "fn=(12)" after, in this
 * file (callgrind's format: valgrind.org/docs/manual/cl-format.html); so are callees' (cob=, cfn=;
 * a call without cob= stays in its caller's object). Then the calls CHARGED_TO_CALLER: a call's
 * inclusive cost (the line after `calls=`) moves from the callee's component to the caller's, where
 * everything the callee ran in it was the callee's component (a callee that calls out of it, itself
 * or through another function of it, is never charged), so the components still add up.
 * @param {string} text a whole dump
 * @param {typeof CHARGED_TO_CALLER} [rules] the calls charged to their caller (none: every function's own cost where it is)
 * @returns {number[]}
 */
export function componentsOfDump(text, rules = CHARGED_TO_CALLER) {
  const sums = COMPONENTS.map(() => 0);
  // charged[caller][callee], by index in COMPONENTS
  const charged = COMPONENTS.map((caller) =>
    COMPONENTS.map((callee) => rules.some((r) => r.caller === caller && r.callee === callee)),
  );
  const chargedCallee = COMPONENTS.map((_, callee) => charged.some((row) => row[callee]));
  /** @type {Map<string, string>[]} */
  const [objects, functions] = [new Map(), new Map()];
  let ob = '';
  let fn = '';
  let cob = '';
  let cfn = '';
  let at = -1; // the current function's component, -1 until looked up
  let afterCalls = false;
  /** @type {Map<string, number[]>} a charged callee (object\nname) -> the inclusive cost of its charged calls, by the caller's component */
  const moves = new Map();
  /** @type {Set<string>} functions of a charged callee component that call out of it */
  const leaks = new Set();
  /** @type {[string, string][]} calls between two functions of a charged callee component: [caller, callee] */
  const inside = [];
  const name = (/** @type {Map<string, string>} */ names, /** @type {string} */ v) => {
    if (v[0] !== '(') return v;
    const close = v.indexOf(')');
    const id = v.slice(1, close);
    if (close + 1 < v.length) names.set(id, v.slice(close + 2));
    return names.get(id) ?? v;
  };
  for (let i = 0, end = 0; i < text.length; i = end + 1) {
    end = text.indexOf('\n', i);
    if (end < 0) end = text.length;
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) {
      // a cost line: "<position> <instructions>"
      const sp = text.indexOf(' ', i);
      if (sp < 0 || sp > end) continue;
      if (at < 0) at = indexOf(ob, fn);
      if (afterCalls) {
        afterCalls = false;
        const to = indexOf(cob, cfn);
        if (chargedCallee[at] && to !== at) leaks.add(`${ob}\n${fn}`);
        else if (chargedCallee[to]) {
          const callee = `${cob}\n${cfn}`;
          if (to === at) inside.push([`${ob}\n${fn}`, callee]);
          else if (charged[at][to]) {
            let m = moves.get(callee);
            if (!m) moves.set(callee, (m = COMPONENTS.map(() => 0)));
            m[at] += Number(text.slice(sp + 1, end));
          }
        }
        cob = ob;
        continue;
      }
      sums[at] += Number(text.slice(sp + 1, end));
    } else if (c === 111 && text.startsWith('ob=', i)) {
      ob = name(objects, text.slice(i + 3, end));
      at = -1;
    } else if (c === 102 && text.startsWith('fn=', i)) {
      fn = name(functions, text.slice(i + 3, end));
      cob = ob;
      at = -1;
    } else if (c === 99) {
      if (text.startsWith('calls=', i)) afterCalls = true;
      else if (text.startsWith('cob=', i)) cob = name(objects, text.slice(i + 4, end));
      else if (text.startsWith('cfn=', i)) cfn = name(functions, text.slice(i + 4, end));
    }
  }
  if (!moves.size) return sums;
  for (let grew = true; grew;) {
    grew = false;
    for (const [from, to] of inside)
      if (leaks.has(to) && !leaks.has(from)) {
        leaks.add(from);
        grew = true;
      }
  }
  for (const [callee, m] of moves) {
    if (leaks.has(callee)) continue;
    const own = indexOf(.../** @type {[string, string]} */ (callee.split('\n')));
    m.forEach((n, caller) => {
      sums[own] -= n;
      sums[caller] += n;
    });
  }
  return sums;
}

/**
 * A dump's part number and instructions (its header's "part:" and "summary:" lines); with
 * `whole`, also its instructions by component, which must add up to its summary.
 * @param {string} file
 * @param {boolean} whole
 * @returns {{ part: number, instructions: number, components?: number[] }}
 */
function readDump(file, whole) {
  const text = fs.readFileSync(file, 'latin1');
  const head = text.slice(0, HEAD);
  const part = /^part: (\d+)$/m.exec(head);
  const summary = /^summary: (\d+)$/m.exec(head);
  if (!part || !summary) throw new Error(`${file}: not a callgrind dump (no part or summary line in its header)`);
  const d = { part: Number(part[1]), instructions: Number(summary[1]) };
  if (!whole) return d;
  const components = componentsOfDump(text);
  const sum = components.reduce((x, y) => x + y, 0);
  if (sum !== d.instructions)
    throw new Error(`${file}: its functions add up to ${sum}, its summary says ${d.instructions}`);
  return { ...d, components };
}

/** The dump files of a process in a directory, by mark number. */
function dumpFiles(/** @type {string} */ dir, /** @type {number} */ pid) {
  const prefix = `cg.${pid}.`;
  /** @type {Map<number, string>} */
  const files = new Map();
  for (const f of fs.readdirSync(dir)) {
    if (!f.startsWith(prefix)) continue;
    const n = Number(f.slice(prefix.length));
    if (Number.isInteger(n) && n > 0) files.set(n, path.join(dir, f));
  }
  return files;
}

/**
 * Collects a counted process's dumps as it writes them, removing each once read, so a pass's
 * hundreds of dumps (50 KB to 2 MB each) never pile up on disk. `collect()` reads every dump but
 * the newest (callgrind may still be writing it); `finish()`, after the process exited, reads the
 * rest and checks that there is one dump per mark. The worker sets its marks in pairs around every
 * timed call (worker.js runOps), so the even dumps are the timed calls: only they are read whole,
 * for their components; the others (the preparation between two timed calls) by their header.
 * @param {string} dir
 * @param {number} pid
 */
export function dumpCollector(dir, pid) {
  /** @type {number[]} index n: the instructions between mark n-1 and mark n */
  const counts = [];
  /** @type {number[][]} index n (even): those instructions by component (COMPONENTS order) */
  const components = [];
  const take = (/** @type {boolean} */ all) => {
    const files = dumpFiles(dir, pid);
    const newest = Math.max(0, ...files.keys());
    for (const [n, file] of files) {
      if (!all && n === newest) continue;
      const d = readDump(file, n % 2 === 0);
      if (d.part !== n) throw new Error(`${file}: says part ${d.part}`);
      counts[n] = d.instructions;
      if (d.components) components[n] = d.components;
      fs.rmSync(file);
    }
  };
  return {
    collect: () => take(false),
    /** @param {number} marks the marks the process says it set */
    finish: (marks) => {
      take(true);
      fs.rmSync(path.join(dir, `cg.${pid}`), { force: true }); // the dump at exit: after the last mark
      for (let n = 1; n <= marks; n++)
        if (counts[n] === undefined)
          throw new Error(`callgrind wrote no dump for mark ${n} of ${marks} (process ${pid})`);
      if (counts.length - 1 > marks)
        throw new Error(
          `callgrind wrote ${counts.length - 1} dumps for ${marks} marks (process ${pid}): something else called the mark`,
        );
      return { counts, components };
    },
  };
}
