// node:net (or node:tls) sockets ⇄ the wasm service's HTTP/1.1 connections (`service.connection()`): each
// socket read goes into the wasm module in one call and the bytes to write come back, so HTTP
// framing, keep-alive and pipelining are done in Rust (src/http1/) and Node's `http` module,
// which cost more per request than the queue operation, is not on the path. Glue only: no
// queue logic and no HTTP parsing here.

/** @import { Socket } from 'node:net' */
/** @import { Connection, QueueService } from '../../pkg/node/azqueue.js' */
/** @import { EventStreams } from './event-stream.mjs' */

/**
 * One request as `onDone` hears of it: `Connection.takeLog()`'s entry and its time in ms.
 * @typedef {ReturnType<Connection['takeLog']>[number] & { ms: number }} RequestDone
 */

/** A socket with nothing sent either way for this long is closed (also a stalled partial head). */
export const IDLE_TIMEOUT_MS = 120_000;

/**
 * A request head must arrive whole within this long of its first byte (Node's own `http` allows
 * 60 s): a client sending a byte a second is answered 408 and closed, holding only its socket.
 */
export const HEAD_TIMEOUT_MS = 30_000;

/** Open connections the server keeps at once; one more is answered 503 ServerBusy and closed. */
export const MAX_CONNECTIONS = 1000;

const HEAD_TIMEOUT =
  'HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n';

/**
 * Answers `socket` with `answer`, then drops it once the client stops sending (or soon).
 * @param {Socket} socket
 * @param {string | Uint8Array} answer
 */
function refuse(socket, answer) {
  socket.on('error', () => {});
  // Read and drop what the client still sends, so closing does not reset the answer away.
  socket.resume();
  socket.end(answer);
  socket.setTimeout(5_000, () => socket.destroy());
}

/**
 * A `net.createServer` connection listener serving `service`'s REST API.
 * `fallbackHost` (`host:port`) is where requests without a Host header are addressed.
 * `onDone({ method, url, status, errorCode, ms, headers })` is called per request when given
 * (`headers` as `[name, value]` pairs only with `logHeaders`); without it nothing is recorded.
 * Returns the listener, with `destroyAll()` to drop every open socket (shutdown) and a settable
 * `fallbackHost` (known only once the server listens, when it was asked for port 0).
 * `idleMs`: how long a socket may stay silent before it is closed; `headMs`: how long a request
 * head may take to arrive whole; `maxConnections`: open sockets served at once. `secure`: the
 * sockets are `node:tls` ones (the listener then goes to `tls.createServer`), so requests are
 * HTTPS. `events`: where an admitted `GET /_azqueue/events` goes once its head is written
 * (without it, that connection ends after the head). `busy()`: the bytes a connection over
 * `maxConnections` is answered with before it is closed (the package's
 * `azureErrorClosing("ServerBusy")`: Azure's throttling answer, which the SDKs retry with
 * backoff).
 * @param {Pick<QueueService, 'connection'>} service
 * @param {{ fallbackHost?: string, onDone?: ((entry: RequestDone) => void) | null,
 *   logHeaders?: boolean, idleMs?: number, headMs?: number, maxConnections?: number,
 *   secure?: boolean, events?: EventStreams, busy: () => Uint8Array }} options
 */
