// Guided mode and the presenter's moves. The clock pauses at each moment of the scenario, the
// banner says in one sentence what just happened (made by the narrator from the live state) and
// shows the HTTP call it is about, and Continue plays on. "Next moment" runs time to the next
// moment and pauses there, guided mode or not; "previous moment" rewinds to the one before. Each
// scenario opens on its introduction: what the lanes are and what a receipt is.

import { EPOCH, formatElapsed } from './clock.js';
import { setText } from './dom.js';
import { logRow } from './log.js';
import { Quiz } from './questions.js';
import { QuizView } from './quiz-view.js';

/** @import { Facts, Moment } from './narrator.js' */
/** @import { Asked } from './questions.js' */

const SEEK_LIMIT_MS = 600_000; // "next moment" gives up after ten virtual minutes
const SEEK_STEP_MS = 1000; // …moving a second per frame, so the cards are seen to move
// …or once the world has been still this long: no message left in the queue, none scheduled,
// no producer with more to send. With the settings changed, a moment may never come.
const STILL_MS = 30_000;

export class Guide {
  #seeking = false;
  #arrived = false;

  /**
   * @param {object} o
   * @param {{ box: HTMLElement, text: HTMLElement, when: HTMLElement, cont: HTMLElement,
   *   log: HTMLElement, noCall: HTMLElement, quiz: HTMLElement, toggle: HTMLInputElement,
   *   questions: HTMLInputElement, next: HTMLButtonElement, stage: HTMLElement,
   *   top: HTMLElement }} o.el the guide's elements, the queue it keeps in
   *   view, and the first row under the dock it keeps in view with it when there is room
   * @param {import("./demo.js").Demo} o.demo
   * @param {import("./timeline.js").Timeline} o.timeline
   * @param {(on: boolean) => void} o.setPlaying
   * @param {boolean} [o.enabled] guided mode on at the start
   * @param {boolean} [o.questions] questions on at the start
   * @param {(asked: Asked) => void} [o.onResult] a question answered or settled
   */
  constructor({ el, demo, timeline, setPlaying, enabled = false, questions = true, onResult }) {
    this.el = el;
    this.demo = demo;
    this.timeline = timeline;
    this.setPlaying = setPlaying;
    this.onResult = onResult;
    this.quiz = new Quiz();
    this.quizView = new QuizView(el.quiz, {
      onAnswer: (a) => {
        this.onResult?.(a);
        // The banner's own sentence and call told the answer: shown once it is given.
        if (!this.quizView.waiting) delete this.el.box.dataset.holding;
      },
    });
    el.toggle.checked = enabled;
    el.questions.checked = questions;
    el.cont.addEventListener('click', () => this.continue());
    el.next.addEventListener('click', () => this.nextMoment());
    demo.narrator.onEvent = (kind, facts, moment) => this.#event(kind, facts, moment);
    // A phone turned, a window resized, a zoom changed: the stop's picture comes back into view.
    addEventListener('resize', () => {
      if (this.shown) this.#keepInView();
    });
  }

  get enabled() {
    return this.el.toggle.checked;
  }

  /** Questions are asked at guided mode's stops (a lecturer can turn them off). */
  get asking() {
    return this.enabled && this.el.questions.checked;
  }

  /**
   * A new run of `scenario`: no question asked yet.
   * @param {string} scenario
   * @param {import('./questions.js').Question[]} [questions] an edited scenario's own
   */
  begin(scenario, questions) {
    this.quiz.begin(scenario, questions);
    this.quizView.clear();
  }

  get shown() {
    return !this.el.box.hidden;
  }

  /** The moment the banner is about (`on`), if it shows one. */
  get on() {
    return this.el.box.hidden ? undefined : this.el.box.dataset.on;
  }

