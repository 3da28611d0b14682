// Answering by pointing: while a question asks "which card" or "which consumer", the cards or
// consumers on screen are its choices. A click on one, or Enter or Space on it once Tab has
// reached it, answers instead of doing what it does otherwise (a card opens its history); a
// consumer's own buttons and fields keep working. Only the choices the question offers answer.

/** What a question can ask to point at, and where those are drawn. */
const TARGETS = {
  card: {
    selector: '[data-testid=message]',
    id: (/** @type {HTMLElement} */ el) => el.dataset.label,
  },
  consumer: {
    selector: '[data-testid=consumer], [data-testid=lease-worker]',
    id: (/** @type {HTMLElement} */ el) => el.dataset.name,
  },
};

/** @typedef {keyof typeof TARGETS} PickKind */

export class ScreenPick {
  /** @type {{ kind: PickKind, ids: Set<string>, answer: (id: string) => void } | null} */
  #armed = null;
  /** @type {HTMLElement[]} consumers made focusable for this question */
  #focusable = [];

  /** @param {Document} doc */
  constructor(doc) {
    this.doc = doc;
    // Capture: the answer is taken before the card's own click (its history) sees it.
    doc.addEventListener('click', (e) => this.#take(e), true);
    doc.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Enter' || e.key === ' ') this.#take(e);
      },
      true,
    );
  }

  /**
   * Makes the `kind` on screen whose ids are `ids` answer by `answer(id)`.
   * @param {PickKind} kind
   * @param {string[]} ids
   * @param {(id: string) => void} answer
   */
  arm(kind, ids, answer) {
    this.disarm();
    this.#armed = { kind, ids: new Set(ids), answer };
    this.doc.body.dataset.picking = kind;
    this.mark();
  }

  /** Marks the choices drawn on screen, and lets Tab reach them (cheap when none is new). */
  mark() {
    for (const el of this.#targets()) {
      if (el.dataset.pickable) continue;
      el.dataset.pickable = 'true';
      if (!el.hasAttribute('tabindex')) {
        el.tabIndex = 0;
        this.#focusable.push(el);
      }
    }
  }

  disarm() {
    this.#armed = null;
    delete this.doc.body.dataset.picking;
    for (const el of this.doc.querySelectorAll('[data-pickable]'))
      delete (/** @type {HTMLElement} */ (el).dataset.pickable);
    for (const el of this.#focusable) el.removeAttribute('tabindex');
    this.#focusable = [];
  }

  /** The choices drawn on screen now. */
  #targets() {
    const armed = this.#armed;
    if (!armed) return [];
    const { selector, id } = TARGETS[armed.kind];
    return [...this.doc.querySelectorAll(selector)]
      .map((el) => /** @type {HTMLElement} */ (el))
      .filter((el) => armed.ids.has(id(el) ?? '') && !el.classList.contains('leaving'));
  }

  /** @param {Event} e */
  #take(e) {
    const armed = this.#armed;
    if (!armed || !(e.target instanceof Element)) return;
    // A consumer's own controls are not the consumer: they keep doing what they do.
    if (e.target.closest('button, input, select, textarea, a, summary')) return;
    const { selector, id } = TARGETS[armed.kind];
    const el = /** @type {HTMLElement | null} */ (e.target.closest(selector));
    const which = el && id(el);
    if (!which || !armed.ids.has(which)) return;
    // A key answers only on the target itself, not on something inside it.
    if (e instanceof KeyboardEvent && e.target !== el) return;
    e.preventDefault();
    e.stopPropagation();
    armed.answer(which);
  }
}
