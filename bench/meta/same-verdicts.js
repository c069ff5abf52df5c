#!/usr/bin/env node
// npm run meta:same-verdicts -- [--ref REF] [FILE.json ...]: for a change to the judge, stored rounds
// (run documents' comparisons and claims, shootout documents' rows and counted differences)
// re-judged by the modules at REF (`git archive` into a temporary folder) and by this checkout;
// every verdict or interval that differs is listed. Exit 0 when no verdict differs, 1 when one does.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CommandError, UsageError, command, parseStrict, valueFlag } from '../../lib/command.js';
import { ROOT } from '../../lib/root.js';
import { caseKey } from '../data/suite.js';
import { judgedPair } from '../data/production-claims.js';
import { isShootout, pairsOf } from '../result/header.js';
import { readDocument } from './same-cases.js';

/** The commit before the one judge (issue #37 item 4): the four wrappers as they were. */
const BEFORE_JUDGE = 'db6a567d5c9a399b3812f35b003b946232c2f2eb';
/** Real documents judged when no file is given. */
const DEFAULT_FILES = [
  'test/fixtures/real-linux-x64-shootout.json',
  'test/fixtures/real-linux-x64-v20-counted-run.json',
];

/**
 * The modules at `ref`, loadable: lib/, bench/ and package.json (ESM) in a temporary folder, with
 * this checkout's node_modules linked beside them.
 * @param {string} ref
 */
