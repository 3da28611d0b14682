// Node's http (IncomingMessage / ServerResponse) ⇄ the wasm service's raw REST entry point,
// `service.handleRaw(method, url, headers, body)`: the method, URL and raw headers go in as
// strings and the body as one Buffer; status, flat headers and body come back for
// `res.writeHead`. No Fetch Request/Response is built per call (that cost more than the
// operation itself). Glue only: no queue logic here.

/** Largest request body accepted before the REST layer sees it (it enforces Azure's limits). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Wraps a wasm `QueueService` as a Node request listener.
 * `onDone({ req, status, errorCode, ms })` is called once per request (for access logs).
 */
export function nodeListener(service, { fallbackHost = '127.0.0.1', onDone = null } = {}) {
  return (req, res) => {
    const started = onDone ? performance.now() : 0;
    const done = (status, errorCode) => {
      if (onDone) onDone({ req, status, errorCode, ms: performance.now() - started });
    };
    const fail = (err) => {
      // Only a broken adapter or a bug in the wasm boundary gets here: Azure errors are
      // ordinary responses. Answer 500 rather than dropping the socket.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: ${err && err.message ? err.message : err}\n`);
      done(500, 'InternalError');
    };
    const respond = (r) => {
      const status = r.status;
      const head = r.headers;
      const body = r.body;
      const errorCode = status >= 400 && onDone ? r.errorCode ?? null : null;
      r.free();
      const headers = head === '' ? [] : head.split('\n');
      const withBody = req.method !== 'HEAD' && status !== 204 && status !== 304 && status >= 200;
      // A known length rather than chunked encoding, as Azure answers.
      if (withBody) headers.push('content-length', String(body.length));
      res.writeHead(status, headers);
      res.end(withBody && body.length > 0 ? body : undefined);
      done(status, errorCode);
    };
    const serve = (body) => {
      // Origin-form URLs go through as sent (the REST layer reads the host from the Host
      // header); a request without one is addressed to this server.
      const url = req.url.startsWith('/') && !hasHost(req.rawHeaders)
        ? `http://${fallbackHost}${req.url}`
        : req.url;
      let out;
      try {
        out = service.handleRaw(req.method, url, req.rawHeaders.join('\n'), body);
      } catch (err) {
        fail(err);
        return;
      }
      // A response, or a Promise of one when the store is still committing.
      if (out instanceof Promise) out.then(respond, fail);
      else respond(out);
    };

    // No body (no Content-Length above 0, no Transfer-Encoding): serve at once, without the
    // stream's data/end events (Node discards the empty request stream after the answer).
    if (!hasBody(req.rawHeaders)) {
      serve(EMPTY);
      return;
    }
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end('request body too large\n');
        done(413, null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) return;
      serve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    });
    req.on('error', () => {
      if (!res.headersSent && !tooLarge) fail(new Error('the request was aborted'));
    });
  };
}

const EMPTY = Buffer.alloc(0);

/** Whether the request carries a body, by its framing headers. */
function hasBody(raw) {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 14 && name.toLowerCase() === 'content-length') {
      if (raw[i + 1].trim() !== '0') return true;
    } else if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') {
      return true;
    }
  }
  return false;
}

/** Whether the client sent a Host header (without building `req.headers`). */
function hasHost(raw) {
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') return true;
  }
  return false;
}
