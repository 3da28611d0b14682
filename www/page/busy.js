// Scenario 6, the service is busy: the engine itself answers by fault rules (docs/faults.md), so
// the page loads the build that has them. A Put is refused 503 ServerBusy twice and stored by the
// producer's retry; later Puts are committed and then answered 500 OperationTimedOut, and their
// retries store each order twice. A naive consumer charges a duplicate twice; after it, an
// idempotent one reads the payments ledger first and deletes the duplicate unprocessed.
// Every sentence reads the run: the rules' counts, the producer's sends, the ledger.

import { formatDuration } from './clock.js';
import { Consumer, Producer } from './actors.js';
import { Ledger } from './ledger.js';
import { listed } from './retries.js';

/** @import { Demo } from './demo.js' */
/** @import { Scenario } from './scenarios.js' */
/** @import { FaultRuleSet, QueueService } from '/pkg/edge/azqueue.js' */

const QUEUE = 'payments';
/** When the naive consumer is replaced by the idempotent one (s). */
const FIX_AT_S = 20;
/** The orders, and when each is first sent (s): the third after the fix. */
const ORDERS = [
  { text: 'order 1 · charge €40', atS: 1 },
  { text: 'order 2 · charge €25', atS: 5 },
  { text: 'order 3 · charge €60', atS: FIX_AT_S + 2 },
];
/** The producer's retry policy: the SDKs' exponential backoff, with short delays. */
const RETRY = { tries: 4, firstS: 1 };

/**
 * The Put attempts on the scenario's queue, in order (the SDK snippet's queue is left alone): the
 * first two are refused before anything is stored; the fourth (order 2's first send) and the
 * sixth (order 3's first) are committed, then time out.
 * @type {FaultRuleSet}
 */
const FAULTS = {
  rules: [
    { id: 'busy', queue: QUEUE, operation: 'PutMessage', times: 2, status: 503 },
    {
      id: 'late-2',
      queue: QUEUE,
      operation: 'PutMessage',
      skip: 1,
      times: 1,
      when: 'after',
      code: 'OperationTimedOut',
    },
    {
      id: 'late-3',
      queue: QUEUE,
      operation: 'PutMessage',
      skip: 2,
      times: 1,
      when: 'after',
      code: 'OperationTimedOut',
    },
  ],
};

/**
 * What the rules did so far, from the engine's own counts.
 * @param {Demo} w
 */
function injected(w) {
  const service = /** @type {QueueService | undefined} a faults build opened it */ (
    /** @type {unknown} */ (w.service)
  );
  const rules = service?.faults?.get().rules ?? [];
  const count = (/** @type {string} */ code) =>
    rules.filter((r) => r.code === code).reduce((n, r) => n + r.injected, 0);
  return { busy: count('ServerBusy'), late: count('OperationTimedOut') };
}

/**
 * The ledger's story: each order with its charges, a duplicate's second charge named.
 * @param {Ledger | undefined} ledger
 */
function ledgerWords(ledger) {
  const entries = ledger?.entries() ?? [];
  if (!entries.length) return 'No order has been charged yet.';
  return (
    'Ledger: ' +
    entries
      .map(([order, charges]) => {
        const by = listed(charges.map((c) => `${c.actor} from ${c.label}`));
        return `“${order}” charged ${charges.length === 1 ? 'once' : `${charges.length} times`}, by ${by}`;
      })
      .join('; ') +
    '.'
  );
}

/**
 * The caption: the producer's sends against its attempts, what the rules injected, and the ledger.
 * @param {Demo} w
 */
function caption(w) {
  const shop = /** @type {Producer | undefined} */ (w.actors.find((a) => a.kind === 'producer'));
  const consumers = w.consumers().filter((c) => c.kind === 'consumer');
  const ledger = consumers.find((c) => c.ledger)?.ledger;
  const { busy, late } = injected(w);
  const policy = shop?.retry
    ? `retrying a 500 or 503 up to ${shop.retry.tries} times, after ${formatDuration(shop.retry.firstS * 1000)} and then twice as long each time`
    : 'never retrying';
  const sends = shop
    ? `${shop.name} has stored ${shop.sent} of ${ORDERS.length} orders in ${shop.attempts} Put Message calls, ${policy}.`
    : '';
  const faults =
    busy || late
      ? ` The service answered ${busy} Put${busy === 1 ? '' : 's'} 503 ServerBusy (nothing stored) and ${late} Put${late === 1 ? '' : 's'} 500 OperationTimedOut after storing the message.`
      : ' The service will refuse some Puts: watch the HTTP log.';
  const named = (/** @type {Consumer} */ c) =>
    !c.alive ? `${c.name} (stopped)` : c.started ? c.name : `${c.name} (from ${c.startS} s)`;
  const naive = consumers.filter((c) => !c.idempotent).map(named);
  const careful = consumers.filter((c) => c.idempotent).map(named);
  const who =
    ` ${naive.length ? `${listed(naive)} charge${naive.length === 1 ? 's' : ''} every order received` : 'No consumer charges blindly'}` +
    `${careful.length ? `; ${listed(careful)} first look${careful.length === 1 ? 's' : ''} in the ledger` : ''}.`;
  return `${sends}${faults}${who} ${ledgerWords(ledger)}`;
}

