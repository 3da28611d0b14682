// What `service.httpClient()` returns: structurally an `HttpClient` of @azure/core-rest-pipeline
// and of core-http (the shape `@azure/storage-queue` takes as `{ httpClient }` in its options),
// typed here without depending on either package.

/** Response headers: core-rest-pipeline's `HttpHeaders` and core-http's `HttpHeadersLike` in one. */
export interface ResponseHeadersLike extends Iterable<[string, string]> {
  get(name: string): string | undefined;
  has(name: string): boolean;
  set(name: string, value: string | number | boolean): void;
  delete(name: string): void;
  toJSON(options?: { preserveCase?: boolean }): Record<string, string>;
  contains(name: string): boolean;
  remove(name: string): boolean;
  toJson(options?: { preserveCase?: boolean }): Record<string, string>;
  rawHeaders(): Record<string, string>;
  headersArray(): { name: string; value: string }[];
  headerNames(): string[];
  headerValues(): string[];
  clone(): ResponseHeadersLike;
}

/**
 * The parts of a request the in-process client reads: a core-rest-pipeline `PipelineRequest`
 * (headers with `toJSON`) or a core-http `WebResourceLike` (headers with `toJson`).
 */
export interface PipelineRequestLike {
  url: string;
  method: string;
  headers:
    | { toJSON(options?: { preserveCase?: boolean }): Record<string, string> }
    | { toJson(options?: { preserveCase?: boolean }): Record<string, string> };
  body?: unknown;
  abortSignal?: { readonly aborted: boolean };
  streamResponseStatusCodes?: Set<number>;
}

/** The response to `request`, as either SDK generation reads it. */
export interface InProcessResponse<R extends PipelineRequestLike> {
  request: R;
  status: number;
  headers: ResponseHeadersLike;
  /** The body, unless the request asked for this status as a stream. */
  bodyAsText?: string | null;
  blobBody?: Promise<Blob>;
  browserStreamBody?: ReadableStream<Uint8Array>;
}

/** Serves the official SDK's requests from a QueueService in this process: no socket. */
export interface InProcessHttpClient {
  sendRequest<R extends PipelineRequestLike>(request: R): Promise<InProcessResponse<R>>;
}
