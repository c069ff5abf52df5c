// Documents generated from the committed JSON Schemas, for the property tests of the aggregate
// (test/generated-docs.test.js). Written here rather than taken from a library, because the
// schemas are draft 2020-12 with $defs, if/then/else and patterns, and change while the project
// tightens them: this walks whatever the schema says at a place ($ref into $defs, allOf, anyOf,
// oneOf, if/then/else, enum, const, type, pattern, ranges, lengths, items, prefixItems, required,
// dependentRequired, additionalProperties, patternProperties, propertyNames) and makes a value for it.
// A string with a pattern comes from the values the synthetic documents hold at that pattern's
// places, or a mutation of one that still matches it; the names of the project's tables (config,
// driver, cipher, op) mostly come from the data (bench/data/), so that enough documents pass the semantic
// checks; every other string is often a piece of live Markdown with a canary in it (HOSTILE).
// Documents are mutated from real synthetic ones at random places of the schema, so the
// generator follows the schema as it changes. Seeded (lib/prng.js): the same seed, the same documents.
import Ajv2020Module from 'ajv/dist/2020.js';
import { NAMES_SCHEMA } from '../lib/names.js';
import { randomInt } from '../lib/prng.js';
import { CASE_NAMES } from '../bench/data/suite.js';

const Ajv2020 = /** @type {any} */ (Ajv2020Module).default ?? Ajv2020Module;

/**
 * Markdown that would be live if a renderer copied it as it is: each carries a canary (zq, 4242,
 * evil.example) that test/generated-docs.test.js looks for in the rendered HTML.
 */
export const HOSTILE = [
  '[zq](https://evil.example/zq)',
  '![zq](https://evil.example/zq.png)',
  '<a href="https://evil.example/zq">zq</a>',
  '<details><summary>zq</summary>',
  '<zqtag onclick=alert(1)>',
  '@zqmention',
  'see #4242',
  'https://evil.example/zq',
  'www.evil.example',
  'zq@evil.example',
  '[zq]: https://evil.example/zq',
  '| zq | --- |',
  '# zq heading',
  '`zq` **zq** _zq_',
  '&#x40;zq &lt;b&gt;',
  '$zq$',
];

/** @typedef {Record<string, any> | boolean} Schema */
/** @typedef {(string | number)[]} Path */

/**
 * A JSON pointer for messages.
 * @param {Path} p
 */
