#!/usr/bin/env node
// npm run ci:shootout-nodes — the exact Node versions the nightly shootout runs on this runner
// (nightly.js's --node: every matrix major, or WANT_NODES), resolved as the shootout resolves them
// (nodes.js versionOf), written to the step's outputs as `versions=18.20.8-20.19.5-…`. The
// shootout job keys its cache of fetched Nodes and compiled drivers on them: after a Node patch
// release the key changes once, the drivers are compiled for the new Node that night, and the
// nights after it hit the cache instead of compiling every night.
import fs from 'node:fs';
import { command, parseStrict } from '../../lib/command.js';
import { ciArgs } from './nightly.js';
import { versionOf } from './nodes.js';

const HELP = {
  usage: 'npm run ci:shootout-nodes',
  summary:
    "The exact Node versions tonight's shootout runs on this runner (every matrix major, or WANT_NODES), written to the step's outputs as versions=…, the key of the shootout job's cache. No flags.",
  options: {},
};

function main(/** @type {string[]} */ argv) {
  parseStrict(argv, HELP.options);
  // the versions, in the order nightly.js passes them
  const args = ciArgs();
  const specs = args[args.indexOf('--node') + 1].split(',');
  const line = `versions=${specs.map((spec) => versionOf(spec, (l) => console.error(l))).join('-')}`;
  console.log(line);
  if (process.env.GITHUB_OUTPUT) fs.appendFileSync(process.env.GITHUB_OUTPUT, `${line}\n`);
}

command('ci:shootout-nodes', import.meta.url, main, HELP);
