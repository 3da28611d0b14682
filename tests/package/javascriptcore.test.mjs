// The shipped pkg/web in WebKit's JavaScriptCore as Safari runs it: every tier on (its
// defaults), the WAL sequence that JavaScriptCore's optimizing tier once ran wrong in a debug
// build (docs/webkit.md), through the package's glue and its IndexedDB store (on
// fake-indexeddb), in this machine's WebKitGTK library through research/webkit/repro/jsc-run.c.
// One process, one pass: the counts over thousands are in docs/webkit.md; this keeps the
// shipped build and the driver that counted it working together. And `selfCheck()`, the
// known-answer run a page can make at start, in JavaScriptCore and in V8.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from './project.mjs';

const repro = join(ROOT, 'research', 'webkit', 'repro');
let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsc-shipped-'));
  execFileSync('gcc', [
    '-O2',
    '-o',
    join(dir, 'jsc-run'),
    join(repro, 'jsc-run.c'),
    '-l:libjavascriptcoregtk-4.1.so.0',
  ]);
  for (const name of ['sequence', 'self-check']) {
    execFileSync(join(ROOT, 'node_modules', '.bin', 'esbuild'), [
      join(repro, 'web', `${name}.mjs`),
      '--bundle',
      '--format=iife',
      '--log-level=error',
      `--outfile=${join(dir, `web-${name}.js`)}`,
    ]);
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs a bundle over pkg/web's module in JavaScriptCore with its defaults (no JSC_* option).
 * @param {string} bundle
 * @param {number} passes
 */
function inJavaScriptCore(bundle, passes) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('JSC_')),
  );
  const wasm = join(ROOT, 'pkg', 'web', 'azqueue_bg.wasm');
  const run = spawnSync(join(dir, 'jsc-run'), [wasm, join(dir, bundle), String(passes)], {
    env,
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(run.stdout.trim(), `ok: ${passes} passes`, run.stderr);
  assert.equal(run.status, 0);
}

test('pkg/web runs the WAL sequence right in JavaScriptCore with every tier on', () => {
  inJavaScriptCore('web-sequence.js', 1);
});

test('selfCheck() gives its known answers in JavaScriptCore, again and again', () => {
  // Enough runs in one instance that its code reaches the optimizing tier.
  inJavaScriptCore('web-self-check.js', 20);
});

test('selfCheck() gives its known answers in Node (V8)', async () => {
  const glue = await import(join(ROOT, 'pkg', 'web', 'azqueue.js'));
  glue.initSync({ module: readFileSync(join(ROOT, 'pkg', 'web', 'azqueue_bg.wasm')) });
  assert.doesNotThrow(() => glue.selfCheck());
});
