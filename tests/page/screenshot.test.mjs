// The commands docs/inspector.md and docs/page.md give for redrawing their pictures, `node
// scripts/screenshots/inspector.mjs` and `node scripts/screenshots/page.mjs`, run as written to a
// temporary place: each must exit 0 (it fails when the page does not show the scene) and leave
// PNGs of the documented sizes (the inspector's: the scene, then the scene presenting).

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runNode } from '../../scripts/lib/run-node.mjs';
import { PICTURE, presentingOut } from '../../scripts/screenshots/inspector.mjs';
import { PICTURES } from '../../scripts/screenshots/page.mjs';
import { ROOT } from './harness.mjs';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

test('scripts/screenshots/inspector.mjs writes its two PNGs (plain and presenting) of the picture’s size', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'azqueue-shot-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'inspector.png');
  const run = await runNode([join(ROOT, 'scripts', 'screenshots', 'inspector.mjs'), out], {
    timeoutMs: 60_000,
  });
  assert.equal(run.code, 0, `exit ${run.code} ${run.signal ?? ''}\n${run.stdout}\n${run.stderr}`);
  assertPng(out, PICTURE);
  assertPng(presentingOut(out), PICTURE);
});

test('scripts/screenshots/page.mjs writes the page’s PNGs of their sizes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'azqueue-shot-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const run = await runNode([join(ROOT, 'scripts', 'screenshots', 'page.mjs'), dir], {
    timeoutMs: 90_000,
  });
  assert.equal(run.code, 0, `exit ${run.code} ${run.signal ?? ''}\n${run.stdout}\n${run.stderr}`);
  for (const [name, size] of Object.entries(PICTURES)) assertPng(join(dir, name), size);
});

/**
 * @param {string} file
 * @param {{ width: number, height: number }} size
 */
function assertPng(file, size) {
  const png = readFileSync(file);
  assert.deepEqual(png.subarray(0, 8), PNG_SIGNATURE, 'a PNG signature');
  // The first chunk is IHDR: its length (13), its type, then width and height, big-endian.
  assert.equal(png.toString('latin1', 12, 16), 'IHDR');
  assert.deepEqual(
    { width: png.readUInt32BE(16), height: png.readUInt32BE(20) },
    { width: size.width, height: size.height },
  );
}
