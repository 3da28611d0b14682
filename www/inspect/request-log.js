// The inspector's live request log (docs/inspector.md, "Request log"): for a live demo, each
// Azure request the target answers (a script with an SDK, a CLI), newest first, with its time,
// operation as Azure names it, method and path, status and error code, and duration. The server
// records requests only while a page shows the log (its event stream asks with `requests=1`),
// and each write of the stream carries the newest of them with how many were left out, so a
// burst costs the page a few rows and a count, not a row per request.

import { h, setAttr, setText } from '../page/dom.js';

/** @import { LoggedRequest } from './api.js' */

/** The rows kept on the page, newest first. */
const ROWS = 100;

/** @param {number} n @param {number} width */
const digits = (n, width) => String(n).padStart(width, '0');

/**
 * `12:03:04.567` in the viewer's time zone, by hand: `toLocaleTimeString` builds a formatter
 * per call, for every row of a burst.
 * @param {Date} at
 */
const clockTime = (at) =>
  `${digits(at.getHours(), 2)}:${digits(at.getMinutes(), 2)}:${digits(at.getSeconds(), 2)}.` +
  digits(at.getMilliseconds(), 3);

/** @param {number} ms */
const duration = (ms) => (ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`);

/**
 * One row of the log.
 * @param {LoggedRequest} r
 */
function row(r) {
  const failed = r.status >= 400;
  return h(
    'tr',
    {
      class: failed ? 'refused' : '',
      'data-testid': 'request',
      'data-operation': r.operation ?? '',
      'data-status': String(r.status),
      'data-code': r.code ?? '',
    },
    h('td', { text: clockTime(new Date(r.at)) }),
    h('td', { text: r.operation ?? '(no operation)' }),
    h('td', {}, h('code', { text: `${r.method} ${r.path}` })),
    h('td', { text: r.code ? `${r.status} ${r.code}` : String(r.status) }),
    h('td', { class: 'duration', text: duration(r.durationMs) }),
  );
}

/**
 * The log's panel. `onToggle` is told when the viewer shows or hides it: the page's event
 * stream then asks for requests, or stops asking.
 * @param {boolean} shown whether it starts shown (`?log=1`)
 * @param {(shown: boolean) => void} onToggle
 */
export function requestLog(shown, onToggle) {
  const toggle = h('button', {
    type: 'button',
    'data-testid': 'request-log-toggle',
    'aria-pressed': String(shown),
    text: 'Request log',
  });
  const leftOut = h('p', { class: 'left-out', 'data-testid': 'requests-left-out', hidden: true });
  const rows = h('tbody', { 'data-testid': 'requests' });
  const table = h(
    'table',
    { class: 'request-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Time', 'Operation', 'Request', 'Status', 'Took'].map((t) => h('th', { text: t })),
      ),
    ),
    rows,
  );
  const body = h('div', { hidden: !shown }, leftOut, table);
  const root = h(
    'section',
    { class: 'request-log', 'data-testid': 'request-log', 'aria-label': 'Requests' },
    h('h3', {}, toggle),
    body,
  );
  // Since the log was shown: rows received (the page keeps the newest ROWS), and left out.
  let seen = 0;
  let left = 0;
  toggle.addEventListener('click', () => {
    shown = !shown;
    setAttr(toggle, 'aria-pressed', String(shown));
    body.hidden = !shown;
    onToggle(shown);
  });
  return {
    root,
    /** Whether the page's event stream is to ask for requests. */
    get shown() {
      return shown;
    },
    /**
     * A `requests` event of the stream (`{ requests, leftOut }`): its rows go on top.
     * @param {Record<string, any>} e
     */
    onEvent(e) {
      if (e.type !== 'requests') return;
      const fresh = /** @type {LoggedRequest[]} */ (e.requests).map(row).reverse();
      rows.prepend(...fresh);
      seen += fresh.length;
      setAttr(rows, 'data-seen', String(seen));
      while (rows.childElementCount > ROWS) rows.lastElementChild?.remove();
      left += e.leftOut;
      leftOut.hidden = left === 0;
      setAttr(leftOut, 'data-count', String(left));
      setText(
        leftOut,
        `${left} more request${left === 1 ? '' : 's'} came in bursts faster than the log shows ` +
          'and are left out: each update shows the newest 20.',
      );
    },
  };
}
