// One Durable Object per queue (named `<account>/<queue>`): a full azqueue QueueService whose
// store is this object's SQLite storage, so authentication, validation and every answer come
// from the same Rust REST code as on the Node server. It holds that one queue only.
//
// - The queue is its SQL table: the engine reads and writes only the rows a request touches
//   (src/store/sql/table.rs), every request's statements are one transaction, and nothing per
//   message stays in the isolate's memory between requests. Opening (on the first request, not
//   in the constructor) loads the queue's record, not its messages, so it costs the same at any
//   depth. What bounds a queue is the object's storage (10 GB): a full store answers Put Message
//   503 ServerBusy, as Azure answers when a partition cannot take more.
// - An object written by layout 1 (messages as records, loaded whole) is upgraded as it opens
//   (sqlite-store.mjs, `upgrade`), in steps of one transaction each.
// - Visibility is decided at each request's `now`; nothing runs on a timer for it.
// - One alarm purges expired messages while nobody asks (so storage does not grow), PURGE_BATCH
//   at a time through the expiry index: set for the queue's next deadline (a message
//   reappearing or expiring), no sooner than PURGE_FLOOR_MS from now, and only moved when the
//   new deadline is earlier (idempotent: at-least-once alarms and repeated re-arming converge on
//   the same single alarm); a full batch sets the next alarm at once.
// - The directory's copy (directory-object.mjs): a commit that changes the queue's record
//   (create, delete, metadata, ACL) first records an intent in the account's directory, and the
//   request that waited for it then reports the queue's state there. The intent is recorded
//   here, at commit time, rather than by the Worker before it forwards the request, so that a
//   request this object refuses (a bad signature, a bad header, a create that conflicts)
//   commits nothing and so writes nothing anywhere. The crash argument is unchanged: the
//   intent is durable before the change it announces, so a crash after it leaves a pending row
//   that List Queues and the directory's alarm resolve by asking this object.

import { DurableObject } from 'cloudflare:workers';
import { CORS, ROUTE } from './forward.mjs';
import { route as routeOf } from './route.mjs';
import { azureError, directoryOf, openService, serveRest } from './serve.mjs';
import { QueueService, wasmMemoryBytes } from './wasm.mjs';
import { GENERATION, SqliteStore, UPGRADE_STEP } from './sqlite-store.mjs';

/** @import { CorsRule } from '../../pkg/edge/azqueue.js' */
/** @import { Env } from './serve.mjs' */

/**
 * The object's open service and the storage under it; `account` and `queue` are its name's
 * parts (read back from storage when an alarm opens it), `key` its object id.
 * @typedef {{ service: QueueService, store: SqliteStore, account: string | undefined,
 *   queue: string | undefined, key: string }} OpenedQueue
 * @typedef {{ exists: boolean, metadata: Record<string, string>, generation: number }} QueueState
 *   what the directory's copy of a queue is made to match
 */

/** The earliest an alarm is set after now: housekeeping, not delivery (AZQUEUE_PURGE_FLOOR_MS). */
const PURGE_FLOOR_MS = 60_000;
/** Expired messages one alarm deletes (one transaction): bounded, whatever expired at once. */
const PURGE_BATCH = 1000;

/** @extends {DurableObject<Env>} */
export class QueueObject extends DurableObject {
  /**
   * @param {DurableObjectState} ctx
   * @param {Env} env
   */
  constructor(ctx, env) {
    super(ctx, env);
    /** @type {Promise<OpenedQueue> | null} */
    this.opened = null;
    /** @type {number | null | undefined} the alarm set, null for none, undefined before asking */
    this.alarmAt = undefined;
    /** @type {Promise<void> | null} the record change being served, which later requests await */
    this.recordChange = null;
  }

  /**
   * The service, opened (and loaded) once, on first use.
   * @param {string | undefined} account
   * @param {string | undefined} queue
   * @returns {Promise<OpenedQueue>}
   */
  open(account, queue) {
    this.opened ??= (async () => {
      // The object's own name is stored with its first write, for the alarm, which runs
      // without a request to tell it.
      const store = new SqliteStore(
        this.ctx.storage,
        { account, queue },
        { beforeQueueChange: () => this.intend() },
      );
      await store.upgrade(Number(this.env.AZQUEUE_UPGRADE_STEP ?? UPGRADE_STEP));
      account ??= store.get('account') ?? undefined;
      queue ??= store.get('queue') ?? undefined;
      const service = await openService(store, this.env, account, { messages: true });
      return { service, store, account, queue, key: this.ctx.id.toString() };
    })();
    this.opened.catch(() => {
      this.opened = null;
    });
    return this.opened;
  }

