// The edge Worker with queue objects that count their `transactionSync` calls, for
// tests/edge/one-statement-put.test.mjs. Everything else is the real Worker, its real objects
// and their real SQLite; `GET /_transactions/<account>/<queue>` answers the queue object's count.

import worker, { QueueObject as Queue, DirectoryObject } from '../../hosts/edge/worker.mjs';
import { queueObjectName } from '../../hosts/edge/route.mjs';

export { DirectoryObject };

export class QueueObject extends Queue {
  /**
   * @param {DurableObjectState} ctx
   * @param {import('../../hosts/edge/serve.mjs').Env} env
   */
  constructor(ctx, env) {
    super(ctx, env);
    this.transactions = 0;
    const { storage } = ctx;
    const transactionSync = storage.transactionSync.bind(storage);
    storage.transactionSync = (run) => {
      this.transactions += 1;
      return transactionSync(run);
    };
  }

  /** RPC: the `transactionSync` calls since the object started. */
  transactionCount() {
    return this.transactions;
  }
}

const TRANSACTIONS = '/_transactions/';

export default {
  /**
   * @param {Request} request
   * @param {import('../../hosts/edge/serve.mjs').Env} env
   */
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(TRANSACTIONS)) return worker.fetch(request, env);
    const [account, queue] = pathname.slice(TRANSACTIONS.length).split('/');
    const id = env.QUEUE.idFromName(queueObjectName(account, queue));
    const object = /** @type {DurableObjectStub<QueueObject>} */ (
      /** @type {unknown} */ (env.QUEUE.get(id))
    );
    return Response.json({ transactions: await object.transactionCount() });
  },
};
