#!/usr/bin/env node
// azqueue's Node server: a drop-in for `azurite-queue`. The Azure Queue REST API on
// --queueHost:--queuePort (default 127.0.0.1:10001, path-style URLs like Azurite's) served from
// node:net sockets by the wasm service's HTTP/1.1 connections (queue-socket.mjs: framing in Rust,
// one wasm call per socket read), and, when --webPort is given, the teaching page and the files
// of www/ (node:http). The page is opt-in, as Azurite has none: the queue service never depends
// on a second free port, and a busy page port leaves it running.
// Glue only: every queue decision is made inside the wasm package.

import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { queueConnectionListener } from './queue-socket.mjs';
import { Journal } from './journal.mjs';
import { devPathsOnWebPort } from './dev-web.mjs';
import { EventStreams } from './event-stream.mjs';
import { THROTTLE_USAGE, logFaults, throttleOption } from './faults.mjs';

// The repository (or the installed package): www/ beside hosts/.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WWW = path.join(ROOT, 'www');
// The build output (scripts/build.sh): the page loads pkg/web and pkg/vendor at the same paths.
const PKG = path.join(ROOT, 'pkg');

// Run as the npm package's `azqueue` command, or from a checkout.
const PROGRAM =
  process.argv[1] && path.basename(process.argv[1]) !== 'server.mjs'
    ? 'azqueue'
    : 'node www/server.mjs';

const USAGE = `usage: ${PROGRAM} [options]

  --queueHost HOST          address for the queue service (default 127.0.0.1)
  --queuePort PORT          port for the queue service (default 10001; 0 picks a free port)
  --webHost HOST            address for the page (default: the queue host)
  --webPort PORT            also serve the teaching page and the files of www/ on PORT (off
                            unless given; 0 picks a free port). If PORT is taken, the queue
                            service runs without the page
  -l, --location DIR        keep queues and messages in DIR (a journal: every answer waits
                            until its change is fsynced, so a kill loses nothing acknowledged)
  --inMemoryPersistence     keep everything in memory, even with --location (the default
                            when --location is not given)
  -s, --silent              no access log
  -d, --debug FILE          append a detailed log to FILE: each request's and answer's
                            headers and body (keys, signatures and tokens are never written)
  --maxConnections N        open queue connections served at once (default 1000); one more
                            is answered 503 ServerBusy and closed
  --headTimeout MS          time a request head may take to arrive whole (default 30000);
                            a slower one is answered 408 and closed
  --cert FILE               serve HTTPS: a PEM certificate (with --key), or a PFX/PKCS #12
                            file (with --pwd), as Azurite takes them
  --key FILE                the PEM private key for --cert
  --pwd PASSWORD            the password of the PFX given as --cert
  --oauth basic             accept Entra ID bearer tokens over HTTPS (with --cert): audience,
                            issuer and lifetime are checked, the signature is not; over HTTP
                            a bearer request is refused (403 AuthenticationFailed)
  --clockStart TIME         the queues' clock starts at TIME (ISO 8601, or milliseconds since
                            the epoch) and runs on from there
  --clockPaused             the queues' clock stands still until moved; both are moved later
                            with POST /_azqueue/clock (docs/clock.md)
  --devOrigin ORIGIN        let pages from ORIGIN (e.g. http://127.0.0.1:8080, another
                            azqueue's page) read and steer this server's development paths
                            (/_azqueue/: the inspector, the clock) through CORS; repeatable.
                            Off by default: no other site's page can (docs/inspector.md)
${THROTTLE_USAGE}
  --skipApiVersionCheck     accepted for Azurite compatibility (no effect)
  -L, --loose               accepted for Azurite compatibility (no effect)
  --disableProductStyleUrl  accepted for Azurite compatibility (no effect)
  -h, --help                this text

Accounts come from AZURITE_ACCOUNTS ("name:key1[:key2];name2:key"), else devstoreaccount1.`;

class UsageError extends Error {}

