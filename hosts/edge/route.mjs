// Which object serves a request, decided from the REST path alone (path-style URLs, as Azurite's:
// `/<account>[/<queue>[/messages[/<id>]]]`). Pure, so it is tested without workerd.
//
// - A queue's own operations (its messages, metadata, ACL, create, delete) go to the queue's
//   object, named `<account>/<queue>`: one object per queue, as one queue is one partition in
//   Azure.
// - Account-level operations (List Queues, service properties, stats) and CORS preflights go to
//   the account's directory object, named `<account>`.
// - A queue segment that cannot be a queue name goes to the directory too, which refuses it
//   exactly as a queue object would (the REST layer checks names before anything else), so no
//   object is ever addressed for it.

/** The secondary (read-only) endpoint's suffix: `<account>-secondary` is the same account's data. */
const SECONDARY = '-secondary';

/**
 * @returns {{ kind: 'queue', account: string, queue: string }
 *   | { kind: 'directory', account: string }
 *   | { kind: 'none' }}
 * @param {string} method
 * @param {string} url
 */
export function route(method, url) {
  const { pathname } = new URL(url);
  const parts = pathname.split('/').slice(1);
  if (parts[0] === '_azqueue') return inspectRoute(parts);
  const account = baseAccount(decode(parts[0] ?? ''));
  if (!account) return { kind: 'none' };
  const queue = decode(parts[1] ?? '');
  if (method === 'OPTIONS' || queue === '' || !couldBeQueueName(queue))
    return { kind: 'directory', account };
  return { kind: 'queue', account, queue };
}

/**
 * `/_azqueue/inspect/<account>/<queue>` and `/_azqueue/memory/<account>/<queue>` (the isolate's
 * memory as that queue's object sees it) are the queue object's; the rest spans objects.
 * @param {string[]} parts the path's segments
 * @returns {{ kind: 'queue', account: string, queue: string } | { kind: 'none' }}
 */
function inspectRoute(parts) {
  if ((parts[1] === 'inspect' || parts[1] === 'memory') && parts.length >= 4 && parts[3] !== '') {
    const account = decode(parts[2]);
    const queue = decode(parts[3]);
    if (account && couldBeQueueName(queue)) return { kind: 'queue', account, queue };
  }
  return { kind: 'none' };
}

/**
 * False only for what can never be a queue name (other characters, or a length outside 3–63);
 * the REST layer decides the finer rules (hyphens) in the queue object.
 * @param {string} name
 */
export function couldBeQueueName(name) {
  return /^[a-z0-9-]{3,63}$/.test(name);
}

/** @param {string} account */
function baseAccount(account) {
  return account.endsWith(SECONDARY) ? account.slice(0, -SECONDARY.length) : account;
}

/** @param {string} segment */
function decode(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The Durable Object name of a queue's object.
 * @param {string | undefined} account
 * @param {string} queue
 */
export function queueObjectName(account, queue) {
  return `${account}/${queue}`;
}