export const pointer = (p) => p.map((k) => `/${String(k).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('') || '/';

/**
 * The tools for one schema: which subschemas apply to a value, the places of a document, and a
 * fresh value for a place.
 * @param {any} root the schema, parsed
 */
export function schemaTools(root) {
  // the kinds of name both schemas refer to (lib/names.schema.json)
  const ajv = new Ajv2020({ strict: false, allErrors: false, allowUnionTypes: true }).addSchema(NAMES_SCHEMA);
  /** @type {WeakMap<object, (v: unknown) => boolean>} */
  const compiled = new WeakMap();
  /** Whether a value is valid against a subschema (its $refs resolved against the root's $defs). */
  const valid = (/** @type {Schema} */ s, /** @type {unknown} */ v) => {
    if (typeof s === 'boolean') return s;
    let f = compiled.get(s);
    if (!f) {
      const { $id: _id, ...rest } = s; // compiled once per object: two objects with one $id would clash
      f = ajv.compile({ ...rest, $defs: root.$defs ?? {} });
      compiled.set(s, /** @type {(v: unknown) => boolean} */ (f));
    }
    return /** @type {(v: unknown) => boolean} */ (f)(v);
  };
  const resolve = (/** @type {string} */ ref) => {
    const names = ref.startsWith(`${NAMES_SCHEMA.$id}#/`);
    if (!ref.startsWith('#/') && !names)
      throw new Error(`generate: only local $refs and lib/names.schema.json's are followed, not '${ref}'`);
    return ref
      .slice(ref.indexOf('#/') + 2)
      .split('/')
      .reduce((s, k) => s?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], names ? NAMES_SCHEMA : root);
  };

  /**
   * The subschemas that apply to a value, flattened: $ref followed, allOf all, anyOf and oneOf the
   * branches the value matches (all if none), if/then/else the branch the value takes.
   * @param {Schema[]} schemas
   * @param {unknown} value
   * @returns {Record<string, any>[]}
   */
  function applying(schemas, value) {
    /** @type {Record<string, any>[]} */
    const out = [];
    const add = (/** @type {Schema | undefined} */ s) => {
      if (!s || typeof s !== 'object') return;
      out.push(s);
      if (s.$ref) add(resolve(s.$ref));
      for (const x of s.allOf ?? []) add(x);
      for (const k of ['anyOf', 'oneOf'])
        if (s[k]) {
          const m = s[k].filter((/** @type {Schema} */ x) => valid(x, value));
          for (const x of m.length ? m : s[k]) add(x);
        }
      if (s.if !== undefined) add(valid(s.if, value) ? s.then : s.else);
    };
    for (const s of schemas) add(s);
    return out;
  }

  /**
   * The subschemas a child of a value is given by its parent's (not yet flattened for the child).
   * @param {Record<string, any>[]} nodes the parent's, flattened
   * @param {string | number} key
   * @param {boolean} inArray
   * @returns {Schema[]}
   */
  function childSchemas(nodes, key, inArray) {
    /** @type {Schema[]} */
    const out = [];
    for (const n of nodes) {
      if (inArray) {
        const i = /** @type {number} */ (key);
        if (n.prefixItems && i < n.prefixItems.length) out.push(n.prefixItems[i]);
        else if (n.items !== undefined) out.push(n.items);
      } else {
        const k = String(key);
        if (n.properties && Object.hasOwn(n.properties, k)) {
          out.push(n.properties[k]);
          continue;
        }
        const pp = Object.entries(n.patternProperties ?? {}).filter(([re]) => new RegExp(re, 'u').test(k));
        for (const [, s] of pp) out.push(s);
        if (!pp.length && n.additionalProperties !== undefined && typeof n.additionalProperties === 'object')
          out.push(n.additionalProperties);
      }
    }
    return out;
  }

  /**
   * Every place of a document: its path, the subschemas its parent gives it, and those that apply to
   * its value; grouped by the place (array indices written as *: every case's median is one place).
   * @param {any} doc
   * @returns {Map<string, { path: Path, given: Schema[], nodes: Record<string, any>[] }[]>}
   */
  function places(doc) {
    /** @type {Map<string, { path: Path, given: Schema[], nodes: Record<string, any>[] }[]>} */
    const groups = new Map();
    /**
     * @param {unknown} v
     * @param {Path} path
     * @param {string} where
     * @param {Schema[]} given
     */
    const walk = (v, path, where, given) => {
      const nodes = applying(given, v);
      const list = groups.get(where) ?? [];
      list.push({ path, given, nodes });
      groups.set(where, list);
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i], `${where}/*`, childSchemas(nodes, i, true)));
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) walk(x, [...path, k], `${where}/${k}`, childSchemas(nodes, k, false));
    };
    walk(doc, [], '', [root]);
    return groups;
  }

  return { valid, resolve, applying, childSchemas, places };
}

/**
 * The strings the given documents hold at each pattern's places (and each propertyNames pattern's
 * keys): the known-valid examples strings with that pattern are made from.
 * @param {ReturnType<typeof schemaTools>} tools
 * @param {any[]} docs
 * @returns {Map<string, string[]>} pattern source → examples
 */
export function examplesOf(tools, docs) {
  /** @type {Map<string, Set<string>>} */
  const found = new Map();
  const add = (/** @type {string} */ re, /** @type {string} */ s) => {
    const set = found.get(re) ?? new Set();
    set.add(s);
    found.set(re, set);
  };
  for (const doc of docs)
    for (const list of tools.places(doc).values())
      for (const { path, nodes } of list) {
        const v = path.reduce((o, k) => o[k], doc);
        if (typeof v === 'string') for (const n of nodes) if (typeof n.pattern === 'string') add(n.pattern, v);
        if (v && typeof v === 'object' && !Array.isArray(v))
          for (const n of nodes)
            if (typeof n.propertyNames?.pattern === 'string')
              for (const k of Object.keys(v)) add(n.propertyNames.pattern, k);
      }
  return new Map([...found].map(([re, set]) => [re, [...set]]));
}