/** 9999-12-31T23:59:59Z, the latest time Azure writes. */
const MAX_TIME_MS = 253402300799000;

/**
 * The options `parseArgs` reads: ports and counts as numbers, flags as true, the rest as given.
 * @typedef {object} Options
 * @property {string} queueHost
 * @property {number} queuePort
 * @property {string} [webHost] the queue host unless given
 * @property {number} [webPort] the page's port; no page unless given
 * @property {boolean} [inMemoryPersistence]
 * @property {string} [location]
 * @property {boolean} [silent]
 * @property {string} [debug]
 * @property {number} [maxConnections]
 * @property {number} [headTimeout]
 * @property {string} [cert]
 * @property {string} [key]
 * @property {string} [pwd]
 * @property {'basic'} [oauth] the only kind there is
 * @property {number} [clockStart] milliseconds since the epoch
 * @property {boolean} [clockPaused]
 * @property {string[]} [devOrigins] from each --devOrigin
 * @property {boolean} [throttle]
 * @property {string} [queueMessagesPerSecond]
 * @property {string} [accountRequestsPerSecond]
 * @property {import('../../pkg/node/azqueue.js').FaultRuleSet} [faults] from the three above
 * @property {boolean} [skipApiVersionCheck]
 * @property {boolean} [loose]
 * @property {boolean} [disableProductStyleUrl]
 * @property {boolean} [help]
 */

/** @import { Server } from 'node:net' */
/** @import { IncomingMessage, ServerResponse } from 'node:http' */
/** @import { RequestDone } from './queue-socket.mjs' */

/**
 * name → [kind, canonical name]; kinds: "value" takes an argument, "list" one each time it is
 * given, "flag" none.
 * @type {Record<string, ['value' | 'list' | 'flag', string]>}
 */
const OPTIONS = {
  '--queueHost': ['value', 'queueHost'],
  '--queuePort': ['value', 'queuePort'],
  '--webHost': ['value', 'webHost'],
  '--webPort': ['value', 'webPort'],
  '--inMemoryPersistence': ['flag', 'inMemoryPersistence'],
  '--location': ['value', 'location'],
  '-l': ['value', 'location'],
  '--silent': ['flag', 'silent'],
  '-s': ['flag', 'silent'],
  '--debug': ['value', 'debug'],
  '-d': ['value', 'debug'],
  '--maxConnections': ['value', 'maxConnections'],
  '--headTimeout': ['value', 'headTimeout'],
  '--cert': ['value', 'cert'],
  '--key': ['value', 'key'],
  '--pwd': ['value', 'pwd'],
  '--oauth': ['value', 'oauth'],
  '--skipApiVersionCheck': ['flag', 'skipApiVersionCheck'],
  '--loose': ['flag', 'loose'],
  '-L': ['flag', 'loose'],
  '--disableProductStyleUrl': ['flag', 'disableProductStyleUrl'],
  '--clockStart': ['value', 'clockStart'],
  '--clockPaused': ['flag', 'clockPaused'],
  '--devOrigin': ['list', 'devOrigins'],
  '--throttle': ['flag', 'throttle'],
  '--queueMessagesPerSecond': ['value', 'queueMessagesPerSecond'],
  '--accountRequestsPerSecond': ['value', 'accountRequestsPerSecond'],
  '--help': ['flag', 'help'],
  '-h': ['flag', 'help'],
};

/**
 * Parses Azurite-style arguments (`--flag value` or `--flag=value`). Throws UsageError.
 * @param {string[]} argv
 * @returns {Options}
 */
