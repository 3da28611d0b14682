// `service.httpClient()`: an `HttpClient` of `@azure/core-rest-pipeline` that hands each request
// of the official SDK to this process's QueueService (through `handleRaw`, the REST handler that
// takes plain values), so `new QueueServiceClient(url, credential, { httpClient })` talks to an
// in-process queue: no socket, no port, and on the service's clock (`QueueService.open({ now })`),
// so a test moves time instead of sleeping.
//
// It speaks both request shapes the Azure SDKs hand an HttpClient: core-rest-pipeline's
// `PipelineRequest` (headers with `toJSON`) and core-http's `WebResourceLike` (headers with
// `toJson`), which is what `@azure/storage-queue` passes to the `httpClient` of its options
// (through `@azure/core-http-compat`); the response headers answer to both as well.
//
// Written once as an ES module; `make package` derives the CommonJS copy for `require`.

/**
 * @import { InProcessResponse, PipelineRequestLike } from '../types/http-client.js'
 * @import { QueueService } from '../pkg/web/azqueue.js'
 * @typedef {Pick<QueueService, 'handleRaw'>} RawHandler the part of a QueueService the client calls
 * @typedef {(options?: { preserveCase?: boolean }) => Record<string, string>} HeadersAsObject
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The response headers, shaped as core-rest-pipeline's `HttpHeaders` and core-http's
 * `HttpHeadersLike`: names compare case-insensitively, iteration yields lower-case names,
 * `toJSON`/`toJson({ preserveCase: true })` keep the case the service sent (`x-ms-meta-Color`).
 */
export class ResponseHeaders {
  /** @type {Map<string, { name: string, value: string }>} by lower-case name */
  #entries = new Map();