/**
 * Small changes to a valid string; which of them still match a pattern is up to the caller.
 * @param {string} s
 * @param {() => number} random
 */
function variants(s, random) {
  const at = randomInt(random, s.length + 1);
  const digit = String(randomInt(random, 10));
  const swapped = s.replace(/\d/g, (d) => (random() < 0.3 ? String((Number(d) + 1) % 10) : d));
  return [
    `${s}-RC1`,
    `${s}-rc.1`,
    `${s}-0`,
    `${s}+build.5`,
    `${s}.1`,
    `${s}-${'a'.repeat(40)}`,
    swapped,
    s.toUpperCase(),
    s.slice(0, at) + digit + s.slice(at),
    s.slice(0, at) + '-' + s.slice(at),
    s.slice(0, at) + 'zq' + s.slice(at),
    s.slice(0, Math.max(1, at)),
    s + s,
    s.replace(/[a-z]/g, (c) => (random() < 0.3 ? 'z' : c)),
    s.replace(/\.\d+Z$/, 'Z'),
    s.replace(/^\d{4}/, () => String(1970 + randomInt(random, 8030))),
  ];
}

/** Keys a free map is given now and then: plain ones, and those an object's prototype has. */
const HOSTILE_KEYS = ['zq', 'messages', 'readers', 'x', '__proto__', 'constructor'];

/**
 * A value for the subschemas of one place.
 * @param {ReturnType<typeof schemaTools>} tools
 * @param {Map<string, string[]>} examples pattern source → strings known to match it
 * @param {() => number} random
 * @param {Schema[]} given the subschemas the place is given (not yet flattened)
 * @param {{ key?: string | number, old?: unknown, depth?: number }} [o] key: the place's own key
 *   (a table's name by it), old: the value there before (a string is often changed, not replaced)
 * @returns {unknown}
 */
