// Draws the actor cards (producers, consumers, lease workers, the autoscaler): their state, what
// they hold and until when, their last outcome, their settings and their buttons.

import { formatDuration } from './clock.js';
import { h, setAttr, setClass, setText } from './dom.js';

/** @import { AnyActor, Consumer, LeaseWorker, LeaseHolding, Outcome } from './actors.js' */

/**
 * @typedef {ReturnType<typeof bar>} Bar
 * @typedef {{ state: HTMLElement, status: HTMLElement, holds: HTMLElement, work: HTMLElement,
 *   outcome: HTMLElement, buttons: HTMLElement, settings: HTMLElement, workBar?: Bar,
 *   leaseBar?: Bar, toggle?: HTMLButtonElement, crash?: HTMLButtonElement,
 *   remove?: HTMLButtonElement }} ActorParts an actor card's parts (the bars and buttons are
 *   a consumer's and a lease worker's)
 * @typedef {(actor: AnyActor, action: string, arg?: { key: string, value: number }) => void}
 *   OnAction
 */

const VISIBILITY_TITLE =
  'The visibility timeout asked for on each receive: 1 s to 7 days (604,800 s). Get Messages defaults to 30 s.';

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
    const unit = key === 'perWorker' ? '' : ' (seconds)';
    const input = h('input', {
      type: 'number',
      min,
      max,
      step: 1,
      value: settings[key],
      inputmode: 'numeric',
      // Said with whose setting it is: a list of "work s" fields names no one.
      'aria-label': `${actor.name}'s ${label}${unit}`,
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
    setText(p.outcome, outcomeWords(actor.outcome, now));
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

/**
 * An actor's last outcome; a delayed send counts down to the moment it comes due.
 * @param {Outcome | null} outcome
 * @param {number} now
 */
function outcomeWords(outcome, now) {
  if (!outcome) return '';
  if (outcome.visibleAt === undefined) return outcome.text;
  const left = outcome.visibleAt - now;
  return left > 0
    ? `${outcome.text}, visible in ${formatDuration(left)}`
    : `${outcome.text}, visible now`;
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
