// The development paths on the page's port, so the page served by --webPort reads and steers
// its own server same-origin: every `/_azqueue/…` request is handed to the in-process service
// with the page port's address, so the service's own router and guard (rest::dev::route,
// rest::dev::guard: the Host check, the x-azqueue-dev header, the origin) decide, as on the
// queue port. An admitted `GET /_azqueue/events` is answered with the stream's head and then
// kept open for the service's events (event-stream.mjs).

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {import('../../pkg/node/azqueue.js').QueueService} QueueService */
/** @import { EventStreams } from './event-stream.mjs' */

import { EVENT_STREAM, perQueue, withRequests } from './event-stream.mjs';

const PREFIX = '/_azqueue/';

/**
 * A request handler for the page's port: answers `/_azqueue/…` and returns true, or returns
 * false for the caller's static files.
 * @param {QueueService} service
 * @param {EventStreams} streams
 * @param {() => string | undefined} listening the page port's `host:port` once it listens
 * @returns {(req: IncomingMessage, res: ServerResponse) => boolean}
 */
export function devPathsOnWebPort(service, streams, listening) {
  /**
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {Uint8Array} body
   */
  const pass = async (req, res, body) => {
    const r = await service.handleRaw(
      /** @type {string} */ (req.method),
      /** @type {string} */ (req.url),
      req.rawHeaders.join('\n'),
      body,
      req.socket.remoteAddress,
      listening(),
    );
    const headers = r.headers.split('\n');
    const stream =
      r.status === 200 &&
      headers.some(
        (v, i) => i % 2 === 1 && headers[i - 1] === 'content-type' && v === EVENT_STREAM,
      );
    const answer = Buffer.from(r.body);
    const status = r.status;
    r.free();
    if (!stream) {
      res.writeHead(status, headers).end(answer);
      return;
    }
    // The body runs until the client goes: no length, and nothing buffered on the way.
    res.writeHead(status, headers);
    res.flushHeaders();
    const url = /** @type {string} */ (req.url);
    streams.add(res, perQueue(url), withRequests(url));
  };

  return (req, res) => {
    const url = /** @type {string} */ (req.url);
    if (!url.startsWith(PREFIX)) return false;
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      pass(req, res, Buffer.concat(chunks)).catch((/** @type {unknown} */ err) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(/** @type {Error} */ (err)?.message ?? err) }));
      });
    });
    return true;
  };
}
