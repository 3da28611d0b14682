// `import`/`require("azqueue")` in Node (the Node glue: the wasm loads as the module does).
import type { InProcessHttpClient } from './http-client.js';

export * from '../pkg/node/azqueue.js';
export type {
  InProcessHttpClient,
  InProcessResponse,
  PipelineRequestLike,
  ResponseHeadersLike,
} from './http-client.js';

/** Nothing to wait for in Node; here so code shared with browsers may call it. */
export function init(): Promise<void>;
export default init;

declare module '../pkg/node/azqueue.js' {
  interface QueueService {
    /**
     * An `HttpClient` for the official SDK that serves its requests from this service, in
     * process: `new QueueServiceClient(url, credential, { httpClient: service.httpClient() })`.
     */
    httpClient(): InProcessHttpClient;
  }
}