export function parseArgs(argv) {
  /** @type {Options & Record<string, unknown>} each option is set by its name below */
  const opts = { queueHost: '127.0.0.1', queuePort: 10001 };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] =
      argv[i].startsWith('--') && argv[i].includes('=')
        ? [argv[i].slice(0, argv[i].indexOf('=')), argv[i].slice(argv[i].indexOf('=') + 1)]
        : [argv[i], undefined];
    const spec = OPTIONS[name];
    if (!spec) throw new UsageError(`unknown option ${JSON.stringify(argv[i])}`);
    const [kind, key] = spec;
    if (kind === 'flag') {
      if (inline !== undefined) throw new UsageError(`${name} takes no value`);
      opts[key] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('-'))) {
      throw new UsageError(`${name} needs a value`);
    }
    if (kind === 'list') opts[key] = [.../** @type {string[]} */ (opts[key] ?? []), value];
    else opts[key] = value;
  }
  for (const key of ['queuePort', 'webPort']) {
    if (opts[key] === undefined) continue;
    const n = Number(opts[key]);
    if (!Number.isInteger(n) || n < 0 || n > 65535) {
      throw new UsageError(
        `--${key} must be a port number from 0 to 65535, not ${JSON.stringify(opts[key])}`,
      );
    }
    opts[key] = n;
  }
  for (const key of ['maxConnections', 'headTimeout']) {
    if (opts[key] === undefined) continue;
    const n = Number(opts[key]);
    if (!Number.isInteger(n) || n < 1) {
      throw new UsageError(`--${key} must be a positive integer, not ${JSON.stringify(opts[key])}`);
    }
    opts[key] = n;
  }
  if (opts.clockStart !== undefined) {
    const given = String(opts.clockStart);
    // ISO 8601 by shape first: Date.parse alone reads almost anything ("-5" is May 2001).
    const iso = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
    const ms = /^\d+$/.test(given) ? Number(given) : iso.test(given) ? Date.parse(given) : NaN;
    if (!Number.isSafeInteger(ms) || ms < 0 || ms > MAX_TIME_MS) {
      throw new UsageError(
        `--clockStart takes an ISO 8601 time (2030-01-01T00:00:00Z) or milliseconds since the epoch, not ${JSON.stringify(given)}`,
      );
    }
    opts.clockStart = ms;
  }
  const throttle = throttleOption(opts);
  if (throttle.error) throw new UsageError(throttle.error);
  opts.faults = throttle.faults;
  opts.webHost ??= opts.queueHost;
  if (opts.key && !opts.cert) throw new UsageError('--key needs --cert');
  if (opts.pwd && !opts.cert) throw new UsageError('--pwd needs --cert');
  if (opts.cert && !opts.key && !opts.pwd) {
    throw new UsageError('--cert needs --key (a PEM certificate) or --pwd (a PFX file)');
  }
  if (opts.oauth !== undefined && opts.oauth !== 'basic') {
    throw new UsageError(`--oauth takes "basic", not ${JSON.stringify(opts.oauth)}`);
  }
  // Without --cert, --oauth basic still starts, as Azurite's does: bearer requests are then
  // refused (a token is only read over TLS) and SharedKey and SAS work (main() says so).
  return opts;
}

/**
 * TLS options from --cert/--key/--pwd: PEM when a key is given, else PFX with the password
 * (Azurite's rule). Throws a readable Error when a file cannot be read.
 * @param {Options & { cert: string }} opts
 */
function tlsOptions(opts) {
  /**
   * @param {string} file
   * @param {string} what
   */
  const read = (file, what) => {
    try {
      return fs.readFileSync(file);
    } catch (error) {
      const err = /** @type {NodeJS.ErrnoException} */ (error);
      throw new Error(
        `cannot read the ${what} ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`,
      );
    }
  };
  /** @type {import('node:tls').SecureContextOptions} */
  const options = opts.key
    ? { cert: read(opts.cert, 'certificate'), key: read(opts.key, 'key') }
    : { pfx: read(opts.cert, 'PFX file'), passphrase: opts.pwd };
  // A wrong password or a key that does not match shows here, before anything is started.
  try {
    tls.createSecureContext(options);
  } catch (err) {
    const { message } = /** @type {Error} */ (err);
    throw new Error(`cannot use ${opts.cert} as the server's certificate: ${message}`);
  }
  return options;
}

