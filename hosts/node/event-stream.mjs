// The service's change events as server-sent events, for every open `GET /_azqueue/events`
// on either port: the wasm service routes and guards the request and answers its head
// (`text/event-stream`, and CORS for an opted-in origin); the host then hands the open
// connection here, which writes one `data:` line of JSON per event (QueueService.subscribe,
// after the change is durable; `clock` when the queues' clock is moved). The service is
// subscribed to only while a stream is open.

/** @import { QueueService } from '../../pkg/node/azqueue.js' */

/** The content type of the stream's head, as the service answers it (rest::dev::EVENT_STREAM). */
export const EVENT_STREAM = 'text/event-stream';

// A comment line now and then keeps proxies and idle timers from closing a quiet stream.
const KEEPALIVE_MS = 15_000;

// Events are written together, at most this long after the first of them: under a burst of
// producers one write per event per stream (a syscall, and a wake-up of the reader) was most
// of what an open inspector cost them (BENCHMARKS.md, "Producers with an open inspector").
const FLUSH_MS = 20;

/**
 * Where a stream's lines go: a `node:http` response or a raw socket, closed by the client.
 * @typedef {{ write(chunk: string): unknown, once(event: 'close', listener: () => void): unknown }} Sink
 */

export class EventStreams {
  /** @param {Pick<QueueService, 'subscribe'>} service */
  constructor(service) {
    this.service = service;
    /** @type {Set<Sink>} */
    this.sinks = new Set();
    /** @type {(() => void) | null} */
    this.unsubscribe = null;
    /** The lines not yet written, in order. */
    this.pending = '';
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.flushTimer = null;
  }

  /** Writes the pending lines to every open stream. */
  flush() {
    const lines = this.pending;
    this.pending = '';
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (lines) for (const s of this.sinks) s.write(lines);
  }

  /**
   * Starts writing events to `sink`, whose head has been written, until it closes.
   * @param {Sink} sink
   */
  add(sink) {
    // What happened before this stream opened is not its to see.
    this.flush();
    sink.write(': azqueue events\n\n');
    this.sinks.add(sink);
    this.unsubscribe ??= this.service.subscribe((event) => {
      this.pending += `data: ${JSON.stringify(event)}\n\n`;
      this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
    });
    const keepalive = setInterval(() => sink.write(': keepalive\n\n'), KEEPALIVE_MS);
    sink.once('close', () => {
      clearInterval(keepalive);
      this.sinks.delete(sink);
      if (this.sinks.size === 0 && this.unsubscribe) {
        this.unsubscribe();
        this.unsubscribe = null;
        if (this.flushTimer) clearTimeout(this.flushTimer);
        this.flushTimer = null;
        this.pending = '';
      }
    });
  }
}
