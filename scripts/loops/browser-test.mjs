// Runs one wasm browser test alone, again and again, each run in a fresh browser, and counts
// (issue 23). Called by scripts/loops/browser-test.sh, which builds the test binary and sets the
// environment:
//   node scripts/loops/browser-test.mjs <webkit|chrome|firefox> <runs> <test .wasm> <test name>
// wasm-bindgen's runner serves the test page once (its interactive mode: NO_HEADLESS), so the
// 45 MB debug wasm is processed once, not per run; each run is then a new WebDriver session
// (a new browser process) that loads the page, which runs the one test, and the page's output
// is read as the runner reads it. A failed run's page output is kept in $LOOP_LOGS; nothing is
// retried (LOOP_COLD_CACHE=1 and LOOP_DROP_PAGE_CACHE=1: each run with cold caches, below). The
// last line is the tally:
//   loop <browser> <test>: <runs> runs, <passed> passed, <failed> failed
import { execFileSync, spawn } from 'node:child_process';
import {
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer } from 'node:net';

const [browser, runsText, wasm, test] = process.argv.slice(2);
const runs = Number(runsText);
const logs = process.env.LOOP_LOGS ?? `/tmp/loop-${browser}`;
const testTimeout = Number(process.env.WASM_BINDGEN_TEST_TIMEOUT ?? 180) * 1000;
mkdirSync(logs, { recursive: true });

/**
 * A free loopback port.
 * @returns {Promise<number>}
 */
function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts `command` and resolves once its output matches `ready`.
 * @param {string} command
 * @param {string[]} args
 * @param {Record<string, string>} env
 * @param {RegExp} ready
 * @returns {Promise<import('node:child_process').ChildProcess>}
 */
function start(command, args, env, ready) {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    const look = (/** @type {Buffer} */ b) => {
      seen += b.toString();
      if (ready.test(seen)) resolve(child);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('exit', (code) =>
      reject(new Error(`${command} exited (${code}) before it was ready:\n${seen}`)),
    );
  });
}

const serverPort = await freePort();
const server = await start(
  'wasm-bindgen-test-runner',
  // `*`: every test of the binary in one page, as `make test` runs it.
  test === '*' ? [wasm] : [wasm, '--exact', '--include-ignored', test],
  { NO_HEADLESS: '1', WASM_BINDGEN_TEST_ADDRESS: `127.0.0.1:${serverPort}` },
  /Interactive browsers tests are now available/,
);
const driverPort = await freePort();
/** @type {Record<string, string | undefined>} */
const drivers = {
  chrome: process.env.CHROMEDRIVER ?? 'chromedriver',
  firefox: process.env.GECKODRIVER ?? 'geckodriver',
  webkit: process.env.SAFARIDRIVER ?? 'WebKitWebDriver',
};
const driverCommand = drivers[browser];
if (!driverCommand) throw new Error(`unknown browser ${browser}`);
// The driver's output and the browser's (WebKitGTK's WebProcess writes crashes and JSC's
// messages there) go to one file beside the failed runs' logs.
const driverLog = openSync(`${logs}/driver.log`, 'a');
// LOOP_COLD_CACHE=1: the browser's cache directory (XDG_CACHE_HOME: Mesa's shader cache,
// GStreamer's plugin registry) is emptied before each run, as on a machine's first browser run.
const coldCache = process.env.LOOP_COLD_CACHE === '1' ? `${logs}/cold-cache` : null;
const dropPageCache = process.env.LOOP_DROP_PAGE_CACHE === '1';
const driver = spawn(driverCommand, [`--port=${driverPort}`], {
  stdio: ['ignore', driverLog, driverLog],
  env: coldCache ? { ...process.env, XDG_CACHE_HOME: coldCache } : process.env,
});
const base = `http://127.0.0.1:${driverPort}`;
/** The session of the run under way, ended with the loop if it is stopped (SIGTERM, SIGINT). */
let current = '';
/** Set once the loop is stopped: the run it cut short is not counted. */
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, async () => {
    stopping = true;
    if (current) await fetch(`${base}/session/${current}`, { method: 'DELETE' }).catch(() => {});
    driver.kill();
    server.kill();
    console.log(`stopped by ${signal}`);
    process.exit(1);
  });
}

