// The transport of the soak's SDK clients when faults are on (soak.mjs --faults): each try the
// SDK makes, retries included, goes over loopback HTTP with `fetch`, and its answer is read
// before the SDK's retry policy sees it, so the ledger learns what every try did:
//   - a Put Message try answered 201 or by an `after` fault put a message (the second kind is a
//     copy the producer never hears of: the SDK's retry puts the text again), one answered by a
//     `before` fault or any other error put nothing, one with no answer may have;
//   - a Delete Message try answered by an `after` fault deleted the message: from then on it
//     must never be delivered, though the SDK's retry is told 404 and the workload nothing;
//   - every faulted answer is counted, by operation and `when`, to set beside the service's own
//     counts (GET /_azqueue/faults).
// Without faults the soak keeps the SDK's own transport.

import { QueueServiceClient } from '@azure/storage-queue';
import { toHttpHeadersLike } from '@azure/core-http-compat';
import { createHttpHeaders } from '@azure/core-rest-pipeline';
import { faultWhen } from './faults.mjs';

/** @import { LedgerLike } from './workload.mjs' */
/** @import { RequestPolicy, WebResourceLike } from '@azure/core-http-compat' */

/** The SDK's retries, with short delays: a faulted try is retried at once, then at 20–100 ms. */
export const RETRY_OPTIONS = { maxTries: 4, retryDelayInMs: 20, maxRetryDelayInMs: 100 };

/**
 * What a request is, from its method and path (`/<account>/<queue>/messages[/<id>]`).
 * @param {string} method
 * @param {string} url
 * @returns {{ operation: string, queue: string, id?: string } | null}
 */
function messageOperation(method, url) {
  const [, queue, messages, id] = new URL(url).pathname.split('/').slice(1);
  if (messages !== 'messages') return null;
  if (id === undefined) {
    if (method === 'POST') return { operation: 'PutMessage', queue };
    if (method === 'GET' && !new URL(url).searchParams.has('peekonly'))
      return { operation: 'GetMessages', queue };
    return null;
  }
  if (method === 'DELETE') return { operation: 'DeleteMessage', queue, id };
  if (method === 'PUT') return { operation: 'UpdateMessage', queue, id };
  return null;
}

/** @param {WebResourceLike['body']} body */
const messageText = (body) =>
  /<MessageText>([^<]*)<\/MessageText>/.exec(typeof body === 'string' ? body : '')?.[1] ?? '';

/**
 * An SDK transport (the `httpClient` of the client's options) that tells `ledger` what each try
 * did; `now` is the ledger's clock.
 * @param {LedgerLike} ledger
 * @param {() => number} now
 * @returns {RequestPolicy}
 */
export function faultWatch(ledger, now) {
  return {
    async sendRequest(request) {
      const op = messageOperation(request.method, request.url);
      const text = op?.operation === 'PutMessage' ? messageText(request.body) : '';
      const sentAt = now();
      /** @type {Response} */
      let response;
      try {
        response = await fetch(request.url, {
          method: request.method,
          headers: Object.fromEntries(request.headers.headersArray().map((h) => [h.name, h.value])),
          body: /** @type {string | undefined} */ (request.body ?? undefined),
          signal: /** @type {AbortSignal | undefined} */ (request.abortSignal),
        });
      } catch (err) {
        if (op && text) await ledger.putTry(op.queue, text, 'unknown', sentAt);
        throw err;
      }
      const bodyAsText = await response.text();
      const when = response.status >= 500 ? faultWhen(bodyAsText) : null;
      if (op) await ledger.note('tries');
      if (op && when) await ledger.fault(op.operation, when);
      if (op?.operation === 'PutMessage') {
        const applied = response.status === 201 || when === 'after';
        await ledger.putTry(op.queue, text, applied ? 'applied' : 'refused', sentAt);
      }
      if (op?.operation === 'DeleteMessage' && when === 'after')
        await ledger.delete(op.queue, /** @type {string} */ (op.id), now());
      return {
        status: response.status,
        headers: toHttpHeadersLike(createHttpHeaders(Object.fromEntries(response.headers))),
        request,
        bodyAsText,
      };
    },
  };
}

/**
 * A client whose tries the ledger sees (faultWatch), retrying as an application would.
 * @param {string} connectionString
 * @param {LedgerLike} ledger
 * @param {() => number} now
 */
export function watchedClient(connectionString, ledger, now) {
  return QueueServiceClient.fromConnectionString(connectionString, {
    httpClient: faultWatch(ledger, now),
    retryOptions: RETRY_OPTIONS,
  });
}