export function generate(tools, examples, random, given, o = {}) {
  const depth = o.depth ?? 0;
  const pick = /** @template T @param {T[]} xs @returns {T} */ (xs) => xs[randomInt(random, xs.length)];
  // anyOf and oneOf: one branch, chosen now; if/then/else: decided on the value made
  /** @type {Record<string, any>[]} */
  const nodes = [];
  const add = (/** @type {Schema | undefined} */ s) => {
    if (!s || typeof s !== 'object') return;
    nodes.push(s);
    if (s.$ref) add(tools.resolve(s.$ref));
    for (const x of s.allOf ?? []) add(x);
    for (const k of ['anyOf', 'oneOf']) if (s[k]?.length) add(pick(s[k]));
  };
  for (const s of given) add(s);
  const consts = nodes.filter((n) => 'const' in n);
  if (consts.length) return structuredClone(consts[0].const);
  const enums = nodes.filter((n) => Array.isArray(n.enum));
  if (enums.length) {
    const allowed = enums.reduce(
      (/** @type {unknown[]} */ a, n) => a.filter((x) => n.enum.some((/** @type {unknown} */ y) => y === x)),
      enums[0].enum,
    );
    return structuredClone(pick(allowed.length ? allowed : enums[0].enum));
  }
  const type = typeOf(nodes, random);
  if (type === 'null') return null;
  if (type === 'boolean') return random() < 0.5;
  if (type === 'integer' || type === 'number') return number(nodes, type === 'integer', random);
  if (type === 'string') return string(nodes, examples, random, o);
  const was = /** @type {any} */ (o.old);
  if (type === 'array') {
    const min = Math.max(0, ...nodes.map((n) => n.minItems ?? 0));
    const max = Math.min(min + (depth > 4 ? 0 : 3), ...nodes.map((n) => n.maxItems ?? Infinity));
    // the length it had, most of the time: its elements changed, not its shape
    const n =
      Array.isArray(was) && was.length <= max && was.length >= min && random() < 0.7
        ? was.length
        : min + randomInt(random, Math.max(0, max - min) + 1);
    return Array.from({ length: n }, (_, i) =>
      Array.isArray(was) && i < was.length && random() < 0.5
        ? structuredClone(was[i])
        : generate(tools, examples, random, tools.childSchemas(nodes, i, true), {
            key: o.key,
            old: Array.isArray(was) ? was[i] : undefined,
            depth: depth + 1,
          }),
    );
  }
  // an object: its required properties, some optional ones, a free key now and then, then what
  // the conditionals it meets require
  /** @type {Record<string, unknown>} */
  const obj = {};
  const named = [...new Set(nodes.flatMap((n) => Object.keys(n.properties ?? {})))];
  const before = was && typeof was === 'object' && !Array.isArray(was) ? was : {};
  const fill = (/** @type {string} */ k) => {
    if (Object.hasOwn(obj, k)) return;
    const kept = Object.hasOwn(before, k) && random() < 0.5;
    own(
      obj,
      k,
      kept
        ? structuredClone(before[k])
        : generate(tools, examples, random, tools.childSchemas(nodes, k, false), {
            key: k,
            old: before[k],
            depth: depth + 1,
          }),
    );
  };
  // the keys required, and those required with a key it has (dependentRequired)
  const required = () => [
    ...new Set(
      tools
        .applying(given, obj)
        .flatMap((n) => [
          ...(n.required ?? []),
          ...Object.entries(n.dependentRequired ?? {}).flatMap(([k, ks]) => (Object.hasOwn(obj, k) ? ks : [])),
        ]),
    ),
  ];
  for (const k of required()) fill(k);
  // the keys it had (the free ones too: a workload's setup keeps its names, with new values), most of them
  for (const k of Object.keys(before)) if (random() < 0.85) fill(k);
  for (const k of named) if (depth < 5 && random() < 0.25) fill(k);
  const free = nodes.find((n) => n.additionalProperties && typeof n.additionalProperties === 'object');
  if (free && depth < 5 && random() < 0.5) {
    const names = nodes
      .map((n) => (n.propertyNames?.$ref ? tools.resolve(n.propertyNames.$ref) : n.propertyNames)?.pattern)
      .find((p) => typeof p === 'string');
    // a name the renderers might trip on (constructor) where the names allow it, else one of the names
    const risky = HOSTILE_KEYS.filter((k) => !names || new RegExp(names, 'u').test(k));
    const key =
      risky.length && (!names || random() < 0.5)
        ? pick(risky)
        : string([{ pattern: names, maxLength: 40 }], examples, random, {});
    fill(/** @type {string} */ (key));
  }
  for (let i = 0; i < 3; i++) {
    for (const k of required()) fill(k); // a then's requirement may bring another if
    // a then that constrains a child (a workload's kind requires its setup's fields): that child
    // made again under it, as the discriminator was perhaps made after the child
    const applied = tools.applying(given, obj);
    for (const k of Object.keys(obj)) {
      const child = tools.childSchemas(applied, k, false);
      if (!child.every((s) => tools.valid(s, obj[k])))
        own(obj, k, generate(tools, examples, random, child, { key: k, old: obj[k], depth: depth + 1 }));
    }
  }
  return obj;
}

/**
 * The type to make: the one every subschema allows, else any of the first's; else what the
 * keywords suggest.
 * @param {Record<string, any>[]} nodes
 * @param {() => number} random
 */
function typeOf(nodes, random) {
  const typed = nodes.filter((n) => n.type !== undefined).map((n) => [n.type].flat());
  if (typed.length) {
    const all = typed.reduce((a, t) => a.filter((x) => t.includes(x) || (x === 'integer' && t.includes('number'))));
    const from = all.length ? all : typed[0];
    return from[randomInt(random, from.length)];
  }
  if (nodes.some((n) => n.properties || n.required || n.additionalProperties !== undefined)) return 'object';
  if (nodes.some((n) => n.items || n.prefixItems)) return 'array';
  if (nodes.some((n) => n.pattern || n.maxLength !== undefined)) return 'string';
  if (nodes.some((n) => n.minimum !== undefined || n.maximum !== undefined)) return 'number';
  return ['string', 'number', 'boolean', 'null'][randomInt(random, 4)];
}

