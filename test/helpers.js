// Shared by the tests: the real drivers for the running Node, and scratch directories.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadDrivers } from '../bench/engine/load-drivers.js';

/** @type {Promise<Map<string, any>> | undefined} */
let loading;
export const drivers = () => (loading ??= loadDrivers());

/** A driver that must load on every supported Node. */
export async function driver(name) {
  const d = (await drivers()).get(name);
  if (!d?.open) throw new Error(`${name} did not load: ${d?.info.reason}`);
  return { name, open: d.open };
}

export function scratch(prefix = 'bench-test-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
