// What both Durable Object classes share: opening a QueueService on the object's SQLite
// storage, serving a Fetch `Request` through the REST layer's `handleRaw`, and the name of an
// account's directory object, which the Worker uses too.

import { INTERNAL_PREFIX } from './forward.mjs';
import { QueueService, azureError as azureErrorResponse } from './wasm.mjs';

/** @import { RawResponse } from '../../pkg/edge/azqueue.js' */
/** @import { SqliteStore } from './sqlite-store.mjs' */

/**
 * The Worker's bindings (wrangler.jsonc; miniflare-options.mjs declares the same for miniflare).
 * @typedef {object} Env
 * @property {DurableObjectNamespace<import('./queue-object.mjs').QueueObject>} QUEUE
 * @property {DurableObjectNamespace<import('./directory-object.mjs').DirectoryObject>} DIRECTORY
 * @property {string} [AZURITE_ACCOUNTS] the accounts and keys, as Azurite reads them
 * @property {string} [AZQUEUE_PURGE_FLOOR_MS] the earliest a queue's alarm is set after now
 * @property {string} [AZQUEUE_UPGRADE_STEP] layout-1 message rows moved per transaction
 * @property {string} [AZQUEUE_FAULTS] fault rules and limits every object starts with, as JSON
 *   (docs/faults.md, "At the edge")
 */

/**
 * The account's directory object (named `<account>`, `_` for requests naming none).
 * @param {Env} env
 * @param {string | undefined} account
 */
export function directoryOf(env, account) {
  return env.DIRECTORY.get(env.DIRECTORY.idFromName(account || '_'));
}

/**
 * Opens the QueueService of one object, loading what its SqliteStore holds, acting on `account`
 * when it is configured (the JS methods the objects call themselves). With `messages`, the
 * queue's messages stay in the object's SQL (`open({ sql })`) and only its record is loaded.
 * @param {SqliteStore} store
 * @param {Env} env
 * @param {string | undefined} account
 * @param {{ messages?: boolean }} [options]
 */
export async function openService(store, env, account, { messages = false } = {}) {
  const accounts = env.AZURITE_ACCOUNTS || undefined;
  const sql = messages ? store.sqlHost() : undefined;
  // Each object keeps its own copy of the rules, counts and limits (docs/faults.md).
  const faults = env.AZQUEUE_FAULTS || undefined;
  let service;
  try {
    service = await QueueService.open({ store: store.adapter(), accounts, account, sql, faults });
  } catch (err) {
    // An account nobody configured is refused by the REST layer on every request anyway.
    if (/** @type {{ code?: string }} */ (err).code !== 'InvalidInput') throw err;
    service = await QueueService.open({ store: store.adapter(), accounts, sql, faults });
  }
  return service;
}

/**
 * Serves one REST request with `service`: the same path as the Node server's `handleRaw`.
 * @param {QueueService} service
 * @param {Request} request
 * @param {string} [url] `request.url`, when the caller has read it already
 */
export async function serveRest(service, request, url = request.url) {
  /** @type {string[]} */
  const headers = [];
  /** @type {string | undefined} Cloudflare's word for the client's address (forward.mjs) */
  let address;
  for (const [name, value] of request.headers) {
    if (name.startsWith(INTERNAL_PREFIX)) continue;
    headers.push(name, value);
    if (name === 'cf-connecting-ip') address = value;
  }
  const { method } = request;
  const bodyless = method === 'GET' || method === 'HEAD';
  const body = bodyless ? new Uint8Array(0) : new Uint8Array(await request.arrayBuffer());
  const r = await service.handleRaw(method, url, headers.join('\n'), body, address);
  try {
    return toResponse(r, method);
  } finally {
    r.free();
  }
}

/**
 * @param {RawResponse} r
 * @param {string} method
 */
function toResponse(r, method) {
  // Each of `r`'s fields is a call into the wasm (and a string decoded or bytes copied), so
  // each is read once.
  const { status } = r;
  const joined = r.headers;
  const headers = new Headers();
  const parts = joined ? joined.split('\n') : [];
  for (let i = 0; i + 1 < parts.length; i += 2) headers.append(parts[i], parts[i + 1]);
  const nullBody = method === 'HEAD' || [101, 103, 204, 205, 304].includes(status);
  return new Response(nullBody ? null : r.body, { status, statusText: r.statusText, headers });
}

/**
 * An Azure error answered by the edge itself (the REST layer never sees the request), rendered
 * from the error table as the REST layer renders its own: `code`'s status, message, headers and
 * XML, the request's `x-ms-version` echoed, and `reason` (what went wrong here) as `<Reason>`.
 * @param {Request} request
 * @param {import('../../pkg/edge/azqueue.js').ErrorCode} code
 * @param {string} [reason]
 */
export function azureError(request, code, reason) {
  const r = azureErrorResponse(code, request.headers.get('x-ms-version') ?? undefined, reason);
  try {
    return toResponse(r, request.method);
  } finally {
    r.free();
  }
}
