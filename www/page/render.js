// Draws the queue lanes (one card per message) and the actors from the Demo's derived view.
// Runs every animation frame and only reads state: the one exception is the per-card memory of
// when an exit animation started, which is view state and lives here.

import { formatDuration } from './clock.js';
import { STAGES, parseJob } from './actors.js';
import { h, svg, setAttr, setClass, setText, reducedMotion } from './dom.js';

/** @import { AnyActor, Consumer, LeaseWorker, LeaseHolding } from './actors.js' */
/** @import { Card, Departure } from './demo.js' */

/**
 * A message card's element and its parts, and when its exit animation (or its expiry) began.
 * @typedef {{ el: HTMLElement, parts: CardParts, exitAt: number, expiredAt: number }} CardEntry
 * @typedef {Record<'label' | 'dq' | 'dqn' | 'receipt' | 'text' | 'ttl' | 'state' | 'long'
 *   | 'short', HTMLElement> & { stages: HTMLOListElement, ring: SVGElement, arc: SVGElement,
 *   secs: SVGElement }} CardParts
 * @typedef {ReturnType<typeof bar>} Bar
 * @typedef {{ state: HTMLElement, status: HTMLElement, holds: HTMLElement, work: HTMLElement,
 *   outcome: HTMLElement, buttons: HTMLElement, settings: HTMLElement, workBar?: Bar,
 *   leaseBar?: Bar, toggle?: HTMLButtonElement, crash?: HTMLButtonElement,
 *   remove?: HTMLButtonElement }} ActorParts an actor card's parts (the bars and buttons are
 *   a consumer's and a lease worker's)
 * @typedef {(actor: AnyActor, action: string, arg?: { key: string, value: number }) => void}
 *   OnAction
 */

const RING = 2 * Math.PI * 15;
const VISIBILITY_TITLE =
  'The visibility timeout asked for on each receive: 1 s to 7 days (604,800 s). Get Messages defaults to 30 s.';
const EXIT_MS = 1600;

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

  clear() {
    this.#cards.clear();
    this.list.replaceChildren();
  }

  /**
   * @param {Card[]} cards
   * @param {number} now
   * @param {Departure[]} departures
   */
  render(cards, now, departures) {
    setClass(this.list, 'crowded', cards.length > 8);
    const present = new Set();
    for (const card of cards) {
      present.add(card.messageId);
      let entry = this.#cards.get(card.messageId);
      if (!entry) {
        entry = this.#create(card);
        this.#cards.set(card.messageId, entry);
      }
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
    const realNow = performance.now();
    for (const [id, entry] of this.#cards) {
      if (present.has(id) && !entry.exitAt) continue;
      if (!entry.exitAt) entry.exitAt = realNow; // vanished without a recorded reason
      if (realNow - entry.exitAt > EXIT_MS) {
        entry.el.remove();
        this.#cards.delete(id);
      }
    }
  }

  /**
   * @param {Card} card
   * @returns {CardEntry}
   */
  #create(card) {
    /** @type {CardParts} */
    const parts = {
      label: h('span', { class: 'label' }),
      dq: h('span', {
        class: 'dq',
        title: 'DequeueCount: how many times Get Messages has handed this message out',
      }),
      dqn: h('span', { class: 'dqn' }),
      receipt: h('span', {
        class: 'rcpt',
        title: "The message's current pop receipt: only this one can delete or update it",
      }),
      text: h('span', { class: 'text' }),
      stages: h('ol', { class: 'stages', hidden: true, 'aria-label': 'job stages' }),
      ttl: h('span', { class: 'ttl', hidden: true }),
      state: h('span', { class: 'state' }),
      long: h('span', { class: 'long' }),
      short: h('span', { class: 'short', 'aria-hidden': 'true' }),
      ring: svg('svg', { class: 'ring', viewBox: '0 0 36 36', 'aria-hidden': 'true' }),
      arc: svg('circle', { class: 'arc', cx: 18, cy: 18, r: 15, 'stroke-dasharray': RING }),
      secs: svg('text', { class: 'secs', x: 18, y: 22, 'text-anchor': 'middle' }),
    };
    parts.ring.append(
      svg('circle', { class: 'track', cx: 18, cy: 18, r: 15 }),
      parts.arc,
      parts.secs,
    );
    parts.dq.append(
      h('span', { class: 'dq-word', text: 'DequeueCount ' }),
      h('span', { class: 'dq-icon', 'aria-hidden': 'true', text: '↻' }),
      parts.dqn,
    );
    parts.state.append(parts.long, parts.short);
    for (const s of STAGES) parts.stages.append(h('li', { 'data-stage': s, text: s }));
    const el = h(
      'li',
      {
        class: 'card',
        'data-testid': 'message',
        'data-id': card.messageId,
        tabindex: 0,
        title: "Click for this message's history",
      },
      h('div', { class: 'card-head' }, parts.label, parts.receipt, parts.dq),
      parts.text,
      parts.ttl,
      parts.stages,
      h('div', { class: 'card-foot' }, parts.state, parts.ring),
    );
    return { el, parts, exitAt: 0, expiredAt: 0 };
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
        words = card.holder
          ? `invisible — ${card.holder.name}${card.holder.alive ? '' : ' (crashed)'} holds ${card.receipt ?? 'it'}`
          : card.receipt
            ? `invisible — ${card.receipt} was handed out`
            : 'invisible — its holder is gone';
        if (card.updates > 0) words += ` · updated ${card.updates}×`;
        short = card.holder ? card.holder.name : 'invisible';
        break;
      case 'expired':
        words = 'expired — its time-to-live is over';
        short = 'expired';
        if (!entry.expiredAt) entry.expiredAt = performance.now();
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
    setClass(
      el,
      'dissolved',
      card.state === 'expired' && performance.now() - entry.expiredAt > EXIT_MS,
    );

    // Only a short time-to-live is worth a line (the default is 7 days).
    const ttlLeft = /** @type {number} NaN without one: no line */ (card.expiresOn) - now;
    const showTtl = card.state !== 'expired' && !entry.exitAt && ttlLeft > 0 && ttlLeft < 3_600_000;
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
  }

  /**
   * @param {CardEntry} entry
   * @param {Departure} d
   */
  #leave(entry, d) {
    entry.exitAt = performance.now();
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
    // What it looked like as it left: a poison move raised DequeueCount after the last look.
    setText(entry.parts.dqn, d.card.dequeueCount);
    setAttr(el, 'data-dequeue-count', d.card.dequeueCount);
    setAttr(el, 'data-state', `gone-${d.kind}`);
    entry.parts.ring.classList.add('off');
  }
}

