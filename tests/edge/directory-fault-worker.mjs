// The edge Worker with a directory whose first step (`intend`) can be made to take a while, then
// fail, for tests/edge/record-change.test.mjs. Everything else is the real Worker, its real
// objects and their real SQLite; `POST /_fault/<account>?down=1&delayMs=N` sets the account's
// directory's fault and answers how many intents it has been asked for.

import worker, { QueueObject } from '../../hosts/edge/worker.mjs';
import { DirectoryObject as Directory } from '../../hosts/edge/directory-object.mjs';
import { directoryOf } from '../../hosts/edge/serve.mjs';

export { QueueObject };

export class DirectoryObject extends Directory {
  /**
   * @param {DurableObjectState} ctx
   * @param {import('../../hosts/edge/serve.mjs').Env} env
   */
  constructor(ctx, env) {
    super(ctx, env);
    this.fault = { down: false, delayMs: 0, intents: 0 };
  }

  /**
   * @param {string | undefined} account
   * @param {string} queue
   */
  async intend(account, queue) {
    this.fault.intents += 1;
    const { down, delayMs } = this.fault;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (down) throw new Error('the directory cannot be reached (a test fault)');
    return super.intend(account, queue);
  }

  /** @param {{ down?: boolean, delayMs?: number }} fault */
  setFault({ down = false, delayMs = 0 }) {
    this.fault.down = down;
    this.fault.delayMs = delayMs;
    return this.fault.intents;
  }
}

const FAULT = '/_fault/';

export default {
  /**
   * @param {Request} request
   * @param {import('../../hosts/edge/serve.mjs').Env} env
   */
  async fetch(request, env) {
    const url = new URL(request.url);
    if (!url.pathname.startsWith(FAULT)) return worker.fetch(request, env);
    const account = url.pathname.slice(FAULT.length);
    const directory = /** @type {DurableObjectStub<DirectoryObject>} */ (
      /** @type {unknown} */ (directoryOf(env, account))
    );
    const intents = await directory.setFault({
      down: url.searchParams.get('down') === '1',
      delayMs: Number(url.searchParams.get('delayMs') ?? 0),
    });
    return Response.json({ intents });
  },
};
