// Draws a queue lane: one card per message, from the cards' view model (cards.js). It knows no
// engine and no actor, so it draws the teaching page's queues and a live server's alike. Runs
// every animation frame and only reads state: the one exception is the per-card memory of when
// an animation started, which is view state and lives here. Animations run on the virtual clock:
// each frame sets a card's CSS animation to the time since it began, so a paused page holds
// still. At a stop an arrival (a card coming back) is drawn at its end, as it looks once
// arrived: the moment a stop is about is the instant it began, whose first frame is a faded
// card half under its neighbour.

import { formatDuration } from './clock.js';
import { STAGES, parseJob } from './jobs.js';
import { h, svg, setAttr, setClass, setText, reducedMotion } from './dom.js';

/** @import { Card, Departure } from './cards.js' */

/**
 * A message card's element and its parts, and when its exit animation (or its expiry) began.
 * @typedef {{ el: HTMLElement, parts: CardParts, exitAt: number, expiredAt: number,
 *   animFrom: number | undefined, drawn: Card | undefined, stillUntil: number }} CardEntry
 *   when it started leaving, expired, and when the animation it shows began (virtual ms); the
 *   card as last drawn, and until when that drawing holds by itself (a countdown: the next
 *   frame; a time-to-live line yet to appear: when it does; otherwise never changes)
 * @typedef {Record<'label' | 'dq' | 'dqn' | 'receipt' | 'text' | 'ttl' | 'state' | 'long'
 *   | 'short', HTMLElement> & { stages: HTMLOListElement, ring: SVGElement, arc: SVGElement,
 *   secs: SVGElement }} CardParts
 */

const RING = 2 * Math.PI * 15;
const EXIT_MS = 1600;
/** Only a time-to-live shorter than this is worth a line (the default is 7 days). */
const TTL_LINE_MS = 3_600_000;
/** The animations that bring a card in (style.css), drawn at their end at a stop. */
const ARRIVALS = new Set(['back']);

/** One lane: a list of message cards, keyed by message id. */
export class LaneView {
  /** @type {Map<string, CardEntry>} messageId → its card */
  #cards = new Map();

