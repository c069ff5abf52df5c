// The one skeleton of every entry point (npm scripts and the engine): flags through one
// strict parser, one top-level handler, one exit-code policy, one-line errors.
//
// Exit codes: 0 ok; 1 failure (the work could not be done, or found what it exists to find, e.g. a
// regression); 2 bad usage (a flag or an environment variable the command reads). A command
// interrupted by SIGINT/SIGTERM exits 130/143 as the shell would. Errors are one line on stderr,
// prefixed with the command's name; DEBUG=1 adds the stack of an unexpected error.
// Built-ins only: the PR comment job runs it without installing anything.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** A bad flag or input value: exit 2, with this one line. */
export class UsageError extends Error {}

/** An expected failure (the work could not be done): exit 1, with this one line and no stack. */
export class CommandError extends Error {}

export const firstLine = (/** @type {unknown} */ err) =>
  String(/** @type {any} */ (err)?.message ?? err).split('\n')[0];

/**
 * One flag of a command's option table: what node:util parseArgs reads (type, multiple, short,
 * default), plus what --help prints: `description` (what it does), `arg` (the value's name, e.g.
 * DIR) and `shown` (the default as words, where the parser has none or it depends on the mode).
 * @typedef {object} Option
 * @property {'string' | 'boolean'} type
 * @property {boolean} [multiple]
 * @property {string} [short]
 * @property {string | boolean | string[]} [default]
 * @property {string} [description]
 * @property {string} [arg]
 * @property {string} [shown]
 */

/**
 * A flag that takes a value, `--name ARG`, for an option table: `more` adds its default (a string),
 * what --help shows where it has none (`shown`), or `multiple`.
 * @template {{ default?: string, shown?: string, multiple?: true }} [M={}]
 * @param {string} arg
 * @param {string} description
 * @param {M} [more]
 */
export const valueFlag = (arg, description, more = /** @type {M} */ ({})) =>
  /** @type {{ type: 'string', arg: string, description: string } & M} */ ({
    type: 'string',
    arg,
    description,
    ...more,
  });

/** A flag without a value, off unless given. */
export const switchFlag = (/** @type {string} */ description) =>
  /** @type {const} */ ({ type: 'boolean', default: false, description });

/** The flag every command takes: --help prints the option table and exits 0 (see command()). */
export const HELP_OPTION = /** @type {const} */ ({
  type: 'boolean',
  short: 'h',
  default: false,
  description: 'print every flag with its default and meaning, then exit',
});

/**
 * `--flag -1` as `--flag=-1`: parseArgs reads a value that starts with '-' as another flag ("argument
 * is ambiguous"), so a negative number would never reach the check that names the valid range.
 * @param {string[]} argv
 * @param {Record<string, Option>} options
 */
function joinNegatives(argv, options) {
  const out = /** @type {string[]} */ ([]);
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : '';
    if (argv[i] === '--') return [...out, ...argv.slice(i)];
    if (options[name]?.type === 'string' && /^-[\d.]/.test(argv[i + 1] ?? '')) out.push(`--${name}=${argv[++i]}`);
    else out.push(argv[i]);
  }
  return out;
}

/**
 * node:util parseArgs, strict, over an option table (Option: the keys parseArgs does not know are
 * for --help); every command takes --help. An unknown or malformed flag becomes a UsageError
 * listing the flags.
 * @template {Record<string, Option>} O
 * @param {string[]} argv
 * @param {O} options
 * @param {{ positionals?: boolean }} [o] positionals: allowed, and returned as `_`
 * @returns {ReturnType<typeof parseArgs<{ options: O & { help: typeof HELP_OPTION }, strict: true }>>['values'] & { _: string[] }}
 */
export function parseStrict(argv, options, o = {}) {
  /** @type {Record<string, Option>} */
  const table = { ...options, help: HELP_OPTION };
  const config = /** @type {NonNullable<import('node:util').ParseArgsConfig['options']>} */ ({});
  for (const [k, { type, multiple, short, default: d }] of Object.entries(table))
    config[k] = {
      type,
      ...(multiple ? { multiple } : {}),
      ...(short ? { short } : {}),
      ...(d === undefined ? {} : { default: d }),
    };
  try {
    const r = parseArgs({
      args: joinNegatives(argv, table),
      options: config,
      strict: true,
      allowPositionals: Boolean(o.positionals),
    });
    // a repeatable flag also takes a comma-separated list, as --help says of every one
    for (const [k, x] of Object.entries(r.values))
      if (table[k]?.multiple && Array.isArray(x))
        /** @type {any} */ (r.values)[k] = x.flatMap((s) => String(s).split(',')).map((s) => s.trim());
    return /** @type {any} */ ({ ...r.values, _: r.positionals });
  } catch (err) {
    const valid = Object.keys(table)
      .map((k) => `--${k}`)
      .join(', ');
    throw new UsageError(`${firstLine(err)}; valid flags: ${valid}`);
  }
}

