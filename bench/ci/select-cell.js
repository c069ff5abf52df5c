#!/usr/bin/env node
// npm run ci:cell — is this matrix cell requested? workflow_dispatch can narrow the static matrix
// (Node majors and runner labels as comma lists); other events run every cell. Writes run=true|false
// to $GITHUB_OUTPUT.
//
// Environment: CELL_NODE, CELL_RUNNER (this cell), WANT_NODES, WANT_RUNNERS (empty: all).
import fs from 'node:fs';
import { command } from '../../lib/command.js';

/**
 * @param {{ node: string, runner: string, wantNodes?: string, wantRunners?: string }} o
 */
export function wanted({ node, runner, wantNodes = '', wantRunners = '' }) {
  const list = (/** @type {string} */ s) =>
    s
      .split(/[\s,]+/)
      .map((x) => x.trim().replace(/^v/, ''))
      .filter(Boolean);
  const nodes = list(wantNodes);
  const runners = list(wantRunners);
  return (nodes.length === 0 || nodes.includes(String(node))) && (runners.length === 0 || runners.includes(runner));
}

const HELP = {
  usage: 'npm run ci:cell',
  summary:
    'Is this matrix cell requested? Reads CELL_NODE, CELL_RUNNER, WANT_NODES and WANT_RUNNERS (empty: all) and writes run=true|false to $GITHUB_OUTPUT. No flags.',
};

function main() {
  const e = process.env;
  const run = wanted({
    node: e.CELL_NODE ?? '',
    runner: e.CELL_RUNNER ?? '',
    wantNodes: e.WANT_NODES,
    wantRunners: e.WANT_RUNNERS,
  });
  console.log(`cell node ${e.CELL_NODE} on ${e.CELL_RUNNER}: ${run ? 'requested' : 'not requested, skipping'}`);
  if (e.GITHUB_OUTPUT) fs.appendFileSync(e.GITHUB_OUTPUT, `run=${run}\n`);
}

command('ci:cell', import.meta.url, main, HELP);
