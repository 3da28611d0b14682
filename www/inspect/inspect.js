// The inspector (`/?view=inspect`): the queues of the server that served this page, or of
// another azqueue given by URL (`&server=http://127.0.0.1:10001`, which must opt in to this
// page's origin with --devOrigin), drawn as the teaching page draws its own (the cards of
// page/cards.js in the lanes of page/lane-view.js) but in delivery order, kept live from the
// server's pushed change events, and steered through the development paths (api.js): per
// message delete, make visible, move to `<queue>-poison`; per queue clear (after a question);
// and the server's clock; and its fault rules (faults-panel.js). A deep queue is read a page at
// a time, found in by id or text and filtered by state on the server. It knows no engine: what a live server cannot tell (who holds
// a lease, a message's story) is simply not drawn.

import { CardModel, normalize } from '../page/cards.js';
import { LaneView } from '../page/lane-view.js';
import { formatDuration } from '../page/clock.js';
import { h, setAttr, setText } from '../page/dom.js';
import { InspectorApi } from './api.js';
import { showDetail } from './detail.js';
import { faultPanel } from './faults-panel.js';
import { layout } from './layout.js';
import { presentationMode } from './present.js';
import { countQueue, drawQueueList } from './queue-list.js';
import { requestLog } from './request-log.js';
import { edgeNote, targetOf } from './target.js';

export { targetOf };
import { throttled } from './throttled.js';

/** @import { CardMemory, Notices, Origin } from '../page/cards.js' */
/** @import { QueuePage, ClockReading } from './api.js' */

const PAGE_SIZE = 50;
/** The least time between two reads of the same view while changes keep coming. */
const REFRESH_GAP_MS = 500;
/** How often the cards' countdowns are redrawn when nothing else changes. */
const TICK_MS = 250;
/**
 * The furthest ahead a draw is set for a card that changes by itself later (its time-to-live
 * line appearing); that draw sets the next (a timer waits at most 2^31 − 1 ms).
 */