/**
 * What a command's --help prints: how to run it, what it does, and every flag of the option table
 * the parser uses, with its default and meaning; none: the command takes no flags (command() refuses any).
 * @typedef {{ usage: string, summary: string, options?: Record<string, Option> }} Help
 */

/**
 * @param {Help} help
 */
export function helpText({ usage, summary, options }) {
  /** @type {Record<string, Option>} */
  const table = { ...options, help: HELP_OPTION };
  const rows = Object.entries(table).map(([k, x]) => {
    const name = `${x.short ? `-${x.short}, ` : ''}--${k}${x.type === 'string' ? ` ${x.arg ?? 'VALUE'}` : ''}`;
    const d =
      x.shown ??
      (x.type === 'boolean'
        ? x.default
          ? 'on'
          : 'off'
        : x.default === undefined
          ? 'none'
          : [x.default].flat().join(','));
    const more = x.multiple ? ' (repeatable, or comma-separated)' : '';
    return [name, `${x.description ?? '(undocumented)'}${more}; default: ${d}`];
  });
  const width = Math.min(28, Math.max(...rows.map(([n]) => n.length)));
  const lines = rows.map(([n, d]) =>
    n.length > width ? `  ${n}\n  ${' '.repeat(width)}  ${d}` : `  ${n.padEnd(width)}  ${d}`,
  );
  return `usage: ${usage}\n\n${summary}\n\nflags:\n${lines.join('\n')}`;
}

/**
 * A numeric flag in [min, max]; undefined when absent (a flag with a default is never absent).
 * @template {string | undefined} S
 * @param {string} flag
 * @param {S} s
 * @param {number} min
 * @param {number} max
 * @param {boolean} [integer]
 * @returns {S extends string ? number : number | undefined}
 */
export function numberFlag(flag, s, min, max, integer = true) {
  if (s === undefined) return /** @type {any} */ (undefined);
  const ok = integer ? /^\d+$/.test(s) : /^\d+(\.\d+)?$/.test(s);
  if (!ok || Number(s) < min || Number(s) > max)
    throw new UsageError(
      `bad --${flag} '${s}'; valid: ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`,
    );
  return /** @type {any} */ (Number(s));
}

/** The usage of a command, for --help: on stdout, and exit 0. */
function printUsage(/** @type {string} */ text) {
  console.log(text);
  return 0;
}

/**
 * A command's log: each line on stderr, prefixed with the command's name as its errors are, so that
 * stdout holds only what the command reports.
 * @param {string} name e.g. 'compare'
 */
export const logger = (name) => (/** @type {string} */ line) => process.stderr.write(`${name}: ${line}\n`);

/** A command's Markdown report: on stdout, and in a GitHub Actions job appended to the job's summary. */
export function printMarkdown(/** @type {string} */ md) {
  console.log(md);
  if (process.env.GITHUB_STEP_SUMMARY) fs.appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${md}\n`);
}

/**
 * Run `main` when the module at `url` is the script node started, under the exit-code policy above.
 * `main` gets the arguments and returns (or resolves to) an exit code, or nothing for 0.
 * @param {string} name how errors are prefixed, e.g. 'bench'
 * @param {string} url the entry point's import.meta.url
 * @param {(argv: string[]) => number | void | Promise<number | void>} main
 * @param {Help} [help] what --help prints (then exit 0, nothing else run): the option table main parses with
 */
export function command(name, url, main, help) {
  // only where the module at `url` is the script node was started with
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(url)) return;
  const argv = process.argv.slice(2);
  const end = argv.indexOf('--');
  const asked = (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
  Promise.resolve()
    .then(() => {
      if (help && asked) return printUsage(helpText(help));
      if (help && !help.options) parseStrict(argv, {});
      return main(argv);
    })
    .then(
      (code) => {
        if (typeof code === 'number') process.exitCode = code;
      },
      (err) => {
        const usage = err instanceof UsageError;
        console.error(`${name}: ${firstLine(err)}`);
        if (!usage && !(err instanceof CommandError) && process.env.DEBUG) console.error(err?.stack ?? err);
        process.exit(usage ? 2 : 1);
      },
    );
}
