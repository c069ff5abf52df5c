// What a result was measured on: enough to never mix machines, platforms or runner images.
import os from 'node:os';

/** CI details GitHub Actions (or another CI) puts in the environment. */
function ciDetails(env = process.env) {
  if (env.GITHUB_ACTIONS === 'true') {
    return {
      provider: 'github-actions',
      runnerOs: env.RUNNER_OS ?? null,
      runnerArch: env.RUNNER_ARCH ?? null,
      runnerName: env.RUNNER_NAME ?? null,
      runnerEnvironment: env.RUNNER_ENVIRONMENT ?? null,
      imageOs: env.ImageOS ?? null,
      imageVersion: env.ImageVersion ?? null,
      workflow: env.GITHUB_WORKFLOW ?? null,
      runId: env.GITHUB_RUN_ID ?? null,
      runAttempt: env.GITHUB_RUN_ATTEMPT ?? null,
      job: env.GITHUB_JOB ?? null,
      repository: env.GITHUB_REPOSITORY ?? null,
      // the matrix cell, as benchmark.yml names it: its Node major and runner label
      cellNode: env.CELL_NODE ?? null,
      cellRunner: env.CELL_RUNNER ?? null,
    };
  }
  if (env.CI) return { provider: 'unknown-ci' };
  return null;
}

export function environment() {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    napi: process.versions.napi ?? null,
    modules: process.versions.modules,
    platform: process.platform,
    arch: process.arch,
    osRelease: os.release(),
    osVersion: typeof os.version === 'function' ? os.version() : null,
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    ci: ciDetails(),
  };
}
