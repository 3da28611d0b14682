// The world a scenario runs in: one engine (QueueService, opened on the virtual clock), the REST
// client every actor uses, the actors, and what the page derives from the engine's inspection
// view after every jump of the clock — card states, counters, the queue-length history and the
// narration of what just happened.
//
// Nothing here decides queue behaviour. Visibility, dequeue counts, pop receipts and expiry are
// the engine's; this file only remembers who was handed which receipt, so a card can say who
// holds it.

import { EPOCH, VirtualClock } from './clock.js';
import { RestClient, ACCOUNT } from './rest.js';
import { Receipts } from './receipts.js';
import { MessageHistory } from './history.js';

const SEED = 20110818;
const HISTORY_LIMIT = 900; // samples, one per virtual second
const NARRATION_LIMIT = 60;

/**
 * One of a scenario's moments as the demo tracks it: ticked (`done`, at `at` ms elapsed) when the
 * event `on` first happens to its actor (and message, if it names one).
 * @typedef {{ on: string, text: string, guide?: string, actor?: string, label?: string,
 *   done: boolean, at: number | undefined }} Moment
 */

/**
 * A message as the page draws it: the engine's view at the last refresh, and what the page
 * remembers about it (its label, who holds its current receipt, where it was copied from).
 * @typedef {object} Card
 * @property {string} messageId
 * @property {string} label
 * @property {string} text
 * @property {Lane} lane
 * @property {'expired' | 'visible' | 'scheduled' | 'leased'} state
 * @property {number} dequeueCount
 * @property {number} insertedOn
 * @property {number | undefined} expiresOn
 * @property {number} nextVisibleOn
 * @property {Consumer | LeaseWorker | null} holder
 * @property {number | undefined} leaseFrom
 * @property {boolean} reappeared
 * @property {number | undefined} reappearedAt
 * @property {number} updates
 * @property {number | undefined} updatedAt
 * @property {string | undefined} receipt
 * @property {Origin | undefined} origin
 * @typedef {'main' | 'poison' | 'extra'} Lane
 * @typedef {{ holder: Consumer | LeaseWorker, popReceipt: string, from: number, until: number,
 *   released: string | undefined }} Lease who was handed a message's receipt, until when, and
 *   why they let go of it without deleting (crashed, failed)
 * @typedef {{ from: string, messageId: string, dequeueCount: number }} Origin a poison copy's
 *   original: its queue, its id, and the DequeueCount it reached
 * @typedef {{ seq: number, card: Card, kind: string, by: string | undefined, at: number }}
 *   Departure a card that left, for the exit animation
 * @typedef {{ at: number, text: string, kind: string, moment: string | undefined }} Line a line
 *   of "what just happened"
 * @typedef {{ t: number, length: number, visible: number, workers: number }} Sample
 * @typedef {{ messageId: string, state: string, messageText: string, dequeueCount: number,
 *   popReceipt?: string, insertedOn: number, expiresOn: number | undefined,
 *   nextVisibleOn: number, expired: boolean, visible: boolean }} Inspected
 */