  /**
   * `onSelect(messageId)` runs when a card is clicked (or Enter is pressed on it).
   * @param {HTMLElement} list
   * @param {{ onSelect?: (messageId: string) => void }} [options]
   */
  constructor(list, { onSelect } = {}) {
    this.list = list;
    if (!onSelect) return;
    const pick = (/** @type {Event} */ e) => {
      const card = /** @type {HTMLElement | null} */ (
        /** @type {Element} */ (e.target).closest('[data-testid=message]')
      );
      if (card && !card.classList.contains('leaving'))
        onSelect(/** @type {string} */ (card.dataset.id));
    };
    list.addEventListener('click', pick);
    list.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') pick(e);
    });
  }

  /** Whether any card is drawn, including ones still leaving. */
  get drawn() {
    return this.#cards.size > 0;
  }

  /** Whether a card is playing its exit animation (drawn each frame until it is gone). */
  get leaving() {
    for (const entry of this.#cards.values()) if (entry.exitAt) return true;
    return false;
  }

  /**
   * The first virtual instant at which a drawn card looks different by itself, with no new
   * cards (a countdown or an animation: the last drawn instant; Infinity when none would): a
   * viewer that draws only on change needs no frame before it.
   */
  get changesAt() {
    let at = Infinity;
    for (const entry of this.#cards.values()) at = Math.min(at, entry.stillUntil);
    return at;
  }

  clear() {
    this.#cards.clear();
    this.list.replaceChildren();
  }

  /**
   * @param {Card[]} cards
   * @param {number} now
   * @param {Departure[]} departures
   * @param {{ stopped?: boolean }} [options] `stopped`: the page is at a stop (arrivals drawn
   *   arrived)
   */
  render(cards, now, departures, { stopped = false } = {}) {
    setClass(this.list, 'crowded', cards.length > 8);
    const present = new Set();
    for (const card of cards) {
      present.add(card.messageId);
      let entry = this.#cards.get(card.messageId);
      if (!entry) {
        entry = this.#create(card);
        this.#cards.set(card.messageId, entry);
      }
      // Most cards are as last drawn (a live viewer reads the same page again and again).
      if (!(now < entry.stillUntil && entry.drawn && sameCard(entry.drawn, card)))
        this.#update(entry, card, now);
    }
    // Keep DOM order = insertion order.
    /** @type {Element | null} */
    let prev = null;
    for (const card of cards) {
      const el = /** @type {CardEntry} made above */ (this.#cards.get(card.messageId)).el;
      /** @type {Element | null} */
      const expected = prev ? prev.nextElementSibling : this.list.firstElementChild;
      if (expected !== el) this.list.insertBefore(el, expected);
      prev = el;
    }
    for (const d of departures) {
      const entry = this.#cards.get(d.card.messageId);
      if (entry && !entry.exitAt) this.#leave(entry, d);
    }
    for (const [id, entry] of this.#cards) {
      if (!present.has(id) && !entry.exitAt) {
        entry.exitAt = now; // vanished without a recorded reason
        entry.animFrom = now;
      }
      if (entry.exitAt && now - entry.exitAt > EXIT_MS) {
        entry.el.remove();
        this.#cards.delete(id);
        continue;
      }
      drive(entry, now, stopped);
    }
  }

  /**
   * @param {Card} card
   * @returns {CardEntry}
   */
  #create(card) {
    const el = /** @type {HTMLElement} */ (cardTemplate().cloneNode(true));
    el.dataset.id = card.messageId;
    const part = (/** @type {string} */ selector) =>
      /** @type {HTMLElement} the template has each */ (el.querySelector(selector));
    /** @type {CardParts} */
    const parts = {
      label: part('.label'),
      dq: part('.dq'),
      dqn: part('.dqn'),
      receipt: part('.rcpt'),
      text: part('.text'),
      stages: /** @type {HTMLOListElement} */ (part('.stages')),
      ttl: part('.ttl'),
      state: part('.state'),
      long: part('.long'),
      short: part('.short'),
      ring: /** @type {SVGElement} */ (el.querySelector('.ring')),
      arc: /** @type {SVGElement} */ (el.querySelector('.arc')),
      secs: /** @type {SVGElement} */ (el.querySelector('.secs')),
    };
    return {
      el,
      parts,
      exitAt: 0,
      expiredAt: 0,
      animFrom: undefined,
      drawn: undefined,
      stillUntil: -Infinity,
    };
  }

  /**
   * @param {CardEntry} entry
   * @param {Card} card
   * @param {number} now
   */
  #update(entry, card, now) {
    const { el, parts } = entry;
    const job = parseJob(card.text);
    setAttr(el, 'data-state', card.state);
    setAttr(el, 'data-label', card.label);
    setAttr(el, 'data-dequeue-count', card.dequeueCount);
    setAttr(el, 'data-receipt', card.receipt);
    setAttr(el, 'data-origin-dequeue-count', card.origin?.dequeueCount);
    setAttr(el, 'data-holder', card.holder?.name);
    setAttr(el, 'data-stage', job?.stage);
    setAttr(el, 'data-next-visible', card.nextVisibleOn);
    setAttr(el, 'data-text', card.text);
    for (const s of ['visible', 'scheduled', 'leased', 'expired'])
      setClass(el, `is-${s}`, card.state === s);
    setClass(el, 'reappeared', card.reappeared);
    setClass(el, 'updated', card.updates > 0 && card.state === 'leased');
    setClass(el, 'poison', card.lane === 'poison');
    setClass(el, 'job', Boolean(job));

    setText(parts.label, card.label);
    // A poison copy is a new message (DequeueCount 0 here): it shows the count its original reached.
    const shownCount = card.origin ? card.origin.dequeueCount : card.dequeueCount;
    setText(parts.dqn, card.origin ? `${shownCount} in ${card.origin.from}` : shownCount);
    setClass(parts.dq, 'hot', shownCount > 1 || card.reappeared);
    setText(parts.receipt, card.receipt ?? '');
    setClass(parts.receipt, 'stale-ok', card.state !== 'leased');
    setText(parts.text, job ? job.video : card.text);
    parts.stages.hidden = !job;
    if (job) {
      const at = STAGES.indexOf(job.stage);
      for (const li of parts.stages.children) {
        const i = STAGES.indexOf(
          /** @type {string} */ (/** @type {HTMLElement} */ (li).dataset.stage),
        );
        setClass(li, 'past', i < at);
        setClass(li, 'current', i === at);
      }
    }

    /** @type {string | undefined} */
    let words;
    /** @type {string | undefined} */
    let short;
    /** @type {number | null} */
    let fraction = null;
    let left = 0;
    switch (card.state) {
      case 'visible':
        words = card.reappeared
          ? `visible again — anyone may take it${card.receipt ? `; ${card.receipt} still deletes it until then` : ''}`
          : 'visible — waiting for a consumer';
        short = card.reappeared ? 'visible again' : 'visible';
        break;
      case 'scheduled':
        left = card.nextVisibleOn - now;
        fraction = left / Math.max(1, card.nextVisibleOn - card.insertedOn);
        words = `scheduled — visible in ${formatDuration(left)}`;
        short = 'scheduled';
        break;
      case 'leased':
        left = card.nextVisibleOn - now;
        fraction = card.leaseFrom ? left / Math.max(1, card.nextVisibleOn - card.leaseFrom) : 1;
        words = holderWords(card);
        if (card.updates > 0) words += ` · updated ${card.updates}×`;
        short = card.holder ? card.holder.name : 'invisible';
        break;
      case 'expired':
        words = 'expired — its time-to-live is over';
        short = 'expired';
        if (!entry.expiredAt) entry.expiredAt = card.expiresOn ?? now;
        break;
    }
    if (card.lane === 'poison' && card.state === 'visible') {
      words = card.origin
        ? `a fresh copy: the original reached DequeueCount ${card.origin.dequeueCount} in ${card.origin.from}; parked for a human`
        : 'a fresh copy, parked here for a human to inspect';
      short = 'parked';
    }
    if (!entry.exitAt) {
      setText(parts.long, words);
      setText(parts.short, short);
    }
    setClass(el, 'dissolved', card.state === 'expired' && now - entry.expiredAt > EXIT_MS);
    if (!entry.exitAt)
      entry.animFrom =
        card.state === 'expired'
          ? entry.expiredAt
          : card.reappeared
            ? card.reappearedAt
            : undefined;

    const ttlLeft = /** @type {number} NaN without one: no line */ (card.expiresOn) - now;
    const showTtl =
      card.state !== 'expired' && !entry.exitAt && ttlLeft > 0 && ttlLeft < TTL_LINE_MS;
    parts.ttl.hidden = !showTtl;
    if (showTtl) setText(parts.ttl, `expires in ${formatDuration(ttlLeft)}`);

    const ring = fraction !== null;
    setClass(parts.ring, 'off', !ring);
    if (ring) {
      const f = Math.max(0, Math.min(1, /** @type {number} */ (fraction)));
      setAttr(parts.arc, 'stroke-dashoffset', (RING * (1 - f)).toFixed(2));
      setText(parts.secs, Math.max(0, Math.ceil(left / 1000)));
    }
    const holder = card.holder ? `, held by ${card.holder.name}` : '';
    setAttr(
      el,
      'aria-label',
      `${card.label} ${card.text}: ${words}${holder}, dequeue count ${card.dequeueCount}`,
    );

    entry.drawn = card;
    const animating = entry.animFrom !== undefined && now - entry.animFrom <= EXIT_MS;
    if (ring || showTtl || animating) entry.stillUntil = now;
    else if (card.state !== 'expired' && ttlLeft >= TTL_LINE_MS)
      entry.stillUntil = /** @type {number} finite: ttlLeft is */ (card.expiresOn) - TTL_LINE_MS;
    else entry.stillUntil = Infinity;
  }

  /**
   * @param {CardEntry} entry
   * @param {Departure} d
   */
  #leave(entry, d) {
    entry.exitAt = d.at;
    entry.animFrom = d.at;
    const el = entry.el;
    el.classList.add('leaving', `left-${d.kind}`);
    if (reducedMotion()) el.classList.add('no-motion');
    /** @type {Record<string, string>} */
    const words = {
      deleted: `deleted by ${d.by} ✓`,
      poisoned: `moved to the poison queue by ${d.by}`,
      expired: 'expired — removed by the queue',
      removed: 'removed',
    };
    /** @type {Record<string, string>} */
    const shortWords = {
      deleted: 'deleted ✓',
      poisoned: '→ poison',
      expired: 'expired',
      removed: 'removed',
    };
    setText(entry.parts.long, words[d.kind]);
    setText(entry.parts.short, shortWords[d.kind]);
    // What it looked like as it left: a poison move raised DequeueCount and issued a receipt
    // after the last look.
    setText(entry.parts.dqn, d.card.dequeueCount);
    setAttr(el, 'data-dequeue-count', d.card.dequeueCount);
    setText(entry.parts.receipt, d.card.receipt ?? '');
    setAttr(el, 'data-receipt', d.card.receipt);
    setAttr(el, 'data-state', `gone-${d.kind}`);
    entry.parts.ring.classList.add('off');
  }
}

