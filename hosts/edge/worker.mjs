// azqueue on Cloudflare Workers: the Azure Queue REST API with one Durable Object per queue and
// one directory object per account (docs/edge.md). This Worker only routes: each request
// goes, unchanged, to the object that holds what it names (route.mjs), and that object's own
// QueueService authenticates and answers it.

import { pathOf, route, queueObjectName } from './route.mjs';
import { forwardsAsSent, internalRequest } from './forward.mjs';
import { azureError, directoryOf } from './serve.mjs';
import { QueueService } from './wasm.mjs';

export { QueueObject } from './queue-object.mjs';
export { DirectoryObject } from './directory-object.mjs';

/** @import { Env } from './serve.mjs' */

export default {
  /**
   * @param {Request} request
   * @param {Env} env
   */
  async fetch(request, env) {
    const unbound = missingBindings(env);
    if (unbound) {
      // A configuration mistake, not the client's: say which binding, where the owner looks.
      console.error(`azqueue: ${unbound}`);
      return azureError(request, 'InternalError', unbound);
    }
    const { url } = request;
    const target = route(request.method, url, QueueService.routeOf);
    // Nearly every request (each message operation) goes here, so it is tested first.
    if (target.kind === 'queue' && forwardsAsSent(request, target)) {
      const name = queueObjectName(target.account, target.queue);
      return env.QUEUE.get(env.QUEUE.idFromName(name)).fetch(request);
    }
    const pathname = pathOf(url);
    if (pathname === '/_azqueue/clock') {
      // docs/clock.md: every queue's object decides visibility at its own request's `now` and
      // wakes on real alarms, so there is no one clock to move; deployed, real time is right.
      return notServed(
        'the edge Worker runs on real time and has no clock to move; move time against the Node server (npx azqueue) or in process (QueueService.open({ now }))',
      );
    }
    if (pathname === '/_azqueue/faults' || pathname.startsWith('/_azqueue/faults/')) {
      // docs/faults.md, "At the edge": every object keeps its own rules, from AZQUEUE_FAULTS.
      return Response.json(
        {
          error:
            'the edge Worker takes its fault rules from the AZQUEUE_FAULTS variable, read by each object as it opens; they cannot be changed by request',
        },
        { status: 404 },
      );
    }
    if (target.kind === 'none' && pathname.startsWith('/_azqueue/')) {
      return notServed(
        'not served by the edge Worker: its state is spread over one object per queue; inspect a queue at /_azqueue/inspect/<account>/<queue>',
      );
    }
    const account = target.kind === 'none' ? '' : target.account;
    const directory = () => directoryOf(env, account);
    if (target.kind !== 'queue') return directory().fetch(internalRequest(request, target));

    const queue = env.QUEUE.get(env.QUEUE.idFromName(queueObjectName(account, target.queue)));
    // CORS headers on an actual response follow the account's rules, which the directory keeps.
    const cors = request.headers.has('origin') ? await directory().corsRules(account) : undefined;
    // Create Queue, Delete Queue and Set Metadata change the directory's copy too: the queue
    // object tells the directory itself, only once it has a change to commit.
    return queue.fetch(internalRequest(request, target, cors));
  },
};

/**
 * A development path the Worker does not serve: 404, why, and what it serves instead. Any origin
 * may read this answer (it holds no queue's data), so an inspector page pointed at the Worker
 * from another origin can tell it is an edge Worker and offer only what works (docs/inspector.md).
 * @param {string} why
 */
function notServed(why) {
  return Response.json(
    { error: why, serves: ['GET /_azqueue/inspect/<account>/<queue>'] },
    { status: 404, headers: { 'access-control-allow-origin': '*' } },
  );
}

/** The Durable Object bindings the Worker needs, by the names it reads them under. */
const BINDINGS = /** @type {const} */ ([
  ['QUEUE', 'QueueObject'],
  ['DIRECTORY', 'DirectoryObject'],
]);

/**
 * Why the Worker cannot serve with these bindings, or null when both are there.
 * @param {Partial<Env> | undefined} env
 */
function missingBindings(env) {
  const missing = BINDINGS.filter(([name]) => typeof env?.[name]?.idFromName !== 'function');
  if (missing.length === 0) return null;
  const named = missing.map(([name, cls]) => `${name} (class ${cls})`).join(' and ');
  return (
    `The edge Worker has no Durable Object binding ${named}. Declare both bindings, ` +
    'QUEUE for QueueObject and DIRECTORY for DirectoryObject, with a migration that creates ' +
    'both classes as new_sqlite_classes, in the wrangler configuration (the README of the ' +
    'azqueue package has one to copy).'
  );
}
