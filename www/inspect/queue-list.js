// The account's queues as the inspector lists them: a button per queue with its message count.
// Read again as producers change other queues, so it is drawn in place: only the counts change
// unless the queues themselves did. The open queue's count comes with the read of its page.

import { h, setAttr, setText } from '../page/dom.js';

/** @import { AccountView } from './api.js' */

/**
 * Draws `queues` into `list`, each a button that calls `open(name)`; `current` is marked.
 * @param {HTMLElement} list
 * @param {AccountView['queues']} queues
 * @param {string | null} current
 * @param {(name: string) => void} open
 */
export function drawQueueList(list, queues, current, open) {
  const buttons = /** @type {HTMLButtonElement[]} */ ([
    ...list.querySelectorAll('[data-testid=queue]'),
  ]);
  const same =
    buttons.length === queues.length && buttons.every((b, i) => b.dataset.name === queues[i].name);
  if (!same) {
    list.replaceChildren(
      ...queues.map((q) =>
        h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              'data-testid': 'queue',
              'data-name': q.name,
              onclick: () => open(q.name),
            },
            h('span', { class: 'queue-name', text: q.name }),
            h('span', { class: 'queue-count' }),
          ),
        ),
      ),
    );
  }
  const drawn = /** @type {NodeListOf<HTMLButtonElement>} */ (
    list.querySelectorAll('[data-testid=queue]')
  );
  queues.forEach((q, i) => {
    const button = drawn[i];
    setAttr(button, 'data-count', q.messageCount);
    setAttr(button, 'aria-current', q.name === current ? 'true' : undefined);
    setText(/** @type {Element} */ (button.lastElementChild), q.messageCount);
  });
}

/**
 * Sets the count of queue `name` in `list`, as read with its page; false when the list has no
 * such queue (it is to be read again).
 * @param {HTMLElement} list
 * @param {string} name
 * @param {number} count
 */
export function countQueue(list, name, count) {
  const button = [...list.querySelectorAll('[data-testid=queue]')].find(
    (b) => /** @type {HTMLElement} */ (b).dataset.name === name,
  );
  if (!button) return false;
  setAttr(button, 'data-count', count);
  setText(/** @type {Element} */ (button.lastElementChild), count);
  return true;
}