  /**
   * A request that changes the queue's record (Create and Delete Queue, Set Metadata and ACL)
   * is served alone: those that come after it wait until it is answered. Its commit waits for
   * the directory (`intend`), and only then writes the record, dropping a deleted queue's
   * table with it (sqlite-store.mjs); a Create Queue served meanwhile would open the old table
   * again, and a Put into a queue whose creation then failed would leave a message behind.
   * @param {Request} request
   */
  async fetch(request) {
    const routed = request.headers.get(ROUTE);
    while (this.recordChange) await this.recordChange;
    /** @type {{ account?: string, queue?: string, changesRecord: boolean, routed?: boolean }} */
    const route = routed === null ? this.asSent(request) : JSON.parse(routed);
    // A request forwarded as sent carries no CORS rules (forward.mjs); only a routed one may.
    route.routed = routed !== null;
    if (!route.changesRecord) return this.serve(request, route);
    const served = this.serve(request, route);
    /** @type {Promise<void>} */
    const done = served
      .then(
        () => {},
        () => {},
      )
      .then(() => {
        if (this.recordChange === done) this.recordChange = null;
      });
    this.recordChange = done;
    return served;
  }

  /**
   * The route of a request the Worker forwarded as the client sent it (forward.mjs): one that
   * changes no queue record. Which queue it names matters only to open this object (its own
   * name's parts), so it is read from the URL only then, as the Worker read it.
   * @param {Request} request
   */
  asSent(request) {
    if (this.opened) return { changesRecord: false };
    const target = routeOf(request.method, request.url, QueueService.routeOf);
    if (target.kind !== 'queue') throw new Error(`not a queue's request: ${request.url}`);
    return { account: target.account, queue: target.queue, changesRecord: false };
  }

  /**
   * @param {Request} request
   * @param {{ account?: string, queue?: string, routed?: boolean }} route the object's name's
   *   parts (needed to open it, else unused), and whether the Worker routed the request
   */
  async serve(request, { account, queue, routed }) {
    const opening = this.open(account, queue);
    let opened;
    try {
      opened = await opening;
    } catch (err) {
      // Storage this build cannot read (a newer layout) or could not load: refuse, touch nothing.
      const { message } = /** @type {Error} */ (err);
      console.error(`azqueue: queue object ${account}/${queue} could not open: ${message}`);
      await request.arrayBuffer();
      return azureError(request, 'InternalError');
    }
    const { url } = request;
    if (url.includes('/_azqueue/memory/') && new URL(url).pathname.startsWith('/_azqueue/memory/'))
      return this.memory(opened, request);
    const cors = routed ? request.headers.get(CORS) : null;
    if (cors !== null) await adoptCors(opened.service, JSON.parse(cors));
    const response = await serveRest(opened.service, request, url);
    // A statement failed and its transaction was rolled back, or a commit failed (`intend`):
    // this service no longer matches what is stored, so it is dropped, the answer (500) goes
    // out as it is, and the next request opens again from storage.
    if (opened.service.needsReopen) this.opened = null;
    if (this.opened !== opening) return response;
    await this.rearm(opened);
    await this.report(opened);
    return response;
  }

  /**
   * Step 1 of a change to the queue's record, awaited before the commit that writes it: the
   * directory records a pending intent and returns its token. If the directory cannot be
   * reached the commit fails (the client hears 500 and nothing is durable), and the engine,
   * now ahead of its storage, is dropped so the next request reloads what is durable.
   */
  async intend() {
    const { account, queue } = await /** @type {Promise<OpenedQueue>} being opened */ (this.opened);
    try {
      return await directoryOf(this.env, account).intend(account, /** @type {string} */ (queue));
    } catch (err) {
      this.opened = null;
      throw err;
    }
  }

