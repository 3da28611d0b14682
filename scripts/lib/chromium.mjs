// Headless Chromium for the Node test suites: Debian's /usr/bin/chromium through playwright-core
// (never a downloaded browser), with the flags that keep it quiet and off the network.
// Not a test file itself.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Headless, and off the network: this machine refuses Chromium's background connections. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Launches a fresh headless Chromium; resolves to playwright's Browser. */
export function launchChromium() {
  assert.ok(
    fs.existsSync(CHROMIUM),
    `${CHROMIUM} is missing (scripts/ensure-tools.sh installs it)`,
  );
  return chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
}
