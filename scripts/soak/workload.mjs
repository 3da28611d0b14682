// The soak's workload: producers and consumers through the official SDK (@azure/storage-queue),
// consumers that let some visibility timeouts expire on purpose and update messages, and one queue
// cleared, deleted and recreated over and over. It runs in Node (against the Node server or the
// edge Worker over HTTP) and, bundled, in a Chromium page (against an IndexedDB-backed service
// through `service.httpClient()`), and tells the ledger (ledger.mjs) every acknowledgement.
//
// The ledger's methods are awaited: in a page they are a binding to the ledger in Node, so an
// update's text is recorded there before the update is sent, and an acknowledgement that reached
// the ledger survives a reload of the page.

import { isInjected } from './faults.mjs';

/** @import { QueueServiceClient } from '@azure/storage-queue' */

/**
 * The ledger's methods the workload calls (ledger.mjs); in a page each is a binding to the
 * ledger in Node, so a result may be a promise.
 * @typedef {object} LedgerLike
 * @property {(queue: string) => number | Promise<number>} unsettled
 * @property {(stat: string) => unknown} note
 * @property {(queue: string, id: string, text: string, sentAt: number) => unknown} put
 * @property {(m: { messageId: string, messageText: string, dequeueCount: number },
 *   askedAt: number) => unknown} deliver
 * @property {(id: string, text: string) => unknown} updating
 * @property {(queue: string, id: string, at: number) => unknown} delete
 * @property {(queue: string, at: number) => unknown} wiped
 * @property {(queue: string, text: string, outcome: 'applied' | 'refused' | 'unknown',
 *   sentAt: number) => unknown} putTry
 * @property {(operation: string, when: 'before' | 'after') => unknown} fault
 */

/**
 * A store the soak runs against (soak.mjs): the workload on it, its memory figures (MiB by
 * name), and what it holds at the end (id → text and DequeueCount).
 * @typedef {object} SoakHost
 * @property {string} title
 * @property {(startedAt: number) => boolean} interrupted whether an operation sent then that
 *   got no answer was cut off by the host's own restart
 * @property {string[]} events
 * @property {(o: { ledger: LedgerLike, seconds: number, churnEveryMs: number,
 *   failed: (key: string, transport: boolean, startedAt: number) => unknown }) => Promise<void>} run
 * @property {() => Promise<Record<string, number>>} memory
 * @property {(queues: string[]) => Promise<Map<string, { text: string, dequeueCount: number }>>}
 *   present
 * @property {() => Promise<{ total: number, by: Record<string, number> } | null>} injected
 *   the faults the service says it injected (GET /_azqueue/faults), null where it cannot say
 * @property {() => Promise<unknown>} stop
 */

/** Steady queues, plus one that is cleared, deleted and recreated. */
export const STEADY = ['soak-a', 'soak-b', 'soak-c'];
export const CHURN = 'soak-churn';
export const QUEUES = [...STEADY, CHURN];
/** Producers pause while a queue holds more than this many unsettled messages. */
const DEPTH = 300;
const PRODUCERS = 4;
const CONSUMERS = 4;

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Creates the soak's queues where they do not exist yet.
 * @param {QueueServiceClient} service
 */
export async function createQueues(service) {
  for (const q of QUEUES) await service.getQueueClient(q).createIfNotExists();
}

/**
 * Runs producers, consumers and the churn of one queue until `now() >= until`.
 * - `client()`: the QueueServiceClient to use now (a host that restarts may replace it);
 * - `ledger`: a Ledger, or anything with its methods (results may be promises);
 * - `now()`: the clock every time given to the ledger is read from;
 * - `churnEveryMs`: the pause between two clears or deletes of the churn queue;
 * - `tag`: starts every message text (a reloaded page counts from 0 again);
 * - `failed(key, transport, startedAt)`: an operation that failed unexpectedly (`transport`: no
 *   HTTP answer came; `startedAt`: when it was sent), for the host to judge.
 * @param {{ client: () => QueueServiceClient, ledger: LedgerLike, now: () => number,
 *   until: number, churnEveryMs: number, tag?: string,
 *   failed: (key: string, transport: boolean, startedAt: number) => unknown }} options
 */
