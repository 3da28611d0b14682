// azqueue as a service worker: same-origin requests whose first path segment is a configured
// account (`/devstoreaccount1/...`, path-style as Azurite's) are answered by an azqueue engine
// in the browser, so the official SDK in a page talks to a queue service that lives in the
// tab's origin. Everything else goes to the network untouched.
//
// Register as a module worker: `navigator.serviceWorker.register('/sw.js', { type: 'module' })`.
// Query parameters of the script URL configure it:
//
//   ?anonymous=1        (standalone) serve requests without credentials
//   ?accounts=name:key;…  the accounts whose paths are served (default devstoreaccount1);
//                       standalone, it also replaces the development account's key
//   ?forward=client     forwarding mode: do not run an engine here; hand each account-path
//                       request to the window that made it (falling back to the first window of
//                       this origin) and return that page's answer. The teaching page registers
//                       it this way (www/page/sw-bridge.js), so SDK calls reach the queue it draws.
//   ?timeout=ms         forwarding mode: how long to wait for the page (default 5000); after that
//                       the answer is 503 ServerBusy, as Azure says when it cannot serve in time.
//
// Standalone mode keeps a memory store: the browser stops idle service workers, and with them
// the queues.
//
// The forwarding protocol (one MessageChannel per request):
//   worker → page  client.postMessage({ type: 'azqueue-forward', method, url, headers, body }, [port])
//                  headers: [[name, value], …]; body: ArrayBuffer, or null for GET/HEAD
//   page → worker  port.postMessage({ status, statusText, headers, body })   (body: ArrayBuffer|null)
//                  or { error: 'message' } when the page could not answer.

import init, { QueueService } from '/pkg/web/azqueue.js';

/**
 * This worker's global scope. The WebWorker lib types `self` as any worker's scope, which tsc
 * will not narrow to a service worker's directly.
 */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const params = new URL(sw.location.href).searchParams;
const FORWARD = params.get('forward') === 'client';
const FORWARD_TIMEOUT_MS = Number(params.get('timeout')) > 0 ? Number(params.get('timeout')) : 5000;
const ACCOUNTS = accountNames(params.get('accounts'));

/** Statuses whose responses must not carry a body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

// Module service workers may not use top-level await (nor import()); the engine's wasm loads on
// first use, and only in standalone mode (a forwarding worker never instantiates it).
/** @type {Promise<{ handle: (request: Request) => Promise<Response> }> | null} */
let ready = null;
function service() {
  ready ??= init()
    .then(() =>
      QueueService.open({
        store: 'memory',
        anonymous: params.get('anonymous') === '1',
        accounts: params.get('accounts') || undefined,
      }),
    )
    .then((svc) => ({ handle: svc.fetchHandler() }))
    .catch((err) => {
      ready = null; // a later request may retry
      throw err;
    });
  return ready;
}

/** @param {string | null} spec the `accounts` parameter */
function accountNames(spec) {
  if (!spec) return ['devstoreaccount1'];
  return spec
    .split(';')
    .map((entry) => entry.split(':')[0].trim())
    .filter(Boolean);
}

sw.addEventListener('install', (event) => {
  event.waitUntil((FORWARD ? Promise.resolve() : service()).then(() => sw.skipWaiting()));
});

sw.addEventListener('activate', (event) => {
  // Take over already-open pages, so the page that registered us can use the queues at once.
  event.waitUntil(sw.clients.claim());
});

sw.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== sw.location.origin) return;
  // Only the account segment decides, and synchronously (respondWith cannot wait): a forwarding
  // worker never loads the wasm, so QueueService.routeOf is not at hand; the engine or the page
  // reads the rest of the path with the REST router itself.
  const first = url.pathname.split('/')[1] ?? '';
  const account = first.endsWith('-secondary') ? first.slice(0, -'-secondary'.length) : first;
  if (!ACCOUNTS.includes(account)) return;
  if (FORWARD) {
    event.respondWith(
      forward(event).catch((err) =>
        azureError(
          500,
          'InternalError',
          `The service worker could not forward the request: ${err?.message ?? err}`,
        ),
      ),
    );
    return;
  }
  event.respondWith(
    service()
      .then(({ handle }) => handle(event.request))
      .catch((err) => new Response(`azqueue could not start: ${err.message}\n`, { status: 500 })),
  );
});

// ── forwarding mode ───────────────────────────────────────────────────────────────────

/**
 * The window that made the request, else the first window of this origin.
 * @param {string} clientId
 */
async function pickClient(clientId) {
  if (clientId) {
    const own = await sw.clients.get(clientId);
    if (own && own.type === 'window') return own;
  }
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return windows.find((c) => new URL(c.url).origin === sw.location.origin) ?? null;
}

/** @param {FetchEvent} event */
async function forward(event) {
  const request = event.request;
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const body = hasBody ? await request.arrayBuffer() : null;
  const client = await pickClient(event.clientId);
  if (!client) {
    return azureError(
      503,
      'ServerBusy',
      'No page of this origin is open to answer: open the azqueue page and try again.',
    );
  }
  const channel = new MessageChannel();
  /**
   * The page's answer, or null when it did not come in time.
   * @type {Promise<{ status?: number, statusText?: string, headers?: [string, string][],
   *   body?: ArrayBuffer | null, error?: string } | null>}
   */
  const reply = new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), FORWARD_TIMEOUT_MS);
    channel.port1.onmessage = (e) => {
      clearTimeout(timer);
      resolve(e.data ?? { error: 'empty answer' });
    };
  });
  client.postMessage(
    {
      type: 'azqueue-forward',
      method: request.method,
      url: request.url,
      headers: [...request.headers],
      body,
    },
    body ? [channel.port2, body] : [channel.port2],
  );
  const answer = await reply;
  channel.port1.close();
  if (!answer) {
    return azureError(
      503,
      'ServerBusy',
      `The page did not answer within ${FORWARD_TIMEOUT_MS / 1000} s (is it the azqueue page, and is it still open?).`,
    );
  }
  if (answer.error)
    return azureError(500, 'InternalError', `The page could not answer: ${answer.error}`);
  const status = Number(answer.status) || 500;
  const empty = request.method === 'HEAD' || NULL_BODY.has(status) || !answer.body;
  return new Response(empty ? null : answer.body, {
    status,
    statusText: answer.statusText ?? '',
    headers: answer.headers ?? [],
  });
}

/**
 * An error the way Azure Storage words one: XML body, x-ms-error-code, a request id.
 * @param {number} status
 * @param {string} code
 * @param {string} message
 */
function azureError(status, code, message) {
  const requestId = sw.crypto?.randomUUID?.() ?? String(Date.now());
  const time = new Date().toISOString();
  const xml =
    `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code>` +
    `<Message>${escapeXml(message)}\nRequestId:${requestId}\nTime:${time}</Message></Error>`;
  return new Response(xml, {
    status,
    statusText: status === 503 ? 'Server Busy' : 'Internal Server Error',
    headers: {
      'content-type': 'application/xml',
      'x-ms-error-code': code,
      'x-ms-request-id': requestId,
      date: new Date().toUTCString(),
    },
  });
}

/** @type {Record<string, string>} */
const XML_ESCAPES = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };

/** @param {string} s */
function escapeXml(s) {
  return s.replace(/[<>&'"]/g, (c) => XML_ESCAPES[c]);
}