  /**
   * Step 3, after a request whose answer waited for commits that changed the queue's record:
   * the queue's state goes to the directory, which applies it and drops those intents. Should
   * that fail, the change stands (it is durable and the client is told so) and the intents stay
   * pending for List Queues and the directory's alarm to resolve.
   * @param {OpenedQueue} opened
   */
  async report(opened) {
    const tokens = /** @type {number[]} the directory's tokens (`intend`) */ (
      opened.store.takeQueueChanges()
    );
    if (tokens.length === 0) return;
    const { account } = opened;
    const queue = /** @type {string} a request named it */ (opened.queue);
    try {
      const state = await this.describe(opened, account, queue);
      await directoryOf(this.env, account).apply(account, queue, state, tokens);
    } catch (err) {
      console.error(`azqueue: queue ${account}/${queue} could not report to its directory: ${err}`);
    }
  }

  /**
   * GET /_azqueue/memory/<account>/<queue> (development only, like the inspection path): the
   * isolate's wasm memory and what this object stores, for measuring them.
   * @param {OpenedQueue} opened
   * @param {Request} request
   */
  async memory({ service, store }, request) {
    // The account's inspection view (queue names and counts: cheap) answers only where
    // inspection is on, so this path follows the same switch.
    const url = new URL(request.url);
    url.pathname = url.pathname
      .replace('/_azqueue/memory/', '/_azqueue/inspect/')
      .replace(/\/[^/]*$/, '');
    const allowed = await serveRest(service, new Request(url, { headers: request.headers }));
    if (allowed.status !== 200) return allowed;
    const { messages, bytes } = store.messageTotals();
    return Response.json({
      wasmMemoryBytes: wasmMemoryBytes(),
      messageCount: messages,
      messageBytes: bytes,
      transactions: store.transactions,
      databaseBytes: this.ctx.storage.sql.databaseSize,
    });
  }

  /**
   * RPC for the directory: does the queue exist, with which metadata, at which generation.
   * @param {string | undefined} account
   * @param {string} queue
   * @returns {Promise<QueueState>}
   */
  async state(account, queue) {
    const opened = await this.open(account, queue);
    return this.describe(opened, account, queue);
  }

  /**
   * @param {OpenedQueue} opened
   * @param {string | undefined} account
   * @param {string} queue
   * @returns {Promise<QueueState>}
   */
  async describe({ service, store }, account, queue) {
    const generation = Number(store.get(GENERATION) ?? 0);
    if (service.account !== account) return { exists: false, metadata: {}, generation };
    try {
      const { metadata } = await service.queue(queue).getProperties();
      return { exists: true, metadata, generation };
    } catch (err) {
      // A name the REST layer refused (`a--b`) names no queue either.
      const { code } = /** @type {{ code?: string }} */ (err);
      if (
        ['QueueNotFound', 'InvalidResourceName', 'OutOfRangeInput'].includes(
          /** @type {string} */ (code),
        )
      ) {
        return { exists: false, metadata: {}, generation };
      }
      throw err;
    }
  }

  async alarm() {
    this.alarmAt = null;
    const opened = await this.open(undefined, undefined);
    if (opened.queue !== undefined && opened.service.account === opened.account) {
      const purged = await opened.service
        .purgeExpired(opened.queue, PURGE_BATCH)
        .catch((/** @type {{ code?: string }} */ err) => {
          if (err.code !== 'QueueNotFound') throw err;
          return 0;
        });
      if (opened.service.needsReopen) this.opened = null;
      if (purged === PURGE_BATCH) {
        // More may have expired: the next batch at once, in its own alarm (and transaction).
        await this.ctx.storage.setAlarm(Date.now());
        this.alarmAt = Date.now();
        return;
      }
    }
    await this.rearm(opened);
  }

  /**
   * Keeps the one alarm at the queue's next deadline (floored), moving it only earlier.
   * @param {OpenedQueue} opened
   */
  async rearm({ service }) {
    const deadline = service.nextDeadline();
    if (deadline === undefined) return;
    const floor = Number(this.env.AZQUEUE_PURGE_FLOOR_MS ?? PURGE_FLOOR_MS);
    const at = Math.max(deadline.getTime(), Date.now() + floor);
    if (this.alarmAt === undefined) this.alarmAt = await this.ctx.storage.getAlarm();
    if (this.alarmAt !== null && this.alarmAt <= at) return;
    await this.ctx.storage.setAlarm(at);
    this.alarmAt = at;
  }
}

/**
 * Takes the account's CORS rules (from the directory) when they differ from this object's copy.
 * @param {QueueService} service
 * @param {CorsRule[]} rules
 */
async function adoptCors(service, rules) {
  const mine = (await service.getProperties()).cors ?? [];
  if (JSON.stringify(mine) !== JSON.stringify(rules)) await service.setProperties({ cors: rules });
}
