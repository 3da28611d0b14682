// The cards' view model: from a queue's messages as the engine's inspection reports them (the
// same fields in process, `service.inspect()`, and over HTTP, `/_azqueue/inspect`) to the cards
// the lanes draw, the counters above them, and the transitions worth telling (a message visible
// again, expired, come due, gone). It knows no engine and no actor: what the caller knows beyond
// the engine (a message's label, who was handed its receipt, where a copy came from) comes
// through a `CardMemory`, and a viewer that knows nothing more can answer with nothing.

/**
 * One message as inspected, normalized: times in ms since the epoch.
 * @typedef {{ messageId: string, state: string, messageText: string, dequeueCount: number,
 *   popReceipt?: string, insertedOn: number, expiresOn: number | undefined,
 *   nextVisibleOn: number, expired: boolean, visible: boolean }} Inspected
 * @typedef {'main' | 'poison' | 'extra'} Lane
 * @typedef {{ from: string, messageId: string, dequeueCount: number }} Origin a poison copy's
 *   original: its queue, its id, and the DequeueCount it reached
 * @typedef {{ name: string, working: boolean, letGo: string | undefined }} Holder who was
 *   handed the current receipt: still working on it (in flight), or let go of it ("crashed",
 *   "removed", "failed") without deleting
 * @typedef {{ holder: Holder, popReceipt: string, from: number, until: number }} LeaseView
 * @typedef {{ kind: string, by: string | undefined, dequeueCount?: number, receipt?: string }}
 *   Fate how a message left, when the caller knows (and the DequeueCount and receipt of the
 *   receive that made it leave, which the last look did not see)
 * @typedef {object} CardMemory
 * @property {(messageId: string) => string} label the short name drawn on the card
 * @property {(messageId: string) => LeaseView | undefined} lease
 * @property {(messageId: string) => string | undefined} receipt the current receipt's tag
 * @property {(messageId: string) => Origin | undefined} origin
 * @property {(messageId: string) => { count: number, at: number } | undefined} updates
 * @property {(messageId: string) => Fate | undefined} fate
 */

/**
 * A message as the page draws it.
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
 * @property {Holder | null} holder
 * @property {number | undefined} leaseFrom
 * @property {boolean} reappeared
 * @property {number | undefined} reappearedAt
 * @property {number} updates
 * @property {number | undefined} updatedAt
 * @property {string | undefined} receipt
 * @property {Origin | undefined} origin
 * @typedef {{ seq: number, card: Card, kind: string, by: string | undefined, at: number }}
 *   Departure a card that left, for the exit animation
 * @typedef {{ visible: number, invisible: number, inFlight: number, expired: number,
 *   poison: number, deleted: number }} Counters
 * @typedef {object} Notices what the model noticed, for the narrator
 * @property {(card: Card) => void} expired
 * @property {(card: Card) => void} reappeared
 * @property {(card: Card) => void} comeDue a scheduled message became visible
 */

const DEPARTURES_KEPT = 50;

/**
 * The inspection's messages of one queue, normalized (Dates or ms, as either face reports them).
 * @param {Array<Record<string, any>> | undefined} messages
 * @returns {Inspected[]}
 */
export function normalize(messages) {
  return (messages ?? []).map((m) => ({
    messageId: m.messageId,
    state: m.state,
    messageText: m.messageText,
    dequeueCount: m.dequeueCount,
    popReceipt: m.popReceipt,
    insertedOn: +m.insertedOn,
    expiresOn: m.expiresOn === null || m.expiresOn === undefined ? undefined : +m.expiresOn,
    nextVisibleOn: +m.nextVisibleOn,
    expired: m.state === 'expired',
    visible: m.state === 'visible',
  }));
}

/** @returns {Counters} */
export const noCounters = () => ({
  visible: 0,
  invisible: 0,
  inFlight: 0,
  expired: 0,
  poison: 0,
  deleted: 0,
});

export class CardModel {
  /** @type {Record<Lane, Card[]>} in the model's `order` */
  view = { main: [], poison: [], extra: [] };
  /** @type {Departure[]} */
  departures = [];
  counters = noCounters();
  #departureSeq = 0;
  /** @type {Map<string, Card>} messageId → previous card, to notice transitions */
  #last = new Map();
  /** @type {Set<string>} */
  #expiredSeen = new Set();

  /**
   * `order`: the cards in insertion order (the teaching page's, where a card keeps its place
   * while it is leased), or in the order given (the inspector's: delivery order, as the server
   * lists it).
   * @param {{ memory: CardMemory, notices: Notices, order?: 'insertion' | 'given' }} o
   */
  constructor({ memory, notices, order = 'insertion' }) {
    this.memory = memory;
    this.notices = notices;
    this.order = order;
  }

  clear() {
    this.view = { main: [], poison: [], extra: [] };
    this.departures = [];
    this.counters = noCounters();
    this.#last.clear();
    this.#expiredSeen.clear();
  }