/** @type {HTMLElement | undefined} */
let template;

/**
 * A card's elements with nothing of a message yet; each card is a deep copy, which costs a
 * fraction of building its two dozen elements one by one (a live viewer draws 50 at once).
 */
function cardTemplate() {
  if (template) return template;
  const ring = svg('svg', { class: 'ring', viewBox: '0 0 36 36', 'aria-hidden': 'true' });
  ring.append(
    svg('circle', { class: 'track', cx: 18, cy: 18, r: 15 }),
    svg('circle', { class: 'arc', cx: 18, cy: 18, r: 15, 'stroke-dasharray': RING }),
    svg('text', { class: 'secs', x: 18, y: 22, 'text-anchor': 'middle' }),
  );
  const stages = h('ol', { class: 'stages', hidden: true, 'aria-label': 'job stages' });
  for (const s of STAGES) stages.append(h('li', { 'data-stage': s, text: s }));
  template = h(
    'li',
    {
      class: 'card',
      'data-testid': 'message',
      tabindex: 0,
      title: "Click for this message's history",
    },
    h(
      'div',
      { class: 'card-head' },
      h('span', { class: 'label' }),
      h('span', {
        class: 'rcpt',
        title: "The message's current pop receipt: only this one can delete or update it",
      }),
      h(
        'span',
        {
          class: 'dq',
          title: 'DequeueCount: how many times Get Messages has handed this message out',
        },
        h('span', { class: 'dq-word', text: 'DequeueCount ' }),
        h('span', { class: 'dq-icon', 'aria-hidden': 'true', text: '↻' }),
        h('span', { class: 'dqn' }),
      ),
    ),
    h('span', { class: 'text' }),
    h('span', { class: 'ttl', hidden: true }),
    stages,
    h(
      'div',
      { class: 'card-foot' },
      h(
        'span',
        { class: 'state' },
        h('span', { class: 'long' }),
        h('span', { class: 'short', 'aria-hidden': 'true' }),
      ),
      ring,
    ),
  );
  return template;
}

