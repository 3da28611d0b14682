// The card history panel: click (or Enter on) a message card to read its story — each receive
// with its time, consumer, receipt and DequeueCount, each update, each refused delete, and where
// it went in the end. It stays open and current while time runs.

import { EPOCH, formatElapsed } from './clock.js';
import { h, setText } from './dom.js';
import { describeEvent } from './history.js';

/** @import { Demo } from './demo.js' */

export class HistoryView {
  /** @type {string | null} the message whose history is shown */
  #messageId = null;
  #shown = -1;

  /**
   * @param {object} o
   * @param {HTMLDialogElement} o.dialog the panel
   * @param {HTMLElement} o.title its heading
   * @param {HTMLElement} o.events the list of the message's events
   * @param {HTMLElement} o.close its close button
   */
  constructor({ dialog, title, events, close }) {
    this.dialog = dialog;
    this.title = title;
    this.events = events;
    close.addEventListener('click', () => this.close());
    dialog.addEventListener('close', () => (this.#messageId = null));
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && dialog.open) this.close();
    });
  }

  /**
   * @param {string} messageId
   * @param {Demo} demo
   */
  open(messageId, demo) {
    this.#messageId = messageId;
    this.#shown = -1;
    // Shown first: render draws only an open dialog. Not modal: the controls stay usable, and
    // the story grows as time runs.
    if (!this.dialog.open) this.dialog.show();
    this.render(demo);
  }

  close() {
    this.#messageId = null;
    if (this.dialog.open) this.dialog.close();
  }

  /**
   * Redraws while open, when the message's story grew.
   * @param {Demo} demo
   */
  render(demo) {
    if (!this.#messageId || !this.dialog.open) return;
    const events = demo.history.of(this.#messageId);
    if (events.length === this.#shown) return;
    this.#shown = events.length;
    const label = demo.label(this.#messageId);
    const sent = events.find((e) => e.kind === 'sent');
    setText(this.title, `History of ${label}${sent?.text !== undefined ? ` “${sent.text}”` : ''}`);
    this.dialog.dataset.label = label;
    this.events.replaceChildren(
      ...events.map((e) =>
        h(
          'li',
          {
            'data-kind': e.kind,
            'data-actor': e.actor,
            'data-receipt': e.receipt ?? e.presented,
            'data-dequeue-count': e.dequeueCount,
            'data-original': e.original,
          },
          h('span', { class: 't', text: formatElapsed(e.at - EPOCH) }),
          ' ',
          describeEvent(e),
        ),
      ),
    );
  }
}