/** The actor cards of one column, keyed by actor id. */
export class ActorsView {
  /** @type {Map<string | undefined, { el: HTMLElement, p: ActorParts }>} actor id → its card */
  #cards = new Map();

  /**
   * @param {HTMLElement} container
   * @param {{ onAction: OnAction }} options
   */
  constructor(container, { onAction }) {
    this.container = container;
    this.onAction = onAction;
  }

  clear() {
    this.#cards.clear();
    this.container.replaceChildren();
  }

  /**
   * @param {AnyActor[]} actors
   * @param {number} now
   */
  render(actors, now) {
    const present = new Set(actors.map((a) => a.id));
    for (const [id, entry] of this.#cards) {
      if (!present.has(id)) {
        entry.el.remove();
        this.#cards.delete(id);
      }
    }
    for (const actor of actors) {
      let entry = this.#cards.get(actor.id);
      if (!entry) {
        entry = this.#create(actor);
        this.#cards.set(actor.id, entry);
        this.container.append(entry.el);
      }
      this.#update(entry, actor, now);
    }
    /** @type {Element | null} */
    let prev = null;
    for (const actor of actors) {
      const el = /** @type {{ el: HTMLElement }} made above */ (this.#cards.get(actor.id)).el;
      /** @type {Element | null} */
      const expected = prev ? prev.nextElementSibling : this.container.firstElementChild;
      if (expected !== el) this.container.insertBefore(el, expected);
      prev = el;
    }
  }

  /** @param {AnyActor} actor */
  #create(actor) {
    /** @type {ActorParts} */
    const p = {
      state: h('span', { class: 'pill' }),
      status: h('p', { class: 'status' }),
      holds: h('p', { class: 'holds' }),
      work: h('div', { class: 'bars', hidden: true }),
      outcome: h('p', { class: 'outcome', role: 'status' }),
      buttons: h('div', { class: 'buttons' }),
      settings: h('div', { class: 'settings' }),
    };
    const kindName = {
      consumer: 'consumer',
      'lease-worker': 'lease-renewing worker',
      producer: 'producer',
      autoscaler: 'autoscaler',
    }[actor.kind];
    const el = h(
      'article',
      {
        class: `actor ${actor.kind}`,
        'data-testid': actor.kind,
        'data-name': actor.name,
        'aria-label': `${kindName} ${actor.name}`,
      },
      h(
        'header',
        {},
        h('strong', { text: actor.name }),
        h('span', { class: 'kind', text: kindName }),
        p.state,
      ),
      p.status,
      p.holds,
      p.work,
      p.outcome,
      p.settings,
      p.buttons,
    );
    if (actor.kind === 'consumer' || actor.kind === 'lease-worker') {
      p.workBar = bar('work');
      p.leaseBar = bar('lease');
      p.work.append(p.workBar.el, p.leaseBar.el);
      const lease = actor.kind === 'lease-worker';
      p.settings.append(
        this.#number(actor, lease ? 'stageS' : 'processingS', lease ? 'stage' : 'work', 1, 600),
        this.#number(
          actor,
          lease ? 'leaseS' : 'visibilityS',
          lease ? 'lease' : 'visibility timeout',
          1,
          604800,
          VISIBILITY_TITLE,
        ),
      );
      p.toggle = h('button', {
        type: 'button',
        onclick: () => this.onAction(actor, actor.alive ? 'stop' : 'restart'),
      });
      p.crash = h(
        'button',
        { type: 'button', class: 'danger', onclick: () => this.onAction(actor, 'crash') },
        'Crash',
      );
      p.remove = h(
        'button',
        { type: 'button', class: 'quiet', onclick: () => this.onAction(actor, 'remove') },
        'Remove',
      );
      p.buttons.append(p.toggle, p.crash, p.remove);
    } else if (actor.kind === 'autoscaler') {
      p.settings.append(this.#number(actor, 'perWorker', 'messages per worker', 1, 50));
    } else {
      p.buttons.remove();
    }
    return { el, p };
  }

