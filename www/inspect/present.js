// The inspector's presentation mode, for a live demo on a projector: the teaching page's big-card
// mode (P, or the Present button) on the inspector. One class on the body, `presenting`, as on
// the teaching page, and one rule in present.css: every form and the tools for getting around a
// queue (its filter, pager and Clear) go, and everything else (the queues and their counts, the
// counts line, the cards, the selected message, the clock, the fault rules, any panel added
// later) stays and is drawn larger. The address keeps it (`&present`), so a reload or a
// bookmark opens the inspector presenting. "?" lists the keys, as on the teaching page.

import { h, setAttr } from '../page/dom.js';
import { bindPresenterKeys } from '../page/keys.js';

/** The body's class while presenting (the teaching page's too: style.css enlarges its cards). */
const PRESENTING = 'presenting';
/** The address's parameter that opens the inspector presenting. */
const PARAM = 'present';

/**
 * Fills `slot` (in the inspector's header) with the Present button and the key list's button,
 * binds the keys, and turns presentation mode on when the address asks for it.
 * @param {HTMLElement} slot
 */
export function presentationMode(slot) {
  const toggle = h('button', {
    type: 'button',
    class: 'present-toggle',
    'data-testid': 'present',
    'aria-pressed': 'false',
    'aria-keyshortcuts': 'P',
    title: 'Presentation mode: the queues, their counts and the cards, large, for a room (P)',
    text: 'Present',
  });
  const list = h('dl', { class: 'key-list', 'data-testid': 'key-list' });
  const close = h('button', { type: 'button', 'data-testid': 'key-sheet-close', text: 'Close' });
  const sheet = /** @type {HTMLDialogElement} */ (
    h(
      'dialog',
      {
        class: 'key-sheet',
        'data-testid': 'key-sheet',
        'aria-labelledby': 'inspector-keys-title',
      },
      h('header', {}, h('h2', { id: 'inspector-keys-title', text: 'Presenter keys' }), close),
      h('p', {
        text: 'They work wherever the focus is, except in a field you type into (Esc leaves it).',
      }),
      list,
    )
  );
  const keys = h(
    'button',
    {
      type: 'button',
      class: 'keys-toggle',
      'data-testid': 'keys-button',
      'aria-keyshortcuts': '?',
      title: 'The keys (?)',
    },
    h('kbd', { text: '?' }),
    ' Keys',
  );
  slot.replaceChildren(toggle, keys, sheet);

  /** @param {boolean} on */
  const show = (on) => {
    document.body.classList.toggle(PRESENTING, on);
    setAttr(toggle, 'aria-pressed', on ? 'true' : 'false');
    const url = new URL(location.href);
    if (on) url.searchParams.set(PARAM, '');
    else url.searchParams.delete(PARAM);
    if (url.href !== location.href) history.replaceState(history.state, '', url);
  };
  toggle.addEventListener('click', () => show(!document.body.classList.contains(PRESENTING)));
  keys.addEventListener('click', () => sheet.showModal());
  close.addEventListener('click', () => sheet.close());
  bindPresenterKeys({
    sheet,
    list,
    bindings: [
      { keys: ['p'], label: 'presentation mode on / off', run: () => toggle.click() },
      {
        keys: ['?'],
        label: 'this list',
        run: () => (sheet.open ? sheet.close() : sheet.showModal()),
      },
    ],
  });
  document.head.append(h('link', { rel: 'stylesheet', href: '/inspect/present.css' }));
  show(new URL(location.href).searchParams.has(PARAM));
}
