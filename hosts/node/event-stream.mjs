// The service's change events as server-sent events, for every open `GET /_azqueue/events`
// on either port: the wasm service routes and guards the request and answers its head
// (`text/event-stream`, and CORS for an opted-in origin); the host then hands the open
// connection here, which writes one `data:` line of JSON per event (QueueService.subscribe,
// after the change is durable; `clock` when the queues' clock is moved), or for a summarised
// stream the service's summary of changes (QueueService.watchChanges and takeChanges). The
// service is subscribed to, or keeps its summary, only while such a stream is open.

/** @import { QueueService } from '../../pkg/node/azqueue.js' */

// A comment line now and then keeps proxies and idle timers from closing a quiet stream.
const KEEPALIVE_MS = 15_000;

// Events are written together, at most this long after the first of them: under a burst of
// producers one write per event per stream (a syscall, and a wake-up of the reader) was most
// of what an open inspector cost them (BENCHMARKS.md, "Producers with an open inspector").
const FLUSH_MS = 20;

// A stream of one event per changed queue is written at most this often: the first change after
// a quiet spell goes with the next flush, later ones wait out the gap. Its reader re-reads what
// changed at most twice a second (www/inspect/throttled.js), so a line every flush (about 55 a
// second under a burst of producers) only woke the browser's network process, its renderer and
// the page's script for nothing, on the cores the producers run on (BENCHMARKS.md, "Producers
// with an open inspector").
const SUMMARY_GAP_MS = 250;

/**
 * Where a stream's lines go: a `node:http` response or a raw socket, closed by the client.
 * @typedef {{ write(chunk: string): unknown, once(event: 'close', listener: () => void): unknown }} Sink
 */

export class EventStreams {
  /** @param {Pick<QueueService, 'subscribe' | 'watchChanges' | 'takeChanges' | 'logRequests'>} service */
  constructor(service) {
    this.service = service;
    /** @type {Set<Sink>} streams of every event */
    this.sinks = new Set();
    /** @type {Set<Sink>} streams of one event per changed queue (`summarised`) */
    this.summarised = new Set();
    /** @type {Set<Sink>} the summarised streams that asked for the request log (`requests`) */
    this.logging = new Set();
    /** @type {(() => void) | null} the service's events, while a stream of every event is open */
    this.unsubscribe = null;
    /**
     * The service's summary of changes (`watchChanges`: a count per change, no JS object), kept
     * while a summarised stream is open.
     * @type {(() => void) | null}
     */
    this.unwatch = null;
    /** The lines not yet written, in order. */
    this.pending = '';
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.flushTimer = null;
    /** When the summarised streams were last written to (`performance.now()`). */
    this.summaryAt = -Infinity;
    /** @type {ReturnType<typeof setTimeout> | null} the summary's write once its gap is over */
    this.summaryTimer = null;
  }

  /**
   * Writes the pending lines to every open stream, and the pending summary to the summarised
   * ones once SUMMARY_GAP_MS has passed since their last write (at once with `now`).
   * @param {boolean} [now]
   */
  flush(now = false) {
    const lines = this.pending;
    this.pending = '';
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (lines) for (const s of this.sinks) s.write(lines);
    const wait = this.summaryAt + SUMMARY_GAP_MS - performance.now();
    if (now || wait <= 0) this.#writeSummary();
    else this.summaryTimer ??= setTimeout(() => this.#writeSummary(), wait);
  }

  /** Writes what changed since the last summary to every summarised stream. */
  #writeSummary() {
    if (this.summaryTimer) clearTimeout(this.summaryTimer);
    this.summaryTimer = null;
    if (!this.unwatch) return;
    let summary = '';
    // Only the streams that asked for the request log get it.
    let requests = '';
    for (const e of this.service.takeChanges()) {
      const line = `data: ${JSON.stringify(e)}\n\n`;
      if (e.type === 'requests') requests += line;
      else summary += line;
    }
    if (!summary && !requests) return;
    for (const s of this.summarised) {
      const text = this.logging.has(s) ? summary + requests : summary;
      if (text) s.write(text);
    }
    this.summaryAt = performance.now();
  }

  /**
   * One of the service's events, for the streams of every event.
   * @param {any} event
   */
  #take(event) {
    this.pending += `data: ${JSON.stringify(event)}\n\n`;
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /**
   * Starts writing events to `sink`, whose head has been written, until it closes: every
   * event, or what the stream asked for, as the service's route read it from the query
   * (rest::dev::EventStream; the answer's `streamSummarised` and `streamRequests`).
   * - `summarised` (`?per=queue`): at most every SUMMARY_GAP_MS, per queue that changed since,
   *   `{type: "changed", account, queue, events}` (how many of its events it stands for), every
   *   `clock` event as it is, and the newest ten `fault` events (a fault changes no queue by
   *   itself). A viewer that only re-reads what changed (the inspector) needs no more, and a
   *   burst of 20,000 sends is then a few lines for it to read rather than 20,000.
   * - `requests` (`&requests=1`, with `per=queue`): each write also carries
   *   `{type: "requests", requests, leftOut}`, the newest Azure requests answered since the last
   *   write and how many older ones were left out (QueueService.logRequests; docs/inspector.md,
   *   "Request log"). The service records requests only while such a stream is open.
   * @param {Sink} sink
   * @param {boolean} [summarised]
   * @param {boolean} [requests]
   */
  add(sink, summarised = false, requests = false) {
    // What happened before this stream opened is not its to see.
    this.flush(true);
    sink.write(': azqueue events\n\n');
    const set = summarised ? this.summarised : this.sinks;
    set.add(sink);
    if (summarised)
      this.unwatch ??= this.service.watchChanges(() => {
        this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
      });
    else this.unsubscribe ??= this.service.subscribe((event) => this.#take(event));
    if (summarised && requests) {
      if (this.logging.size === 0) this.service.logRequests(true);
      this.logging.add(sink);
    }
    const keepalive = setInterval(() => sink.write(': keepalive\n\n'), KEEPALIVE_MS);
    sink.once('close', () => {
      clearInterval(keepalive);
      set.delete(sink);
      if (this.logging.delete(sink) && this.logging.size === 0) this.service.logRequests(false);
      if (set.size > 0) return;
      this.flush(true);
      if (summarised) {
        this.unwatch?.();
        this.unwatch = null;
      } else {
        this.unsubscribe?.();
        this.unsubscribe = null;
      }
    });
  }
}