/** @returns {typeof import('../../pkg/node/azqueue.js')} */
function loadPackage() {
  const entry = path.join(PKG, 'node', 'azqueue.js');
  if (!fs.existsSync(entry)) {
    throw new Error(`${path.relative(process.cwd(), entry)} is missing: run \`make build\` first`);
  }
  return createRequire(import.meta.url)(entry);
}

/** @type {Record<string, string>} */
const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ts': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/**
 * Serves the files under www/, and pkg/web/ and pkg/vendor/ at /pkg/web/ and /pkg/vendor/ (GET/HEAD
 * only, never outside those directories).
 * @param {string} www
 * @returns {(req: IncomingMessage, res: ServerResponse) => void}
 */
function staticListener(www) {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(/** @type {string} */ (req.url), 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const built = /^\/pkg\/(web|vendor)\//.exec(pathname);
    const root = built ? path.join(PKG, built[1]) : www;
    let file = path.join(root, built ? pathname.slice(built[0].length) : pathname);
    if (!file.startsWith(root + path.sep) && file !== root) {
      res.writeHead(403).end();
      return;
    }
    fs.stat(file, (err, st) => {
      if (!err && st.isDirectory()) file = path.join(file, 'index.html');
      fs.readFile(file, (readErr, bytes) => {
        if (readErr) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
          return;
        }
        res.writeHead(200, {
          'content-type': MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
          'content-length': bytes.length,
          'cache-control': 'no-cache',
        });
        res.end(req.method === 'HEAD' ? undefined : bytes);
      });
    });
  };
}

/**
 * Listens on `host:port`; resolves to the port taken.
 * @param {Server} server
 * @param {string} host
 * @param {number} port
 * @param {string} what
 * @returns {Promise<number>}
 */
function listen(server, host, port, what) {
  return new Promise((resolve, reject) => {
    server.once('error', (/** @type {NodeJS.ErrnoException} */ err) => {
      const why =
        err.code === 'EADDRINUSE'
          ? 'the port is already in use'
          : err.code === 'EACCES'
            ? 'permission denied'
            : err.code === 'EADDRNOTAVAIL'
              ? 'no such local address'
              : err.message;
      reject(new Error(`cannot serve the ${what} on ${host}:${port}: ${why}`));
    });
    server.listen(port, host, () =>
      resolve(/** @type {import('node:net').AddressInfo} */ (server.address()).port),
    );
  });
}