  /**
   * An input for one of the actor's numeric settings, `key`, in whole units from `min` to `max`.
   * @param {AnyActor} actor
   * @param {string} key
   * @param {string} label
   * @param {number} min
   * @param {number} max
   * @param {string} [title]
   */
  #number(actor, key, label, min, max, title) {
    const settings = /** @type {Record<string, number>} */ (/** @type {unknown} */ (actor));
    const input = h('input', {
      type: 'number',
      min,
      max,
      step: 1,
      value: settings[key],
      inputmode: 'numeric',
    });
    input.addEventListener('change', () => {
      const v = Math.round(Number(input.value));
      if (Number.isFinite(v) && v >= min && v <= max)
        this.onAction(actor, 'set', { key, value: v });
      else input.value = String(settings[key]);
    });
    return h(
      'label',
      { class: 'num', title },
      h('span', { text: label }),
      input,
      h('span', { class: 'unit', text: key === 'perWorker' ? '' : 's' }),
    );
  }

  /**
   * @param {{ el: HTMLElement, p: ActorParts }} entry
   * @param {AnyActor} actor
   * @param {number} now
   */
  #update({ el, p }, actor, now) {
    setAttr(el, 'data-state', actor.state);
    setClass(el, 'down', actor.state === 'crashed' || actor.state === 'stopped');
    setText(p.state, actor.state);
    setAttr(p.state, 'data-state', actor.state);
    setText(p.status, actor.status);
    setText(p.outcome, actor.outcome?.text ?? '');
    setClass(p.outcome, 'bad', actor.outcome && !actor.outcome.ok);
    setAttr(p.outcome, 'data-code', actor.outcome?.code);
    if (p.toggle) {
      setText(p.toggle, actor.alive ? (actor.stopping ? 'Stopping…' : 'Stop') : 'Restart');
      /** @type {HTMLButtonElement} made with the toggle */ (p.crash).disabled = !actor.alive;
    }
    // Only a consumer's and a lease worker's cards have bars (and their actors a `holding`).
    const hold = /** @type {Consumer | LeaseWorker} */ (actor).holding;
    if (!p.workBar) return;
    const leaseBar = /** @type {Bar} made with the work bar */ (p.leaseBar);
    p.work.hidden = !hold;
    setText(p.holds, hold?.receipt ? `holds ${hold.receipt} of ${hold.label}` : '');
    setAttr(el, 'data-receipt', hold?.receipt);
    if (!hold) return;
    if (actor.kind === 'lease-worker') {
      const job = /** @type {LeaseHolding} */ (hold);
      const end = job.stageStartedAt + actor.stageS * 1000;
      p.workBar.set(
        (now - job.stageStartedAt) / (actor.stageS * 1000),
        `${job.job.stage}: ${formatDuration(end - now)} left on ${hold.label}`,
      );
    } else {
      const work = /** @type {NonNullable<Consumer['holding']>} */ (hold);
      p.workBar.set(
        (now - work.since) / (work.doneAt - work.since),
        `work: ${formatDuration(work.doneAt - now)} left on ${hold.label}`,
      );
    }
    const left = hold.until - now;
    const current = actor.demo.receipts.current(hold.messageId);
    const stale = current && current.popReceipt !== hold.popReceipt;
    let text = `lease: ${formatDuration(left)} left`;
    if (stale) {
      const other = actor.demo.receiptHolder(hold.messageId);
      text = `receipt ${hold.receipt} is stale: ${other && other.name !== actor.name ? `${other.name} now holds` : 'the current one is'} ${current.tag}`;
    } else if (left <= 0) {
      text = `lease ran out: ${hold.label} is visible to others (${hold.receipt} works until one receives it)`;
    }
    leaseBar.set(
      stale ? 0 : left / Math.max(1, hold.until - hold.leasedAt),
      text,
      Boolean(stale) || left <= 0,
    );
    setAttr(leaseBar.el, 'data-stale', stale ? 'true' : 'false');
  }
}

/** @param {string} name */
function bar(name) {
  const fill = h('span', { class: 'fill' });
  const label = h('span', { class: 'bar-label' });
  const el = h('div', { class: `bar ${name}` }, h('span', { class: 'track' }, fill), label);
  return {
    el,
    /**
     * @param {number} fraction
     * @param {string} text
     */
    set(fraction, text, bad = false) {
      const f = Math.max(0, Math.min(1, fraction));
      const w = `${(f * 100).toFixed(1)}%`;
      if (fill.style.width !== w) fill.style.width = w;
      setText(label, text);
      setClass(el, 'bad', bad);
    },
  };
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
