// `azqueue/worker/miniflare-options`: miniflare options that run the packaged edge Worker.
export function workerOptions(options: {
  /** An AZURITE_ACCOUNTS string ("name:key1[:key2];…"); the development account if absent. */
  accounts?: string;
  /** Directory for the Durable Objects' SQLite files; in memory if absent. */
  persist?: string | boolean;
  bindings?: Record<string, unknown>;
  scriptPath?: string;
}): Record<string, unknown>;
