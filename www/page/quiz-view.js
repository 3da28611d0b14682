// The questions in guided mode's banner: each asked question as a group of choice buttons, and
// each settled one as feedback (right, not quite, or not answered) with the evidence. A choice
// is a button, so Tab and Enter reach it; while a question is open the digits 1, 2, … pick too.
// A question about a card or a consumer is answered on screen as well: clicking it (screen-pick.js).

import { h } from './dom.js';
import { ScreenPick } from './screen-pick.js';

/** @import { Asked } from './questions.js' */

export class QuizView {
  /** @type {Asked[]} the questions shown unanswered */
  #open = [];

  /**
   * @param {HTMLElement} el the banner's quiz area
   * @param {{ onAnswer: (asked: Asked) => void }} o called when a choice is made
   */
  constructor(el, { onAnswer }) {
    this.el = el;
    this.onAnswer = onAnswer;
    this.screen = new ScreenPick(el.ownerDocument);
  }

  /** Whether a question waits for an answer. */
  get waiting() {
    return this.#open.some((a) => a.chose === undefined);
  }

  clear() {
    this.screen.disarm();
    this.#open = [];
    this.el.replaceChildren();
    this.el.hidden = true;
  }

  /**
   * Shows the feedback on `settled` questions, then the `asked` ones to answer.
   * @param {Asked[]} settled
   * @param {Asked[]} asked
   */
  show(settled, asked) {
    this.#open = asked;
    this.el.replaceChildren(
      ...settled.map((a) => this.#feedback(a)),
      ...asked.map((a) => this.#question(a)),
    );
    this.el.hidden = settled.length + asked.length === 0;
    /** @type {HTMLElement | null} */ (this.el.querySelector('button'))?.focus();
    this.#pointAt();
  }

  /** The first question still waiting that asks for a card or a consumer takes clicks on them. */
  #pointAt() {
    const a = this.#open.find((x) => x.chose === undefined && x.q.pick);
    if (!a?.q.pick) return this.screen.disarm();
    this.screen.arm(
      a.q.pick,
      a.choices.map((c) => c.id),
      (id) => this.#answer(a, id),
    );
  }

  /**
   * Picks choice `index` (0-based) of the first question still waiting.
   * @param {number} index
   */
  choose(index) {
    const a = this.#open.find((x) => x.chose === undefined);
    const choice = a?.choices[index];
    if (a && choice) this.#answer(a, choice.id);
  }

  /**
   * @param {Asked} a
   * @param {string} id
   */
  #answer(a, id) {
    a.chose = id;
    const group = this.el.querySelector(`[data-question="${a.q.id}"]`);
    for (const b of group?.querySelectorAll('button') ?? []) {
      const button = /** @type {HTMLButtonElement} */ (b);
      button.disabled = true;
      button.setAttribute('aria-pressed', String(button.dataset.choice === id));
    }
    this.#pointAt();
    this.onAnswer(a);
    // Judged at once (its facts were known when asked): say so here; else when it is seen.
    if (a.right !== undefined) group?.after(this.#feedback(a));
    else group?.append(h('p', { class: 'quiz-wait', text: 'Your answer is in: play on and see.' }));
  }

  /** @param {Asked} a */
  #question(a) {
    return h(
      'fieldset',
      {
        class: 'question',
        'data-testid': 'question',
        'data-question': a.q.id,
        'data-pick': a.q.pick,
      },
      h('legend', { text: a.prompt }),
      ...(a.q.pick
        ? [
            h('p', {
              class: 'quiz-point',
              text: `Click the ${a.q.pick} on screen (or Tab to it and press Enter), or choose here:`,
            }),
          ]
        : []),
      ...a.choices.map((c, i) =>
        h(
          'button',
          {
            type: 'button',
            'data-choice': c.id,
            'aria-pressed': 'false',
            onclick: () => this.#answer(a, c.id),
          },
          h('kbd', { text: String(i + 1), 'aria-hidden': 'true' }),
          ` ${c.text}`,
        ),
      ),
    );
  }

  /** @param {Asked} a */
  #feedback(a) {
    const chosen = a.choices.find((c) => c.id === a.chose)?.text;
    const verdict = a.chose === undefined ? 'none' : a.chose === a.right ? 'right' : 'wrong';
    const head = {
      right: `Right: ${chosen}.`,
      wrong: `Not quite: you said ${chosen}; the answer is ${a.choices.find((c) => c.id === a.right)?.text ?? a.right}.`,
      none: `The answer: ${a.choices.find((c) => c.id === a.right)?.text ?? a.right}.`,
    }[verdict];
    return h(
      'p',
      {
        class: `feedback ${verdict}`,
        'data-testid': 'feedback',
        'data-question': a.q.id,
        'data-verdict': verdict,
      },
      h('strong', { text: head }),
      ` ${a.why}`,
    );
  }
}
