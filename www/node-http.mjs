// Node's http (IncomingMessage / ServerResponse) ⇄ the Fetch API (Request / Response), so the
// wasm fetch handler — the same one a service worker or an edge worker uses — can serve a Node
// socket. Glue only: no queue logic here.

/** Largest request body accepted before the REST layer sees it (it enforces Azure's limits). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

// Hop-by-hop headers describe this connection, not the request; the REST layer never needs them.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/**
 * Wraps `handler: (Request) => Promise<Response>` as a Node request listener.
 * `onDone({ req, status, errorCode, ms })` is called once per request (for access logs).
 */
export function nodeListener(handler, { fallbackHost, onDone = () => {} } = {}) {
  return async (req, res) => {
    const started = performance.now();
    let status = 500;
    let errorCode = null;
    try {
      const body = await readBody(req);
      if (body === null) {
        status = 413;
        res.writeHead(413, { 'content-type': 'text/plain' }).end('request body too large\n');
        return;
      }
      let request;
      try {
        request = toRequest(req, body, fallbackHost);
      } catch (err) {
        // A method or URL the Fetch API refuses (TRACE, CONNECT, a malformed Host): the REST
        // layer would call it invalid too, so answer 400 without involving it.
        status = 400;
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`bad request: ${err.message}\n`);
        return;
      }
      const response = await handler(request);
      status = response.status;
      errorCode = response.headers.get('x-ms-error-code');
      const headers = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, response.statusText || undefined, headers);
      res.end(req.method === 'HEAD' ? undefined : bytes);
    } catch (err) {
      // Only a broken adapter or a bug in the wasm boundary gets here: Azure errors are
      // ordinary responses. Answer 500 rather than dropping the socket.
      status = 500;
      errorCode = 'InternalError';
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: ${err && err.message ? err.message : err}\n`);
    } finally {
      onDone({ req, status, errorCode, ms: performance.now() - started });
    }
  };
}

/** The whole body, or null when it exceeds MAX_BODY_BYTES. */
async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** An absolute-URL Fetch Request carrying the client's headers verbatim (they are signed). */
export function toRequest(req, body, fallbackHost = '127.0.0.1') {
  const host = req.headers.host || fallbackHost;
  const url = /^https?:\/\//i.test(req.url) ? req.url : `http://${host}${req.url}`;
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i].toLowerCase())) headers.append(raw[i], raw[i + 1]);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && body.length > 0;
  return new Request(url, { method: req.method, headers, body: hasBody ? body : undefined });
}