/** @import { AnyActor, Consumer, LeaseWorker } from './actors.js' */
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
  /** @type {Line[]} */
  narration = [];
  narrationSeq = 0;
  /** @type {Map<string, Moment>} event kind → the scenario's moment of that kind */
  moments = new Map();
  /** @type {Sample[]} queue length over time, one per virtual second */
  samples = [];
  counters = { visible: 0, invisible: 0, inFlight: 0, expired: 0, poison: 0, deleted: 0 };
  /** @type {Record<Lane, Card[]>} derived cards, insertion order */
  view = { main: [], poison: [], extra: [] };
  /** @type {Departure[]} */
  departures = [];
  receipts = new Receipts(); // r1, r2, … for every pop receipt issued
  history = new MessageHistory(); // each message's story, for the card history panel
  #departureSeq = 0;
  /** @type {Map<string, Lease>} messageId → who was handed its receipt, and until when */
  #leases = new Map();
  /** @type {Map<string, { at: number, count: number }>} messageId → its Update Messages */
  #updates = new Map();
  /** @type {Map<string, string>} messageId → "#n" */
  #labels = new Map();
  /**
   * @type {Map<string, { kind: string, by: string | undefined, dequeueCount?: number }>}
   *   messageId → how it left, for messages this page moved
   */
  #fates = new Map();
  /** @type {Map<string, Origin>} messageId → its original, for copies in the poison queue */
  #origins = new Map();
  /** @type {Map<string, Card>} messageId → previous card, to notice transitions */
  #last = new Map();
  /** @type {Set<string>} */
  #expiredSeen = new Set();
  #nextLabel = 1;
  /** @type {string | undefined} */
  #pendingLabel;
  /** @type {typeof QueueService} */
  #QueueService;
  /** @type {string} */
  #origin;
  #actorSeq = 0;
  #dirty = true; // a call may have changed a queue since the last refresh
  #deadline = -Infinity; // the next instant a card changes by itself, as of the last refresh

  /**
   * Called when a scenario's moment ticks (guided mode stops the clock there).
   * @type {((kind: string, moment: Moment, text: string) => void) | undefined}
   */
  onMoment;

  /**
   * @param {object} o
   * @param {typeof import("/pkg/web/azqueue.js").QueueService} o.QueueService the engine's class
   * @param {string} o.origin the page's origin (the REST client's base)
   */
  constructor({ QueueService, origin }) {
    this.#QueueService = QueueService;
    this.#origin = origin;
    this.clock.observe({ wake: () => this.nextDeadline(), settle: () => this.#settle() });
  }

  /** Opens the engine: IndexedDB when the build supports it, else memory (and says so). */
  async #open() {
    const base = { now: () => this.clock.now(), anonymous: true, seed: SEED, name: 'azqueue-page' };
    try {
      // Relaxed: a reload restores the page by replaying its session, never from this store, so
      // waiting for each commit buys nothing here; at 100× it was most of the burst's time.
      this.service = await this.#QueueService.open({
        ...base,
        store: 'indexeddb',
        durability: 'relaxed',
      });
      this.store = 'indexeddb';
      this.storeNote = '';
    } catch (e) {
      this.service = await this.#QueueService.open({ ...base, store: 'memory' });
      this.store = 'memory';
      this.storeNote =
        /** @type {any} */ (e)?.code === 'StoreUnavailable'
          ? 'this browser offers no IndexedDB here'
          : /** @type {any} */ (e)?.code === 'StoreLocked'
            ? "another tab holds this page's database"
            : String(/** @type {any} */ (e)?.message ?? e);
    }
    const handler = this.service.fetchHandler();
    this.rest = new RestClient({
      handler,
      clock: this.clock,
      origin: this.#origin,
      nameOf: (id) => this.label(id),
      receipts: this.receipts,
      onCall: (entry) => {
        if (changesQueues(entry)) this.#dirty = true;
        this.history.addCall(entry);
        if (entry.via) this.#narrateRelayed(entry);
        this.log.push(entry);
        this.logSeq = entry.seq;
        if (this.log.length > 400) this.log.splice(0, this.log.length - 400);
      },
    });
  }

  /**
   * Tears everything down and starts `scenario` at time zero, paused. Replays identically.
   * @param {Scenario} scenario
   */
  load(scenario) {
    return this.clock.run(async () => {
      for (const a of this.actors) a.dispose();
      this.actors = [];
      this.clock.reset(EPOCH);
      if (this.service) {
        await this.service.close?.();
        this.service.free?.();
      }
      await this.#open();
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
      this.narration = [];
      this.narrationSeq = 0;
      this.samples = [];
      this.departures = [];
      this.receipts.clear();
      this.history.clear();
      this.counters = { visible: 0, invisible: 0, inFlight: 0, expired: 0, poison: 0, deleted: 0 };
      this.moments = new Map(
        scenario.moments.map((m) => [m.on, { ...m, done: false, at: undefined }]),
      );
      this.#leases.clear();
      this.#updates.clear();
      this.#labels.clear();
      this.#fates.clear();
      this.#origins.clear();
      this.#last.clear();
      this.#expiredSeen.clear();
      this.#nextLabel = 1;
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

  /** @param {AnyActor} actor */
  removeActor(actor) {
    actor.dispose();
    this.actors = this.actors.filter((a) => a !== actor);
  }

  consumers() {
    return this.actors.filter(
      /** @returns {a is Consumer | LeaseWorker} */
      (a) => a.kind === 'consumer' || a.kind === 'lease-worker',
    );
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
    this.#pendingLabel = origin ? this.label(origin.messageId) : undefined;
    try {
      const r = await this.rest.sendMessage(actor, queue, text, options);
      if (r.ok) {
        const { messageId } = /** @type {WireMessage} a Put Message that succeeded */ (r.message);
        this.label(messageId);
        if (origin) {
          this.#origins.set(messageId, origin);
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
      this.#pendingLabel = undefined;
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
   * The snippet's receipts at work: a stale one refused, or a late one still current.
   * @param {LogEntry} e
   */
  #narrateRelayed(e) {
    if (e.op !== 'Delete Message' && e.op !== 'Update Message') return;
    const label = this.label(/** @type {string} Delete and Update name one */ (e.messageId));
    const verb = e.op === 'Delete Message' ? 'delete' : 'update';
    const { presented, current } = e.receipt;
    if (e.status === 404 && presented && current && presented !== current) {
      this.say(
        `${e.actor}'s ${verb} of ${label} was refused (404 ${e.code}): it presented ${presented}, but the current receipt is ${current}.`,
        'stale-delete',
        { actor: e.actor, label },
      );
    } else if (e.status < 300 && verb === 'delete') {
      this.say(`${e.actor} deleted ${label} with ${presented}, its current receipt.`, 'deleted', {
        actor: e.actor,
        label,
      });
    }
  }

  /**
   * An actor was handed a receipt (Get Messages or Update Message).
   * @param {string} messageId
   * @param {Consumer | LeaseWorker} holder
   * @param {string} popReceipt
   * @param {number} until
   */
  leased(messageId, holder, popReceipt, until) {
    this.#leases.set(messageId, {
      holder,
      popReceipt,
      from: this.clock.now(),
      until,
      released: undefined,
    });
  }

  /**
   * The holder let go without deleting: `why` is "crashed" or "failed" (said when it reappears).
   * @param {string} messageId
   * @param {Consumer | LeaseWorker} holder
   * @param {string} why
   */
  released(messageId, holder, why) {
    const lease = this.#leases.get(messageId);
    if (lease && lease.holder === holder) lease.released = why;
  }

  /**
   * An actor saved new content in the message (Update Message with a body).
   * @param {string} messageId
   */
  updated(messageId) {
    const u = this.#updates.get(messageId) ?? { count: 0 };
    this.#updates.set(messageId, { at: this.clock.now(), count: u.count + 1 });
  }

  /**
   * This page moved a message to the poison queue: remember it for its exit.
   * @param {string} messageId
   * @param {string} kind
   * @param {string} by
   * @param {{ dequeueCount?: number, to?: string }} [where]
   */
  gone(messageId, kind, by, { dequeueCount, to } = {}) {
    this.#fates.set(messageId, { kind, by, dequeueCount });
    if (kind === 'poisoned')
      this.history.add(messageId, { at: this.clock.now(), kind, actor: by, dequeueCount, to });
  }

  /**
   * Something worth a line in "what just happened". `kind` also ticks the scenario's moment of
   * that kind, but only when the moment's own actor (and message, if it names one) did it: a
   * hand-added consumer crashing is not "Encoder A crashes".
   * A `quiet` line is only told when it ticks a moment (routine deletes would drown the rest).
   * @param {string} text
   * @param {string} [kind]
   * @param {{ quiet?: boolean, actor?: string, label?: string }} [who]
   */
  say(text, kind = 'info', { quiet = false, actor, label } = {}) {
    const m = this.moments.get(kind);
    const ticks =
      m && !m.done && (!m.actor || m.actor === actor) && (!m.label || m.label === label);
    if (ticks) {
      m.done = true;
      m.at = this.clock.elapsed();
    }
    if (quiet && !ticks) return;
    this.narration.push({ at: this.clock.elapsed(), text, kind, moment: ticks ? kind : undefined });
    this.narrationSeq++;
    if (this.narration.length > NARRATION_LIMIT) this.narration.shift();
    if (ticks) this.onMoment?.(kind, m, text);
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

  /** The next instant at which a message becomes visible or expires by itself. */
  nextDeadline() {
    const now = this.clock.now();
    let next = Infinity;
    for (const c of this.view.main.concat(this.view.poison, this.view.extra)) {
      if (c.nextVisibleOn > now && c.nextVisibleOn < next) next = c.nextVisibleOn;
      if (c.expiresOn && c.expiresOn > now && c.expiresOn < next) next = c.expiresOn;
    }
    return next;
  }

  /** Re-reads the engine and derives every card; notices reappearances, expiries, departures. */
  /**
   * After each jump of the clock: re-read the engine only if a call changed something or a card
   * reached its deadline. At 100× most jumps are idle polls, and re-reading after each of them
   * was most of the work.
   */
  async #settle() {
    if (this.#dirty || this.clock.now() >= this.#deadline) await this.refresh();
  }

  async refresh() {
    if (!this.service) return;
    this.#dirty = false;
    const now = this.clock.now();
    const [main, poison, extra] = await Promise.all([
      this.#inspect(this.queue),
      this.#inspect(this.poisonQueue),
      this.extraQueue ? this.#inspect(this.extraQueue) : [],
    ]);
    const seen = new Set();
    const order = (/** @type {Card} */ c) => Number(c.label.slice(1)) || 0;
    /**
     * @param {Inspected[]} list
     * @param {Lane} lane
     */
    const cards = (list, lane) =>
      list
        .map((m) => {
          seen.add(m.messageId);
          return this.#card(m, lane, now);
        })
        .sort((a, b) => a.insertedOn - b.insertedOn || order(a) - order(b));
    const view = {
      main: cards(main, 'main'),
      poison: cards(poison, 'poison'),
      extra: cards(extra, 'extra'),
    };
    const all = view.main.concat(view.poison, view.extra);

    for (const card of all) this.#notice(card);
    for (const [id, prev] of this.#last) {
      if (!seen.has(id)) this.#depart(prev);
    }
    this.#last = new Map(all.map((c) => [c.messageId, c]));
    this.view = view;

    const live = view.main.filter((c) => c.state !== 'expired');
    this.counters.visible = live.filter((c) => c.state === 'visible').length;
    this.counters.invisible = live.filter((c) => c.state !== 'visible').length;
    this.counters.inFlight = live.filter(
      (c) => c.state === 'leased' && c.holder && c.holder.alive,
    ).length;
    this.counters.poison = view.poison.filter((c) => c.state !== 'expired').length;
    this.#deadline = this.nextDeadline();
  }

  /** One queue's messages from the engine's inspection model: the same fields in process
   *  (`service.inspect()`, times as Dates) and over HTTP (`/_azqueue/inspect`, milliseconds).
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
    return (messages ?? []).map((m) => ({
      ...m,
      insertedOn: +m.insertedOn,
      expiresOn: m.expiresOn === null ? undefined : +m.expiresOn,
      nextVisibleOn: +m.nextVisibleOn,
      expired: m.state === 'expired',
      visible: m.state === 'visible',
    }));
  }

  /**
   * @param {Inspected} m
   * @param {Lane} lane
   * @param {number} now
   * @returns {Card}
   */
  #card(m, lane, now) {
    this.label(m.messageId);
    const lease = this.#leases.get(m.messageId);
    const current =
      lease &&
      (m.popReceipt !== undefined
        ? m.popReceipt === lease.popReceipt
        : m.nextVisibleOn === lease.until);
    /** @type {Card['state']} */
    let state;
    if (m.expired || (m.expiresOn && m.expiresOn <= now)) state = 'expired';
    else if (m.visible ?? m.nextVisibleOn <= now) state = 'visible';
    else if (m.dequeueCount === 0) state = 'scheduled';
    else state = 'leased';
    const prev = this.#last.get(m.messageId);
    const update = this.#updates.get(m.messageId);
    const receipt = this.receipts.current(m.messageId);
    return {
      messageId: m.messageId,
      label: /** @type {string} labelled above */ (this.#labels.get(m.messageId)),
      text: m.messageText,
      lane,
      state,
      dequeueCount: m.dequeueCount,
      insertedOn: m.insertedOn,
      expiresOn: m.expiresOn,
      nextVisibleOn: m.nextVisibleOn,
      holder: state === 'leased' && current ? /** @type {Lease} */ (lease).holder : null,
      leaseFrom:
        state === 'leased' && current
          ? /** @type {Lease} */ (lease).from
          : state === 'scheduled'
            ? m.insertedOn
            : undefined,
      reappeared: state === 'visible' && m.dequeueCount > 0,
      reappearedAt:
        state === 'visible' && m.dequeueCount > 0
          ? (prev?.reappearedAt ?? m.nextVisibleOn)
          : undefined,
      updates: update?.count ?? 0,
      updatedAt: update?.at,
      receipt: receipt && receipt.tag !== 'r0' ? receipt.tag : undefined,
      origin: this.#origins.get(m.messageId),
    };
  }

  /** @param {Card} card */
  #notice(card) {
    const prev = this.#last.get(card.messageId);
    const who = (/** @type {Card} */ c) => `${c.label} “${c.text}”`;
    if (card.state === 'expired' && !this.#expiredSeen.has(card.messageId)) {
      this.#expiredSeen.add(card.messageId);
      if (card.lane === 'main') this.counters.expired++;
      this.history.add(card.messageId, { at: this.clock.now(), kind: 'expired' });
      this.say(`${who(card)} reached its time-to-live and expired, unprocessed.`, 'expired', {
        label: card.label,
      });
    }
    if (!prev) return;
    if (prev.state === 'leased' && card.state === 'visible') {
      const lease = this.#leases.get(card.messageId);
      const why = this.#whyBack(lease, card);
      this.history.add(card.messageId, { at: this.clock.now(), kind: 'reappeared', why });
      this.say(
        `${who(card)} is visible again: ${why}. DequeueCount is ${card.dequeueCount}; the next receive makes it ${card.dequeueCount + 1}.`,
        'reappeared',
        { actor: lease?.holder?.name, label: card.label },
      );
    }
    if (prev.state === 'scheduled' && card.state === 'visible') {
      this.say(
        `${who(card)} was scheduled; its delay is over and consumers can see it now.`,
        'scheduled-visible',
        { label: card.label },
      );
    }
  }

  /**
   * Why a received message became visible again, in words that do not blame the wrong thing.
   * @param {Lease | undefined} lease
   * @param {Card} card
   */
  #whyBack(lease, card) {
    const holder = lease?.holder;
    if (!holder) return 'its visibility timeout ran out and nobody deleted it';
    const tag = this.receipts.current(card.messageId)?.tag;
    if (lease.released === 'crashed')
      return `${holder.name} crashed while holding it, so nobody deleted it before its visibility timeout ran out`;
    if (lease.released === 'failed')
      return `${holder.name} failed on it and left it undeleted, so it comes back when its visibility timeout runs out`;
    if (holder.holding?.messageId === card.messageId) {
      return `its visibility timeout ran out while ${holder.name} is still working on it; ${holder.name}'s receipt ${tag} works only until someone else receives it`;
    }
    return `its visibility timeout ran out and ${holder.name} never deleted it`;
  }

  /** @param {Card} prev */
  #depart(prev) {
    const fate = this.#fates.get(prev.messageId) ?? this.#fateFromHistory(prev.messageId);
    let kind = fate?.kind;
    if (!kind)
      kind =
        prev.state === 'expired' || (prev.expiresOn && prev.expiresOn <= this.clock.now())
          ? 'expired'
          : 'removed';
    if (kind === 'expired' && !this.#expiredSeen.has(prev.messageId)) {
      this.#expiredSeen.add(prev.messageId);
      if (prev.lane === 'main') this.counters.expired++;
      this.history.add(prev.messageId, { at: this.clock.now(), kind: 'expired' });
      this.say(`${prev.label} “${prev.text}” expired.`, 'expired', { label: prev.label });
    }
    if (kind === 'deleted' && prev.lane !== 'poison') this.counters.deleted++;
    // The receive that sent it to the poison queue raised its DequeueCount after the last look.
    const card = fate?.dequeueCount ? { ...prev, dequeueCount: fate.dequeueCount } : prev;
    this.departures.push({
      seq: ++this.#departureSeq,
      card,
      kind,
      by: fate?.by,
      at: this.clock.now(),
    });
    if (this.departures.length > 50) this.departures.shift();
    this.#fates.delete(prev.messageId);
  }

  /**
   * A message deleted by anyone (an actor or the SDK snippet) has a "deleted" event.
   * @param {string} messageId
   */
  #fateFromHistory(messageId) {
    const last = this.history.of(messageId).at(-1);
    /** @type {{ kind: string, by: string | undefined, dequeueCount?: number } | undefined} */
    const fate = last?.kind === 'deleted' ? { kind: 'deleted', by: last.actor } : undefined;
    return fate;
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
    let label = this.#labels.get(messageId);
    if (!label) {
      label = this.#pendingLabel ?? `#${this.#nextLabel++}`;
      this.#labels.set(messageId, label);
    }
    return label;
  }
}

/**
 * Whether a logged call may have changed a queue (reads and refused calls change nothing).
 * @param {LogEntry} entry
 */
function changesQueues(entry) {
  if (entry.status >= 400) return false;
  if (entry.op === 'Get Messages') return entry.messages.length > 0;
  return ![
    'Peek Messages',
    'Get Queue Metadata',
    'List Queues',
    'Get Queue ACL',
    'Get Service Properties',
    'Get Service Stats',
  ].includes(entry.op);
}
