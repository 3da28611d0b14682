// The live HTTP log: one row per REST call the demo made through the engine's fetch handler,
// newest first — method, path, status, the x-ms headers that matter, and the error code.

import { formatElapsed, EPOCH } from './clock.js';
import { h } from './dom.js';

/** @import { LogEntry } from './rest.js' */

const MAX_ROWS = 250;

export class LogView {
  #shown = 0; // highest seq rendered
  #filter = 'all';

  /**
   * @param {HTMLElement} tbody
   * @param {{ filter?: HTMLSelectElement }} options
   */
  constructor(tbody, { filter }) {
    this.tbody = tbody;
    filter?.addEventListener('change', () => {
      this.#filter = filter.value;
      this.#applyFilter();
    });
  }

  clear() {
    this.#shown = 0;
    this.tbody.replaceChildren();
  }

  /** @param {LogEntry[]} entries */
  render(entries) {
    if (!entries.length || entries[entries.length - 1].seq <= this.#shown) return;
    const fresh = entries.filter((e) => e.seq > this.#shown);
    this.#shown = fresh[fresh.length - 1].seq;
    const frag = document.createDocumentFragment();
    for (const e of fresh.slice(-MAX_ROWS).reverse()) {
      const row = logRow(e);
      row.hidden = !this.#passes(row);
      frag.append(row);
    }
    this.tbody.prepend(frag);
    while (this.tbody.childElementCount > MAX_ROWS)
      /** @type {Element} */ (this.tbody.lastElementChild).remove();
  }

  /** @param {HTMLElement} row */
  #passes(row) {
    if (this.#filter === 'errors') return Number(row.dataset.status) >= 400;
    if (this.#filter === 'no-empty') return !row.classList.contains('empty');
    return true;
  }

  #applyFilter() {
    for (const row of this.tbody.children) {
      const li = /** @type {HTMLElement} */ (row);
      li.hidden = !this.#passes(li);
    }
  }
}

/**
 * One call as a row of the log (also shown alone, under the guide, for the call a moment is about).
 * @param {LogEntry} e
 */
export function logRow(e) {
  const bad = e.status >= 400;
  const details = [];
  if (e.code) details.push(h('strong', { class: 'code', text: e.code }));
  const { presented, issued } = e.receipt ?? {};
  for (const [name, value] of e.headers) {
    const shown =
      name === 'x-ms-popreceipt'
        ? (issued ?? `${value.slice(0, 6)}…`)
        : name === 'x-ms-time-next-visible'
          ? `now+${secondsFrom(e.at, value)} s`
          : value;
    details.push(h('span', { class: 'hdr', title: `${name}: ${value}` }, `${name}: ${shown}`));
  }
  if (e.summary) details.push(h('span', { class: 'sum', text: e.summary }));
  // Which receipt the call presented and which it was issued, as tags a test (or a reader) can find.
  if (presented)
    details.push(
      h('span', {
        class: 'rcpt presented',
        'data-receipt-presented': presented,
        title: 'pop receipt presented',
        text: `presented ${presented}`,
      }),
    );
  if (issued)
    details.push(
      h('span', {
        class: 'rcpt issued',
        'data-receipt-issued': issued,
        title: 'pop receipt issued',
        text: `issued ${issued}`,
      }),
    );
  const row = h(
    'li',
    {
      class: [
        bad ? 'bad' : e.summary?.startsWith('empty') ? 'empty' : '',
        e.via ? `via-${e.via}` : '',
      ]
        .filter(Boolean)
        .join(' '),
      'data-seq': e.seq,
      'data-status': e.status,
      'data-code': e.code,
      'data-op': e.op,
      'data-actor': e.actor,
      'data-via': e.via,
      'data-receipt-presented': presented,
      'data-receipt-issued': issued,
    },
    h('span', { class: 't', text: formatElapsed(e.at - EPOCH, true) }),
    h('span', { class: 'st', text: String(e.status), title: e.op }),
    h(
      'span',
      { class: 'req', title: `${e.op}: ${e.method} ${e.url}` },
      h('b', { class: `m m-${e.method}`, text: e.method }),
      ' ',
      e.path,
    ),
    h('span', { class: 'who', text: e.actor }),
    h('span', { class: 'det' }, h('span', { class: 'op', text: e.op }), ...details),
  );
  return row;
}

/**
 * @param {number} at
 * @param {string} httpDate
 */
function secondsFrom(at, httpDate) {
  return Math.round((Date.parse(httpDate) - at) / 1000);
}
