// Chromium, Firefox ESR and WebKitGTK as plain processes on a persistent profile, each in its
// own process group so a test can SIGKILL the whole browser mid-write and start it again on the
// same profile. They open a page and nothing more: the page takes its orders over HTTP
// (pages/drive.js, `harness.call`), so no browser needs a remote protocol. Debian's builds
// only (/usr/bin/chromium, /usr/bin/firefox-esr, WebKitGTK's MiniBrowser); never downloads
// one. Not a test file.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

export const BROWSERS = ['chromium', 'firefox', 'webkit'];

const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

// Firefox on a new profile: no first-run pages, no update or telemetry attempts (the machine
// is offline), and no "restore session?" after a kill.
const FIREFOX_PREFS = {
  'browser.shell.checkDefaultBrowser': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'browser.aboutwelcome.enabled': false,
  'browser.sessionstore.resume_from_crash': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'app.update.disabledForTesting': true,
  'network.captive-portal-service.enabled': false,
  'browser.safebrowsing.update.enabled': false,
};

/**
 * A virtual X display for WebKitGTK (it has no headless mode of its own), shared by every
 * launch in a test. Resolves to { display: ':N', close() }.
 *
 * -noreset: by default Xvfb resets itself when its last client goes, and a client that connects
 * meanwhile gets "cannot open display". A browser relaunched right after the kill of the last
 * one hit that: under load, 53 of 500 back-to-back connections failed without it, 0 of 500 with.
 */
export async function virtualDisplay() {
  const xvfb = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp', '-noreset'],
    {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    },
  );
  const number = await new Promise((resolve, reject) => {
    let out = '';
    /** @type {import('node:stream').Readable} fd 3, piped */ (xvfb.stdio[3]).on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it had a display`)));
  });
  return {
    display: `:${number}`,
    close: () =>
      new Promise((resolve) => {
        xvfb.once('exit', resolve);
        xvfb.kill('SIGTERM');
      }),
  };
}

/**
 * The command line and environment that start `browser` on `profile` at `url`.
 * @param {string} browser
 * @param {string} profile
 * @param {string} url
 * @param {string | undefined} display
 * @returns {[string, string[], Record<string, string>]}
 */
function command(browser, profile, url, display) {
  if (browser === 'chromium')
    return [
      CHROMIUM,
      [...CHROMIUM_ARGS, '--disable-dev-shm-usage', `--user-data-dir=${profile}`, url],
      {},
    ];
  if (browser === 'firefox') {
    const prefs = Object.entries(FIREFOX_PREFS).map(
      ([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`,
    );
    fs.writeFileSync(path.join(profile, 'user.js'), prefs.join('\n') + '\n');
    return [
      '/usr/bin/firefox-esr',
      ['--headless', '--no-remote', '--profile', profile, url],
      { MOZ_CRASHREPORTER_DISABLE: '1' },
    ];
  }
  if (browser === 'webkit') {
    if (!display) throw new Error('WebKitGTK needs a virtualDisplay()');
    // MiniBrowser keeps its website data (IndexedDB included) under the XDG directories.
    // Wasm in JavaScriptCore's baseline JIT only, as in make test: WebKitGTK 2.50's wasm
    // interpreters corrupt live floats and once crashed (scripts/test-webkit.sh says how).
    return [
      MINIBROWSER,
      [url],
      {
        DISPLAY: display,
        XDG_DATA_HOME: path.join(profile, 'data'),
        XDG_CACHE_HOME: path.join(profile, 'cache'),
        XDG_CONFIG_HOME: path.join(profile, 'config'),
        JSC_useWasmIPInt: '0',
        JSC_useWasmLLInt: '0',
      },
    ];
  }
  throw new Error(`unknown browser ${browser}`);
}

/**
 * Starts `browser` on `profile` (a directory that keeps its IndexedDB between launches) with
 * `url` open. Resolves at once to { browser, pid, stderr(), kill(), close() }: the page then
 * announces itself by asking the harness for commands.
 * @param {string} browser
 * @param {string} profile
 * @param {string} url
 * @param {{ display?: string }} [options]
 */
export function launchBrowser(browser, profile, url, { display } = {}) {
  const [file, args, env] = command(browser, profile, url, display);
  const child = spawn(file, args, {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let err = '';
  child.stderr?.on('data', (d) => {
    err = (err + d).slice(-4000);
  });
  // A missing binary: the harness call that waits for the page reports it (scripts/ensure-tools.sh
  // installs all three browsers).
  child.on('error', (e) => {
    err += `\ncannot start ${file}: ${e.message}`;
  });
  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
  const exited = new Promise((r) => {
    child.once('exit', (code, signal) => r({ code, signal }));
    child.once('error', () => r({ code: null, signal: null })); // never started
  });
  const signalGroup = (/** @type {NodeJS.Signals} */ signal) => {
    try {
      process.kill(-(/** @type {number} started */ (child.pid)), signal);
    } catch {}
  };
  return {
    browser,
    pid: child.pid,
    exited,
    stderr: () => err,
    /** SIGKILL to the whole process group (browser, content, network and storage processes). */
    kill: async () => {
      signalGroup('SIGKILL');
      return exited;
    },
    /** SIGTERM to the group, then SIGKILL if it lingers. */
    close: async () => {
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), 10_000);
      const result = await exited;
      clearTimeout(timer);
      signalGroup('SIGKILL'); // helpers that outlived the main process
      return result;
    },
  };
}
