// How the Worker hands a client's request to the object that serves it (worker.mjs), kept apart
// so it is tested without workerd. The objects read two headers as the Worker's word, ROUTE and
// CORS, so the Worker never forwards a request carrying either as a client sent it.
//
// - A request for a queue's object that changes no queue record and has no `Origin` (Put, Get,
//   Peek, Delete and Update Message, Get Properties…: nearly all of them) goes as it came: no
//   copy, and no ROUTE, which the object reads only to open itself and so reads from the URL
//   then (queue-object.mjs). The Worker's hop costs what any Durable Object's costs.
// - Any other goes as a copy with every `x-azqueue-edge-` header the client sent removed, ROUTE
//   set to where the Worker routed it, and CORS to the account's CORS rules when it has an
//   `Origin`.
// The client's address is Cloudflare's `CF-Connecting-IP` in either case, read by the object.

/** Headers the Worker sets for its objects; never from clients and never shown to the REST layer. */
export const INTERNAL_PREFIX = 'x-azqueue-edge-';
/** Where the Worker routed the request (route.mjs's answer, JSON). */
export const ROUTE = 'x-azqueue-edge-route';
/** The account's CORS rules, from the directory, for a request with an `Origin` (JSON). */
export const CORS = 'x-azqueue-edge-cors';

/** @typedef {ReturnType<typeof import('./route.mjs').route>} Target */

/**
 * Whether `request` goes to its queue's object as the client sent it.
 * @param {Request} request
 * @param {Target} target
 */
export function forwardsAsSent(request, target) {
  const { headers } = request;
  return (
    target.kind === 'queue' &&
    !target.changesRecord &&
    !headers.has('origin') &&
    !headers.has(ROUTE) &&
    !headers.has(CORS)
  );
}

/**
 * The request as an object receives it otherwise: the client's own headers minus anything
 * internal, with the Worker's route and, for a request with an `Origin`, the account's rules.
 * @param {Request} request
 * @param {Target} target
 * @param {unknown} [cors] the account's CORS rules (set when the request has an `Origin`)
 */
export function internalRequest(request, target, cors) {
  const headers = new Headers();
  for (const [name, value] of request.headers) {
    if (!name.startsWith(INTERNAL_PREFIX)) headers.append(name, value);
  }
  headers.set(ROUTE, JSON.stringify(target));
  if (cors !== undefined) headers.set(CORS, JSON.stringify(cors));
  // A GET or HEAD may arrive with an (empty) body, e.g. `Content-Length: 0`; Fetch refuses one.
  const bodyless = request.method === 'GET' || request.method === 'HEAD';
  return new Request(request.url, {
    method: request.method,
    headers,
    body: bodyless ? null : request.body,
  });
}