  /**
   * From the flat `[name, value, name, value, …]` list that `RawResponse.headers` splits into.
   * @param {string[]} [flat]
   */
  constructor(flat = []) {
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const previous = this.#entries.get(flat[i].toLowerCase());
      this.set(flat[i], previous ? `${previous.value}, ${flat[i + 1]}` : flat[i + 1]);
    }
  }

  /** @param {string} name */
  get(name) {
    return this.#entries.get(name.toLowerCase())?.value;
  }

  /** @param {string} name */
  has(name) {
    return this.#entries.has(name.toLowerCase());
  }

  /**
   * @param {string} name
   * @param {string | number | boolean} value
   */
  set(name, value) {
    this.#entries.set(name.toLowerCase(), { name, value: String(value) });
  }

  /** @param {string} name */
  delete(name) {
    this.#entries.delete(name.toLowerCase());
  }

  /**
   * @param {{ preserveCase?: boolean }} [options]
   * @returns {Record<string, string>}
   */
  toJSON(options = {}) {
    /** @type {Record<string, string>} */
    const out = {};
    for (const [lower, { name, value }] of this.#entries)
      out[options.preserveCase ? name : lower] = value;
    return out;
  }

  /** @returns {Generator<[string, string]>} */
  *[Symbol.iterator]() {
    for (const [lower, { value }] of this.#entries) yield [lower, value];
  }

  // core-http's names for the same operations.
  /** @param {string} name */
  contains(name) {
    return this.has(name);
  }

  /** @param {string} name */
  remove(name) {
    const had = this.has(name);
    this.delete(name);
    return had;
  }

  /** @param {{ preserveCase?: boolean }} [options] */
  toJson(options) {
    return this.toJSON(options);
  }

  rawHeaders() {
    return this.toJSON({ preserveCase: true });
  }

  headersArray() {
    return [...this.#entries.values()].map(({ name, value }) => ({ name, value }));
  }

  headerNames() {
    return this.headersArray().map((h) => h.name);
  }

  headerValues() {
    return this.headersArray().map((h) => h.value);
  }

  clone() {
    return new ResponseHeaders(this.headersArray().flatMap(({ name, value }) => [name, value]));
  }
}

/**
 * A request's headers with their case, from either SDK generation's headers object.
 * @param {PipelineRequestLike['headers']} headers
 */
function requestHeaders(headers) {
  // Which of the two it is shows in the method it has.
  const either = /** @type {{ toJSON?: HeadersAsObject, toJson: HeadersAsObject }} */ (headers);
  const json =
    typeof either.toJSON === 'function'
      ? either.toJSON({ preserveCase: true })
      : either.toJson({ preserveCase: true });
  return Object.entries(json);
}

/**
 * The request body as bytes, whichever of core-rest-pipeline's body types it came as.
 * @param {PipelineRequestLike & { multipartBody?: unknown, formData?: unknown }} request
 * @returns {Promise<Uint8Array>}
 */
async function bodyBytes(request) {
  if (request.multipartBody || request.formData) {
    throw new TypeError(
      'azqueue httpClient: multipart and form bodies are not part of the Queue API',
    );
  }
  /** @type {any} a body of any of those types, or a function returning one: probed by shape */
  let body = request.body;
  if (typeof body === 'function') body = body();
  if (body === undefined || body === null) return new Uint8Array(0);
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body))
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (typeof body.arrayBuffer === 'function') return new Uint8Array(await body.arrayBuffer()); // Blob
  if (typeof body.getReader === 'function')
    return new Uint8Array(await new Response(body).arrayBuffer());
  if (typeof body[Symbol.asyncIterator] === 'function') {
    // a Node stream
    const chunks = [];
    for await (const chunk of body)
      chunks.push(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }
  throw new TypeError(
    `azqueue httpClient: unsupported request body ${Object.prototype.toString.call(body)}`,
  );
}

/** @param {{ readonly aborted: boolean, reason?: { message?: string } }} signal */
function abortError(signal) {
  const err = new Error(signal.reason?.message ?? 'The operation was aborted.');
  err.name = 'AbortError';
  return err;
}

/** One QueueService as an `HttpClient`. */
export class InProcessHttpClient {
  /** @type {RawHandler} */
  #service;

  /** @param {RawHandler} service */
  constructor(service) {
    this.#service = service;
  }

  /**
   * @template {PipelineRequestLike} R
   * @param {R} request
   * @returns {Promise<InProcessResponse<R>>}
   */
  async sendRequest(request) {
    if (request.abortSignal?.aborted) throw abortError(request.abortSignal);
    const body = await bodyBytes(request);
    const pairs = requestHeaders(request.headers);
    // What an HTTP transport adds on the wire, and what the service reads.
    if (body.byteLength > 0 && !pairs.some(([name]) => name.toLowerCase() === 'content-length')) {
      pairs.push(['Content-Length', String(body.byteLength)]);
    }
    /** @type {string[]} */
    const flat = [];
    for (const [name, value] of pairs) {
      // handleRaw separates names and values with line feeds; HTTP forbids them in headers.
      if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) {
        throw new TypeError(
          `azqueue httpClient: header ${JSON.stringify(name)} contains a line break`,
        );
      }
      flat.push(name, value);
    }
    const raw = await this.#service.handleRaw(request.method, request.url, flat.join('\n'), body);
    try {
      const status = raw.status;
      /** @type {InProcessResponse<R>} */
      const response = {
        request,
        status,
        headers: new ResponseHeaders(raw.headers === '' ? [] : raw.headers.split('\n')),
      };
      // A copy the glue made for this response, in an ArrayBuffer of its own (never shared).
      const bytes = /** @type {Uint8Array<ArrayBuffer>} */ (raw.body);
      const streamed = request.streamResponseStatusCodes;
      if (streamed && (streamed.has(status) || streamed.has(Number.POSITIVE_INFINITY))) {
        const blob = new Blob([bytes]);
        response.blobBody = Promise.resolve(blob);
        response.browserStreamBody = blob.stream();
      } else {
        response.bodyAsText = decoder.decode(bytes);
      }
      return response;
    } finally {
      raw.free();
    }
  }
}

/**
 * Gives the glue's QueueService class its `httpClient()` method.
 * @param {{ prototype: object }} QueueService
 */
export function installHttpClient(QueueService) {
  Object.defineProperty(QueueService.prototype, 'httpClient', {
    /** @this {RawHandler} */
    value: function httpClient() {
      return new InProcessHttpClient(this);
    },
    writable: true,
    configurable: true,
  });
}