const MAX_WAIT_MS = 3_600_000;
/** A message id as the server writes it (a GUID); anything else typed in Find is text. */
const MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The clock's steps: a label and milliseconds. @type {Array<[string, number]>} */
const ADVANCES = [
  ['30 s', 30_000],
  ['1 min', 60_000],
  ['1 h', 3_600_000],
  ['1 day', 86_400_000],
];

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
  /** @type {Map<string, Origin>} messageId → where a poison queue's message came from */
  const origins = new Map();
  /** @type {CardMemory} */
  const memory = {
    label: (id) => id.slice(0, 8),
    lease: () => undefined,
    receipt: (id) => receipts.get(id)?.replace(/=+$/, '').slice(-4),
    origin: (id) => origins.get(id),
    updates: () => undefined,
    fate: () => undefined,
  };
  const ignore = () => {};
  /** @type {Notices} */
  const notices = { expired: ignore, reappeared: ignore, comeDue: ignore };
  const model = new CardModel({ memory, notices, order: 'given' });

  const ui = layout(account, remote ? base : null);
  document.body.replaceChildren(ui.root);
  presentationMode(ui.present);
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

  /**
   * The open queue, the first listed match, the page read, the selected message, the filters.
   * @type {{ queue: string | null, from: number, page: QueuePage | null,
   *   message: string | null, state: string, text: string, pick: number | null }}
   */
  const state = {
    queue: null,
    from: 0,
    page: null,
    message: null,
    state: '',
    text: '',
    pick: null,
  };
  /** The server's queue clock: a reading and the moment it was taken here. */
  let clock = { now: Date.now(), at: performance.now(), paused: false, offsetMs: 0 };
  const serverNow = () => (clock.paused ? clock.now : clock.now + performance.now() - clock.at);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let deadlineTimer;
  /** Set once the target turned out to be one this page cannot steer: nothing more is read. */
  let stopped = false;

  /** @param {unknown} e */
  const report = (e) => {
    if (stopped) return;
    // A refused cross-origin read is only a network error to the page, and an edge Worker
    // answers the paths it does not serve with a 404: find out which it is.
    const unserved = e instanceof Error && e.message.startsWith('404:');
    if (remote && (e instanceof TypeError || unserved)) {
      api.probe().then((edge) => {
        if (edge) return showEdge(edge.why);
        if (unserved) return setText(ui.status, /** @type {Error} */ (e).message);
        setText(
          ui.status,
          `${base} could not be read from this page: is it running, and was it started with ` +
            `--devOrigin ${location.origin}?`,
        );
      });
      return;
    }
    setText(ui.status, e instanceof Error ? e.message : String(e));
  };
  if (base === null) {
    report(new Error('`server` must be an http:// or https:// URL, e.g. http://127.0.0.1:10001'));
    return;
  }
  const faults = faultPanel(api);
  ui.root.append(faults.root);
  const requests = requestLog(new URL(location.href).searchParams.get('log') === '1', () =>
    openEvents(),
  );
  ui.root.append(requests.root);

  /**
   * An edge runner (hosts/edge/dev.mjs) serves one queue at a time to a client of its own
   * origin and has nothing else this page uses: no account listing, event stream, clock or
   * actions, and no other origin may read it. Offer what it does serve, and say why.
   * @param {string} why what the edge runner says of itself
   */
  const showEdge = (why) => {
    stopped = true;
    closeEvents();
    requests.root.hidden = true;
    ui.root.dataset.target = 'edge';
    ui.clock.hidden = true;
    ui.body.hidden = true;
    setText(ui.live, '○ not live');
    setText(ui.status, '');
    ui.targetNote.replaceChildren(...edgeNote(/** @type {string} */ (base), account, why));
    ui.targetNote.hidden = false;
  };

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

  const refreshQueues = throttled(REFRESH_GAP_MS, report, async () => {
    if (stopped) return;
    const view = await api.account(account);
    drawQueueList(ui.queues, view.queues, state.queue, openQueue);
    ui.noQueues.hidden = view.queues.length > 0;
  });

  const refreshPage = throttled(REFRESH_GAP_MS, report, async () => {
    const queue = state.queue;
    if (!queue || stopped) return;
    let page;
    try {
      page = await api.queue(account, queue, {
        from: state.from,
        limit: PAGE_SIZE,
        state: state.state,
        text: state.text,
      });
    } catch (e) {
      if (String(e).startsWith('Error: 404')) {
        closeQueue();
        return refreshQueues();
      }
      throw e;
    }
    if (queue !== state.queue) return;
    const matched = page.matched ?? page.counts.total;
    if (page.messages.length === 0 && state.from > 0 && matched > 0) {
      // The page read is past the end now (messages went): the last page instead.
      state.from = lastFrom(matched);
      return refreshPage();
    }
    state.page = page;
    clock = { ...clock, now: page.now, at: performance.now() };
    receipts.clear();
    origins.clear();
    for (const m of page.messages) {
      receipts.set(m.messageId, m.popReceipt);
      if (m.origin)
        origins.set(m.messageId, {
          from: m.origin.queue,
          messageId: m.origin.messageId,
          dequeueCount: m.origin.dequeueCount,
        });
    }
    if (state.pick !== null) {
      state.message = page.messages[state.pick]?.messageId ?? null;
      state.pick = null;
    }
    model.update({ main: normalize(page.messages), poison: [], extra: [] }, page.now);
    requestDraw();
    const c = page.counts;
    if (!countQueue(ui.queues, queue, c.total)) refreshQueues();
    const scheduled = c.scheduled === undefined ? '' : ` (${c.scheduled} scheduled)`;
    setText(
      ui.counts,
      `${c.total} messages: ${c.visible} visible, ${c.invisible} invisible${scheduled}, ` +
        `${c.expired} expired`,
    );
    for (const [k, v] of Object.entries(c)) setAttr(ui.counts, `data-${k}`, v);
    const filtered = Boolean(state.state || state.text);
    const last = Math.min(matched, state.from + page.messages.length);
    setText(
      ui.range,
      matched
        ? `${state.from + 1}–${last} of ${matched}${filtered ? ' matching' : ''}`
        : filtered
          ? 'none matching'
          : 'empty',
    );
    setAttr(ui.range, 'data-matched', matched);
    ui.first.disabled = ui.prev.disabled = state.from === 0;
    ui.next.disabled = ui.last.disabled = last >= matched;
    ui.empty.hidden = c.total > 0;
    ui.noMatch.hidden = !(filtered && matched === 0 && c.total > 0);
    ui.findReset.hidden = !state.text;
    showMessage();
    // A message reappears or expires by itself at the queue's next deadline: look again then.
    clearTimeout(deadlineTimer);
    if (page.nextDeadline !== null && !clock.paused)
      deadlineTimer = setTimeout(refreshPage, Math.max(0, page.nextDeadline - page.now) + 50);
  });

  /** The first position of the last page of `n` listed messages. @param {number} n */
  const lastFrom = (n) => Math.max(0, Math.floor((n - 1) / PAGE_SIZE) * PAGE_SIZE);

  /**
   * Lists the page that starts at `from` (cards of another page are not animated out).
   * @param {number} from
   */
  const goTo = (from) => {
    state.from = Math.max(0, from);
    model.clear();
    lane.clear();
    refreshPage();
  };

  /** @param {string} name */
  const openQueue = (name) => {
    if (name !== state.queue) {
      state.queue = name;
      state.from = 0;
      state.message = null;
      state.text = '';
      state.state = '';
      ui.findInput.value = '';
      ui.stateFilter.value = '';
      hideClearQuestion();
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
    // Its distances in time count down while it is shown.
    requestDraw();
  };

  const showMessage = () => {
    const m = state.page?.messages.find((x) => x.messageId === state.message);
    showDetail(ui, m, serverNow());
    for (const el of ui.lane.querySelectorAll('[aria-selected]'))
      el.removeAttribute('aria-selected');
    if (m)
      ui.lane.querySelector(`[data-id="${m.messageId}"]`)?.setAttribute('aria-selected', 'true');
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

  // Clearing cannot be undone: the button asks first, naming the queue and how many go.
  const hideClearQuestion = () => {
    ui.clearConfirm.hidden = true;
    ui.clearBtn.disabled = false;
  };
  ui.clearBtn.addEventListener('click', () => {
    const total = state.page?.counts.total ?? 0;
    setText(
      ui.clearQuestion,
      `Delete all ${total} messages of ${state.queue}? This cannot be undone. `,
    );
    ui.clearConfirm.hidden = false;
    ui.clearBtn.disabled = true;
    ui.clearNo.focus();
  });
  ui.clearNo.addEventListener('click', hideClearQuestion);
  ui.clearYes.addEventListener('click', () => {
    const queue = state.queue;
    hideClearQuestion();
    if (queue) act(() => api.clear(account, queue));
  });

  ui.first.addEventListener('click', () => goTo(0));
  ui.prev.addEventListener('click', () => goTo(state.from - PAGE_SIZE));
  ui.next.addEventListener('click', () => goTo(state.from + PAGE_SIZE));
  ui.last.addEventListener('click', () =>
    goTo(lastFrom(state.page?.matched ?? state.page?.counts.total ?? 0)),
  );
  ui.jumpForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const position = Math.floor(Number(ui.jumpInput.value));
    if (!(position >= 1)) return;
    // Positions count what is listed (the matches, when filtered), from 1.
    state.pick = (position - 1) % PAGE_SIZE;
    goTo(position - 1 - state.pick);
  });
  ui.findForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const wanted = ui.findInput.value.trim();
    const queue = state.queue;
    if (!queue) return;
    if (!MESSAGE_ID.test(wanted)) {
      state.text = wanted;
      goTo(0);
      return;
    }
    // One message: its page among all of them, with it selected.
    api
      .queue(account, queue, { from: 0, limit: 1, id: wanted.toLowerCase() })
      .then((found) => {
        if (found.position === null || found.position === undefined) {
          setText(ui.status, `No message ${wanted} in ${queue}.`);
          return;
        }
        setText(ui.status, '');
        state.text = '';
        state.state = '';
        ui.stateFilter.value = '';
        state.message = found.messages[0]?.messageId ?? wanted;
        goTo(found.position - (found.position % PAGE_SIZE));
      })
      .catch(report);
  });
  ui.findReset.addEventListener('click', () => {
    ui.findInput.value = '';
    state.text = '';
    goTo(0);
  });
  ui.stateFilter.addEventListener('change', () => {
    state.state = ui.stateFilter.value;
    goTo(0);
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

  /** @type {() => void} */
  let closeEvents = () => {};
  // Opened again when the request log is shown or hidden: the stream asks for requests only
  // while the log is shown, and the server records them only then.
  const openEvents = () => {
    closeEvents();
    // Not live until the new stream is open: a request sent before then is not in the log.
    setText(ui.live, '○ connecting…');
    setAttr(ui.live, 'data-live', 'false');
    closeEvents = api.events(onEvent, onLive, requests.shown);
  };
  /** @param {Record<string, any>} e */
  const onEvent = (e) => {
    requests.onEvent(e);
    faults.onEvent(e);
    if (e.type === 'fault' || e.type === 'requests') return;
    if (e.type === 'clock') {
      // Moved by anyone (this page, a test through the queue port): countdowns and
      // visibility follow the new reading.
      setClock({ now: Date.parse(e.at), offsetMs: e.offsetMs, paused: e.paused });
      refreshPage();
      return;
    }
    if (e.account !== account) return;
    // The open queue's count in the list comes with the read of its page.
    if (e.queue === state.queue) refreshPage();
    else refreshQueues();
  };
  /** @param {boolean} open */
  const onLive = (open) => {
    setText(ui.live, open ? '● live' : '○ reconnecting…');
    setAttr(ui.live, 'data-live', String(open));
    faults.onLive(open);
    // Whatever happened while the stream was down is read once it is back.
    if (open) {
      refreshQueues();
      refreshPage();
    }
  };
  openEvents();

  // Drawn in the next frame when a read changed the cards, every frame while one leaves, a few
  // times a second while a card or the selected message counts down, and otherwise not until a
  // card would look different by itself: a page left open beside busy producers does not take
  // the CPU they run on (BENCHMARKS.md, "Producers with an open inspector").
  let framePending = false;
  /** The next draw for the countdowns. @type {ReturnType<typeof setTimeout> | undefined} */
  let tick;
  const requestDraw = () => {
    if (framePending) return;
    framePending = true;
    requestAnimationFrame(draw);
  };
  const draw = () => {
    framePending = false;
    const now = serverNow();
    lane.render(model.view.main, now, model.departures);
    if (state.message) showMessage();
    if (lane.leaving) return requestDraw();
    const wait = state.message ? TICK_MS : lane.changesAt - now;
    clearTimeout(tick);
    tick =
      wait === Infinity
        ? undefined
        : setTimeout(requestDraw, Math.min(MAX_WAIT_MS, Math.max(TICK_MS, wait)));
  };
  requestDraw();

  api.clock().then(setClock, report);
  refreshQueues();
  const wanted = new URL(location.href).searchParams.get('queue');
  if (wanted) openQueue(wanted);
}