function checkoutAt(ref) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-bench-same-verdicts-'));
  const tar = execFileSync('git', ['archive', '--format=tar', ref, 'lib', 'bench', 'package.json'], {
    cwd: ROOT,
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Both judges' modules: `old` from the folder of REF, `now` from this checkout. */
async function judges(/** @type {string} */ oldRoot) {
  // a module where it is at that root: issue 37 renamed and moved them after REF
  const load = (/** @type {string} */ root, /** @type {string[]} */ ...files) => {
    const file = files.find((f) => fs.existsSync(path.join(root, f))) ?? files[0];
    return import(pathToFileURL(path.join(root, file)).href);
  };
  // the shootout's count rule: lib/costs.js, before #37 item 5 bench/shootout/counts-report.js
  const countRule = async (/** @type {string} */ root) => {
    const costs = await load(root, 'lib/costs.js');
    return costs.beyondRepeat ? costs : load(root, 'bench/shootout/counts-report.js');
  };
  const both = async (/** @type {string} */ root) => ({
    run: await load(root, 'bench/result/analysis.js'),
    shootout: await load(
      root,
      'bench/paired/judge-sides.js',
      'bench/shootout/verdict-rows.js',
      'bench/shootout/analysis.js',
    ),
    counts: await countRule(root),
    counting: await load(root, 'bench/shootout/count-nodes.js', 'bench/shootout/counting.js'),
  });
  return { old: await both(oldRoot), now: await both(ROOT) };
}

const pct = (/** @type {number | null} */ x) => (x === null ? 'null' : `${(x * 100).toFixed(2)}%`);
const interval = (/** @type {any} */ r) => `${r.verdict} [${pct(r.low)}, ${pct(r.high)}]`;

/**
 * The old judge's rows against the new's, matched by `id`: each verdict that differs (or a row only
 * one has) and each interval that differs under the same verdict added to `out`, with a line of counts.
 * @param {{ verdicts: string[], intervals: string[], lines: string[] }} out
 * @param {string} what
 * @param {string} label
 * @param {any[][]} rows
 * @param {(r: any) => string} id
 */
function rowDifferences(out, what, label, [a, b], id) {
  const byId = new Map(b.map((r) => [id(r), r]));
  const [v, n] = [out.verdicts.length, out.intervals.length];
  for (const x of a) {
    const y = byId.get(id(x));
    if (!y) out.verdicts.push(`${what} ${id(x)}: only in the old judge's`);
    else if (x.verdict !== y.verdict)
      out.verdicts.push(`${what} ${id(x)}: ${interval(x)} → ${interval(y)} (p ${x.pAdjusted ?? x.p})`);
    else if (x.low !== y.low || x.high !== y.high)
      out.intervals.push(`${what} ${id(x)}: ${interval(x)} → ${interval(y)}`);
  }
  for (const y of b)
    if (!a.some((x) => id(x) === id(y))) out.verdicts.push(`${what} ${id(y)}: only in the new judge's`);
  const [dv, dn] = [out.verdicts.length - v, out.intervals.length - n];
  out.lines.push(`${a.length} ${label}: ${dv} verdicts differ, ${dn} more intervals`);
}

/** A shootout document's rounds as its run had them (each side's cases' ops/s per round), from its figures. */
function shootoutRounds(/** @type {any} */ doc) {
  const n = doc.run.budget.rounds;
  /** @type {Record<string, { cases: any[] }>[]} */
  const rounds = Array.from({ length: n }, () => ({}));
  const listed = /** @type {Record<string, string[]>} */ ({});
  for (const f of doc.cases) {
    (listed[f.side] ??= []).push(caseKey(f));
    f.rounds.forEach((/** @type {number | null} */ x, /** @type {number} */ i) => {
      const { config, driver, cipher, op } = f;
      const c = { config, driver, cipher, op, status: x === null ? 'error' : 'ok', reason: f.reason ?? 'not run' };
      (rounds[i][f.side] ??= { cases: [] }).cases.push(x === null ? c : { ...c, stats: { opsPerSec: { median: x } } });
    });
  }
  return { rounds, listed };
}

/**
 * Every difference between the two judges over one document: the verdicts that differ, and the
 * intervals that differ under the same verdict.
 * @param {any} doc
 * @param {Awaited<ReturnType<typeof judges>>} j
 */
function documentDifferences(doc, j) {
  /** @type {{ verdicts: string[], intervals: string[], lines: string[] }} */
  const out = { verdicts: [], intervals: [], lines: [] };
  if (isShootout(doc)) {
    const { rounds, listed } = shootoutRounds(doc);
    const o = { threshold: doc.run.threshold, alpha: doc.run.alpha };
    // before #37 item 6 the judge was analyseShootout
    const judge = (/** @type {any} */ m) => m.shootout.judgeSidePairs ?? m.shootout.analyseShootout;
    const rows = [j.old, j.now].map((m) => judge(m)(rounds, pairsOf(doc), listed, o));
    // the judge of REF may name a pair's sides base/head and its case key (before the one shape)
    const id = (/** @type {any} */ r) =>
      `${r.member ?? r.head} vs ${r.reference ?? r.base} ${r.key ?? `${r.setup}/${r.op}`}`;
    rowDifferences(out, 'shootout', 'shootout rows', rows, id);
    if (doc.counting?.cases) {
      // the one count rule (lib/costs.js countDifferences); before it, the shootout's
      // instructionDifferences judged the total alone (beyondRepeat), on the first count
      const diffsOf = (/** @type {any} */ m) =>
        m.counts.countDifferences
          ? m.counts.countDifferences(doc.counting.cases, pairsOf(doc))
          : m.counting.instructionDifferences(doc.counting.cases, pairsOf(doc));
      const [a, b] = [j.old, j.now].map(diffsOf);
      const key = (/** @type {any} */ x) => `${x.member} vs ${x.reference} ${x.setup}/${x.op}`;
      const byKey = new Map(b.map((/** @type {any} */ x) => [key(x), x]));
      // each judge's word on the same difference: its verdict where both give one, else the total's
      const both = a[0]?.verdict !== undefined && b[0]?.verdict !== undefined;
      const total = (/** @type {any} */ m, /** @type {any} */ x) =>
        m.counts.beyondRepeat(x) ? 'beyond its tolerance' : 'within its tolerance';
      const said = (/** @type {any} */ m, /** @type {any} */ x) => (both ? x.verdict : total(m, x));
      let moved = 0;
      for (const x of a) {
        const y = byKey.get(key(x));
        if (!y) out.verdicts.push(`count ${key(x)}: only in the old judge's`);
        else if (said(j.old, x) !== said(j.now, y)) {
          moved++;
          out.verdicts.push(
            `count ${key(x)}: ${pct(x.change)} ±${pct(x.tolerance)} was ${said(j.old, x)}, now ${pct(y.change)} ±${pct(y.tolerance)} ${said(j.now, y)}`,
          );
        }
      }
      for (const y of b)
        if (!a.some((/** @type {any} */ x) => key(x) === key(y)))
          out.verdicts.push(`count ${key(y)}: only in the new judge's`);
      out.lines.push(`${a.length} counted differences: ${moved} judged otherwise`);
    }
  } else {
    const runs = [j.old, j.now].map((m) => m.run.analyseRun(doc.cases));
    // the claims' own pairs (id 'claims' since #37 item 4: before, only the checks had them) are
    // compared as the checks, below
    const own = runs.map((run) => run.comparisons.filter((/** @type {any} */ r) => r.id !== 'claims'));
    rowDifferences(out, 'comparison', 'comparisons', own, (r) => `${r.id} ${r.member} ${r.op}`);
    // the modules at a ref before the claims were named so call them `experiments`; a check's
    // interval is its own there, since #37 item 4 its judged pair's
    const claims = (/** @type {any} */ run) =>
      (run.claims ?? run.experiments).flatMap((/** @type {any} */ e) =>
        e.checks.map((/** @type {any} */ c) => ({ ...judgedPair(run, c), ...c, id: `${e.id}#${c.index}` })),
      );
    rowDifferences(out, 'claim', 'claim checks', runs.map(claims), (r) => r.id);
  }
  return out;
}

const HELP = {
  usage: 'npm run meta:same-verdicts -- [--ref REF] [FILE.json ...]',
  summary: `Re-judge stored rounds (run and shootout documents; default: ${DEFAULT_FILES.join(', ')}) with the judge as it was at REF and as it is; list every verdict that differs. Exit 1 when any does.`,
  options: /** @type {const} */ ({
    ref: valueFlag('REF', 'the git ref of the old judge', {
      shown: `${BEFORE_JUDGE.slice(0, 7)} (before the one judge)`,
    }),
  }),
};

command(
  'same-verdicts',
  import.meta.url,
  async (argv) => {
    const v = parseStrict(argv, HELP.options, { positionals: true });
    const ref = /** @type {string | undefined} */ (v.ref) ?? BEFORE_JUDGE;
    const files = v._.length ? v._ : DEFAULT_FILES.map((f) => path.join(ROOT, f));
    const docs = files.map((/** @type {string} */ f) => {
      const doc = readDocument(f);
      if (Array.isArray(doc?.rows) || Array.isArray(doc?.cases)) return { f, doc };
      throw new UsageError(`${f}: no /cases: needs a run document with its cases' rounds, or a shootout document`);
    });
    // the documents first: what they lack does not depend on which repository holds the ref
    try {
      execFileSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: ROOT, stdio: 'ignore' });
    } catch {
      throw new UsageError(`--ref ${ref}: not a commit of this repository`);
    }
    const dir = checkoutAt(ref);
    let differ = 0;
    try {
      const j = await judges(dir);
      for (const { f, doc } of docs) {
        const { verdicts, intervals, lines } = documentDifferences(doc, j);
        console.log(`${path.basename(f)}: ${lines.join('; ')}`);
        for (const l of verdicts) console.log(`  verdict: ${l}`);
        for (const l of intervals) console.log(`  interval: ${l}`);
        differ += verdicts.length;
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    if (differ) throw new CommandError(`${differ} verdict(s) differ from the judge at ${ref.slice(0, 12)}`);
    console.log(`every verdict as the judge at ${ref.slice(0, 12)} gave it`);
  },
  HELP,
);
