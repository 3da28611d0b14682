// The inspector's elements: the header (target, live state, server field), the clock, the
// account's queues, and one queue's tools (counts, Clear with its confirmation, find, state
// filter, pager with first/last and a jump), its cards, and the selected message's detail beside
// them. Built once; inspect.js fills them in.

import { h } from '../page/dom.js';

/** The state filter's choices: a value for the server (`state=`) and a label. */
const STATES = /** @type {const} */ ([
  ['', 'every state'],
  ['visible', 'visible'],
  ['invisible', 'invisible (received)'],
  ['scheduled', 'scheduled (sent with a delay)'],
  ['expired', 'expired'],
]);

/** @param {string} testid @param {string} text */
const button = (testid, text) => h('button', { type: 'button', 'data-testid': testid, text });

/**
 * @param {string} testid
 * @param {string} label
 */
const field = (testid, label) => h('code', { 'data-testid': testid, 'aria-label': label });

/**
 * The inspector's elements.
 * @param {string} account
 * @param {string | null} remote the other server inspected, or null for this page's own
 */
export function layout(account, remote) {
  const ui = {
    serverForm: h('form', { class: 'server-form', 'data-testid': 'server-form' }),
    serverInput: h('input', {
      type: 'url',
      name: 'server',
      'data-testid': 'server',
      placeholder: 'http://127.0.0.1:10001',
      'aria-label': 'Server to inspect',
      value: remote ?? location.origin,
    }),
    live: h('span', {
      class: 'live',
      'data-testid': 'live',
      'data-live': 'false',
      text: '○ connecting…',
    }),
    status: h('p', { class: 'inspect-status', 'data-testid': 'status', role: 'status' }),
    targetNote: h('section', { class: 'target-note', 'data-testid': 'target-note', hidden: true }),
    /** Filled by present.js: the presentation mode's button and the key list's. */
    present: h('span', { class: 'present-tools' }),
    clock: h('section', { class: 'controls', 'aria-label': 'Server clock' }),
    offset: h('output', { 'data-testid': 'clock-offset', text: '+0 s' }),
    pause: button('clock-pause', 'Pause'),
    advances: h('span', { class: 'advances' }),
    body: h('div', { class: 'inspect-body' }),
    queues: h('ul', { class: 'queue-list', 'data-testid': 'queues' }),
    noQueues: h('p', { class: 'inspect-note', 'data-testid': 'no-queues', text: 'No queues yet.' }),
    queueSection: h('section', { class: 'inspect-queue', hidden: true }),
    queueName: h('code', { 'data-testid': 'queue-name' }),
    counts: h('p', { class: 'counts', 'data-testid': 'counts' }),
    clearBtn: button('clear-queue', 'Clear queue…'),
    clearConfirm: h('p', {
      class: 'clear-confirm',
      'data-testid': 'clear-confirm',
      role: 'alertdialog',
      hidden: true,
    }),
    clearQuestion: h('span', { 'data-testid': 'clear-question' }),
    clearYes: button('clear-yes', 'Clear them all'),
    clearNo: button('clear-no', 'Keep them'),
    findForm: h('form', { class: 'find', 'data-testid': 'find-form', role: 'search' }),
    findInput: h('input', {
      type: 'search',
      name: 'find',
      'data-testid': 'find',
      placeholder: 'message id or text',
      'aria-label': 'Find a message by id, or messages by a piece of their text',
    }),
    findReset: button('find-reset', 'Show all'),
    stateFilter: h(
      'select',
      { 'data-testid': 'state-filter', 'aria-label': 'Show messages in this state' },
      ...STATES.map(([value, text]) => h('option', { value, text })),
    ),
    first: button('first-page', '« First'),
    prev: button('prev-page', '‹ Previous'),
    next: button('next-page', 'Next ›'),
    last: button('last-page', 'Last »'),
    range: h('span', { 'data-testid': 'page-range' }),
    jumpForm: h('form', { class: 'jump', 'data-testid': 'jump-form' }),
    jumpInput: h('input', {
      type: 'number',
      min: '1',
      name: 'position',
      'data-testid': 'jump',
      'aria-label': 'Go to the message at this position in delivery order',
      placeholder: 'position',
    }),
    grid: h('div', { class: 'queue-grid' }),
    lane: h('ul', { class: 'lane', 'data-testid': 'queue-lane', 'aria-label': 'Messages' }),
    empty: h('p', { class: 'inspect-note', 'data-testid': 'empty', text: 'The queue is empty.' }),
    noMatch: h('p', {
      class: 'inspect-note',
      'data-testid': 'no-match',
      text: 'No message matches.',
    }),
    detail: h('aside', {
      class: 'message-detail',
      'data-testid': 'message-detail',
      'aria-label': 'The selected message',
      hidden: true,
    }),
    detailId: field('message-id', 'message id'),
    detailMeta: h('span', { 'data-testid': 'message-meta' }),
    detailText: h('pre', { 'data-testid': 'message-text' }),
    detailInserted: field('message-inserted', 'inserted'),
    detailNextVisible: field('message-next-visible', 'next visible'),
    detailExpires: field('message-expires', 'expires'),
    detailReceipt: field('message-receipt', 'pop receipt'),
    detailOrigin: h('p', { class: 'origin', 'data-testid': 'message-origin', hidden: true }),
    deleteBtn: button('delete-message', 'Delete'),
    visibleBtn: button('make-visible', 'Make visible now'),
    poisonBtn: button('poison-message', 'Move to poison queue'),
  };
  ui.serverForm.append(
    h('label', {}, 'Server ', ui.serverInput),
    h('button', { type: 'submit', 'data-testid': 'server-go', text: 'Inspect' }),
  );
  ui.clock.append(h('span', {}, 'Clock offset ', ui.offset), ui.advances, ui.pause);
  ui.clearConfirm.append(ui.clearQuestion, ui.clearYes, ui.clearNo);
  ui.findForm.append(
    ui.findInput,
    h('button', { type: 'submit', 'data-testid': 'find-go', text: 'Find' }),
    ui.findReset,
  );
  ui.jumpForm.append(
    h('label', {}, 'Go to ', ui.jumpInput),
    h('button', { type: 'submit', 'data-testid': 'jump-go', text: 'Go' }),
  );
  /** @param {string} label @param {HTMLElement} value */
  const row = (label, value) => h('div', {}, h('dt', { text: label }), h('dd', {}, value));
  ui.detail.append(
    h('h3', {}, 'Message ', ui.detailId),
    h('p', {}, ui.detailMeta),
    ui.detailOrigin,
    ui.detailText,
    h(
      'dl',
      { class: 'times' },
      row('Inserted', ui.detailInserted),
      row('Next visible', ui.detailNextVisible),
      row('Expires', ui.detailExpires),
      row('Pop receipt', ui.detailReceipt),
    ),
    h('p', { class: 'detail-actions' }, ui.deleteBtn, ui.visibleBtn, ui.poisonBtn),
  );
  ui.grid.append(h('div', { class: 'cards' }, ui.lane, ui.empty, ui.noMatch), ui.detail);
  ui.queueSection.append(
    h('h2', {}, 'Queue ', ui.queueName),
    h('div', { class: 'queue-tools' }, ui.counts, ui.clearBtn),
    ui.clearConfirm,
    h('div', { class: 'queue-tools' }, ui.findForm, ui.stateFilter),
    h('div', { class: 'pager' }, ui.first, ui.prev, ui.range, ui.next, ui.last, ui.jumpForm),
    ui.grid,
  );
  ui.body.append(
    h(
      'nav',
      { 'aria-label': 'Queues' },
      h('h2', {}, 'Account ', h('code', { text: account })),
      ui.queues,
      ui.noQueues,
    ),
    ui.queueSection,
  );
  const root = h(
    'div',
    { class: 'inspector', 'data-testid': 'inspector' },
    h(
      'header',
      { class: 'top' },
      h(
        'div',
        { class: 'brand' },
        h(
          'h1',
          {},
          'azqueue ',
          h('span', {
            class: 'sub',
            'data-testid': 'target',
            text: remote
              ? `inspector: the queues of ${remote}, live`
              : 'inspector: this server’s queues, live',
          }),
        ),
      ),
      ui.live,
      ui.serverForm,
      ui.present,
      h('a', {
        href: '/',
        class: 'view-switch',
        'data-testid': 'view-switch',
        text: 'Teaching scenarios',
      }),
    ),
    ui.clock,
    ui.status,
    ui.targetNote,
    ui.body,
  );
  const css = h('link', { rel: 'stylesheet', href: '/inspect/inspect.css' });
  document.head.append(css);
  return { root, ...ui };
}
