// The inspector's only way to the server: the development paths under /_azqueue/ of the origin
// it was served from (or another azqueue's, given by URL), as `src/rest/dev/` and
// docs/inspector.md describe them. Reads are plain GETs; every change is a POST with the
// `x-azqueue-dev: 1` header the server's guard asks of it.

/**
 * One queue's page as the server inspects it (times in ms since the epoch). `counts` are the
 * whole queue's (`scheduled` among the `invisible`); `matched`, how many messages the query
 * matches; `position`, with an `id`, that message's place in the whole queue's delivery order.
 * @typedef {{ expired: number, invisible: number, scheduled?: number, total: number,
 *   visible: number }} Counts
 * @typedef {{ queue: string, messageId: string, dequeueCount: number }} Provenance where a
 *   message moved to a poison queue came from, and the DequeueCount it had reached there
 * @typedef {{ messageId: string, messageText: string, state: string, dequeueCount: number,
 *   insertedOn: number, nextVisibleOn: number, expiresOn: number | null, popReceipt: string,
 *   origin?: Provenance }} InspectedMessage
 * @typedef {{ account: string, counts: Counts, from: number, matched?: number,
 *   position?: number | null, messages: InspectedMessage[], nextDeadline: number | null,
 *   now: number, queue: string }} QueuePage
 * @typedef {{ from: number, limit: number, state?: string, text?: string, id?: string }} PageQuery
 * @typedef {{ account: string, nextDeadline: number | null, now: number,
 *   queues: Array<{ name: string, messageCount: number }> }} AccountView
 * @typedef {{ now: number, offsetMs: number, paused: boolean }} ClockReading
 * @typedef {{ kind: 'edge', why: string }} EdgeTarget what an edge runner says of itself when
 *   asked for what it does not serve
 * @typedef {{ id: string, account?: string, queue?: string, operation?: string,
 *   probability: number, skip: number, times?: number, status?: number, code?: string,
 *   message?: string, when?: string, delayMs: number, drop?: string, matched: number,
 *   injected: number, retired: boolean }} FaultRule a rule as `GET /_azqueue/faults` shows it:
 *   every value in effect, then its counts
 * @typedef {{ queueMessagesPerSecond: number | null, accountRequestsPerSecond: number | null }}
 *   Limits
 * @typedef {{ rules: FaultRule[], limits: Limits,
 *   throttled: { queueMessagesPerSecond: number, accountRequestsPerSecond: number },
 *   seed: number }} FaultsView
 * @typedef {{ at: string, operation?: string, method: string, path: string, status: number,
 *   code?: string, durationMs: number }} LoggedRequest one Azure request of the request log
 *   (`requests=1`); `at` is the server's wall clock as JSON
 */

/** A development path's refusal: its status, and its `error` in the server's own words. */
export class RefusedError extends Error {
  /**
   * @param {number} status
   * @param {string} why
   */
  constructor(status, why) {
    super(`${status}: ${why}`);
    this.status = status;
    this.why = why;
  }
}

export class InspectorApi {
  /** @param {string} base the server's origin, e.g. `http://127.0.0.1:8080` */
  constructor(base) {
    this.base = base.replace(/\/+$/, '');
  }

  /**
   * @param {string} path under /_azqueue/
   * @param {unknown} [body] a POST's JSON body; a GET without
   * @param {'GET' | 'POST' | 'DELETE'} [method] DELETE for a change without a body
   */
  async #call(path, body, method = body === undefined ? 'GET' : 'POST') {
    const change = method !== 'GET';
    const res = await fetch(`${this.base}/_azqueue/${path}`, {
      method,
      headers: change ? { 'x-azqueue-dev': '1', 'content-type': 'application/json' } : {},
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) {
      let why = text;
      try {
        why = JSON.parse(text).error ?? text;
      } catch {
        // not JSON: the text as it came
      }
      throw new RefusedError(res.status, why);
    }
    return text ? JSON.parse(text) : null;
  }

  /**
   * @param {string} account
   * @returns {Promise<AccountView>}
   */
  account(account) {
    return this.#call(`inspect/${encodeURIComponent(account)}`);
  }

  /**
   * @param {string} account
   * @param {string} queue
   * @param {PageQuery} query
   * @returns {Promise<QueuePage>}
   */
  queue(account, queue, query) {
    const path = `inspect/${encodeURIComponent(account)}/${encodeURIComponent(queue)}`;
    // Each value percent-encoded as a component: the server keeps a `+` a plus.
    const params = Object.entries(query)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&');
    return this.#call(`${path}?${params}`);
  }

  /**
   * What the target is, when it is not an azqueue server whose development paths this page
   * may read: an edge runner (hosts/edge) answers any path it does not serve with a JSON
   * `{ error, serves }` every origin may read. `null` for anything else (a server that did not
   * opt in to this origin, or nothing listening).
   * @returns {Promise<EdgeTarget | null>}
   */
  async probe() {
    try {
      const res = await fetch(`${this.base}/_azqueue/`);
      const body = await res.json();
      return Array.isArray(body.serves) ? { kind: 'edge', why: String(body.error) } : null;
    } catch {
      return null;
    }
  }

  /**
   * @param {string} account
   * @param {string} queue
   * @param {string} messageId
   * @param {'delete' | 'visible' | 'poison'} verb
   */
  message(account, queue, messageId, verb) {
    const path = [account, queue, 'messages', messageId, verb].map(encodeURIComponent).join('/');
    return this.#call(`inspect/${path}`, {});
  }

  /**
   * @param {string} account
   * @param {string} queue
   */
  clear(account, queue) {
    return this.#call(
      `inspect/${encodeURIComponent(account)}/${encodeURIComponent(queue)}/clear`,
      {},
    );
  }

  /** @returns {Promise<ClockReading>} */
  clock() {
    return this.#call('clock');
  }

  /**
   * @param {{ advanceMs?: number, paused?: boolean }} change
   * @returns {Promise<ClockReading>}
   */
  setClock(change) {
    return this.#call('clock', change);
  }

  /**
   * The fault rules with their counts, and the limits (`GET /_azqueue/faults`, docs/faults.md).
   * @returns {Promise<FaultsView>}
   */
  faults() {
    return this.#call('faults');
  }

  /**
   * Adds rules, sets the seed or the limits: all of it, or nothing and a 400 with why.
   * @param {Record<string, unknown>} body `{ rules?, seed?, limits? }`
   * @returns {Promise<{ ids: string[] }>}
   */
  addFaults(body) {
    return this.#call('faults', body);
  }

  /**
   * Removes one rule, or with no id every rule (the limits the server started with come back).
   * @param {string} [id]
   */
  removeFaults(id) {
    return this.#call(
      id === undefined ? 'faults' : `faults/${encodeURIComponent(id)}`,
      undefined,
      'DELETE',
    );
  }

  /**
   * The server's change events, pushed (`GET /_azqueue/events`, server-sent events); with
   * `requests`, the request log's too (request-log.js).
   * @param {(event: Record<string, any>) => void} onEvent
   * @param {(open: boolean) => void} onState
   * @param {boolean} [requests]
   */
  events(onEvent, onState, requests = false) {
    // One event per changed queue (either port of a Node server): the page re-reads what
    // changed and needs no more.
    const asked = requests ? '&requests=1' : '';
    const source = new EventSource(`${this.base}/_azqueue/events?per=queue${asked}`);
    source.onopen = () => onState(true);
    source.onerror = () => onState(false);
    source.onmessage = (e) => onEvent(JSON.parse(e.data));
    return () => source.close();
  }
}
