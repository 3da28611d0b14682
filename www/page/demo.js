// The world a scenario runs in: one engine (QueueService, opened on the virtual clock), the REST
// client every actor uses, and the actors. Its parts: what only this page knows about the
// messages (message-memory.js: their labels, who was handed which receipt, where a copy came
// from), the cards' view model (cards.js), what is said when a card changes by itself
// (card-notices.js) and the narrator (narrator.js). After every jump of the clock it hands the
// engine's inspection to the cards, and what happened to the narrator.
//
// Nothing here decides queue behaviour. Visibility, dequeue counts, pop receipts and expiry are
// the engine's; the page only remembers who was handed which receipt, so a card can say who
// holds it.

import { EPOCH, VirtualClock } from './clock.js';
import { RestClient, ACCOUNT, changesQueues } from './rest.js';
import { checkFaults, openEngine } from './engine.js';
import { Receipts } from './receipts.js';
import { MessageHistory } from './history.js';
import { CardModel, normalize } from './cards.js';
import { Narrator } from './narrator.js';
import { cameDue, expired, reappeared, relayed } from './card-notices.js';
import { MessageMemory } from './message-memory.js';

const HISTORY_LIMIT = 900; // samples, one per virtual second

/** @typedef {{ t: number, length: number, visible: number, workers: number }} Sample */

/** @import { AnyActor, Consumer, LeaseWorker } from './actors.js' */
/** @import { Fate, Inspected, Origin } from './cards.js' */
/** @import { Moment } from './narrator.js' */
/** @import { LogEntry, WireMessage } from './rest.js' */
/** @import { Scenario } from './scenarios.js' */
/** @import { QueueService } from '/pkg/web/azqueue.js' */

export class Demo {
  clock = new VirtualClock();
  /** @type {QueueService | null} */
  service = null;
  /** The REST client every actor uses: made with the engine, before anything runs. */
  rest = /** @type {RestClient} */ (/** @type {unknown} */ (null));
  store = 'memory';
  storeNote = '';
  /** @type {Scenario | null} */
  scenario = null;
  queue = 'orders';
  poisonQueue = 'orders-poison';
  poisonThreshold = 0; // 0: no poison check
  /** @type {string | null} a queue code on this origin created (the SDK snippet's), drawn as a third lane */
  extraQueue = null;
  /** @type {AnyActor[]} */
  actors = [];
  /** @type {LogEntry[]} HTTP log entries, oldest first */
  log = [];
  logSeq = 0;
  /** @type {Sample[]} queue length over time, one per virtual second */
  samples = [];
  receipts = new Receipts(); // r1, r2, … for every pop receipt issued
  history = new MessageHistory(); // each message's story, for the card history panel
  narrator = new Narrator({
    elapsed: () => this.clock.elapsed(),
    world: this,
  });
  cards = new CardModel({
    memory: {
      label: (id) => this.label(id),
      lease: (id) => this.#leaseView(id),
      receipt: (id) => {
        const tag = this.receipts.current(id)?.tag;
        return tag && tag !== 'r0' ? tag : undefined;
      },
      origin: (id) => this.memory.originOf(id),
      updates: (id) => this.memory.updatesOf(id),
      fate: (id) => this.#fate(id),
    },
    notices: {
      expired: (card) => expired(this, card),
      reappeared: (card) => reappeared(this, card),
      comeDue: (card) => cameDue(this, card),
    },
  });
  /** Labels, receipts handed out, fates: what only the page knows (message-memory.js). */
  memory = new MessageMemory();
  /** @type {typeof QueueService} */
  #QueueService;
  /** @type {() => Promise<typeof QueueService>} */
  #faultsEngine;
  /** @type {string} */
  #origin;
  #actorSeq = 0;
  #dirty = true; // a call may have changed a queue since the last refresh
  #deadline = -Infinity; // the next instant a card changes by itself, as of the last refresh

