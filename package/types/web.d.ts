// `import … from "azqueue"` in browsers, workers, workerd, Deno and Bun (the web glue).
import type { InitInput } from '../pkg/web/azqueue.js';
import type { InProcessHttpClient } from './http-client.js';

export * from '../pkg/web/azqueue.js';
export type {
  InProcessHttpClient,
  InProcessResponse,
  PipelineRequestLike,
  ResponseHeadersLike,
} from './http-client.js';

/**
 * Loads the wasm once (later calls return the same Promise): from the `.wasm` file beside the
 * glue by default, else from a URL, a Response, bytes, or a precompiled WebAssembly.Module
 * (workerd), which is instantiated synchronously. `QueueService.open()` calls it itself.
 */
export function init(input?: InitInput | Promise<InitInput>): Promise<void>;
export default init;

declare module '../pkg/web/azqueue.js' {
  interface QueueService {
    /**
     * An `HttpClient` for the official SDK that serves its requests from this service, in
     * process: `new QueueServiceClient(url, credential, { httpClient: service.httpClient() })`.
     */
    httpClient(): InProcessHttpClient;
  }
}