/**
 * A number in every subschema's range: an edge, a small one, or one anywhere in it.
 * @param {Record<string, any>[]} nodes
 * @param {boolean} integer
 * @param {() => number} random
 */
function number(nodes, integer, random) {
  const lo = Math.max(-1e15, ...nodes.map((n) => n.minimum ?? -Infinity));
  const hi = Math.min(1e15, ...nodes.map((n) => n.maximum ?? Infinity));
  const xlo = Math.max(-Infinity, ...nodes.map((n) => n.exclusiveMinimum ?? -Infinity));
  const xhi = Math.min(Infinity, ...nodes.map((n) => n.exclusiveMaximum ?? Infinity));
  const ok = (/** @type {number} */ x) => x >= lo && x <= hi && x > xlo && x < xhi && (!integer || Number.isInteger(x));
  const span = Math.min(hi, xhi) - Math.max(lo, xlo);
  const inside = Math.max(lo, xlo) + random() * (Number.isFinite(span) ? span : 1e6);
  const candidates = [lo, hi, xlo + 1e-6, xhi - 1e-6, 0, 1, 2, 3, 0.5, 999999, 1e15, inside, Math.round(inside)]
    .map((x) => (integer ? Math.round(x) : x))
    .filter(ok);
  return candidates.length ? candidates[randomInt(random, candidates.length)] : Math.max(lo, 0);
}

/**
 * A string for every subschema: from the pattern's examples (as they are, or changed and still
 * matching), a table's names, live Markdown, the old value with Markdown in it, or a long one.
 * @param {Record<string, any>[]} nodes
 * @param {Map<string, string[]>} examples
 * @param {() => number} random
 * @param {{ key?: string | number, old?: unknown }} o
 */
function string(nodes, examples, random, o) {
  const pick = /** @template T @param {T[]} xs @returns {T} */ (xs) => xs[randomInt(random, xs.length)];
  const min = Math.max(0, ...nodes.map((n) => n.minLength ?? 0));
  const max = Math.min(5000, ...nodes.map((n) => n.maxLength ?? Infinity));
  const patterns = nodes.map((n) => n.pattern).filter((p) => typeof p === 'string');
  const fits = (/** @type {string} */ s) =>
    [...s].length >= min && [...s].length <= max && patterns.every((p) => new RegExp(p, 'u').test(s));
  if (patterns.length) {
    const known = patterns.flatMap((p) => examples.get(p) ?? []).filter(fits);
    if (known.length && random() < 0.6) return pick(known);
    const changed = (known.length ? known : patterns.flatMap((p) => examples.get(p) ?? []))
      .flatMap((s) => variants(s, random))
      .concat(HOSTILE)
      .filter(fits);
    if (changed.length) return pick(changed);
    if (known.length) return pick(known);
    // no example: a string made from the pattern itself, if it is simple enough to read
    for (let i = 0; i < 20; i++) {
      const made = fromPattern(patterns[0], random);
      if (made !== null && fits(made)) return made;
    }
  }
  const table = typeof o.key === 'string' ? /** @type {Record<string, string[]>} */ (CASE_NAMES)[o.key] : undefined;
  if (table && random() < 0.85) return pick(table);
  const r = random();
  const old = typeof o.old === 'string' ? o.old : '';
  let s =
    r < 0.5
      ? pick(HOSTILE)
      : r < 0.7 && old
        ? `${old} ${pick(HOSTILE)}`
        : r < 0.8
          ? 'zq'.repeat(1 + randomInt(random, 3000))
          : r < 0.9
            ? ''
            : `zq${randomInt(random, 1000)}`;
  s = [...s].slice(0, max).join('');
  while ([...s].length < min) s += 'z';
  return s;
}

