// The page's end of the service worker bridge: registers www/sw.js in forwarding mode, and
// answers each Azure request it forwards (method, URL, headers, body) with the page's own
// engine, through the page's REST client, so code on this origin — the @azure/storage-queue
// snippet pasted in the devtools console — reaches the queue that is drawn, on the page's
// clock, and shows up in the HTTP log.
//
// Install it early (before the engine is up): once the document has loaded, messages from the
// service worker are delivered at once, so the listener must be there; requests that arrive
// before `serve` is called wait for it (the worker gives up after a few seconds with 503
// ServerBusy).

export const SW_URL = 'sw.js?anonymous=1&forward=client';

/**
 * The page's answer to one forwarded request: the wire response (status, statusText, headers
 * as [name, value] pairs, body as bytes), which goes back to the service worker as it is.
 * @typedef {(request: Request) => Promise<{ status: number, body?: ArrayBuffer } | undefined>}
 *   Answer
 */

/**
 * @param {object} [o]
 * @param {(state: string, detail?: string) => void} [o.onState] "unsupported" | "registering" |
 *   "forwarding" | "uncontrolled" | "failed"
 * @returns {{ serve(answer: Answer): void, ready: Promise<string> }}
 */
export function installBridge({ onState = () => {} } = {}) {
  /** @type {(answer: Answer) => void} */
  let setAnswer;
  /** @type {Promise<Answer>} */
  const answerReady = new Promise((resolve) => (setAnswer = resolve));

  if (!('serviceWorker' in navigator)) {
    onState('unsupported', 'This browser (or an insecure origin) has no service workers.');
    return { serve() {}, ready: Promise.resolve('unsupported') };
  }

  navigator.serviceWorker.addEventListener('message', (event) => {
    const data = event.data;
    const port = event.ports?.[0];
    if (!data || data.type !== 'azqueue-forward' || !port) return;
    answerReady
      .then((answer) => answer(toRequest(data)))
      .then((reply) => {
        if (!reply || typeof reply.status !== 'number')
          throw new Error("no response from the page's engine");
        port.postMessage(reply, reply.body ? [reply.body] : []);
      })
      .catch((err) => port.postMessage({ error: String(err?.message ?? err) }))
      .finally(() => port.close());
  });
  navigator.serviceWorker.startMessages?.();

  const ready = (async () => {
    onState('registering');
    try {
      await navigator.serviceWorker.register(SW_URL, { type: 'module' });
      await navigator.serviceWorker.ready;
      if (!isForwarder(navigator.serviceWorker.controller)) {
        // First visit (claim() is on its way), or an older registration being replaced.
        await Promise.race([
          /** @type {Promise<void>} */ (
            new Promise((resolve) => {
              const check = () => {
                if (isForwarder(navigator.serviceWorker.controller)) {
                  navigator.serviceWorker.removeEventListener('controllerchange', check);
                  resolve();
                }
              };
              navigator.serviceWorker.addEventListener('controllerchange', check);
            })
          ),
          new Promise((resolve) => setTimeout(resolve, 10_000)),
        ]);
      }
      if (!isForwarder(navigator.serviceWorker.controller)) {
        // A hard reload (Shift+Reload) bypasses service workers for the page's own requests.
        onState(
          'uncontrolled',
          'The service worker is installed but does not control this tab: reload the page (a normal reload).',
        );
        return 'uncontrolled';
      }
      onState('forwarding');
      return 'forwarding';
    } catch (e) {
      onState(
        'failed',
        `Could not start the service worker: ${/** @type {any} */ (e)?.message ?? e}`,
      );
      return 'failed';
    }
  })();

  return { serve: (answer) => setAnswer(answer), ready };
}

/** @param {ServiceWorker | null} worker */
function isForwarder(worker) {
  if (!worker) return false;
  return new URL(worker.scriptURL).searchParams.get('forward') === 'client';
}

/**
 * @param {{ method: string, url: string, headers: [string, string][], body?: BodyInit | null }} data
 *   a request as the service worker forwarded it (www/sw.js)
 */
function toRequest({ method, url, headers, body }) {
  /** @type {RequestInit} */
  const init = { method, headers };
  if (body && method !== 'GET' && method !== 'HEAD') init.body = body;
  return new Request(url, init);
}
