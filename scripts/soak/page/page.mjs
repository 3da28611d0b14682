// The Chromium soak's page (bundled with the SDK by chromium-host.mjs): a QueueService on
// IndexedDB, and the soak's workload driving it through the official SDK's browser build with
// the package's in-process transport, `service.httpClient()`. Every acknowledgement goes to the
// ledger in Node through the `soakLedger` binding before the workload goes on, so what the ledger
// holds outlives a reload of this page.

import init, { QueueService } from '/pkg/web/azqueue.js';
import { AnonymousCredential, QueueServiceClient } from '@azure/storage-queue';
import { installHttpClient } from '../../../package/lib/http-client.js';
import { createQueues, runWorkload } from '../workload.mjs';

/** @import { LedgerLike } from '../workload.mjs' */
/** @import { InProcessHttpClient } from '../../../package/types/http-client.js' */

installHttpClient(QueueService);
const wasm = await init();

/** One timeline across reloads: a new document's performance.now() starts again from 0. */
const now = () => performance.timeOrigin + performance.now();

/** The ledger in Node: each method call is a binding call, answered once Node has recorded it. */
const ledger = /** @type {LedgerLike} */ (
  new Proxy(
    {},
    {
      get:
        (_, kind) =>
        (/** @type {unknown[]} */ ...args) =>
          // The workload calls the ledger's methods by name, never by symbol.
          window.soakLedger(/** @type {string} */ (kind), ...args),
    },
  )
);

/** The service `open` opened: the host opens it before it runs anything else. */
let service = /** @type {QueueService & { httpClient(): InProcessHttpClient }} */ (
  /** @type {unknown} */ (null)
);

/** What chromium-host.mjs calls with page.evaluate, as `window.soak`. */
const soak = {
  now,

  /** Opens (or reopens, after a reload) the soak's database; the last page's lock is waited for. */
  async open() {
    service = /** @type {typeof service} with httpClient(), installed above */ (
      await QueueService.open({
        store: 'indexeddb',
        name: 'azqueue-soak',
        durability: 'strict',
        waitForLock: true,
      })
    );
  },

  /**
   * Runs the workload until `until` (this page's `now()`), authorised by an account SAS URL.
   * @param {{ serviceUrl: string, until: number, churnEveryMs: number, tag: string }} options
   */
  async run({ serviceUrl, until, churnEveryMs, tag }) {
    const client = new QueueServiceClient(serviceUrl, new AnonymousCredential(), {
      httpClient: service.httpClient(),
      retryOptions: { maxTries: 1 },
    });
    await createQueues(client);
    await runWorkload({
      client: () => client,
      ledger,
      now,
      until,
      churnEveryMs,
      tag,
      failed: (...args) => window.soakLedger('failed', ...args),
    });
  },

  /**
   * What the store holds in `queues`, invisible messages included: [[id, text, dequeueCount]].
   * @param {string[]} queues
   */
  present(queues) {
    /** @type {[string, string, number][]} */
    const out = [];
    for (const name of queues) {
      const queue = service.inspect(name).accounts[0]?.queues.find((q) => q.name === name);
      for (const m of queue?.messages ?? []) out.push([m.messageId, m.messageText, m.dequeueCount]);
    }
    return out;
  },

  /** The wasm instance's linear memory, in bytes (it only grows). */
  wasmBytes: () => wasm.memory.buffer.byteLength,
};
/** @typedef {typeof soak} SoakPage */
Object.assign(window, { soak });

/** @type {HTMLElement} */ (document.getElementById('status')).textContent = 'ready';
