// Guided mode and the presenter's moves. The clock pauses at each moment of the scenario, the
// banner says in one sentence what just happened (made by the narrator from the live state) and
// shows the HTTP call it is about, and Continue plays on. "Next moment" runs time to the next
// moment and pauses there, guided mode or not; "previous moment" rewinds to the one before. Each
// scenario opens on its introduction: what the lanes are and what a receipt is.

import { EPOCH, formatElapsed } from './clock.js';
import { setText } from './dom.js';
import { logRow } from './log.js';

/** @import { Moment } from './narrator.js' */

const SEEK_LIMIT_MS = 600_000; // "next moment" gives up after ten virtual minutes
const SEEK_STEP_MS = 1000; // …moving a second per frame, so the cards are seen to move

export class Guide {
  #seeking = false;
  #arrived = false;

  /**
   * @param {object} o
   * @param {{ box: HTMLElement, text: HTMLElement, when: HTMLElement, cont: HTMLElement,
   *   log: HTMLElement, toggle: HTMLInputElement, next: HTMLButtonElement,
   *   stage: HTMLElement }} o.el the guide's elements, and the queue it keeps in view
   * @param {import("./demo.js").Demo} o.demo
   * @param {import("./timeline.js").Timeline} o.timeline
   * @param {(on: boolean) => void} o.setPlaying
   * @param {boolean} [o.enabled] guided mode on at the start
   */
  constructor({ el, demo, timeline, setPlaying, enabled = false }) {
    this.el = el;
    this.demo = demo;
    this.timeline = timeline;
    this.setPlaying = setPlaying;
    el.toggle.checked = enabled;
    el.cont.addEventListener('click', () => this.continue());
    el.next.addEventListener('click', () => this.nextMoment());
    demo.narrator.onMoment = (moment) => this.#moment(moment);
    // A phone turned, a window resized, a zoom changed: the stop's picture comes back into view.
    addEventListener('resize', () => {
      if (this.shown) this.#keepInView();
    });
  }

  get enabled() {
    return this.el.toggle.checked;
  }

  get shown() {
    return !this.el.box.hidden;
  }

  /**
   * A moment just ticked: stop the clock there and say what it was.
   * @param {Moment} moment
   */
  #moment(moment) {
    if (this.timeline.replaying || !(this.enabled || this.#seeking)) return;
    this.demo.clock.halt();
    this.setPlaying(false);
    this.#arrived = true;
    this.show(moment);
  }

  /**
   * The banner for `moment` (which has happened): when, what, and the call it is about.
   * @param {Moment} moment
   */
  show(moment) {
    this.el.box.hidden = false;
    this.el.box.dataset.on = moment.on;
    setText(this.el.when, `${formatElapsed(/** @type {number} it happened */ (moment.at))} ·`);
    setText(this.el.text, this.demo.narrator.guide(moment));
    setText(this.el.cont, moment.on === 'intro' ? 'Start ▶' : 'Continue ▶');
    const entry = this.demo.log.find((e) => e.seq === moment.facts.log);
    this.el.log.replaceChildren(...(entry ? [logRow(entry)] : []));
    this.el.log.hidden = !entry;
    this.#keepInView();
  }

  /** The scenario's introduction, before its first step. */
  intro() {
    this.show(/** @type {Moment} always there */ (this.demo.narrator.moments.get('intro')));
  }

  hide() {
    this.el.box.hidden = true;
  }

  continue() {
    this.hide();
    this.setPlaying(true);
  }

  /** Runs time until the next moment ticks (or ten virtual minutes pass), then pauses. */
  async nextMoment() {
    if (this.#seeking) return;
    this.hide();
    this.setPlaying(false);
    if (this.demo.narrator.allDone()) {
      this.#say(
        'Every moment of this scenario has happened: play on, rewind, or try another scenario.',
      );
      return;
    }
    this.#seeking = true;
    this.#arrived = false;
    this.el.next.disabled = true;
    try {
      const limit = this.demo.clock.now() + SEEK_LIMIT_MS;
      while (!this.#arrived && this.demo.clock.now() < limit) {
        await this.timeline.advanceTo(this.demo.clock.now() + SEEK_STEP_MS);
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      if (!this.#arrived) this.#say('Nothing more to watch for in the next ten minutes.');
    } finally {
      this.#seeking = false;
      this.el.next.disabled = false;
    }
  }

  /** Forward: Continue at a stop in guided mode, else the next moment (play on after the last). */
  async forward() {
    if (this.#seeking) return;
    if (this.demo.narrator.allDone()) return this.continue();
    return this.nextMoment();
  }

  /** Back to the moment before this instant (the introduction at the start), paused there. */
  async previousMoment() {
    if (this.#seeking) return;
    const moment = this.demo.narrator.momentBefore(this.demo.clock.elapsed());
    this.setPlaying(false);
    this.hide();
    await this.timeline.seek(EPOCH + /** @type {number} it happened */ (moment.at));
    // The replay rebuilt the moments: show the one it reached, as it is now.
    const again = this.demo.narrator.moments.get(moment.on);
    if (again?.done) this.show(again);
  }

  /** @param {string} sentence */
  #say(sentence) {
    this.el.box.hidden = false;
    delete this.el.box.dataset.on;
    setText(this.el.when, '');
    setText(this.el.text, sentence);
    setText(this.el.cont, 'Continue ▶');
    this.el.log.hidden = true;
  }

  /**
   * At a stop, the queue and the consumers beside it come into view under the docked controls:
   * scrolled just enough to show their bottoms, never past the queue's top.
   */
  #keepInView() {
    requestAnimationFrame(() => {
      const dock = /** @type {HTMLElement} */ (this.el.box.parentElement);
      const top =
        getComputedStyle(dock).position === 'sticky' ? dock.getBoundingClientRect().bottom : 0;
      const queue = this.el.stage.getBoundingClientRect();
      const beside = this.el.stage.nextElementSibling?.getBoundingClientRect();
      const bottom = Math.max(
        queue.bottom,
        beside && beside.top < queue.bottom ? beside.bottom : 0,
      );
      const down = Math.min(queue.top - top - 4, bottom - innerHeight + 4);
      if (queue.top < top) scrollBy({ top: queue.top - top - 4, behavior: 'instant' });
      else if (down > 0) scrollBy({ top: down, behavior: 'instant' });
    });
  }
}