/** @param {string} host */
function urlHost(host) {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * One request in the --debug log: the access line, the request, then the answer.
 * @param {string} line
 * @param {{ headers?: [string, string][], body?: string, status: number,
 *   responseHeaders?: [string, string][], responseBody?: string }} entry
 */
function debugEntry(
  line,
  { headers = [], body = '', status, responseHeaders = [], responseBody = '' },
) {
  /**
   * @param {[string, string][]} pairs
   * @param {string} text
   */
  const block = (pairs, text) => [
    ...pairs.map(([k, v]) => `  ${k}: ${v}`),
    ...(text ? ['', ...text.split('\n').map((l) => `  ${l}`)] : []),
  ];
  return (
    [
      line,
      '> request',
      ...block(headers, body),
      `< response ${status}`,
      ...block(responseHeaders, responseBody),
      '',
    ].join('\n') + '\n'
  );
}

/**
 * --clockStart / --clockPaused: the same change a POST /_azqueue/clock makes, in process.
 * @param {import('../../pkg/node/azqueue.js').QueueService} service
 * @param {Options} opts
 */
async function startClock(service, opts) {
  const change = {
    ...(opts.clockStart !== undefined && { setMs: opts.clockStart }),
    ...(opts.clockPaused && { paused: true }),
  };
  const headers = ['host', 'localhost', 'x-azqueue-dev', '1'].join('\n');
  const body = new TextEncoder().encode(JSON.stringify(change));
  const r = await service.handleRaw('POST', '/_azqueue/clock', headers, body);
  const status = r.status;
  const text = new TextDecoder().decode(r.body);
  r.free();
  if (status !== 200) {
    const why = status === 403 ? 'the development paths are off (AZURITE_ACCOUNTS)' : text;
    throw new Error(`--clockStart and --clockPaused cannot be used: ${why}`);
  }
}

/**
 * Starts the queue service and, with `webPort`, the page; resolves to { queueUrl, webUrl,
 * connectionString, close() } (`webUrl` undefined when no page is served). `log(line)` receives
 * access-log lines unless `silent`; `warn(line)` says why the page is not served when its port
 * cannot be had (the queue service runs regardless).
 * @param {Options} opts
 * @param {{ log?: (line: string) => void, warn?: (line: string) => void }} [hooks]
 */
export async function startServer(opts, { log = console.log, warn = console.error } = {}) {
  const { QueueService } = loadPackage();
  // Read first: a missing certificate should fail before the journal directory is locked.
  const secure = opts.cert ? tlsOptions(/** @type {Options & { cert: string }} */ (opts)) : null;
  const accounts = process.env.AZURITE_ACCOUNTS?.trim() || undefined;
  // --location DIR: the journal; --inMemoryPersistence wins, as in Azurite.
  const journal =
    opts.location && !opts.inMemoryPersistence
      ? new Journal(path.resolve(opts.location), { log: (line) => console.error(line) })
      : null;
  const service = await QueueService.open({
    store: journal ?? 'memory',
    accounts,
    oauth: opts.oauth,
    devOrigins: opts.devOrigins,
    faults: opts.faults,
  });
  if (opts.clockStart !== undefined || opts.clockPaused) {
    try {
      await startClock(service, opts);
    } catch (err) {
      await service.close().catch(() => {});
      await journal?.close();
      throw err;
    }
  }
  const debug = opts.debug ? fs.createWriteStream(opts.debug, { flags: 'a' }) : null;
  if (debug) logFaults(service, debug);
  // `GET /_azqueue/events` on either port: one subscription for every open stream.
  const events = new EventStreams(service);

  // Entries come from the wasm connection with the URL's sig, Authorization's credential
  // and any account key already <redacted>, so nothing here sees a secret.
  /** @param {RequestDone} entry */
  const onDone = ({
    method,
    url,
    status,
    errorCode,
    ms,
    headers,
    body,
    responseHeaders,
    responseBody,
  }) => {
    const line = `${new Date().toISOString()} ${method} ${url} ${status}${errorCode ? ` ${errorCode}` : ''} ${ms.toFixed(1)}ms`;
    if (!opts.silent) log(line);
    if (debug)
      debug.write(debugEntry(line, { headers, body, status, responseHeaders, responseBody }));
  };

  const connections = queueConnectionListener(service, {
    fallbackHost: `${urlHost(opts.queueHost)}:${opts.queuePort}`,
    onDone: opts.silent && !debug ? null : onDone,
    logHeaders: Boolean(debug),
    maxConnections: opts.maxConnections,
    headMs: opts.headTimeout,
    secure: Boolean(secure),
    events,
  });
  // noDelay: answers are written whole, so Nagle's algorithm would only delay them;
  // allowHalfOpen: a client that ends its side after sending still gets its answers.
  // With --cert the same connection handling runs on decrypted TLS sockets.
  const socketOptions = { noDelay: true, allowHalfOpen: true };
  const queueServer = secure
    ? tls.createServer({ ...secure, ...socketOptions }, connections)
    : net.createServer(socketOptions, connections);
  // The page's port also answers the development paths (dev-web.mjs), as the page's own
  // origin, to the address it listens on.
  /** @type {string | undefined} */
  let webListening;
  const devPaths = devPathsOnWebPort(service, events, () => webListening);
  const files = staticListener(WWW);
  /** @type {(req: IncomingMessage, res: ServerResponse) => void} */
  const page = (req, res) => {
    if (!devPaths(req, res)) files(req, res);
  };
  const webServer =
    opts.webPort === undefined
      ? null
      : secure
        ? https.createServer(secure, page)
        : http.createServer(page);
  const closeServers = () =>
    /** @type {Promise<void>} */ (
      new Promise((resolve) => {
        let pending = 2;
        const done = () => {
          if (--pending === 0) {
            debug?.end();
            resolve();
          }
        };
        for (const s of [queueServer, webServer]) {
          if (!s?.listening) {
            done();
            continue;
          }
          s.close(done);
        }
        /** @type {() => void} */ (connections.destroyAll)();
        webServer?.closeAllConnections();
      })
    );
  // Stop taking requests, let the store finish, then release the directory.
  const close = async () => {
    await closeServers();
    await service.close().catch((/** @type {Error} */ e) => console.error(`azqueue: ${e.message}`));
    await journal?.close();
  };

  try {
    const queuePort = await listen(queueServer, opts.queueHost, opts.queuePort, 'queue service');
    const scheme = secure ? 'https' : 'http';
    /** @type {string | undefined} */
    let webUrl;
    if (webServer) {
      const webHost = opts.webHost ?? opts.queueHost;
      try {
        const webPort = await listen(
          webServer,
          webHost,
          /** @type {number} */ (opts.webPort),
          'page',
        );
        webUrl = `${scheme}://${urlHost(webHost)}:${webPort}/`;
        webListening = `${urlHost(webHost)}:${webPort}`;
      } catch (err) {
        // The page is an extra: its port being taken must not take the queue service down.
        warn(
          `azqueue: ${/** @type {Error} */ (err).message}. The queue service runs without the ` +
            'page; give the page a free port with --webPort <port> (0 picks one), or leave ' +
            '--webPort out.',
        );
      }
    }
    const origin = `${scheme}://${urlHost(opts.queueHost)}:${queuePort}`;
    connections.fallbackHost = `${urlHost(opts.queueHost)}:${queuePort}`;
    return {
      queueUrl: `${origin}/${service.account}`,
      webUrl,
      connectionString: service.connectionString(origin),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

export async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`azqueue: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (opts.help) {
    console.log(USAGE);
    return;
  }
  if (opts.location && opts.inMemoryPersistence) {
    console.log(
      `azqueue: --inMemoryPersistence: data is memory-only (--location ${opts.location} is not used)`,
    );
  } else if (opts.location) {
    console.log(
      `azqueue: data in ${path.resolve(opts.location)} (journal; every answer waits for fsync)`,
    );
  }
  if (opts.devOrigins && process.env.AZURITE_ACCOUNTS?.trim()) {
    console.error(
      'azqueue: --devOrigin has no effect with AZURITE_ACCOUNTS: the development paths are off ' +
        'when accounts of your own are configured (their keys may be real ones).',
    );
  }
  if (opts.oauth && !opts.cert) {
    console.error(
      'azqueue: --oauth basic without --cert: requests with a bearer token are refused over HTTP ' +
        '(403 AuthenticationFailed, as in Azurite); SharedKey and SAS work. ' +
        'Give --cert and --key to accept tokens.',
    );
  }
  // Handlers go in before the ready line: a supervisor may signal as soon as it reads it.
  /** @type {Awaited<ReturnType<typeof startServer>> | null} */
  let server = null;
  let stopping = false;
  const stop = async (/** @type {string} */ signal) => {
    if (stopping) return;
    stopping = true;
    await server?.close();
    console.log(`azqueue: stopped (${signal})`);
    process.exit(0);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  try {
    server = await startServer(opts);
  } catch (err) {
    console.error(`azqueue: ${/** @type {Error} */ (err).message}`);
    process.exit(1);
  }
  if (stopping) {
    await server.close();
    return;
  }
  const web = server.webUrl ? ` web ${server.webUrl}` : '';
  console.log(
    `azqueue ready: queue ${server.queueUrl}${web} connection "${server.connectionString}"`,
  );
}

// Also when started through a symlink, as npm's `node_modules/.bin/azqueue` is.
if (
  process.argv[1] &&
  import.meta.url === pathToFileURL(fs.realpathSync(path.resolve(process.argv[1]))).href
) {
  await main();
}
