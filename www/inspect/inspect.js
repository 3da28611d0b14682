// The inspector (`/?view=inspect`): the queues of the server that served this page, or of
// another azqueue given by URL (`&server=http://127.0.0.1:10001`, which must opt in to this
// page's origin with --devOrigin), drawn as the teaching page draws its own (the cards of
// page/cards.js in the lanes of page/lane-view.js), kept live from the server's pushed change
// events, and steered through the development paths (api.js): per message delete, make
// visible, move to `<queue>-poison`; per queue clear; and the server's clock. It knows no
// engine: what a live server cannot tell (who holds a lease, a message's story) is simply not
// drawn.

import { CardModel, normalize } from '../page/cards.js';
import { LaneView } from '../page/lane-view.js';
import { formatDuration } from '../page/clock.js';
import { h, setAttr, setText } from '../page/dom.js';
import { InspectorApi } from './api.js';

/** @import { CardMemory, Notices } from '../page/cards.js' */
/** @import { QueuePage, ClockReading } from './api.js' */

const PAGE_SIZE = 50;
/** The least time between two reads of the same view while changes keep coming. */
const REFRESH_GAP_MS = 250;
/** How often the cards' countdowns are redrawn when nothing else changes. */
const TICK_MS = 250;
/** The clock's steps: a label and milliseconds. @type {Array<[string, number]>} */
const ADVANCES = [
  ['30 s', 30_000],
  ['1 min', 60_000],
  ['1 h', 3_600_000],
  ['1 day', 86_400_000],
];

/**
 * The server this page inspects: `?server=<url>`'s origin, else the page's own. `null` when
 * `server` is not an http(s) URL.
 * @param {string} href the page's URL
 * @returns {string | null}
 */
