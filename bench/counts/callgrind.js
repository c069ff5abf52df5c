// Instructions between marks, from callgrind's dumps. A process counted with
// --dump-before=uv_os_getppid (marks.js) and --callgrind-out-file=DIR/cg.%p writes DIR/cg.<pid>.<n>
// at mark n, holding the instructions executed since mark n-1 (since the start, for n = 1), and
// DIR/cg.<pid> at its exit. Each file's header says so ("part: n", "summary: <Ir>").
import fs from 'node:fs';
import path from 'node:path';

/** Callgrind writes the header, with its summary line, in the first few hundred bytes. */
const HEAD = 8192;

/**
 * The instructions of one dump: its part number and summary.
 * @param {string} file
 * @returns {{ part: number, instructions: number }}
 */
function readDump(file) {
  const buf = Buffer.alloc(HEAD);
  const fd = fs.openSync(file, 'r');
  let n;
  try {
    n = fs.readSync(fd, buf, 0, HEAD, 0);
  } finally {
    fs.closeSync(fd);
  }
  const head = buf.subarray(0, n).toString('utf8');
  const part = /^part: (\d+)$/m.exec(head);
  const summary = /^summary: (\d+)$/m.exec(head);
  if (!part || !summary) throw new Error(`${file}: not a callgrind dump (no part or summary line in its header)`);
  return { part: Number(part[1]), instructions: Number(summary[1]) };
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
 * rest and checks that there is one dump per mark.
 * @param {string} dir
 * @param {number} pid
 */
export function dumpCollector(dir, pid) {
  /** @type {number[]} index n: the instructions between mark n-1 and mark n */
  const counts = [];
  const take = (/** @type {boolean} */ all) => {
    const files = dumpFiles(dir, pid);
    const newest = Math.max(0, ...files.keys());
    for (const [n, file] of files) {
      if (!all && n === newest) continue;
      const d = readDump(file);
      if (d.part !== n) throw new Error(`${file}: says part ${d.part}`);
      counts[n] = d.instructions;
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
      return counts;
    },
  };
}
