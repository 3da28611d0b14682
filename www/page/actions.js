// What the person at the page can do, as recorded actions: send a message, add a consumer or a
// lease worker, set the poison threshold, stop/crash/restart/tune an actor, and the requests the
// SDK snippet makes through the service worker. Each is a plain object, so a session can be
// saved and replayed (after a reload, or to rewind) on a fresh seeded engine.

import { Consumer, LeaseWorker, Producer } from './actors.js';

/** @import { Demo } from './demo.js' */

/**
 * One thing the person did, as recorded and replayed.
 * @typedef {{ type: 'send', text: string, delayS?: number, ttlS?: number }
 *   | { type: 'add-consumer', name: string }
 *   | { type: 'add-lease-worker', name: string }
 *   | { type: 'poison-threshold', value: number }
 *   | ActorAction
 *   | SdkAction} Action
 * @typedef {{ type: 'actor', name: string, action: string, key?: string, value?: unknown }} ActorAction
 *   stop, crash, restart or remove an actor, or `set` one of its settings
 * @typedef {{ type: 'sdk', method: string, url: string, headers: [string, string][],
 *   body: string | null }} SdkAction a request the service worker forwarded
 * @typedef {Action & { at: number }} RecordedAction an action and the virtual time it ran at
 */

/**
 * Returns `apply(action)`, which performs one action on `demo` and resolves with its result.
 * @param {Demo} demo
 */
export function actionApplier(demo) {
  /** @param {Action} action */
  return async function apply(action) {
    let result;
    switch (action.type) {
      case 'send': {
        let you = demo.actors.find(
          /** @returns {a is Producer} */ (a) => a.kind === 'producer' && a.name === 'You',
        );
        if (!you) you = demo.addActor(new Producer(demo, { name: 'You' }));
        result = await you.send(action.text, { delayS: action.delayS, ttlS: action.ttlS });
        if (!result.ok) {
          demo.say(
            `Your Put Message was refused: ${result.status} ${result.code ?? ''} — ${result.reason ?? 'no reason given'}`,
            'refused',
            { actor: 'You', call: result.entry.seq },
          );
        }
        break;
      }
      case 'add-consumer':
        demo.addActor(new Consumer(demo, { name: action.name, processingS: 5, visibilityS: 30 }));
        break;
      case 'add-lease-worker':
        demo.addActor(new LeaseWorker(demo, { name: action.name, leaseS: 30, stageS: 20 }));
        break;
      case 'poison-threshold':
        // Create Queue is idempotent: 204 when it already exists.
        if (action.value && !demo.poisonThreshold)
          await demo.rest.createQueue('You', demo.poisonQueue);
        demo.poisonThreshold = action.value;
        break;
      case 'actor':
        actOn(demo, action);
        break;
      case 'sdk':
        result = await relaySdk(demo, action);
        break;
    }
    await demo.refresh();
    return result;
  };
}

/**
 * @param {Demo} demo
 * @param {ActorAction} action
 */
function actOn(demo, { name, action, key, value }) {
  const actor = demo.actors.find((a) => a.name === name);
  if (!actor) return;
  if (action === 'crash') actor.crash();
  else if (action === 'stop') actor.stop();
  else if (action === 'restart') actor.restart();
  else if (action === 'remove') demo.removeActor(actor);
  // A numeric setting (actors-view.js), by name.
  else if (action === 'set')
    /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (actor))[
      /** @type {string} */ (key)
    ] = value;
}

/**
 * A request from code on this origin, forwarded by the service worker (sw-bridge.js).
 * @param {Demo} demo
 * @param {SdkAction} action
 */
async function relaySdk(demo, { method, url, headers, body }) {
  const fromSdk = headers.some(([k, v]) => /user-?agent$/i.test(k) && /azsdk-js/i.test(v));
  const { pathname } = new URL(url);
  // A queue that code on this page creates is drawn too, so its messages can be watched.
  if (demo.rest.operationOf(method, url) === 'Create Queue')
    demo.watch(decodeURIComponent(pathname.split('/')[2]));
  return demo.rest.relay(
    fromSdk ? 'SDK snippet' : 'Your code',
    new Request(url, { method, headers, body: body === null ? undefined : body }),
    {
      tag: fromSdk ? 'from SDK snippet' : 'through the service worker',
    },
  );
}
