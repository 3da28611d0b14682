// The Node server's command line: Azurite's `azurite-queue` flags (3.37 accepts exactly these:
// queueHost, queuePort, location, silent, loose, disableProductStyleUrl, skipApiVersionCheck,
// oauth, cert, key, pwd, inMemoryPersistence, extentMemoryLimit, debug, disableTelemetry, and
// help and version), each taken as Azurite takes it, and azqueue's own (the page, the bounds, the
// clock, the development origins). The usage text says which of Azurite's change nothing here.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { THROTTLE_USAGE, throttleOption } from './faults.mjs';

// Run as the npm package's `azqueue` command, or from a checkout.
const PROGRAM =
  process.argv[1] && path.basename(process.argv[1]) !== 'server.mjs'
    ? 'azqueue'
    : 'node hosts/node/server.mjs';

export const USAGE = `usage: ${PROGRAM} [options]

  --queueHost HOST          address for the queue service (default 127.0.0.1)
  --queuePort PORT          port for the queue service (default 10001; 0 picks a free port)
  --webHost HOST            address for the page (default: the queue host)
  --webPort PORT            also serve the teaching page and the files of www/ on PORT (off
                            unless given; 0 picks a free port). If PORT is taken, the queue
                            service runs without the page
  -l, --location DIR        keep queues and messages in DIR (default: the current directory,
                            as Azurite does). A journal: every answer waits until its change
                            is fsynced, so a kill loses nothing acknowledged
  --inMemoryPersistence     keep everything in memory and write nothing to disk (wins over
                            --location)
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
  -h, --help                this text
  -v, --version             the version, and exit

Azurite's flags that change nothing here, accepted so its command lines run unchanged:
  --skipApiVersionCheck     every well-formed x-ms-version is served already
                            (as is AZURITE_SKIP_API_VERSION_CHECK=true)
  -L, --loose               no header or parameter is refused for being unsupported
  --disableProductStyleUrl  the account is always the URL's first path segment
  --disableTelemetry        nothing is ever collected or sent
  --extentMemoryLimit MB    messages are not kept in extents; memory is bounded by the
                            queues' own limits

Accounts come from AZURITE_ACCOUNTS ("name:key1[:key2];name2:key"), else devstoreaccount1.`;

export class UsageError extends Error {}

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
 * @property {string} [location] the current directory unless given or --inMemoryPersistence
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
 * @property {boolean} [disableTelemetry]
 * @property {number} [extentMemoryLimit]
 * @property {boolean} [help]
 * @property {boolean} [version]
 */

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
  '--disableTelemetry': ['flag', 'disableTelemetry'],
  '--extentMemoryLimit': ['value', 'extentMemoryLimit'],
  '--clockStart': ['value', 'clockStart'],
  '--clockPaused': ['flag', 'clockPaused'],
  '--devOrigin': ['list', 'devOrigins'],
  '--throttle': ['flag', 'throttle'],
  '--queueMessagesPerSecond': ['value', 'queueMessagesPerSecond'],
  '--accountRequestsPerSecond': ['value', 'accountRequestsPerSecond'],
  '--help': ['flag', 'help'],
  '-h': ['flag', 'help'],
  '--version': ['flag', 'version'],
  '-v': ['flag', 'version'],
};

/**
 * Parses Azurite-style arguments (`--flag value` or `--flag=value`). As `azurite-queue` does, the
 * data goes to the current directory unless --location or --inMemoryPersistence says otherwise.
 * Throws UsageError.
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
  if (opts.extentMemoryLimit !== undefined) {
    const mb = Number(opts.extentMemoryLimit);
    if (!Number.isFinite(mb) || mb < 0) {
      throw new UsageError(
        `--extentMemoryLimit takes a number of megabytes, not ${JSON.stringify(opts.extentMemoryLimit)}`,
      );
    }
    opts.extentMemoryLimit = mb;
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
  if (!opts.inMemoryPersistence) opts.location ??= process.cwd();
  return opts;
}

/** The package's version (the installed package's manifest, or the repository's). */
export function version() {
  const manifest = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '..',
    '..',
    'package.json',
  );
  return /** @type {{ version: string }} */ (JSON.parse(fs.readFileSync(manifest, 'utf8'))).version;
}
