// The npm package as a user gets it: `scripts/package.mjs` packs it, and an empty temporary
// project installs the tarball (with `@azure/storage-queue`, from the npm cache) the way a user
// would, with no Rust toolchain on the PATH. Not a test file itself. One project per test
// process, removed when the process exits.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { runNode } from '../../scripts/lib/run-node.mjs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** PATH without any directory that holds cargo or rustc: the package must not need them. */
export const PATH_WITHOUT_RUST = (process.env.PATH ?? '')
  .split(path.delimiter)
  .filter((dir) => !['cargo', 'rustc'].some((tool) => fs.existsSync(path.join(dir, tool))))
  .join(path.delimiter);

/** The environment the project's commands run with. */
export const USER_ENV = {
  ...process.env,
  PATH: PATH_WITHOUT_RUST,
  npm_config_update_notifier: 'false',
};

/** The version of @azure/storage-queue the repository tests with (what the npm cache holds). */
function sdkVersion() {
  return JSON.parse(
    fs.readFileSync(
      path.join(ROOT, 'node_modules', '@azure', 'storage-queue', 'package.json'),
      'utf8',
    ),
  ).version;
}

/** @type {{ dir: string, tarball: string } | null} */
let project = null;

/**
 * Packs the package and installs it in a fresh project; resolves { dir, tarball }.
 * @returns {{ dir: string, tarball: string }}
 */
export function installedProject() {
  project ??= (() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-user-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const out = execFileSync(
      process.execPath,
      [path.join(ROOT, 'scripts', 'package.mjs'), path.join(dir, 'dist')],
      { encoding: 'utf8' },
    );
    const tarball = /** @type {string} its last line */ (out.trim().split('\n').pop());
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      '{ "name": "user-project", "version": "1.0.0", "private": true }\n',
    );
    execFileSync(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        tarball,
        `@azure/storage-queue@${sdkVersion()}`,
      ],
      { cwd: dir, env: USER_ENV, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    return { dir, tarball };
  })();
  return project;
}

/**
 * Runs `node` in the project on a script file written there; resolves { code, stdout, stderr }.
 * @param {string} name
 * @param {string} source
 * @param {{ args?: string[] }} [options]
 */
export function runInProject(name, source, { args = [] } = {}) {
  const { dir } = installedProject();
  fs.writeFileSync(path.join(dir, name), source);
  return runNode([name, ...args], { cwd: dir, env: USER_ENV, timeoutMs: 120_000 });
}
