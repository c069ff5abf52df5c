// The logic of the claims table (bench/data/production-claims.js), kept out of the table: its
// validation (every problem of a row, one line each; a check's variants may differ only in the
// claim's subject), what two setups differ in, and the words of a check's rule and verdicts.
// Loading this module checks the table: a bad row throws one line naming it. The engine's flags
// (bench/engine/flags.js) load it, so a bad row stops every run, as test/production-claims.test.js does.
import { CIPHERS } from '../data/ciphers.js';
import { CONFIGS } from '../data/configs.js';
import { DRIVERS } from '../data/drivers.js';
import { OPS } from '../data/ops.js';
import { WORKLOADS } from '../data/workloads.js';
import { CLAIMS, METRICS, setupOf } from '../data/production-claims.js';

/**
 * What two setups differ in: PRAGMA names (a value changed, set in one only, or the order of the
 * rest), 'cipher', 'driver', 'schema', 'tempdir'. Unknown names are reported as such.
 * @param {import('../data/suite.js').Setup} a
 * @param {import('../data/suite.js').Setup} b
 * @param {{ configs?: import('../data/configs.js').Config[] }} [tables]
 * @returns {string[]}
 */
export function differences(a, b, { configs = CONFIGS } = {}) {
  const ca = configs.find((c) => c.name === a.config);
  const cb = configs.find((c) => c.name === b.config);
  if (!ca || !cb) return [`unknown config '${!ca ? a.config : b.config}'`];
  const out = new Set();
  const ma = new Map(ca.pragmas);
  const mb = new Map(cb.pragmas);
  for (const n of new Set([...ma.keys(), ...mb.keys()]))
    if (!ma.has(n) || !mb.has(n) || String(ma.get(n)) !== String(mb.get(n))) out.add(n);
  const order = (/** @type {[string, unknown][]} */ p) =>
    p
      .map(([n]) => n)
      .filter((n) => !out.has(n))
      .join(',');
  if (order(ca.pragmas) !== order(cb.pragmas)) out.add('PRAGMA order');
  if ((ca.schema ?? 'blob-last') !== (cb.schema ?? 'blob-last')) out.add('schema');
  if ((ca.tempdir ?? 'beside') !== (cb.tempdir ?? 'beside')) out.add('tempdir');
  if (a.cipher !== b.cipher) out.add('cipher');
  if (a.driver !== b.driver) out.add('driver');
  return [...out];
}

/**
 * Every problem of a claims table, one line each: bad rows, and any check whose variants
 * differ in more than the claim's subject (or in nothing).
 * @param {unknown[]} rows
 * @returns {string[]}
 */