  /**
   * Derives every card from a fresh inspection; notices reappearances, expiries, departures.
   * @param {Record<Lane, Inspected[]>} lanes
   * @param {number} now
   */
  update(lanes, now) {
    const seen = new Set();
    const order = (/** @type {Card} */ c) => Number(c.label.slice(1)) || 0;
    /** @param {Lane} lane */
    const cards = (lane) => {
      const list = lanes[lane].map((m) => {
        seen.add(m.messageId);
        return this.#card(m, lane, now);
      });
      if (this.order === 'given') return list;
      return list.sort((a, b) => a.insertedOn - b.insertedOn || order(a) - order(b));
    };
    const view = { main: cards('main'), poison: cards('poison'), extra: cards('extra') };
    const all = view.main.concat(view.poison, view.extra);
    for (const card of all) this.#notice(card);
    for (const [id, prev] of this.#last) if (!seen.has(id)) this.#depart(prev, now);
    this.#last = new Map(all.map((c) => [c.messageId, c]));
    this.view = view;

    const live = view.main.filter((c) => c.state !== 'expired');
    this.counters.visible = live.filter((c) => c.state === 'visible').length;
    this.counters.invisible = live.filter((c) => c.state !== 'visible').length;
    // In flight: received and still being worked on by the one it was handed to; a message a
    // consumer crashed with, was removed with or gave up on is only invisible.
    this.counters.inFlight = live.filter((c) => c.state === 'leased' && c.holder?.working).length;
    this.counters.poison = view.poison.filter((c) => c.state !== 'expired').length;
  }

  /**
   * The next instant at which a message becomes visible or expires by itself.
   * @param {number} now
   */
  nextDeadline(now) {
    let next = Infinity;
    for (const c of this.view.main.concat(this.view.poison, this.view.extra)) {
      if (c.nextVisibleOn > now && c.nextVisibleOn < next) next = c.nextVisibleOn;
      if (c.expiresOn && c.expiresOn > now && c.expiresOn < next) next = c.expiresOn;
    }
    return next;
  }

  /**
   * @param {Inspected} m
   * @param {Lane} lane
   * @param {number} now
   * @returns {Card}
   */
  #card(m, lane, now) {
    const memory = this.memory;
    const label = memory.label(m.messageId);
    const lease = memory.lease(m.messageId);
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
    const held = state === 'leased' && current ? lease : undefined;
    const prev = this.#last.get(m.messageId);
    const update = memory.updates(m.messageId);
    const reappeared = state === 'visible' && m.dequeueCount > 0;
    return {
      messageId: m.messageId,
      label,
      text: m.messageText,
      lane,
      state,
      dequeueCount: m.dequeueCount,
      insertedOn: m.insertedOn,
      expiresOn: m.expiresOn,
      nextVisibleOn: m.nextVisibleOn,
      holder: held ? held.holder : null,
      leaseFrom: held ? held.from : state === 'scheduled' ? m.insertedOn : undefined,
      reappeared,
      reappearedAt: reappeared ? (prev?.reappearedAt ?? m.nextVisibleOn) : undefined,
      updates: update?.count ?? 0,
      updatedAt: update?.at,
      receipt: memory.receipt(m.messageId),
      origin: memory.origin(m.messageId),
    };
  }

  /** @param {Card} card */
  #notice(card) {
    const prev = this.#last.get(card.messageId);
    if (card.state === 'expired' && !this.#expiredSeen.has(card.messageId)) {
      this.#expiredSeen.add(card.messageId);
      if (card.lane === 'main') this.counters.expired++;
      this.notices.expired(card);
    }
    if (!prev) return;
    if (prev.state === 'leased' && card.state === 'visible') this.notices.reappeared(card);
    if (prev.state === 'scheduled' && card.state === 'visible') this.notices.comeDue(card);
  }

  /**
   * @param {Card} prev
   * @param {number} now
   */
  #depart(prev, now) {
    const fate = this.memory.fate(prev.messageId);
    let kind = fate?.kind;
    if (!kind)
      kind =
        prev.state === 'expired' || (prev.expiresOn && prev.expiresOn <= now)
          ? 'expired'
          : 'removed';
    if (kind === 'expired' && !this.#expiredSeen.has(prev.messageId)) {
      this.#expiredSeen.add(prev.messageId);
      if (prev.lane === 'main') this.counters.expired++;
      this.notices.expired({ ...prev, state: 'expired' });
    }
    if (kind === 'deleted' && prev.lane !== 'poison') this.counters.deleted++;
    // The receive that sent it to the poison queue raised its DequeueCount and issued a new
    // receipt after the last look.
    const card = fate?.dequeueCount
      ? { ...prev, dequeueCount: fate.dequeueCount, receipt: fate.receipt ?? prev.receipt }
      : prev;
    this.departures.push({ seq: ++this.#departureSeq, card, kind, by: fate?.by, at: now });
    if (this.departures.length > DEPARTURES_KEPT) this.departures.shift();
  }
}
