// What the pages the tests and benchmarks load in Chromium leave on `window`, for the callbacks
// they run there with page.evaluate (those callbacks are checked with the Node code that holds
// them).
interface Window {
  /** The persistence page's helpers (tests/persistence/pages/work.js). */
  azq: import('../tests/persistence/pages/work.js').PageHelpers;
  /** What the bundle the package test builds reports (tests/package/browser.test.mjs). */
  result?: unknown;
  /** The interval a page test hogs the main thread with (tests/page/page.test.mjs). */
  __hog?: ReturnType<typeof setInterval>;
}
