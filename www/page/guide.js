// Guided mode: the clock pauses at each moment of the scenario, the page says in one sentence
// what just happened, and Continue plays on. "Next moment" runs time to the next moment and
// pauses there, guided mode or not.

import { formatElapsed } from './clock.js';
import { setText } from './dom.js';

/** @import { Moment } from './demo.js' */

const SEEK_LIMIT_MS = 600_000; // "next moment" gives up after ten virtual minutes
const SEEK_STEP_MS = 1000; // …moving a second per frame, so the cards are seen to move

export class Guide {
  #seeking = false;
  #arrived = false;

  /**
   * @param {object} o
   * @param {{ box: HTMLElement, text: HTMLElement, when: HTMLElement, cont: HTMLElement,
   *   toggle: HTMLInputElement, next: HTMLButtonElement }} o.el the guide's elements
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
    demo.onMoment = (kind, moment) => this.#moment(moment);
  }

  get enabled() {
    return this.el.toggle.checked;
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
    this.el.box.hidden = false;
    this.el.box.dataset.on = moment.on;
    setText(this.el.when, `${formatElapsed(/** @type {number} it just ticked */ (moment.at))} ·`);
    setText(this.el.text, moment.guide ?? moment.text);
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
    if ([...this.demo.moments.values()].every((m) => m.done)) {
      this.#show(
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
      if (!this.#arrived) this.#show('Nothing more to watch for in the next ten minutes.');
    } finally {
      this.#seeking = false;
      this.el.next.disabled = false;
    }
  }

  /** @param {string} sentence */
  #show(sentence) {
    this.el.box.hidden = false;
    delete this.el.box.dataset.on;
    setText(this.el.when, '');
    setText(this.el.text, sentence);
  }
}
