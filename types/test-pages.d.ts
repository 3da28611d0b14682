// What the pages the tests, benchmarks and soak load in Chromium leave on `window`, for the
// callbacks the Node side runs there with page.evaluate, and the bindings it exposes to them.
interface Window {
  /** The persistence page's helpers (scripts/lib/harness-pages/work.js). */
  azq: import('../scripts/lib/harness-pages/work.js').PageHelpers;
  /** The soak page's workload and inspection (scripts/soak/page/page.mjs). */
  soak: import('../scripts/soak/page/page.mjs').SoakPage;
  /** The soak's ledger in Node (scripts/soak/chromium-host.mjs's binding). */
  soakLedger(kind: string, ...args: unknown[]): Promise<void>;
  /** What the bundle the package test builds reports (tests/package/browser.test.mjs). */
  result?: unknown;
  /** The interval a page test hogs the main thread with (tests/page/page.test.mjs). */
  __hog?: ReturnType<typeof setInterval>;
}