export function queueConnectionListener(
  service,
  {
    fallbackHost,
    onDone = null,
    logHeaders = false,
    idleMs = IDLE_TIMEOUT_MS,
    headMs = HEAD_TIMEOUT_MS,
    maxConnections = MAX_CONNECTIONS,
    secure = false,
    events,
    busy,
  },
) {
  /** @type {Set<Socket>} */
  const sockets = new Set();
  const level = onDone ? (logHeaders ? 2 : 1) : 0;

  /**
   * @type {((socket: Socket) => void) & { fallbackHost?: string, destroyAll?: () => void }}
   */
  const listener = (socket) => {
    if (sockets.size >= maxConnections) {
      refuse(socket, busy());
      return;
    }
    sockets.add(socket);
    const conn = service.connection(
      /** @type {string} set before the server listens */ (listener.fallbackHost),
      level,
      socket.remoteAddress,
      secure,
    );
    let closed = false;
    // Answers that wait for the store (a Promise from feed) and whether the peer has ended its
    // side: a half-closed client still gets every answer before the socket ends.
    let pending = 0;
    let peerEnded = false;
    let started = 0;
    // Reasons not to read from the socket now (an answer waiting for the store, answers the
    // client is not reading): requests queue in the kernel, not in this process.
    let holds = 0;
    const hold = () => {
      if (holds++ === 0) socket.pause();
    };
    const unhold = () => {
      if (--holds === 0 && !closed) socket.resume();
    };
    // Runs from a head's first byte to its end. While an answer waits for the store, the
    // client is not being read, so the wait is not held against it.
    /** @type {ReturnType<typeof setTimeout> | null} */
    let headTimer = null;
    const watchHead = () => {
      if (!conn.inHead) {
        clearTimeout(/** @type {ReturnType<typeof setTimeout>} */ (headTimer));
        headTimer = null;
      } else if (headTimer === null) {
        headTimer = setTimeout(function expire() {
          if (closed || !conn.inHead) {
            headTimer = null;
            return;
          }
          if (pending > 0) {
            headTimer = setTimeout(expire, headMs);
            return;
          }
          closed = true;
          refuse(socket, HEAD_TIMEOUT);
        }, headMs);
      }
    };

    const report = () => {
      const ms = performance.now() - started;
      const done = /** @type {(entry: RequestDone) => void} set when level > 0 */ (onDone);
      for (const entry of conn.takeLog()) done({ ...entry, ms });
    };
    // `n` response bytes are ready in the connection: copy them out into a Buffer (small ones
    // come from Node's shared pool, cheaper than a new ArrayBuffer per answer) and write them.
    const write = (/** @type {number} */ n) => {
      if (closed) return;
      // A client that pipelines without reading its answers is not read from either until
      // they drain, so the answers it leaves unread cannot pile up without bound.
      if (n > 0 && !socket.write(conn.take(Buffer.allocUnsafe(n)))) {
        hold();
        socket.once('drain', unhold);
      }
      if (level) report();
      if (conn.reset) {
        // A fault rule's `drop: "reset"` (docs/faults.md): the client gets a reset, no answer.
        closed = true;
        socket.resetAndDestroy();
        return;
      }
      if (conn.streaming && events && !peerEnded) {
        // The socket now carries the service's events, until the client closes it: every event,
        // or the summary and request log the stream asked for (`?per=queue&requests=1`).
        events.add(socket, conn.streamSummarised, conn.streamRequests);
        return;
      }
      if (conn.closing || (peerEnded && pending === 0)) socket.end();
    };
    const fail = (/** @type {any} */ err) => {
      // Only a bug in the wasm boundary gets here (Azure errors and bad requests are answers):
      // drop the connection rather than guess at what the client has seen.
      console.error(`azqueue: connection failed: ${err && err.message ? err.message : err}`);
      socket.destroy();
    };

    socket.on('data', (/** @type {Buffer} */ chunk) => {
      if (closed) return;
      if (level) started = performance.now();
      let out;
      try {
        out = conn.feed(chunk);
      } catch (err) {
        fail(err);
        return;
      }
      watchHead();
      if (typeof out === 'number') {
        if (out > 0 || conn.reset) write(out);
      } else {
        pending++;
        hold();
        out.then((/** @type {number} */ n) => {
          pending--;
          write(n);
          unhold();
        }, fail);
      }
    });
    socket.on('end', () => {
      peerEnded = true;
      if (pending === 0 && !closed) socket.end();
    });
    // Idle sockets would otherwise stay open for as long as the client keeps them. An answer
    // that waits for the store is not idleness on the client's part.
    socket.setTimeout(idleMs, () => {
      if (pending === 0) socket.destroy();
    });
    // ECONNRESET and the like: 'close' follows, which is all there is to do.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(/** @type {ReturnType<typeof setTimeout>} */ (headTimer));
      closed = true;
      sockets.delete(socket);
      conn.free();
    });
  };
  listener.fallbackHost = fallbackHost;
  listener.destroyAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return listener;
}