/**
 * Whether two cards of a message draw the same: every field equal, and a holder or an origin
 * equal field by field (each look builds them anew).
 * @param {Card} a
 * @param {Card} b
 */
function sameCard(a, b) {
  for (const key of /** @type {(keyof Card)[]} */ (Object.keys(a))) {
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    for (const k of Object.keys(x))
      if (
        /** @type {Record<string, unknown>} */ (x)[k] !==
        /** @type {Record<string, unknown>} */ (y)[k]
      )
        return false;
  }
  return true;
}

/**
 * What a card says about who holds the message: working on it, or let go of it (and why).
 * @param {Card} card
 */
function holderWords(card) {
  const h = card.holder;
  const receipt = card.receipt ?? 'it';
  if (!h)
    return card.receipt
      ? `invisible — ${card.receipt} was handed out`
      : 'invisible — its holder is gone';
  if (h.working) return `invisible — ${h.name} holds ${receipt}`;
  const why = {
    crashed: `${h.name} crashed holding ${receipt}`,
    removed: `${h.name} was removed holding ${receipt}`,
    failed: `${h.name} gave up on it, undeleted`,
  }[h.letGo ?? ''];
  return `invisible — ${why ?? `${receipt} was handed to ${h.name}`}; back when the ring runs out`;
}

/**
 * Sets a card's CSS animation (if any) to the virtual time since it began; at a stop, an
 * arrival to its end.
 * @param {CardEntry} entry
 * @param {number} now
 * @param {boolean} stopped
 */
function drive(entry, now, stopped) {
  if (entry.animFrom === undefined) return;
  for (const a of entry.el.getAnimations()) {
    if (!(a instanceof CSSAnimation)) continue;
    if (a.playState !== 'paused') a.pause();
    const end = Number(a.effect?.getComputedTiming().endTime ?? 0);
    const since = Math.max(0, now - entry.animFrom);
    a.currentTime = stopped && ARRIVALS.has(a.animationName) ? Math.max(since, end) : since;
  }
}

/**
 * The counters strip.
 * @param {HTMLElement} root
 * @param {Record<string, number>} counters
 */
export function renderCounters(root, counters) {
  for (const [key, value] of Object.entries(counters)) {
    const el = root.querySelector(`[data-counter="${key}"] .n`);
    if (el) setText(el, value);
  }
}