export function targetOf(href) {
  const given = new URL(href).searchParams.get('server');
  if (!given) return new URL(href).origin;
  try {
    const url = new URL(given);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Replaces the document's body with the inspector of `base`'s queues.
 * @param {{ base?: string | null, account?: string }} [options]
 */
export function startInspector({
  base = targetOf(location.href),
  account = 'devstoreaccount1',
} = {}) {
  const remote = base !== location.origin;
  const api = new InspectorApi(base ?? location.origin);
  /** @type {Map<string, string>} messageId → its current pop receipt */
  const receipts = new Map();
  /** @type {CardMemory} */
  const memory = {
    label: (id) => id.slice(0, 8),
    lease: () => undefined,
    receipt: (id) => receipts.get(id)?.replace(/=+$/, '').slice(-4),
    origin: () => undefined,
    updates: () => undefined,
    fate: () => undefined,
  };
  const ignore = () => {};
  /** @type {Notices} */
  const notices = { expired: ignore, reappeared: ignore, comeDue: ignore };
  const model = new CardModel({ memory, notices });

  const ui = layout(account, remote ? base : null);
  document.body.replaceChildren(ui.root);
  document.title = remote ? `azqueue · inspector · ${base}` : 'azqueue · inspector';
  ui.serverForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const url = new URL(location.href);
    const wanted = ui.serverInput.value.trim();
    if (wanted && wanted !== location.origin) url.searchParams.set('server', wanted);
    else url.searchParams.delete('server');
    url.searchParams.delete('queue');
    location.assign(url);
  });
  const lane = new LaneView(ui.lane, { onSelect: (id) => select(id) });

  /** @type {{ queue: string | null, from: number, page: QueuePage | null, message: string | null }} */
  const state = { queue: null, from: 0, page: null, message: null };
  /** The server's queue clock: a reading and the moment it was taken here. */
  let clock = { now: Date.now(), at: performance.now(), paused: false, offsetMs: 0 };
  const serverNow = () => (clock.paused ? clock.now : clock.now + performance.now() - clock.at);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let deadlineTimer;

  /** @param {unknown} e */
  const report = (e) => {
    // A refused cross-origin read is only a network error to the page: say what it likely is.
    const refused = remote && e instanceof TypeError;
    const why = refused
      ? `${base} could not be read from this page: is it running, and was it started with ` +
        `--devOrigin ${location.origin}?`
      : e instanceof Error
        ? e.message
        : String(e);
    setText(ui.status, why);
  };
  if (base === null) {
    report(new Error('`server` must be an http:// or https:// URL, e.g. http://127.0.0.1:10001'));
    return;
  }

  /** @param {ClockReading} reading */
  const setClock = (reading) => {
    clock = { ...reading, at: performance.now() };
    const offset = reading.offsetMs;
    const sign = offset < 0 ? '−' : '+';
    setText(ui.offset, `${sign}${formatDuration(Math.abs(offset))}`);
    setAttr(ui.offset, 'data-offset-ms', offset);
    setText(ui.pause, reading.paused ? 'Resume' : 'Pause');
    setAttr(ui.pause, 'aria-pressed', String(reading.paused));
  };

  const refreshQueues = coalesce(async () => {
    const view = await api.account(account);
    const items = view.queues.map((q) =>
      h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            'data-testid': 'queue',
            'data-name': q.name,
            'data-count': String(q.messageCount),
            'aria-current': q.name === state.queue ? 'true' : undefined,
            onclick: () => openQueue(q.name),
          },
          h('span', { class: 'queue-name', text: q.name }),
          h('span', { class: 'queue-count', text: String(q.messageCount) }),
        ),
      ),
    );
    ui.queues.replaceChildren(...items);
    ui.noQueues.hidden = items.length > 0;
  });

  const refreshPage = coalesce(async () => {
    const queue = state.queue;
    if (!queue) return;
    let page;
    try {
      page = await api.queue(account, queue, state.from, PAGE_SIZE);
    } catch (e) {
      if (String(e).startsWith('Error: 404')) return closeQueue();
      throw e;
    }
    if (queue !== state.queue) return;
    if (page.messages.length === 0 && state.from > 0 && page.counts.total > 0) {
      state.from = Math.max(0, page.counts.total - PAGE_SIZE);
      return refreshPage();
    }
    state.page = page;
    clock = { ...clock, now: page.now, at: performance.now() };
    receipts.clear();
    for (const m of page.messages) receipts.set(m.messageId, m.popReceipt);
    model.update({ main: normalize(page.messages), poison: [], extra: [] }, page.now);
    requestDraw();
    const c = page.counts;
    setText(
      ui.counts,
      `${c.total} messages: ${c.visible} visible, ${c.invisible} invisible, ${c.expired} expired`,
    );
    for (const [k, v] of Object.entries(c)) setAttr(ui.counts, `data-${k}`, v);
    const last = Math.min(c.total, state.from + page.messages.length);
    setText(ui.range, c.total ? `${state.from + 1}–${last} of ${c.total}` : 'empty');
    ui.prev.disabled = state.from === 0;
    ui.next.disabled = last >= c.total;
    ui.empty.hidden = c.total > 0;
    showMessage();
    // A message reappears or expires by itself at the queue's next deadline: look again then.
    clearTimeout(deadlineTimer);
    if (page.nextDeadline !== null && !clock.paused)
      deadlineTimer = setTimeout(refreshPage, Math.max(0, page.nextDeadline - page.now) + 50);
  });

  /** @param {string} name */
  const openQueue = (name) => {
    if (name !== state.queue) {
      state.queue = name;
      state.from = 0;
      state.message = null;
      model.clear();
      lane.clear();
    }
    ui.queueSection.hidden = false;
    setText(ui.queueName, name);
    const url = new URL(location.href);
    url.searchParams.set('queue', name);
    history.replaceState(null, '', url);
    refreshQueues();
    refreshPage();
  };

  const closeQueue = () => {
    state.queue = null;
    state.page = null;
    model.clear();
    lane.clear();
    ui.queueSection.hidden = true;
  };

  /** @param {string} id */
  const select = (id) => {
    state.message = id;
    showMessage();
  };

  const showMessage = () => {
    const m = state.page?.messages.find((x) => x.messageId === state.message);
    ui.detail.hidden = !m;
    if (!m) return;
    setText(ui.detailId, m.messageId);
    setText(ui.detailText, m.messageText);
    setText(ui.detailMeta, `${m.state} · DequeueCount ${m.dequeueCount}`);
  };

  /** @param {() => Promise<unknown>} action */
  const act = (action) =>
    action()
      .then(() => {
        setText(ui.status, '');
        refreshQueues();
        refreshPage();
      })
      .catch(report);

  /** @param {'delete' | 'visible' | 'poison'} verb */
  const onMessage = (verb) => () => {
    const id = state.message;
    const queue = state.queue;
    if (!id || !queue) return;
    if (verb !== 'visible') state.message = null;
    act(() => api.message(account, queue, id, verb));
  };
  ui.deleteBtn.addEventListener('click', onMessage('delete'));
  ui.visibleBtn.addEventListener('click', onMessage('visible'));
  ui.poisonBtn.addEventListener('click', onMessage('poison'));
  ui.clearBtn.addEventListener('click', () => {
    const queue = state.queue;
    if (queue) act(() => api.clear(account, queue));
  });
  ui.prev.addEventListener('click', () => {
    state.from = Math.max(0, state.from - PAGE_SIZE);
    refreshPage();
  });
  ui.next.addEventListener('click', () => {
    state.from += PAGE_SIZE;
    refreshPage();
  });
  for (const [label, ms] of ADVANCES) {
    const b = h('button', { type: 'button', 'data-testid': `advance-${label.replace(' ', '')}` });
    setText(b, `+${label}`);
    b.addEventListener('click', () => act(() => api.setClock({ advanceMs: ms }).then(setClock)));
    ui.advances.append(b);
  }
  ui.pause.addEventListener('click', () =>
    act(() => api.setClock({ paused: !clock.paused }).then(setClock)),
  );

  api.events(
    (e) => {
      if (e.type === 'clock') {
        // Moved by anyone (this page, a test through the queue port): countdowns and
        // visibility follow the new reading.
        setClock({ now: Date.parse(e.at), offsetMs: e.offsetMs, paused: e.paused });
        refreshPage();
        return;
      }
      if (e.account !== account) return;
      refreshQueues();
      if (e.queue === state.queue) refreshPage();
    },
    (open) => {
      setText(ui.live, open ? '● live' : '○ reconnecting…');
      setAttr(ui.live, 'data-live', String(open));
      // Whatever happened while the stream was down is read once it is back.
      if (open) {
        refreshQueues();
        refreshPage();
      }
    },
  );

  // Drawn in the next frame when a read changed the cards, every frame while one leaves, and
  // otherwise a few times a second for the countdowns; no frame is asked for in between, so a
  // page left open beside busy producers does not take the CPU they run on (BENCHMARKS.md,
  // "Producers with an open inspector").
  let framePending = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let tick;
  const requestDraw = () => {
    if (framePending) return;
    framePending = true;
    requestAnimationFrame(draw);
  };
  const draw = () => {
    framePending = false;
    lane.render(model.view.main, serverNow(), model.departures);
    if (lane.leaving) requestDraw();
    else if (tick === undefined)
      tick = setTimeout(() => {
        tick = undefined;
        requestDraw();
      }, TICK_MS);
  };
  requestDraw();

  api.clock().then(setClock, report);
  refreshQueues();
  const wanted = new URL(location.href).searchParams.get('queue');
  if (wanted) openQueue(wanted);

  /**
   * `run()` at most once at a time and at most once per REFRESH_GAP_MS; a call meanwhile runs
   * it once more afterwards (so the last event is always reflected, however many arrive
   * together, and a burst of producers costs the server a few reads, not one per event).
   * @param {() => Promise<unknown>} run
   */
  function coalesce(run) {
    let running = false;
    let again = false;
    let lastStart = -Infinity;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let waiting;
    const go = () => {
      if (running || waiting) {
        again = true;
        return;
      }
      const wait = lastStart + REFRESH_GAP_MS - performance.now();
      if (wait > 0) {
        waiting = setTimeout(() => {
          waiting = undefined;
          go();
        }, wait);
        return;
      }
      running = true;
      again = false;
      lastStart = performance.now();
      run()
        .catch(report)
        .finally(() => {
          running = false;
          if (again) go();
        });
    };
    return go;
  }
}