/** @type {Scenario} */
export const busy = {
  id: 'busy',
  title: '6 · The service is busy',
  queue: QUEUE,
  faults: FAULTS,
  caption,
  intro: (w) =>
    `Producers put messages into the queue ${w.queue}, drawn as a lane of cards; consumers receive them, do the work and delete them. ` +
    'Here the service fails some requests, as Azure does under load: every SDK retries them, and a retry can store a message that was already stored. ' +
    `At ${formatDuration(FIX_AT_S * 1000)} a fixed consumer that checks the payments ledger takes over from one that does not.`,
  moments: [
    {
      on: 'throttled',
      text: 'a Put is refused 503 ServerBusy and retried',
      guide: (w, f) =>
        `The service answered ${f.actor}'s Put ${f.status} ${f.code}: “${f.reason}” ${Number(f.stored) ? `Yet the queue holds ${f.labels}.` : 'The queue holds no copy: the request was refused before it ran.'} ${f.actor} backs off ${f.waitS} s and tries again.`,
    },
    {
      on: 'retried',
      text: 'the retry stores the message once',
      guide: (w, f) =>
        `Retry ${f.retries} stored “${f.text}” as ${f.label}. The queue holds ${f.copies} cop${Number(f.copies) === 1 ? 'y' : 'ies'} of it: a refused Put is safe to send again.`,
    },
    {
      on: 'timed-out',
      text: 'a Put times out after it was stored',
      guide: (w, f) =>
        `${f.actor}'s Put answered ${f.status} ${f.code}, ${Number(f.stored) ? `yet the queue holds the message as ${f.labels}: it was committed before the error` : 'and the queue holds no copy'}. ${f.actor} cannot see that, and sends it again in ${f.waitS} s.`,
    },
    {
      on: 'duplicated',
      text: 'the retry stores a duplicate',
      guide: (w, f) =>
        `The retry stored “${f.text}” once more, as ${f.label}: the queue holds ${f.copies} copies, ${f.labels}. Delivery is at least once: from here on, only the consumer can keep the order from being done twice.`,
    },
    {
      on: 'processed-twice',
      text: 'a naive consumer charges an order twice',
      guide: (w, f) =>
        `${f.actor} charged “${f.text}” from ${f.label} after ${f.firstBy} had charged it from ${f.first}: ${f.charges} charges for one order.`,
    },
    {
      on: 'deduplicated',
      text: 'an idempotent consumer skips the duplicate',
      guide: (w, f) =>
        `${f.actor} found “${f.text}” in the ledger (charged by ${f.firstBy} from ${f.first}) and deleted ${f.label} with ${f.receipt} without charging: still ${f.charges} charge.`,
    },
  ],
  async setup(demo) {
    const ledger = new Ledger();
    demo.addActor(
      new Producer(demo, {
        name: 'Checkout',
        auto: true,
        retry: RETRY,
        next: (i) =>
          i < ORDERS.length
            ? {
                text: ORDERS[i].text,
                inS: Math.max(0, ORDERS[i].atS - demo.clock.elapsed() / 1000),
              }
            : null,
      }),
    );
    const nat = demo.addActor(
      new Consumer(demo, { name: 'Nat', processingS: 2, visibilityS: 30, pollS: 1, ledger }),
    );
    demo.clock.at(demo.clock.now() + FIX_AT_S * 1000, () => nat.stop());
    demo.addActor(
      new Consumer(demo, {
        name: 'Ida',
        processingS: 2,
        visibilityS: 30,
        pollS: 1,
        startS: FIX_AT_S,
        ledger,
        idempotent: true,
      }),
    );
  },
};
