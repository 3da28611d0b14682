// azqueue as a service worker: same-origin requests whose first path segment is a configured
// account (`/devstoreaccount1/...`, path-style as Azurite's) are answered by the wasm fetch
// handler inside the browser, so the official SDK in a page talks to a queue service that
// lives in the tab's origin. Everything else goes to the network untouched.
//
// Register as a module worker: `navigator.serviceWorker.register('/sw.js', { type: 'module' })`.
// Query parameters of the script URL configure it: `?anonymous=1` serves requests without
// credentials (for the page's own in-origin queue), `?accounts=name:key;…` replaces the
// development account.
//
// Memory store for now: the browser stops idle service workers, and with them the queues. The
// IndexedDB store comes with the persistence work.

import init, { QueueService } from './pkg/azqueue.js';

const params = new URL(self.location.href).searchParams;

// Module service workers may not use top-level await; the service opens on first use.
let ready = null;
function service() {
  ready ??= init()
    .then(() => QueueService.open({
      store: 'memory',
      anonymous: params.get('anonymous') === '1',
      accounts: params.get('accounts') || undefined,
    }))
    .then((svc) => ({ handle: svc.fetchHandler(), accounts: accountNames(params.get('accounts')) }))
    .catch((err) => {
      ready = null; // a later request may retry
      throw err;
    });
  return ready;
}

function accountNames(spec) {
  if (!spec) return ['devstoreaccount1'];
  return spec.split(';').map((entry) => entry.split(':')[0].trim()).filter(Boolean);
}

self.addEventListener('install', (event) => {
  event.waitUntil(service().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  // Take over already-open pages, so the page that registered us can use the queues at once.
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin) return;
  const first = url.pathname.split('/')[1] ?? '';
  const account = first.endsWith('-secondary') ? first.slice(0, -'-secondary'.length) : first;
  if (!accountNames(params.get('accounts')).includes(account)) return;
  event.respondWith(
    service()
      .then(({ handle }) => handle(event.request))
      .catch((err) => new Response(`azqueue could not start: ${err.message}\n`, { status: 500 })),
  );
});