export function validateClaims(rows) {
  const problems = /** @type {string[]} */ ([]);
  const ids = new Set();
  rows.forEach((row, i) => {
    const e = /** @type {any} */ (row);
    const at = `claim ${i + 1}${typeof e?.id === 'string' ? ` '${e.id}'` : ''}`;
    const bad = (/** @type {string} */ s) => problems.push(`${at}: ${s}`);
    if (!e || typeof e !== 'object') return bad('not an object');
    if (typeof e.id !== 'string' || !/^[a-z0-9-]{1,40}$/.test(e.id)) bad('id must be a slug of a-z, 0-9 and -');
    else if (ids.has(e.id)) bad("id repeats an earlier claim's");
    ids.add(e.id);
    for (const f of ['short', 'quote', 'holds'])
      if (typeof e[f] !== 'string' || !e[f].trim()) bad(`${f} must be a non-empty string`);
    if (
      !Array.isArray(e.subject) ||
      !e.subject.length ||
      e.subject.some((/** @type {unknown} */ s) => typeof s !== 'string')
    )
      bad('subject must be a non-empty list of what the variants differ in');
    if (!Array.isArray(e.checks) || !e.checks.length) return bad('checks must be a non-empty list');
    const variant = (/** @type {any} */ v, /** @type {string} */ where) => {
      if (!v || typeof v !== 'object') return (bad(`${where} must be an object of config, driver, cipher`), null);
      const extra = Object.keys(v).filter((k) => !['config', 'driver', 'cipher'].includes(k));
      if (extra.length) return (bad(`${where} has ${extra.join(', ')}; valid: config, driver, cipher`), null);
      const s = setupOf(v);
      if (!CONFIGS.some((c) => c.name === s.config)) return (bad(`${where}: unknown config '${s.config}'`), null);
      const d = DRIVERS.find((x) => x.name === s.driver);
      if (!d) return (bad(`${where}: unknown driver '${s.driver}'`), null);
      if (!CIPHERS.some((c) => c.name === s.cipher)) return (bad(`${where}: unknown cipher '${s.cipher}'`), null);
      if (!d.encryption && s.cipher !== 'none')
        return (bad(`${where}: driver ${s.driver} has no encryption, so no cipher '${s.cipher}'`), null);
      return s;
    };
    const reference = variant(e.reference, 'reference');
    const subject = new Set(Array.isArray(e.subject) ? e.subject : []);
    const varied = new Set();
    e.checks.forEach((/** @type {any} */ c, /** @type {number} */ j) => {
      const where = `check ${j + 1}`;
      if (!c || typeof c !== 'object') return bad(`${where}: not an object`);
      if (typeof c.says !== 'string' || !c.says.trim()) bad(`${where}: says must be a non-empty string`);
      if (!METRICS.includes(c.metric)) bad(`${where}: unknown metric '${c.metric}'; valid: ${METRICS.join(', ')}`);
      if (c.workload !== undefined) {
        const w = c.workload;
        if (!w || typeof w.pair !== 'string' || !['reads', 'writes'].includes(w.figure))
          bad(`${where}: workload must be { pair, figure: 'reads' | 'writes' }`);
        else if (!WORKLOADS.some((x) => x.kind === 'concurrency' && x.pair === w.pair))
          bad(`${where}: no concurrency pair '${w.pair}' in bench/data/workloads.js`);
        if (c.op !== undefined || c.member !== undefined)
          bad(`${where}: a workload check has no op or member: the workload pairs WAL with DELETE`);
        if (typeof c.notMeasured !== 'string' || !c.notMeasured.trim())
          bad(`${where}: a workload check says in notMeasured why a run without the workload has no verdict`);
        if (!subject.has('journal_mode'))
          bad(`${where}: a workload check compares journal modes: its subject is journal_mode`);
        const claimProblem = claimCheck(c.claim);
        if (claimProblem) bad(`${where}: ${claimProblem}`);
        varied.add('journal_mode');
        return;
      }
      if (c.notMeasured !== undefined) {
        if (typeof c.notMeasured !== 'string' || !c.notMeasured.trim())
          bad(`${where}: notMeasured must be the reason, a non-empty string`);
        if (c.op !== undefined || c.claim !== undefined)
          bad(`${where}: a check that is not measured has no op or claim`);
        return;
      }
      if (c.pending) bad(`${where}: pending needs a notMeasured reason`);
      const op = OPS.find((o) => o.name === c.op);
      if (!op) return bad(`${where}: unknown op '${c.op}'; valid: ${OPS.map((o) => o.name).join(', ')}`);
      if (op.kind !== 'timed')
        return bad(`${where}: op '${c.op}' is not timed; a measured check is a paired comparison of timed rounds`);
      if (c.metric !== 'ops/s' && c.metric !== 'time')
        bad(`${where}: metric '${c.metric}' is not measured by a timed operation; say why in notMeasured`);
      const claimProblem = claimCheck(c.claim);
      if (claimProblem) bad(`${where}: ${claimProblem}`);
      const ref = c.reference === undefined ? reference : variant(c.reference, `${where} reference`);
      const member = variant(c.member, `${where} member`);
      if (!ref || !member) return;
      const diff = differences(ref, member);
      if (!diff.length)
        return bad(
          `${where}: member and reference are the same setup (${ref.config}/${ref.driver}/${ref.cipher}): nothing to compare`,
        );
      const outside = diff.filter((d) => !subject.has(d));
      if (outside.length)
        bad(
          `${where}: ${member.config}/${member.driver}/${member.cipher} differs from ${ref.config}/${ref.driver}/${ref.cipher} in ${outside.join(', ')}, beyond the subject (${[...subject].join(', ')})`,
        );
      for (const d of diff) varied.add(d);
    });
    const unused = [...subject].filter((s) => !varied.has(s));
    const measured = e.checks.some(
      (/** @type {any} */ c) => c && (c.notMeasured === undefined || c.workload !== undefined),
    );
    if (measured && unused.length) bad(`subject lists ${unused.join(', ')}, in which no check's variants differ`);
  });
  return problems;
}

/**
 * @param {unknown} claim
 * @returns {string | null}
 */
function claimCheck(claim) {
  const c = /** @type {any} */ (claim);
  if (!c || typeof c !== 'object')
    return "claim must be an object { kind: 'change' | 'direction' | 'minimal' | 'none', … }";
  if (c.kind === 'none') return null;
  if (c.kind === 'direction')
    return c.sign === 1 || c.sign === -1 ? null : 'a direction claim has sign 1 (faster) or -1 (slower)';
  if (c.kind === 'minimal')
    return typeof c.bound === 'number' && c.bound > 0 && c.bound < 1
      ? null
      : 'a minimal claim has a bound between 0 and 1';
  if (c.kind === 'change') {
    const ok =
      [c.low, c.high].every((x) => typeof x === 'number' && Number.isFinite(x) && x > -1 && x !== 0) &&
      c.low <= c.high &&
      Math.sign(c.low) === Math.sign(c.high);
    return ok ? null : 'a change claim has low <= high, both above -1, of one sign, never 0';
  }
  return `unknown claim kind '${c.kind}'; valid: change, direction, minimal, none`;
}

const problems = validateClaims(CLAIMS);
if (problems.length) throw new Error(`bench/data/production-claims.js: ${problems.join('; ')}`);
