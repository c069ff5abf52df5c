// The one skeleton of every entry point (npm scripts and the engine server): flags through one
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

/** Whether the module at `url` is the script node was started with. */
export function isMain(/** @type {string} */ url) {
  return Boolean(process.argv[1]) && path.resolve(process.argv[1]) === fileURLToPath(url);
}

/** The first line of an error's message. */
export const firstLine = (/** @type {unknown} */ err) =>
  String(/** @type {any} */ (err)?.message ?? err).split('\n')[0];

/**
 * node:util parseArgs, strict; an unknown or malformed flag becomes a UsageError listing the flags.
 * @template {import('node:util').ParseArgsConfig['options']} O
 * @param {string[]} argv
 * @param {O} options
 */
export function parseStrict(argv, options) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    const valid =
      Object.keys(options ?? {})
        .map((k) => `--${k}`)
        .join(', ') || 'none';
    throw new UsageError(`${firstLine(err)}; valid flags: ${valid}`);
  }
}

/**
 * A numeric flag in [min, max] (a flag with a default is never absent)...
 * @overload
 * @param {string} flag
 * @param {string} s
 * @param {number} min
 * @param {number} max
 * @param {boolean} [integer]
 * @returns {number}
 */
/**
 * ...or undefined when absent.
 * @overload
 * @param {string} flag
 * @param {string | undefined} s
 * @param {number} min
 * @param {number} max
 * @param {boolean} [integer]
 * @returns {number | undefined}
 */
/**
 * @param {string} flag
 * @param {string | undefined} s
 * @param {number} min
 * @param {number} max
 * @param {boolean} [integer]
 */
export function numberFlag(flag, s, min, max, integer = true) {
  if (s === undefined) return undefined;
  const ok = integer ? /^\d+$/.test(s) : /^\d+(\.\d+)?$/.test(s);
  if (!ok || Number(s) < min || Number(s) > max)
    throw new UsageError(
      `bad --${flag} '${s}'; valid: ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`,
    );
  return Number(s);
}

/**
 * The usage of a command, for --help: on stdout, and exit 0.
 * @param {string} text
 */
export function printUsage(text) {
  console.log(text);
  return 0;
}

/**
 * A command's log: each line on stderr, prefixed with the command's name as its errors are, so that
 * stdout holds only what the command reports.
 * @param {string} name e.g. 'compare'
 */
export const logger = (name) => (/** @type {string} */ line) => process.stderr.write(`${name}: ${line}\n`);

/**
 * A command's Markdown report: on stdout, and in a GitHub Actions job appended to the job's summary.
 * @param {string} md
 */
export function printMarkdown(md) {
  console.log(md);
  if (process.env.GITHUB_STEP_SUMMARY) fs.appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${md}\n`);
}

/**
 * Run `main` when the module at `url` is the script node started, under the exit-code policy above.
 * `main` gets the arguments and returns (or resolves to) an exit code, or nothing for 0.
 * @param {string} name how errors are prefixed, e.g. 'bench'
 * @param {string} url the entry point's import.meta.url
 * @param {(argv: string[]) => number | void | Promise<number | void>} main
 */
export function command(name, url, main) {
  if (!isMain(url)) return;
  Promise.resolve()
    .then(() => main(process.argv.slice(2)))
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
