// The development paths on the page's port, so the page served by --webPort reads and steers
// its own server same-origin (no CORS): every `/_azqueue/…` request is handed to the in-process
// service with the page port's address, so the service's own guard (rest::dev_guard: the Host
// check, the x-azqueue-dev header, the origin) decides, as on the queue port; and
// `GET /_azqueue/events`, a server-sent-event stream of the service's events (QueueService
// .subscribe: one `data:` line of JSON per event, after the change is durable), subscribed only
// while a page listens.

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {import('../../pkg/node/azqueue.js').QueueService} QueueService */

const PREFIX = '/_azqueue/';
// A comment line now and then keeps proxies and idle timers from closing a quiet stream.
const KEEPALIVE_MS = 15_000;

/**
 * A request handler for the page's port: answers `/_azqueue/…` and returns true, or returns
 * false for the caller's static files.
 * @param {QueueService} service
 * @param {() => string | undefined} listening the page port's `host:port` once it listens
 * @returns {(req: IncomingMessage, res: ServerResponse) => boolean}
 */
export function devPathsOnWebPort(service, listening) {
  /** @type {Set<ServerResponse>} */
  const streams = new Set();
  /** @type {(() => void) | null} */
  let unsubscribe = null;
  /** @param {Record<string, unknown>} event */
  const broadcast = (event) => {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const res of streams) res.write(line);
  };

  /**
   * The request as the service sees it: method, origin-form URL, headers and body.
   * @param {IncomingMessage} req
   * @param {string} method
   * @param {string} url
   * @param {Uint8Array} body
   */
  const pass = async (req, method, url, body) => {
    const r = await service.handleRaw(
      method,
      url,
      req.rawHeaders.join('\n'),
      body,
      req.socket.remoteAddress,
      listening(),
    );
    const answer = {
      status: r.status,
      headers: r.headers.split('\n'),
      body: Buffer.from(r.body),
    };
    r.free();
    return answer;
  };

  /**
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   */
  const events = async (req, res) => {
    // The guard's answer for a read of the development paths from this request.
    const probe = await pass(req, 'GET', `${PREFIX}store`, new Uint8Array());
    if (probe.status !== 200) {
      res.writeHead(probe.status, probe.headers).end(probe.body);
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.write(': azqueue events\n\n');
    streams.add(res);
    unsubscribe ??= service.subscribe(broadcast);
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    res.on('close', () => {
      clearInterval(keepalive);
      streams.delete(res);
      if (streams.size === 0 && unsubscribe) {
        unsubscribe();
        unsubscribe = null;
      }
    });
  };

  return (req, res) => {
    const url = /** @type {string} */ (req.url);
    if (!url.startsWith(PREFIX)) return false;
    const fail = (/** @type {unknown} */ err) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String(/** @type {Error} */ (err)?.message ?? err) }));
    };
    if (url === `${PREFIX}events` && req.method === 'GET') {
      events(req, res).catch(fail);
      return true;
    }
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      pass(req, /** @type {string} */ (req.method), url, Buffer.concat(chunks))
        .then((a) => res.writeHead(a.status, a.headers).end(a.body))
        .catch(fail);
    });
    return true;
  };
}