/**
 * The inspector's elements.
 * @param {string} account
 * @param {string | null} remote the other server inspected, or null for this page's own
 */
function layout(account, remote) {
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
    offset: h('output', { 'data-testid': 'clock-offset', text: '+0 s' }),
    pause: h('button', { type: 'button', 'data-testid': 'clock-pause', text: 'Pause' }),
    advances: h('span', { class: 'advances' }),
    queues: h('ul', { class: 'queue-list', 'data-testid': 'queues' }),
    noQueues: h('p', { class: 'empty-note', text: 'No queues yet.' }),
    queueSection: h('section', { class: 'inspect-queue', hidden: true }),
    queueName: h('code', { 'data-testid': 'queue-name' }),
    counts: h('p', { class: 'counts', 'data-testid': 'counts' }),
    clearBtn: h('button', { type: 'button', 'data-testid': 'clear-queue', text: 'Clear queue' }),
    prev: h('button', { type: 'button', 'data-testid': 'prev-page', text: '‹ Previous' }),
    next: h('button', { type: 'button', 'data-testid': 'next-page', text: 'Next ›' }),
    range: h('span', { 'data-testid': 'page-range' }),
    lane: h('ul', { class: 'lane', 'data-testid': 'queue-lane', 'aria-label': 'Messages' }),
    empty: h('p', { class: 'empty-note', text: 'The queue is empty.' }),
    detail: h('section', {
      class: 'message-detail',
      'data-testid': 'message-detail',
      hidden: true,
    }),
    detailId: h('code', { 'data-testid': 'message-id' }),
    detailMeta: h('span', { 'data-testid': 'message-meta' }),
    detailText: h('pre', { 'data-testid': 'message-text' }),
    deleteBtn: h('button', { type: 'button', 'data-testid': 'delete-message', text: 'Delete' }),
    visibleBtn: h('button', {
      type: 'button',
      'data-testid': 'make-visible',
      text: 'Make visible now',
    }),
    poisonBtn: h('button', {
      type: 'button',
      'data-testid': 'poison-message',
      text: 'Move to poison queue',
    }),
  };
  ui.serverForm.append(
    h('label', {}, 'Server ', ui.serverInput),
    h('button', { type: 'submit', 'data-testid': 'server-go', text: 'Inspect' }),
  );
  ui.detail.append(
    h('h3', {}, 'Message ', ui.detailId),
    h('p', {}, ui.detailMeta),
    ui.detailText,
    h('p', { class: 'detail-actions' }, ui.deleteBtn, ui.visibleBtn, ui.poisonBtn),
  );
  ui.queueSection.append(
    h('h2', {}, 'Queue ', ui.queueName),
    h('p', { class: 'queue-tools' }, ui.counts, ui.clearBtn),
    h('p', { class: 'pager' }, ui.prev, ui.range, ui.next),
    ui.lane,
    ui.empty,
    ui.detail,
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
      h('a', {
        href: '/',
        class: 'view-switch',
        'data-testid': 'view-switch',
        text: 'Teaching scenarios',
      }),
    ),
    h(
      'section',
      { class: 'controls', 'aria-label': 'Server clock' },
      h('span', {}, 'Clock offset ', ui.offset),
      ui.advances,
      ui.pause,
    ),
    ui.status,
    h(
      'div',
      { class: 'inspect-body' },
      h(
        'nav',
        { 'aria-label': 'Queues' },
        h('h2', {}, 'Account ', h('code', { text: account })),
        ui.queues,
        ui.noQueues,
      ),
      ui.queueSection,
    ),
  );
  const css = h('link', { rel: 'stylesheet', href: '/inspect/inspect.css' });
  document.head.append(css);
  return { root, ...ui };
}