  /**
   * @param {object} o
   * @param {typeof import("/pkg/web/azqueue.js").QueueService} o.QueueService the engine's class
   * @param {string} o.origin the page's origin (the REST client's base)
   * @param {() => Promise<typeof QueueService>} o.faultsEngine the engine's class with fault
   *   rules, loaded when a scenario sets `faults` (pkg/web leaves them out: docs/page.md)
   */
  constructor({ QueueService, origin, faultsEngine }) {
    this.#QueueService = QueueService;
    this.#faultsEngine = faultsEngine;
    this.#origin = origin;
    this.clock.observe({ wake: () => this.nextDeadline(), settle: () => this.#settle() });
  }

  // The parts' state, under the names the views read.
  get view() {
    return this.cards.view;
  }
  get counters() {
    return this.cards.counters;
  }
  get departures() {
    return this.cards.departures;
  }
  get narration() {
    return this.narrator.lines;
  }
  get moments() {
    return this.narrator.moments;
  }

  /**
   * Opens the engine: IndexedDB when the build supports it, else memory (and says so), with the
   * scenario's fault rules if it has any.
   * @param {Scenario} scenario
   */
  async #open(scenario) {
    const Service = scenario.faults ? await this.#faultsEngine() : this.#QueueService;
    const opened = await openEngine(Service, () => this.clock.now(), scenario.faults);
    this.service = opened.service;
    this.store = opened.store;
    this.storeNote = opened.note;
    const handler = this.service.fetchHandler();
    this.rest = new RestClient({
      handler,
      routeOf: Service.routeOf,
      clock: this.clock,
      origin: this.#origin,
      nameOf: (id) => this.label(id),
      receipts: this.receipts,
      onCall: (entry) => {
        if (changesQueues(entry)) this.#dirty = true;
        this.history.addCall(entry);
        if (entry.via) relayed(this, entry);
        this.log.push(entry);
        this.logSeq = entry.seq;
        if (this.log.length > 400) this.log.splice(0, this.log.length - 400);
      },
    });
  }

  /**
   * Tears everything down and starts `scenario` at time zero, paused. Replays identically. A
   * rule set the engine refuses throws first, leaving the scenario on screen as it was.
   * @param {Scenario} scenario
   */
  load(scenario) {
    return this.clock.run(async () => {
      if (scenario.faults) await checkFaults(await this.#faultsEngine(), scenario.faults);
      for (const a of this.actors) a.dispose();
      this.actors = [];
      this.clock.reset(EPOCH);
      if (this.service) {
        await this.service.close?.();
        this.service.free?.();
        this.service = null; // what is drawn while the next one opens must not reach it
      }
      await this.#open(scenario);
      if (this.store !== 'memory') {
        // A durable store brings the last run's queues back; a scenario starts from nothing
        // (a reload is restored by replaying the session instead, see session.js).
        const { queues } = await this.rest.listQueues('reset');
        for (const q of queues) await this.rest.deleteQueue('reset', q);
      }
      this.scenario = scenario;
      this.queue = scenario.queue;
      this.poisonQueue = `${scenario.queue}-poison`;
      this.poisonThreshold = scenario.poisonThreshold ?? 0;
      this.extraQueue = null;
      this.log = [];
      this.logSeq = 0;
      this.samples = [];
      this.receipts.clear();
      this.history.clear();
      this.narrator.begin(scenario);
      this.cards.clear();
      this.memory.clear();
      this.#actorSeq = 0;
      await this.rest.createQueue('setup', this.queue);
      if (scenario.poisonThreshold) await this.rest.createQueue('setup', this.poisonQueue);
      await scenario.setup(this);
      this.#sampleEverySecond();
      await this.refresh();
    });
  }

  #sampleEverySecond() {
    const tick = () => {
      this.#sample();
      this.clock.after(1000, tick);
    };
    this.clock.after(0, tick);
  }

  /**
   * @template {AnyActor} A
   * @param {A} actor
   * @returns {A}
   */
  addActor(actor) {
    actor.id = `a${++this.#actorSeq}`;
    this.actors.push(actor);
    return actor;
  }

  /**
   * Takes `actor` off the page; a message it held is let go of, and said so.
   * @param {AnyActor} actor
   */
  removeActor(actor) {
    actor.remove();
    this.actors = this.actors.filter((a) => a !== actor);
    this.#dirty = true;
  }

  consumers() {
    return this.actors.filter(
      /** @returns {a is Consumer | LeaseWorker} */
      (a) => a.kind === 'consumer' || a.kind === 'lease-worker',
    );
  }

  /**
   * A consumer or lease worker by name, if there is one.
   * @param {string} name
   */
  worker(name) {
    return this.consumers().find((a) => a.name === name);
  }

  /**
   * Put Message on behalf of `actor`, naming the new message #n in the order it was sent. A copy
   * (`origin`: { from, messageId, dequeueCount }) keeps its original's label and remembers the
   * DequeueCount the original reached.
   * @param {string} actor
   * @param {string} text
   * @param {{ origin?: Origin, visibilityTimeout?: number, messageTimeToLive?: number }} [options]
   */
  async send(actor, text, options = {}, queue = this.queue) {
    const origin = options.origin;
    this.memory.pendingLabel = origin ? this.label(origin.messageId) : undefined;
    try {
      const r = await this.rest.sendMessage(actor, queue, text, options);
      if (r.ok) {
        const { messageId } = /** @type {WireMessage} a Put Message that succeeded */ (r.message);
        this.label(messageId);
        if (origin) {
          this.memory.copied(messageId, origin);
          // The copy's story starts with its original's: each receive that led it here.
          this.history.adopt(messageId, origin.messageId, origin.from);
          this.history.add(messageId, {
            at: this.clock.now(),
            kind: 'copied',
            actor,
            from: origin.from,
            dequeueCount: origin.dequeueCount,
          });
        }
      }
      return r;
    } finally {
      this.memory.pendingLabel = undefined;
    }
  }

  /**
   * Draws `queue` as a third lane (a queue of its own that code on this page created).
   * @param {string} queue
   */
  watch(queue) {
    if (queue !== this.queue && queue !== this.poisonQueue) this.extraQueue = queue;
  }

  /**
   * An actor was handed a receipt (Get Messages or Update Message).
   * @param {string} messageId
   * @param {Consumer | LeaseWorker} holder
   * @param {string} popReceipt
   * @param {number} until
   */
  leased(messageId, holder, popReceipt, until) {
    this.memory.lease(messageId, {
      holder,
      popReceipt,
      from: this.clock.now(),
      until,
      released: undefined,
    });
  }

  /**
   * The holder let go without deleting: `why` is "crashed", "failed" or "removed" (said when it
   * reappears; until then its card says so, and it is no longer in flight).
   * @param {string} messageId
   * @param {Consumer | LeaseWorker} holder
   * @param {string} why
   */
  released(messageId, holder, why) {
    const lease = this.memory.leaseOf(messageId);
    if (lease && lease.holder === holder) lease.released = why;
    this.#dirty = true;
  }

  /**
   * An actor saved new content in the message (Update Message with a body).
   * @param {string} messageId
   */
  updated(messageId) {
    this.memory.updated(messageId, this.clock.now());
  }

  /**
   * This page moved a message to the poison queue: remember it for its exit.
   * @param {string} messageId
   * @param {string} kind
   * @param {string} by
   * @param {{ dequeueCount?: number, receipt?: string, to?: string }} [where] the DequeueCount
   *   and receipt of the receive that moved it, and where it went
   */
  gone(messageId, kind, by, { dequeueCount, receipt, to } = {}) {
    this.memory.leaves(messageId, { kind, by, dequeueCount, receipt });
    if (kind === 'poisoned')
      this.history.add(messageId, { at: this.clock.now(), kind, actor: by, dequeueCount, to });
  }

  /**
   * A line of "what just happened" (narrator.js says which lines tick a moment).
   * @param {string} text
   * @param {string} [kind]
   * @param {import('./narrator.js').Who} [who]
   */
  say(text, kind, who) {
    this.narrator.say(text, kind, who);
  }

  /**
   * Whether `messageId` was sent with a delay and has come due since.
   * @param {string} messageId
   */
  cameDue(messageId) {
    return this.memory.cameDue(messageId);
  }

  /**
   * Who was last handed `messageId`'s current receipt (by Get or Update Message), and when.
   * @param {string} messageId
   */
  receiptHolder(messageId) {
    const e = this.history
      .of(messageId)
      .findLast((x) => x.kind === 'received' || x.kind === 'updated');
    return e ? { name: e.actor, at: e.at, tag: e.receipt } : undefined;
  }

  /**
   * Nothing is left to happen by itself: no message in the queue (expired ones aside), none held,
   * and no producer with more to send.
   */
  still() {
    const live = this.view.main.some((c) => c.state !== 'expired');
    const held = this.consumers().some((a) => a.alive && a.holding);
    const sending = this.actors.some((a) => a.kind === 'producer' && a.state === 'sending');
    return !live && !held && !sending;
  }

  /** The next instant at which a message becomes visible or expires by itself. */
  nextDeadline() {
    return this.cards.nextDeadline(this.clock.now());
  }

  /**
   * After each jump of the clock: re-read the engine only if a call changed something or a card
   * reached its deadline. At 100× most jumps are idle polls, and re-reading after each of them
   * was most of the work.
   */
  async #settle() {
    if (this.#dirty || this.clock.now() >= this.#deadline) await this.refresh();
  }

  /** Re-reads the engine and hands what it reports to the cards' view model. */
  async refresh() {
    if (!this.service) return;
    this.#dirty = false;
    const [main, poison, extra] = await Promise.all([
      this.#inspect(this.queue),
      this.#inspect(this.poisonQueue),
      this.extraQueue ? this.#inspect(this.extraQueue) : [],
    ]);
    this.cards.update({ main, poison, extra }, this.clock.now());
    this.#deadline = this.nextDeadline();
  }

  /**
   * One queue's messages from the engine's inspection model: the same fields in process
   * (`service.inspect()`, times as Dates) and over HTTP (`/_azqueue/inspect`, milliseconds).
   * @param {string} queue
   * @returns {Promise<Inspected[]>}
   */
  async #inspect(queue) {
    const service = /** @type {QueueService} refresh() checked */ (this.service);
    const messages =
      typeof service.inspect === 'function'
        ? service
            .inspect(queue)
            .accounts.find((a) => a.name === ACCOUNT)
            ?.queues.find((x) => x.name === queue)?.messages
        : (await this.rest.inspect(queue))?.messages;
    return normalize(messages);
  }