/**
 * A string matching a simple regular expression: literals, escapes (\\d, \\w, \\s, an escaped
 * character), classes with ranges, groups with alternatives, the quantifiers ? * + {n} {n,m},
 * anchors. Null for anything else (a lookahead, a back-reference, a negated class).
 * @param {string} source
 * @param {() => number} random
 * @returns {string | null}
 */
export function fromPattern(source, random) {
  let i = 0;
  const CLASSES = /** @type {Record<string, string>} */ ({ d: '0123456789', w: 'abcxyzABC019_', s: ' ' });
  /** One atom's choices, as a function making one; null when unreadable. */
  const atom = () => {
    const ch = source[i++];
    if (ch === '(') {
      if (source[i] === '?') {
        if (source.slice(i, i + 2) !== '?:') return null;
        i += 2;
      }
      const alts = alternatives();
      if (source[i++] !== ')') return null;
      return alts;
    }
    if (ch === '[') {
      if (source[i] === '^') return null;
      let chars = '';
      while (i < source.length && source[i] !== ']') {
        let c = source[i++];
        if (c === '\\') {
          const e = source[i++];
          if (CLASSES[e]) {
            chars += CLASSES[e];
            continue;
          }
          c = e;
        }
        if (source[i] === '-' && source[i + 1] !== ']' && i + 1 < source.length) {
          const to = source[i + 1] === '\\' ? source[i + 2] : source[i + 1];
          i += source[i + 1] === '\\' ? 3 : 2;
          for (let k = c.charCodeAt(0); k <= to.charCodeAt(0); k++) chars += String.fromCharCode(k);
        } else chars += c;
      }
      i++;
      return chars ? () => chars[randomInt(random, chars.length)] : null;
    }
    if (ch === '\\') {
      const e = source[i++];
      if (CLASSES[e]) return () => CLASSES[e][randomInt(random, CLASSES[e].length)];
      if (/[a-zA-Z0-9]/.test(e)) return null; // \b, \1, \p{…}: not read here
      return () => e;
    }
    if (ch === '.') return () => 'z';
    if (ch === undefined || '|)?*+{'.includes(ch)) return null;
    return () => ch;
  };
  /** A sequence of quantified atoms. */
  const sequence = () => {
    /** @type {(() => string)[]} */
    const parts = [];
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      if (source[i] === '^' || source[i] === '$') {
        i++;
        continue;
      }
      const a = atom();
      if (!a) return null;
      let [min, max] = [1, 1];
      const q = /^(?:\?|\*|\+|\{(\d+)(?:(,)(\d*))?\})/.exec(source.slice(i));
      if (q) {
        i += q[0].length;
        if (q[0] === '?') [min, max] = [0, 1];
        else if (q[0] === '*') [min, max] = [0, 3];
        else if (q[0] === '+') [min, max] = [1, 3];
        else [min, max] = [Number(q[1]), q[2] ? (q[3] ? Number(q[3]) : Number(q[1]) + 3) : Number(q[1])];
      }
      const [lo, hi] = [min, max];
      parts.push(() => {
        const n = lo + randomInt(random, Math.min(hi, lo + 8) - lo + 1);
        return Array.from({ length: n }, a).join('');
      });
    }
    return () => parts.map((p) => p()).join('');
  };
  /** Alternatives separated by |. */
  const alternatives = () => {
    /** @type {(() => string)[]} */
    const alts = [];
    for (;;) {
      const s = sequence();
      if (!s) return null;
      alts.push(s);
      if (source[i] !== '|') break;
      i++;
    }
    return () => alts[randomInt(random, alts.length)]();
  };
  const all = alternatives();
  if (!all || i !== source.length) return null;
  const made = all();
  return new RegExp(source, 'u').test(made) ? made : null;
}

/** @typedef {{ path: Path, op: 'set' | 'delete', value?: unknown }} Change */