/**
 * One WebDriver command; resolves to the answer's `value`.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<unknown>}
 */
async function wd(method, path, body) {
  const response = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json.value ?? json)}`);
  return json.value;
}

// LOOP_PAGE_LOAD=none|eager: WebDriver's page load strategy. With `none` no command waits for
// the browser's idea of a load in progress, so a page that stops answering under `normal` can
// still be read (see pageState).
const pageLoadStrategy = process.env.LOOP_PAGE_LOAD;
const capabilities = {
  chrome: { 'goog:chromeOptions': { args: ['headless', 'disable-dev-shm-usage', 'no-sandbox'] } },
  firefox: { 'moz:firefoxOptions': { args: ['-headless'] } },
  webkit: {},
}[browser];

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

for (let i = 0; ; i++) {
  try {
    await wd('GET', '/status');
    break;
  } catch (e) {
    if (i > 100) throw e;
    await sleep(200);
  }
}

// JavaScriptCore's own signals (thread suspension, wasm's guard pages) go on to it unseen.
const gdbCommands = [
  'handle SIGUSR1 SIGUSR2 SIGSEGV SIGBUS nostop noprint pass',
  'thread 1',
  'bt 40',
].flatMap((c) => ['-ex', c]);

/**
 * The browser's processes (the driver's descendants) as they are now: state and CPU seconds of
 * each, and for WebKit's WebProcesses the main thread's stack (gdb), so a page that stops
 * answering says whether it was busy, where, or gone.
 * @returns {string}
 */
function browserProcesses() {
  /** @type {Map<number, { ppid: number, comm: string, state: string, cpu: number }>} */
  const all = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      all.set(Number(name), {
        ppid: Number(f[1]),
        comm,
        state: f[0],
        cpu: (Number(f[11]) + Number(f[12])) / 100,
      });
    } catch {
      // gone meanwhile
    }
  }
  const mine = new Set([driver.pid ?? -1]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of all) {
      if (!mine.has(pid) && mine.has(p.ppid)) {
        mine.add(pid);
        grew = true;
      }
    }
  }
  const lines = [];
  for (const pid of mine) {
    const p = all.get(pid);
    if (!p) continue;
    lines.push(`pid ${pid} ${p.comm} state ${p.state} cpu ${p.cpu.toFixed(1)} s`);
    if (p.comm.startsWith('WebKitWebProces')) {
      try {
        lines.push(
          execFileSync('gdb', ['-p', String(pid), '-batch', ...gdbCommands], {
            encoding: 'utf8',
            timeout: 60_000,
            stdio: ['ignore', 'pipe', 'ignore'],
          })
            .split('\n')
            .filter((l) => !l.startsWith('[New LWP'))
            .join('\n'),
        );
      } catch (e) {
        lines.push(`gdb: ${e instanceof Error ? e.message : e}`);
      }
    }
  }
  return lines.join('\n');
}

/**
 * What the page says of itself, for a run without a result: its address and load state, the
 * resources it fetched and when each ended, and its output. Bounded: a minute for the script
 * (a load already has the session's minute).
 * @param {string} id the session
 * @returns {Promise<string>}
 */
async function pageState(id) {
  try {
    await wd('POST', `/session/${id}/timeouts`, { script: 60_000 });
    const state = await wd('POST', `/session/${id}/execute/sync`, {
      script: `return JSON.stringify({
        url: location.href,
        readyState: document.readyState,
        now: performance.now(),
        resources: performance.getEntriesByType('resource').map((r) => ({
          name: r.name, start: r.startTime, end: r.responseEnd, bytes: r.encodedBodySize,
        })),
        output: (document.getElementById('output')?.textContent ?? '').slice(-4000),
      }, null, 1)`,
      args: [],
    });
    return String(state);
  } catch (e) {
    return `no answer: ${e instanceof Error ? e.message : e}`;
  }
}

/** One run: a new browser, the page, its output once it has a result line (or the time is up). */
async function runOnce() {
  const started = Date.now();
  const after = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const session = /** @type {{ sessionId: string }} */ (
    await wd('POST', '/session', {
      capabilities: {
        alwaysMatch: pageLoadStrategy ? { ...capabilities, pageLoadStrategy } : capabilities,
      },
    })
  );
  const id = session.sessionId;
  current = id;
  // A minute, not WebDriver's five, for any command waiting on a load (the page loads in seconds).
  await wd('POST', `/session/${id}/timeouts`, { pageLoad: 60_000 });
  let output = '';
  let step = 'loading the page';
  try {
    await wd('POST', `/session/${id}/url`, { url: `http://127.0.0.1:${serverPort}/` });
    step = `reading the page's output (loaded after ${after()})`;
    const until = Date.now() + testTimeout;
    while (Date.now() < until) {
      // The script returns a string.
      output = /** @type {string} */ (
        await wd('POST', `/session/${id}/execute/sync`, {
          script: "return document.getElementById('output')?.textContent ?? ''",
          args: [],
        })
      );
      if (/test result: /.test(output)) break;
      await sleep(250);
    }
    if (!/test result: /.test(output)) {
      output += `\nno result after ${after()}; the browser's processes:\n${browserProcesses()}`;
      output += `\nthe page's state:\n${await pageState(id)}`;
    }
  } catch (e) {
    // The page did not answer (a hung, busy or crashed WebProcess): say at which step and when,
    // and what the page shows if it answers once more within a minute. Not a retry: the test is
    // not run again, its output is read once more.
    const processes = browserProcesses();
    const then = await pageState(id);
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(
      `${step}, failed after ${after()}: ${why}\nthe browser's processes:\n${processes}\nthe page's state then:\n${then}`,
    );
  } finally {
    await wd('DELETE', `/session/${id}`).catch(() => {});
    current = '';
  }
  return output;
}