  /**
   * Who was handed `messageId`'s receipt, as the cards show it: still working on it, or let go.
   * @param {string} messageId
   */
  #leaseView(messageId) {
    const lease = this.memory.leaseOf(messageId);
    if (!lease) return undefined;
    const { holder } = lease;
    return {
      holder: {
        name: holder.name,
        working: holder.alive && !lease.released && holder.holding?.messageId === messageId,
        letGo: lease.released,
      },
      popReceipt: lease.popReceipt,
      from: lease.from,
      until: lease.until,
    };
  }

  /**
   * How a message that left went: told by the actor that moved it, or read from its history
   * (a message deleted by anyone, the SDK snippet too, has a "deleted" event).
   * @param {string} messageId
   * @returns {Fate | undefined}
   */
  #fate(messageId) {
    const told = this.memory.takeFate(messageId);
    if (told) return told;
    const last = this.history.of(messageId).at(-1);
    return last?.kind === 'deleted' ? { kind: 'deleted', by: last.actor } : undefined;
  }

  #sample() {
    const live = this.view.main.filter((c) => c.state !== 'expired');
    this.samples.push({
      t: this.clock.elapsed(),
      length: live.length,
      visible: live.filter((c) => c.state === 'visible').length,
      // Workers that have started: one waiting for its start time does no work yet.
      workers: this.consumers().filter((a) => a.alive && a.started && !a.stopping).length,
    });
    if (this.samples.length > HISTORY_LIMIT) this.samples.shift();
  }

  /**
   * The page's short name for a message: #1, #2, … in the order the page first met them.
   * @param {string} messageId
   */
  label(messageId) {
    return this.memory.label(messageId);
  }
}
