// The "use it from code" panel: an @azure/storage-queue snippet aimed at the current queue,
// through the path prefix the service worker (www/sw.js) answers with the engine, and a Copy
// button.

import { ACCOUNT } from "./rest.js";

/** Where the service worker serves the REST API (see www/sw.js). */
export const SW_PREFIX = "/azqueue";

export function snippetFor(queue) {
  return `import { QueueClient } from "@azure/storage-queue";

// The engine answers the Azure Queue REST API under ${SW_PREFIX}/ on this origin
// (path style, account ${ACCOUNT}, anonymous — no key needed in the tab).
const queue = new QueueClient(\`\${location.origin}${SW_PREFIX}/${ACCOUNT}/${queue}\`);

await queue.sendMessage("hello from the SDK", { visibilityTimeout: 5 });

const { receivedMessageItems: [m] } = await queue.receiveMessages({ visibilityTimeout: 30 });
if (m) {
  console.log(m.messageText, "DequeueCount", m.dequeueCount);
  // Update Message extends the lease, saves progress, and issues a new pop receipt…
  const { popReceipt } = await queue.updateMessage(m.messageId, m.popReceipt, "half done", 60);
  // …so delete with the new one: m.popReceipt is stale now and would get 404 MessageNotFound.
  await queue.deleteMessage(m.messageId, popReceipt);
}`;
}

export function bindSnippet({ code, copy, status }, getQueue) {
  const refresh = () => {
    const text = snippetFor(getQueue());
    if (code.textContent !== text) code.textContent = text;
  };
  copy.addEventListener("click", async () => {
    refresh();
    try {
      await navigator.clipboard.writeText(code.textContent);
      status.textContent = "Copied.";
    } catch {
      // Clipboard access can be refused (no user gesture, insecure origin): select instead.
      const range = document.createRange();
      range.selectNodeContents(code);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      status.textContent = "Selected — press Ctrl+C to copy.";
    }
  });
  return refresh;
}
