// Which object serves a request, decided from the REST router's own reading of its path
// (`QueueService.routeOf`, src/rest/route.rs: path-style URLs, as Azurite's,
// `/<account>[/<queue>[/messages[/<id>]]]`). The reading is passed in, so this is tested
// without workerd.
//
// - A queue's own operations (its messages, metadata, ACL, create, delete) go to the queue's
//   object, named `<account>/<queue>`: one object per queue, as one queue is one partition in
//   Azure.
// - Account-level operations (List Queues, service properties, stats) and CORS preflights go to
//   the account's directory object, named `<account>`.
// - A queue segment that is not a valid queue name goes to the directory too, which refuses it
//   exactly as a queue object would (the REST layer checks names before anything else), so no
//   object is ever addressed for it.

/** @import { RouteReading } from '../../pkg/web/azqueue.js' */

/** @typedef {(method: string, url: string) => RouteReading} RouteOf `QueueService.routeOf` */

/** The operations that change a queue's record (its existence, metadata or ACL). */
const RECORD_CHANGES = new Set([
  'Create Queue',
  'Delete Queue',
  'Set Queue Metadata',
  'Set Queue ACL',
]);

/**
 * A queue's target says whether the request may change the queue's record (`changesRecord`),
 * which its object serves one at a time (queue-object.mjs).
 * @returns {{ kind: 'queue', account: string, queue: string, changesRecord: boolean }
 *   | { kind: 'directory', account: string }
 *   | { kind: 'none' }}
 * @param {string} method
 * @param {string} url
 * @param {RouteOf} routeOf
 */
export function route(method, url, routeOf) {
  const pathname = pathOf(url);
  if (pathname.startsWith('/_azqueue/') || pathname === '/_azqueue') {
    return inspectRoute(pathname.split('/').slice(1), url, routeOf);
  }
  const { account, queue, queueNameValid, operation } = routeOf(method, url);
  if (!account) return { kind: 'none' };
  if (method === 'OPTIONS' || !queue || !queueNameValid) return { kind: 'directory', account };
  return { kind: 'queue', account, queue, changesRecord: RECORD_CHANGES.has(operation ?? '') };
}

/**
 * `/_azqueue/inspect/<account>/<queue>` and `/_azqueue/memory/<account>/<queue>` (the isolate's
 * memory as that queue's object sees it) are the queue object's; the rest spans objects.
 * @param {string[]} parts the path's segments
 * @param {string} url
 * @param {RouteOf} routeOf
 * @returns {{ kind: 'queue', account: string, queue: string, changesRecord: boolean }
 *   | { kind: 'none' }}
 */
function inspectRoute(parts, url, routeOf) {
  if ((parts[1] === 'inspect' || parts[1] === 'memory') && parts.length >= 4 && parts[3] !== '') {
    // `<account>/<queue>` read as the router reads a queue's own path.
    const { account, queue, queueNameValid } = routeOf(
      'GET',
      new URL(`/${parts[2]}/${parts[3]}`, url).href,
    );
    if (account && queue && queueNameValid)
      return { kind: 'queue', account, queue, changesRecord: false };
  }
  return { kind: 'none' };
}

/**
 * The path of an absolute URL as the Fetch API serializes it (`Request.url`): what follows the
 * authority, up to the query or fragment. A `URL` object costs the Worker more per request than
 * the rest of its routing, and the serialized form leaves nothing to resolve.
 * @param {string} url
 */
export function pathOf(url) {
  const authority = url.indexOf('//') + 2;
  const start = url.indexOf('/', authority);
  if (start < 0) return '/';
  let end = url.length;
  for (const mark of ['?', '#']) {
    const at = url.indexOf(mark, start);
    if (at >= 0 && at < end) end = at;
  }
  return url.slice(start, end);
}

/**
 * The Durable Object name of a queue's object.
 * @param {string | undefined} account
 * @param {string} queue
 */
export function queueObjectName(account, queue) {
  return `${account}/${queue}`;
}
