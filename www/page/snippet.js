// The "use it from code" panel: an @azure/storage-queue snippet aimed at this origin. The page
// registers the service worker in forwarding mode (sw-bridge.js), so requests to
// `/devstoreaccount1/<queue>` from this tab are answered by the page's own engine: the queue that
// is drawn, on the page's clock, logged in the HTTP log like every other call.

import { ACCOUNT, API_VERSION } from './rest.js';

export { SW_URL } from './sw-bridge.js';

/** The SDK's ES module bundle, served by this page's own server (scripts/build-sdk.mjs). */
export const SDK_PATH = '/pkg/vendor/azure-storage-queue.js';

/**
 * The snippet's queue: its own, next to the scenario's, so the scenario's messages are left alone.
 * @param {string} queue
 */
export function snippetQueue(queue) {
  return `${queue}-sdk`;
}

/** @param {string} queue */
export function snippetFor(queue) {
  return `// Paste into this page's devtools console (F12). The service worker
// hands /${ACCOUNT}/… requests to this page: the snippet's queue is drawn
// under the scenario's, and each call is a row in the HTTP log.
// The SDK comes from this server (an esbuild bundle of @azure/storage-queue),
// so this works offline. In an app, bundle it yourself:
//   import { QueueClient, AnonymousCredential } from "@azure/storage-queue";
const { QueueClient, AnonymousCredential } = await import(\`\${location.origin}${SDK_PATH}\`);

// A queue of its own: the scenario's messages stay with its consumers.
const queue = new QueueClient(\`\${location.origin}/${ACCOUNT}/${snippetQueue(queue)}\`, new AnonymousCredential());
await queue.createIfNotExists();
await queue.sendMessage("hello from the SDK");

// Time is the page's clock: a 30 s lease runs out only when you Play or Step.
const { receivedMessageItems: [m] } = await queue.receiveMessages({ visibilityTimeout: 30 });
console.log(m.messageText, "DequeueCount", m.dequeueCount); // its receipt is r1

// Update Message saves progress, extends the lease and issues a new receipt, r2…
const { popReceipt } = await queue.updateMessage(m.messageId, m.popReceipt, "half done", 60);

// …so the receipt from the receive, r1, is stale now: the queue refuses it.
try {
  await queue.deleteMessage(m.messageId, m.popReceipt);
} catch (e) {
  console.log("stale receipt:", e.statusCode, e.code); // 404 MessageNotFound
}
await queue.deleteMessage(m.messageId, popReceipt); // the current receipt, r2, works
console.log("deleted with the current receipt");`;
}

/**
 * @param {{ code: HTMLElement, copy: HTMLElement, status: HTMLElement, start?: HTMLElement,
 *   startStatus: HTMLElement }} elements
 * @param {() => string} getQueue
 * @param {Promise<string>} [bridgeReady] the bridge's state once started (sw-bridge.js)
 */
export function bindSnippet(
  { code, copy, status, start, startStatus },
  getQueue,
  bridgeReady = Promise.resolve('unsupported'),
) {
  const refresh = () => {
    const text = snippetFor(getQueue());
    if (code.textContent !== text) code.textContent = text;
  };
  copy.addEventListener('click', async () => {
    refresh();
    try {
      await navigator.clipboard.writeText(/** @type {string} */ (code.textContent));
      status.textContent = 'Copied.';
    } catch {
      // Clipboard access can be refused (insecure origin, no permission): select instead.
      const range = document.createRange();
      range.selectNodeContents(code);
      const sel = /** @type {Selection} */ (window.getSelection());
      sel.removeAllRanges();
      sel.addRange(range);
      status.textContent = 'Selected: press Ctrl+C to copy.';
    }
  });
  start?.addEventListener('click', () =>
    sendThroughServiceWorker(getQueue(), startStatus, bridgeReady),
  );
  return refresh;
}

/**
 * Proves the path is real: a Put Message over the browser's own fetch, via the service worker.
 * @param {string} queue
 * @param {HTMLElement} out
 * @param {Promise<string>} bridgeReady
 */
async function sendThroughServiceWorker(queue, out, bridgeReady) {
  out.textContent = 'Waiting for the service worker…';
  const state = await bridgeReady;
  if (state !== 'forwarding') {
    out.textContent =
      state === 'unsupported'
        ? 'This browser (or an insecure origin) has no service workers.'
        : 'The service worker does not control this tab yet: reload the page and try again.';
    out.dataset.status = 'none';
    return;
  }
  try {
    const path = `/${ACCOUNT}/${queue}/messages`;
    const r = await fetch(path, {
      method: 'POST',
      headers: { 'x-ms-version': API_VERSION, 'content-type': 'application/xml' },
      body: '<QueueMessage><MessageText>hello through the service worker</MessageText></QueueMessage>',
    });
    const code = r.headers.get('x-ms-error-code');
    out.textContent = `fetch("POST ${path}") went to the service worker, which handed it to this page: ${r.status} ${r.statusText}${
      code ? ` (${code})` : ''
    }.${r.ok ? ' A new card is in the queue, and the call is in the HTTP log.' : ''}`;
    out.dataset.status = String(r.status);
  } catch (e) {
    out.textContent = `The request failed: ${/** @type {Error} */ (e).message}`;
    out.dataset.status = 'error';
  }
}
