// The words around the picture: the scenario's caption, the moments to watch for (ticked as they
// happen), and the running "what just happened" narration.

import { formatElapsed } from './clock.js';
import { h, setAttr, setClass, setText } from './dom.js';

/** @import { Demo } from './demo.js' */
/** @import { Scenario } from './scenarios.js' */

export class StoryView {
  #narrated = -1;
  /** @type {Scenario | null} the scenario whose moments are drawn */
  #scenario = null;

  /**
   * @param {object} o
   * @param {HTMLElement} o.caption the scenario's caption
   * @param {HTMLElement} o.moments the list of moments to watch for
   * @param {HTMLElement} o.narration the list of what just happened
   */
  constructor({ caption, moments, narration }) {
    this.caption = caption;
    this.moments = moments;
    this.narration = narration;
  }

  clear() {
    this.#narrated = -1;
    this.#scenario = null;
    this.narration.replaceChildren();
  }

  /** @param {Demo} demo */
  render(demo) {
    // The caption is made from the live world each frame (settings and actors change it).
    setText(this.caption, demo.narrator.caption());
    if (demo.scenario !== this.#scenario) {
      this.#scenario = demo.scenario;
      const scenario = /** @type {Scenario} a scenario is loaded before anything draws */ (
        demo.scenario
      );
      this.moments.replaceChildren(
        ...scenario.moments.map((m) =>
          h(
            'li',
            { 'data-testid': 'moment', 'data-on': m.on },
            h('span', { class: 'tick', 'aria-hidden': 'true' }),
            h('span', { class: 'what', text: m.text }),
            h('span', { class: 'when' }),
          ),
        ),
      );
    }
    for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (this.moments.children)) {
      const m = demo.moments.get(/** @type {string} */ (li.dataset.on));
      setAttr(li, 'data-done', m?.done ? 'true' : 'false');
      setAttr(li, 'data-missed', m?.missed && !m.done ? 'true' : undefined);
      setClass(li, 'done', m?.done);
      setText(
        /** @type {Element} */ (li.querySelector('.when')),
        m?.done
          ? `at ${formatElapsed(/** @type {number} ticked */ (m.at))}`
          : m?.missed
            ? 'not with these settings'
            : '',
      );
    }
    if (demo.narrator.seq !== this.#narrated) {
      this.#narrated = demo.narrator.seq;
      this.narration.replaceChildren(
        ...demo.narration
          .slice(-6)
          .reverse()
          .map((l) =>
            h(
              'li',
              { class: `k-${l.kind}`, 'data-kind': l.kind },
              h('span', { class: 't', text: formatElapsed(l.at) }),
              ' ',
              l.text,
            ),
          ),
      );
    }
  }
}
