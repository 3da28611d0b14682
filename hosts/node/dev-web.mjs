// The development paths on the page's port, so the page served by --webPort reads and steers
// its own server same-origin: every `/_azqueue/…` request is handed to the in-process service
// with the page port's address, so the service's own router and guard (rest::dev::route,
// rest::dev::guard: the Host check, the x-azqueue-dev header, the origin) decide, as on the
// queue port. An admitted `GET /_azqueue/events` is answered with the stream's head and then
// kept open for the service's events (event-stream.mjs): the stream the route read from the
// query (`per=queue`, `requests=1`), which the answer carries.

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {import('../../pkg/node/azqueue.js').QueueService} QueueService */
/** @import { EventStreams } from './event-stream.mjs' */

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
    const answer = Buffer.from(r.body);
    const { status, streaming, streamSummarised, streamRequests } = r;
    r.free();
    if (!streaming) {
      res.writeHead(status, headers).end(answer);
      return;
    }
    // The body runs until the client goes: no length, and nothing buffered on the way.
    res.writeHead(status, headers);
    res.flushHeaders();
    streams.add(res, streamSummarised, streamRequests);
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