  /**
   * Something happened: the predictions it settles, and, when it ticked a moment, a stop there
   * (in guided mode, or while running to the next moment). A settled prediction stops the page
   * too, so its answer is seen beside the cards that show it.
   * @param {string} kind
   * @param {Facts} facts
   * @param {Moment | undefined} moment
   */
  #event(kind, facts, moment) {
    if (this.timeline.replaying) return;
    const at = formatElapsed(this.demo.clock.elapsed());
    const settled = this.asking ? this.quiz.seen(kind, { ...facts, at }) : [];
    for (const a of settled) this.onResult?.(a);
    if (!(this.enabled || this.#seeking) || (!moment && !settled.length)) return;
    this.demo.clock.halt();
    this.setPlaying(false);
    this.#arrived = true;
    if (moment) this.show(moment, settled);
    else {
      this.#say('What you predicted, as it happened:');
      setText(this.el.when, `${at} ·`);
      this.el.box.dataset.on = 'answer';
      this.quizView.show(settled, []);
    }
  }

  /**
   * The banner for `moment` (which has happened): when, what, the call it is about, the
   * answers to predictions it settled, and the questions asked here.
   * @param {Moment} moment
   * @param {Asked[]} [settled]
   */
  show(moment, settled = []) {
    this.el.box.hidden = false;
    this.el.box.dataset.on = moment.on;
    setText(this.el.when, `${formatElapsed(/** @type {number} it happened */ (moment.at))} ·`);
    setText(this.el.text, this.demo.narrator.guide(moment));
    setText(this.el.cont, moment.on === 'intro' ? 'Start ▶' : 'Continue ▶');
    // The call that made it happen, or, when none did, that none did: an unrelated call beside
    // a timeout that ran out inside the queue would teach the wrong cause.
    const entry =
      typeof moment.call === 'number'
        ? this.demo.log.find((e) => e.seq === moment.call)
        : undefined;
    this.el.log.replaceChildren(...(entry ? [logRow(entry)] : []));
    this.el.log.hidden = !entry;
    const none = this.demo.narrator.noCall(moment);
    setText(this.el.noCall, none ?? '');
    this.el.noCall.hidden = !none;
    const asked = this.asking ? this.quiz.ask(this.demo, moment.on, moment.facts) : [];
    this.quizView.show(settled, asked);
    // A question judged at once is about what the banner says: that waits for the answer.
    if (asked.some((a) => a.right !== undefined && a.chose === undefined))
      this.el.box.dataset.holding = 'true';
    else delete this.el.box.dataset.holding;
    this.#keepInView();
  }

  /** The scenario's introduction, before its first step. */
  intro() {
    this.show(/** @type {Moment} always there */ (this.demo.narrator.moments.get('intro')));
  }

  hide() {
    this.el.box.hidden = true;
    delete this.el.box.dataset.holding;
    this.quizView.clear();
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
      let stillSince = Infinity;
      while (!this.#arrived && this.demo.clock.now() < limit) {
        await this.timeline.advanceTo(this.demo.clock.now() + SEEK_STEP_MS);
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const still = this.demo.still() && !this.timeline.pending.length;
        stillSince = still ? Math.min(stillSince, this.demo.clock.now()) : Infinity;
        if (this.demo.clock.now() - stillSince >= STILL_MS) break;
      }
      if (!this.#arrived) this.#say(this.#nothingMore(stillSince < Infinity));
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

  /**
   * Why "next moment" stopped without one: the world went still (the moments still to come are
   * marked as not happening with these settings), or ten minutes passed.
   * @param {boolean} still
   */
  #nothingMore(still) {
    if (!still) return 'Nothing more to watch for in the next ten minutes.';
    const missed = [...this.demo.narrator.moments.values()].filter((m) => !m.done);
    for (const m of missed) m.missed = true;
    const list = missed.map((m) => `“${m.text}”`).join(', ');
    return `The queue is empty and nothing more is on its way: with these settings ${list} did not happen. Restart, rewind or change a setting to see ${missed.length === 1 ? 'it' : 'them'}.`;
  }

  /** @param {string} sentence */
  #say(sentence) {
    this.el.box.hidden = false;
    delete this.el.box.dataset.on;
    setText(this.el.when, '');
    setText(this.el.text, sentence);
    setText(this.el.cont, 'Continue ▶');
    this.el.log.hidden = true;
    this.el.noCall.hidden = true;
  }

  /**
   * At a stop, the queue and the consumers beside it come into view under the docked controls,
   * with the row under the dock (restart, rewind) and the caption above them when they fit with
   * what the consumers hold (their fields and buttons may fall below); else scrolled just enough
   * to show the columns' bottoms, never past the queue's top. Measured two frames on, once the
   * stop's own changes (a refusal on a consumer's card) are drawn.
   */
  #keepInView() {
    const measure = () => {
      const dock = /** @type {HTMLElement} */ (this.el.box.parentElement);
      // Where the dock's bottom will be once scrolled (it sticks at the top, whatever it is now).
      const top =
        getComputedStyle(dock).position === 'sticky' ? dock.getBoundingClientRect().height : 0;
      const queue = this.el.stage.getBoundingClientRect();
      const beside = this.el.stage.nextElementSibling;
      const held = Math.max(
        queue.top,
        ...[this.el.stage, beside]
          .flatMap((col) => [
            ...(col?.querySelectorAll(
              '.card, .actor header, .actor .holds, .actor .bars, .actor .outcome',
            ) ?? []),
          ])
          .map((e) => e.getBoundingClientRect())
          .filter((r) => r.height > 0)
          .map((r) => r.bottom),
      );
      const first = this.el.top.getBoundingClientRect().top;
      if (held - first <= innerHeight - top - 8) {
        scrollBy({ top: first - top, behavior: 'instant' });
        return;
      }
      const besideBox = beside?.getBoundingClientRect();
      const bottom = Math.max(
        queue.bottom,
        besideBox && besideBox.top < queue.bottom ? besideBox.bottom : 0,
      );
      // Else the stage from its top, right under the dock, when its columns fit whole: the
      // restart row and the caption go wholly under the dock, never half.
      const stageTop = (this.el.stage.closest('.stage') ?? this.el.stage).getBoundingClientRect()
        .top;
      if (bottom - stageTop <= innerHeight - top - 4) {
        scrollBy({ top: stageTop - top, behavior: 'instant' });
        return;
      }
      const down = Math.min(queue.top - top - 4, bottom - innerHeight + 4);
      if (queue.top < top) scrollBy({ top: queue.top - top - 4, behavior: 'instant' });
      else if (down > 0) scrollBy({ top: down, behavior: 'instant' });
    };
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        measure();
        // Said on the body, so a test (or a screen recorder) knows the stop's picture is placed.
        document.body.dataset.kept = String(Number(document.body.dataset.kept ?? 0) + 1);
      }),
    );
  }
}
