// The "use it from code" panel: an @azure/storage-queue snippet aimed at this origin, where the
// service worker (www/sw.js) answers the Azure Queue REST API with the same wasm engine —
// path style, `/devstoreaccount1/<queue>`, anonymous when registered with `?anonymous=1`.

import { ACCOUNT } from "./rest.js";

export const SW_URL = "sw.js?anonymous=1";

export function snippetFor(queue) {
  return `import { QueueClient } from "@azure/storage-queue";

// The service worker answers the Azure Queue REST API on this origin
// (path style, account ${ACCOUNT}; ?anonymous=1: no key needed in the tab).
await navigator.serviceWorker.register("/${SW_URL}", { type: "module" });
await navigator.serviceWorker.ready;

const queue = new QueueClient(\`\${location.origin}/${ACCOUNT}/${queue}\`);
await queue.createIfNotExists();
await queue.sendMessage("hello from the SDK");

const { receivedMessageItems: [m] } = await queue.receiveMessages({ visibilityTimeout: 30 });
console.log(m.messageText, "DequeueCount", m.dequeueCount);

// Update Message extends the lease, saves progress, and issues a new pop receipt…
const { popReceipt } = await queue.updateMessage(m.messageId, m.popReceipt, "half done", 60);
// …so delete with the new one: m.popReceipt is stale now (404 MessageNotFound).
await queue.deleteMessage(m.messageId, popReceipt);`;
}

export function bindSnippet({ code, copy, status, start, startStatus }, getQueue) {
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
      // Clipboard access can be refused (insecure origin, no permission): select instead.
      const range = document.createRange();
      range.selectNodeContents(code);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      status.textContent = "Selected: press Ctrl+C to copy.";
    }
  });
  start?.addEventListener("click", () => startServiceWorker(getQueue(), startStatus));
  return refresh;
}

/** Registers the service worker and proves it answers: Create Queue over real fetch. */
async function startServiceWorker(queue, out) {
  if (!("serviceWorker" in navigator)) {
    out.textContent = "This browser (or an insecure origin) has no service workers.";
    return;
  }
  out.textContent = "Registering…";
  try {
    await navigator.serviceWorker.register(SW_URL, { type: "module" });
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
    }
    const r = await fetch(`/${ACCOUNT}/${queue}`, { method: "PUT", headers: { "x-ms-version": "2026-04-06" } });
    out.textContent = `The service worker answered PUT /${ACCOUNT}/${queue} with ${r.status} ${r.statusText}${
      r.headers.get("x-ms-error-code") ? ` (${r.headers.get("x-ms-error-code")})` : ""
    }. The snippet works from code on this origin.`;
    out.dataset.status = String(r.status);
  } catch (e) {
    out.textContent = `Could not start the service worker: ${e.message}`;
  }
}