/**
 * Changes to a document at random places of its schema: each place in the schema equally likely
 * (a workload case's setup as likely as a case's median), then one of its instances. A change
 * sets a fresh value for the place, drops an optional key (or an array's element), adds a
 * property the place may have, or gives a free map a key of HOSTILE_KEYS whatever its names allow.
 * @param {ReturnType<typeof schemaTools>} tools
 * @param {Map<string, string[]>} examples
 * @param {() => number} random
 * @param {any} base the document to change (not changed itself)
 * @param {ReturnType<ReturnType<typeof schemaTools>['places']>} placesOfBase
 * @param {number} n how many changes
 * @returns {Change[]}
 */
export function changesFor(tools, examples, random, base, placesOfBase, n) {
  const groups = [...placesOfBase.values()];
  // a place that holds text or structure weighs more than one that holds a number: the renderers
  // copy strings and walk objects
  const weights = groups.map((g) => {
    const v = g[0].path.reduce((o, k) => o?.[k], base);
    return typeof v === 'string' ? 2 : v && typeof v === 'object' ? 3 : 1;
  });
  const total = weights.reduce((a, b) => a + b, 0);
  /** @type {Change[]} */
  const changes = [];
  for (let i = 0; i < n; i++) {
    let w = random() * total;
    const group =
      groups[
        Math.max(
          0,
          weights.findIndex((x) => (w -= x) < 0),
        )
      ];
    const place = group[randomInt(random, group.length)];
    const value = place.path.reduce((o, k) => o?.[k], base);
    const r = random();
    const isObject = value && typeof value === 'object' && !Array.isArray(value);
    if (r < 0.2 && isObject) {
      const required = new Set(place.nodes.flatMap((x) => x.required ?? []));
      const optional = Object.keys(value).filter((k) => !required.has(k));
      const all = Object.keys(value);
      const from = optional.length && random() < 0.8 ? optional : all;
      if (from.length) {
        changes.push({ path: [...place.path, from[randomInt(random, from.length)]], op: 'delete' });
        continue;
      }
    }
    if (r < 0.2 && Array.isArray(value) && value.length) {
      changes.push({ path: [...place.path, randomInt(random, value.length)], op: 'delete' });
      continue;
    }
    if (r < 0.4 && isObject) {
      const absent = [...new Set(place.nodes.flatMap((x) => Object.keys(x.properties ?? {})))].filter(
        (k) => !Object.hasOwn(value, k),
      );
      if (absent.length) {
        const k = absent[randomInt(random, absent.length)];
        const v = generate(tools, examples, random, tools.childSchemas(place.nodes, k, false), { key: k, depth: 2 });
        changes.push({ path: [...place.path, k], op: 'set', value: v });
        continue;
      }
    }
    const free =
      isObject && place.nodes.find((x) => x.additionalProperties && typeof x.additionalProperties === 'object');
    if (r < 0.5 && free) {
      // a key of its own choosing, whatever the map's names allow: __proto__ in a map of pragmas
      const k = HOSTILE_KEYS[randomInt(random, HOSTILE_KEYS.length)];
      const v = generate(tools, examples, random, [free.additionalProperties], { key: k, depth: 2 });
      changes.push({ path: [...place.path, k], op: 'set', value: v });
      continue;
    }
    const key = place.path.at(-1);
    changes.push({
      path: place.path,
      op: 'set',
      value: generate(tools, examples, random, place.given, { key, old: value, depth: Math.min(place.path.length, 3) }),
    });
  }
  return changes;
}

/**
 * A copy of a document with changes applied (a change whose parent is gone is left out).
 * @param {any} base
 * @param {Change[]} changes
 */
export function applyChanges(base, changes) {
  const doc = structuredClone(base);
  for (const c of changes) {
    if (!c.path.length) {
      if (c.op === 'set') return structuredClone(c.value);
      continue;
    }
    const parent = c.path.slice(0, -1).reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), doc);
    if (!parent || typeof parent !== 'object') continue;
    const k = /** @type {string | number} */ (c.path.at(-1));
    if (c.op === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(k), 1);
      else delete parent[k];
    } else own(parent, k, structuredClone(c.value));
  }
  return doc;
}

/**
 * Set an own property, even one named __proto__ (which plain assignment would take for the prototype).
 * @param {any} o
 * @param {string | number} k
 * @param {unknown} value
 */
function own(o, k, value) {
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
}