let passed = 0;
let failed = 0;
for (let run = 1; run <= runs; run++) {
  let output;
  writeSync(driverLog, `--- run ${run} ${new Date().toISOString()}\n`);
  if (coldCache) rmSync(coldCache, { recursive: true, force: true });
  // LOOP_DROP_PAGE_CACHE=1 (root): the kernel's page cache dropped too, so the browser's
  // libraries and the page's files are read from disk again, as on a machine just started.
  if (dropPageCache) {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
  }
  try {
    output = await runOnce();
  } catch (e) {
    output = `the run failed outside the page: ${e instanceof Error ? e.stack : e}`;
  }
  if (stopping) break;
  if (/test result: ok\. [1-9]\d* passed; 0 failed/.test(output)) {
    passed++;
    // The first passing run's output too: what a passing page shows (which tests ran, in which
    // order), to set beside a failed one.
    if (passed === 1) writeFileSync(`${logs}/first-passed.log`, output);
  } else {
    failed++;
    writeFileSync(`${logs}/run-${run}.log`, output);
    const why = output
      .split('\n')
      .filter((l) => /panicked|RuntimeError|error|WRONG|timed out/i.test(l));
    console.log(`run ${run} failed (${logs}/run-${run}.log)\n  ${why.slice(0, 4).join('\n  ')}`);
  }
  console.log(
    `progress ${browser}: ${run} runs, ${passed} passed, ${failed} failed ${new Date().toISOString()}`,
  );
}
console.log(`loop ${browser} ${test}: ${passed + failed} runs, ${passed} passed, ${failed} failed`);
driver.kill();
server.kill();
