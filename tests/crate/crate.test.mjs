// The crate as a Rust user gets it (docs/testing-rust.md, "Getting the crate"): `cargo package`
// lists what the .crate holds and writes it, each within a time bound; then a crate of the
// user's, made of that page's `Cargo.toml` lines and its test, builds against the unpacked .crate
// and passes, natively. The rust-sdk layer of scripts/test-all.sh runs this after the
// `azure-sdk` builds, whose compiled dependencies it shares (the repository's target/).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { blocks } from '../package/markdown.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const VERSION = /** @type {string} the crate's version line */ (
  /^version = "([^"]+)"/m.exec(fs.readFileSync(path.join(ROOT, 'Cargo.toml'), 'utf8'))?.[1]
);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-crate-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

/**
 * Runs cargo with `args` in `cwd`, killed after `seconds`; returns its stdout. `--allow-dirty`
 * lets it run in a checkout with uncommitted changes, as during development.
 * @param {string[]} args
 * @param {string} cwd
 * @param {number} seconds
 */
function cargo(args, cwd, seconds) {
  return execFileSync('cargo', args, {
    cwd,
    encoding: 'utf8',
    timeout: seconds * 1000,
    killSignal: 'SIGKILL',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

test('cargo package --list: the library and what its docs name, nothing else', () => {
  const files = cargo(['package', '--list', '--allow-dirty', '--offline'], ROOT, 120)
    .trim()
    .split('\n');
  for (const needed of [
    'Cargo.toml',
    'src/lib.rs',
    'src/sdk/mod.rs',
    'src/wasm/result_shapes.js',
    'README.md',
    'docs/testing-rust.md',
  ]) {
    assert.ok(files.includes(needed), `${needed} is in the crate`);
  }
  const stray = files.filter(
    (f) =>
      !/^(src\/|Cargo\.(toml|toml\.orig|lock)$|README\.md$|docs\/testing-rust\.md$|\.cargo_vcs_info\.json$)/.test(
        f,
      ),
  );
  assert.deepEqual(stray, [], 'tests, hosts, scripts and tools stay in the repository');
});

test("the page's Cargo.toml and test build and pass against the unpacked .crate", () => {
  cargo(
    ['package', '--no-verify', '--allow-dirty', '--offline', '--target-dir', scratch],
    ROOT,
    300,
  );
  const crate = path.join(scratch, 'package', `azqueue-${VERSION}.crate`);
  assert.ok(fs.existsSync(crate), `${crate} was written`);

  // As the page says: unpacked beside the user's crate, whose Cargo.toml has the page's lines.
  const page = fs.readFileSync(path.join(ROOT, 'docs', 'testing-rust.md'), 'utf8');
  const tar = blocks(page).find((b) => b.lang === 'sh' && b.text.startsWith('tar '));
  assert.ok(tar, 'the page says how to unpack the .crate');
  execFileSync('sh', ['-c', tar.text.replace('azqueue-0.1.0.crate', JSON.stringify(crate))], {
    cwd: scratch,
  });
  assert.ok(fs.existsSync(path.join(scratch, `azqueue-${VERSION}`, 'src', 'lib.rs')));
  const [toml] = blocks(page).filter((b) => b.lang === 'toml');
  const [rust] = blocks(page).filter((b) => b.lang === 'rust');
  assert.match(toml.text, new RegExp(`path = "\\.\\./azqueue-${VERSION.replace(/\./g, '\\.')}"`));
  const user = path.join(scratch, 'my-crate');
  fs.mkdirSync(path.join(user, 'tests'), { recursive: true });
  fs.mkdirSync(path.join(user, 'src'));
  fs.writeFileSync(
    path.join(user, 'Cargo.toml'),
    `[package]\nname = "my-crate"\nversion = "0.1.0"\nedition = "2024"\n\n${toml.text}`,
  );
  fs.writeFileSync(path.join(user, 'src', 'lib.rs'), '');
  fs.writeFileSync(path.join(user, 'tests', 'queue.rs'), rust.text);
  // The versions examples/rust-consumer is tested with (the same dependencies), built in its
  // target directory (examples/rust-consumer/.cargo/config.toml says why it is not target/).
  fs.copyFileSync(
    path.join(ROOT, 'examples', 'rust-consumer', 'Cargo.lock'),
    path.join(user, 'Cargo.lock'),
  );
  const out = cargo(
    ['test', '--target-dir', path.join(ROOT, 'target', 'consumers'), '--test', 'queue'],
    user,
    1200,
  );
  assert.match(out, /test a_failed_job_comes_back \.\.\. ok/);
  assert.match(out, /test result: ok\. 1 passed/);
});