export async function runWorkload({ client, ledger, now, until, churnEveryMs, tag = '', failed }) {
  const running = () => now() < until;
  /**
   * @param {unknown} error what the SDK threw (a RestError, or a transport's error)
   * @param {number} startedAt
   */
  const fail = async (error, startedAt) => {
    // With faults (soak.mjs --faults): every try of the SDK's was answered by a fault rule, so
    // the operation was not acknowledged; what each try did is already in the ledger.
    if (isInjected(error)) return ledger.note('gaveUp');
    const err = /** @type {{ statusCode?: number, code?: string, message?: string }} */ (error);
    const transport = err.statusCode === undefined;
    await failed(`${err.statusCode ?? ''} ${err.code ?? err.message}`, transport, startedAt);
    // No answer at all (a host restarting): try again shortly rather than spin on refusals.
    if (transport) await sleep(50);
  };
  let n = 0;

  const producer = async (/** @type {number} */ p) => {
    while (running()) {
      const q = QUEUES[(p + n) % QUEUES.length];
      if ((await ledger.unsettled(q)) > DEPTH) {
        await sleep(5);
        continue;
      }
      const text = `${tag}m${p}-${n++}`;
      const sentAt = now();
      try {
        const sent = await client().getQueueClient(q).sendMessage(text, { messageTimeToLive: -1 });
        await ledger.put(q, sent.messageId, text, sentAt);
      } catch (err) {
        // The churn queue may be between its delete and its recreation: 404, not acknowledged.
        if (!(q === CHURN && /** @type {{ statusCode?: number }} */ (err).statusCode === 404))
          await fail(err, sentAt);
      }
    }
  };

  const consumer = async (/** @type {number} */ c) => {
    let i = 0;
    while (running()) {
      const q = QUEUES[(c + i++) % QUEUES.length];
      let got;
      const askedAt = now();
      try {
        // Short timeouts: the messages left alone below come back with a higher DequeueCount.
        got = await client()
          .getQueueClient(q)
          .receiveMessages({ numberOfMessages: 16, visibilityTimeout: 1 + (i % 2) });
      } catch (err) {
        if (!(q === CHURN && /** @type {{ statusCode?: number }} */ (err).statusCode === 404))
          await fail(err, askedAt);
        continue;
      }
      await ledger.note('receives');
      // Nothing to do here: give the producers (and, in a page, the event loop) a turn.
      if (got.receivedMessageItems.length === 0) await sleep(5);
      for (const m of got.receivedMessageItems) {
        const { messageId, messageText, dequeueCount } = m;
        await ledger.deliver({ messageId, messageText, dequeueCount }, askedAt);
        const roll = (messageId.charCodeAt(0) + i) % 10;
        const startedAt = now();
        // The client of now, not the one the receive went through: a host restarted since then
        // (on another port) would refuse the old one, long after its restart was over.
        const queue = client().getQueueClient(q);
        try {
          if (roll < 6) {
            await queue.deleteMessage(messageId, m.popReceipt);
            await ledger.delete(q, messageId, now());
          } else if (roll < 8) {
            const text = `${messageText}+u`;
            await ledger.updating(messageId, text);
            const updated = await queue.updateMessage(messageId, m.popReceipt, text, 1);
            await ledger.note('updates');
            if (roll === 7) {
              await queue.deleteMessage(messageId, /** @type {string} */ (updated.popReceipt));
              await ledger.delete(q, messageId, now());
            }
          } else {
            await ledger.note('expired'); // left to reappear when its visibility timeout expires
          }
        } catch (err) {
          // A receipt overtaken by a redelivery (the timeout expired first) or a queue wiped
          // underneath: the operation was not acknowledged, so the ledger is unchanged.
          if (/** @type {{ statusCode?: number }} */ (err).statusCode !== 404)
            await fail(err, startedAt);
        }
      }
    }
  };

  const churn = async () => {
    let round = 0;
    let interrupted = false;
    while (running()) {
      await sleep(churnEveryMs);
      const queue = client().getQueueClient(CHURN);
      const startedAt = now();
      try {
        // A step cut off between its delete and its create (a restart) left no queue behind.
        if (interrupted) await queue.createIfNotExists();
        interrupted = false;
        if (round++ % 2 === 0) {
          await queue.clearMessages();
          await ledger.note('clears');
        } else {
          await queue.delete();
          await ledger.note('queueDeletes');
          await ledger.wiped(CHURN, now());
          await queue.create();
        }
        await ledger.wiped(CHURN, now());
      } catch (err) {
        interrupted = true;
        await fail(err, startedAt);
      }
    }
  };

  await Promise.all([
    ...Array.from({ length: PRODUCERS }, (_, p) => producer(p)),
    ...Array.from({ length: CONSUMERS }, (_, c) => consumer(c)),
    churn(),
  ]);
}
