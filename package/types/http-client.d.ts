// What `service.httpClient()` returns: structurally an `HttpClient` of @azure/core-rest-pipeline
// (pass it as `{ httpClient }` to QueueServiceClient), typed here without depending on that
// package.

/** Response headers, shaped as core-rest-pipeline's `HttpHeaders`. */
export interface HttpHeadersLike extends Iterable<[string, string]> {
  get(name: string): string | undefined;
  has(name: string): boolean;
  set(name: string, value: string | number | boolean): void;
  delete(name: string): void;
  toJSON(options?: { preserveCase?: boolean }): Record<string, string>;
}

/** The parts of a core-rest-pipeline `PipelineRequest` the in-process client reads. */
export interface PipelineRequestLike {
  url: string;
  method: string;
  headers: HttpHeadersLike;
  body?: unknown;
  abortSignal?: { readonly aborted: boolean; readonly reason?: unknown };
  streamResponseStatusCodes?: Set<number>;
}

/** A core-rest-pipeline `PipelineResponse` for `request`. */
export interface InProcessResponse<R extends PipelineRequestLike> {
  request: R;
  status: number;
  headers: HttpHeadersLike;
  /** The body, unless the request asked for this status as a stream. */
  bodyAsText?: string | null;
  blobBody?: Promise<Blob>;
  browserStreamBody?: ReadableStream<Uint8Array>;
}

/** Serves the official SDK's requests from a QueueService in this process: no socket. */
export interface InProcessHttpClient {
  sendRequest<R extends PipelineRequestLike>(request: R): Promise<InProcessResponse<R>>;
}
