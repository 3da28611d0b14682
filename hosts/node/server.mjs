#!/usr/bin/env node
// azqueue's Node server: a drop-in for `azurite-queue`. The Azure Queue REST API on
// --queueHost:--queuePort (default 127.0.0.1:10001, path-style URLs like Azurite's) served from
// node:net sockets by the wasm service's HTTP/1.1 connections (queue-socket.mjs: framing in Rust,
// one wasm call per socket read), and, when --webPort is given, the teaching page and the files
// of www/ (node:http). This file is the lifecycle: start, ready line, stop; the command line is
// arguments.mjs. The page is opt-in, as Azurite has none: the queue service never depends
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
import { USAGE, UsageError, parseArgs, version } from './arguments.mjs';
import { debugEntry } from './debug-log.mjs';
import { devPathsOnWebPort } from './dev-web.mjs';
import { EventStreams } from './event-stream.mjs';
import { logFaults } from './faults.mjs';
import { Journal } from './journal.mjs';
import { queueConnectionListener } from './queue-socket.mjs';
import { staticListener } from './static-files.mjs';
import { tlsOptions } from './tls-options.mjs';

export { parseArgs };

/** @import { Options } from './arguments.mjs' */

// The repository (or the installed package): www/ beside hosts/.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WWW = path.join(ROOT, 'www');
// The build output (scripts/build.sh): the page loads pkg/web and pkg/vendor at the same paths.
const PKG = path.join(ROOT, 'pkg');

/** @import { Server } from 'node:net' */
/** @import { IncomingMessage, ServerResponse } from 'node:http' */
/** @import { RequestDone } from './queue-socket.mjs' */

/** @returns {typeof import('../../pkg/node/azqueue.js')} */
function loadPackage() {
  const entry = path.join(PKG, 'node', 'azqueue.js');
  if (!fs.existsSync(entry)) {
    throw new Error(`${path.relative(process.cwd(), entry)} is missing: run \`make build\` first`);
  }
  return createRequire(import.meta.url)(entry);
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
  const { QueueService, azureErrorClosing } = loadPackage();
  // Read first: a missing certificate should fail before the journal directory is locked.
  const secure = opts.cert ? tlsOptions(/** @type {Options & { cert: string }} */ (opts)) : null;
  const accounts = process.env.AZURITE_ACCOUNTS?.trim() || undefined;
  // --location DIR: the journal; --inMemoryPersistence wins, as in Azurite.
  const journal =
    opts.location && !opts.inMemoryPersistence
      ? new Journal(path.resolve(opts.location), { log: (line) => console.error(line) })
      : null;
  // Opened here first, so a directory another azqueue holds is named in one sentence rather
  // than as the cause of a failed load three errors deep.
  try {
    await journal?.load();
  } catch (err) {
    await journal?.close();
    throw err;
  }
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
    busy: () => azureErrorClosing('ServerBusy'),
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
  const files = staticListener(WWW, PKG);
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
  if (opts.version) {
    console.log(version());
    return;
  }
  if (opts.location && opts.inMemoryPersistence) {
    console.log(
      `azqueue: --inMemoryPersistence: data is memory-only (--location ${opts.location} is not used)`,
    );
  } else if (opts.location) {
    console.log(
      `azqueue: data in ${path.resolve(opts.location)} (journal; every answer waits for fsync; ` +
        '--inMemoryPersistence keeps it in memory)',
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
