// A tiny Azure Queue REST client over the engine's fetch handler — the same wire protocol the
// official SDKs speak — that records every call for the page's HTTP log.
//
// Every operation the demo performs goes through here, so the log is the whole truth of what
// the actors did. Results are plain objects ({ ok, status, code, ... }); an Azure error is a
// result, not an exception, because a refused delete is something the page wants to show.

export const ACCOUNT = 'devstoreaccount1';
/** The x-ms-version every request from the page sends (rest.js and the SDK snippet alike). */
export const API_VERSION = '2026-04-06';

/**
 * A message as Put, Get or Peek Messages lists it, with SDK-style names (times in ms), and the
 * page's tag for its pop receipt. Typed as Get Messages answers it, with every field: Put
 * Message's answer has no dequeueCount or messageText, Peek's no popReceipt or nextVisibleOn.
 * @typedef {{ messageId: string, popReceipt: string, insertedOn: number, expiresOn: number,
 *   nextVisibleOn: number, dequeueCount: number, messageText: string, receipt?: string }}
 *   WireMessage
 * @typedef {{ presented?: string, current?: string, issued?: string }} ReceiptTags the receipts a
 *   call presented and was issued, and the message's current one, as tags (r0, r1, …)
 */

/**
 * One line of the HTTP log.
 * @typedef {object} LogEntry
 * @property {number} seq
 * @property {number} at virtual ms
 * @property {string} actor
 * @property {string} op the Azure operation
 * @property {string} method
 * @property {string} [queue]
 * @property {string} path as shown (receipts by tag)
 * @property {string} url
 * @property {number} status
 * @property {string} [code] x-ms-error-code
 * @property {[string, string][]} headers the response headers worth showing
 * @property {string} summary
 * @property {string} [via] "sw" for a request the service worker forwarded
 * @property {string} [messageId] the message a Delete or Update named
 * @property {{ messageId: string, dequeueCount?: number, receipt?: string }[]} messages
 * @property {ReceiptTags} receipt
 * @property {string} [text] the message text sent
 */

/**
 * What a call answered: Azure's status and error code, the body, what it did to messages, and
 * the fields of the operation that made it.
 * @typedef {object} Result
 * @property {boolean} ok
 * @property {number} status
 * @property {string} [code]
 * @property {Headers} headers
 * @property {string} text
 * @property {string} [reason] an error's message
 * @property {WireMessage[]} messages
 * @property {ReceiptTags} receipt
 * @property {LogEntry} entry
 * @property {string[]} [queues] List Queues
 * @property {WireMessage} [message] Put Message
 * @property {boolean} [empty] Get Messages found nothing visible
 * @property {string | null} [popReceipt] Update Message
 * @property {number} [nextVisibleOn] Update Message
 * @property {number} [approximateMessagesCount] Get Queue Metadata
 */

/**
 * A message in `/_azqueue/inspect`'s JSON: `service.inspect()`'s fields, times in ms.
 * @typedef {Omit<InspectedMessage, 'insertedOn' | 'expiresOn' | 'nextVisibleOn'>
 *   & { insertedOn: number, expiresOn: number | null, nextVisibleOn: number }} InspectedOverHttp
 */
/** @import { InspectedMessage } from '/pkg/web/azqueue.js' */

/** Response headers worth showing in the log, in this order. */
const SHOWN_HEADERS = [
  'x-ms-error-code',
  'x-ms-popreceipt',
  'x-ms-time-next-visible',
  'x-ms-approximate-messages-count',
];

export class RestClient {
  #handler;
  #routeOf;
  #clock;
  #base;
  #seq = 0;

  /**
   * @param {object} o
   * @param {(r: Request) => Promise<Response>} o.handler the engine's fetch handler
   * @param {(method: string, url: string) => { operation?: string }} o.routeOf the engine's
   *   reading of a request (`QueueService.routeOf`), which names each call in the log
   * @param {{ now(): number }} o.clock the virtual clock (log entries are stamped with it)
   * @param {string} o.origin where the account's path starts (the page's own origin)
   * @param {(entry: LogEntry) => void} o.onCall called once per completed call
   * @param {(messageId: string) => string} [o.nameOf] a message's name in summaries
   * @param {import("./receipts.js").Receipts} [o.receipts] names every pop receipt issued
   */
  constructor({ handler, routeOf, clock, origin, onCall, nameOf = short, receipts }) {
    this.#handler = handler;
    this.#routeOf = routeOf;
    this.nameOf = nameOf;
    this.#clock = clock;
    this.#base = `${origin}/${ACCOUNT}`;
    this.onCall = onCall;
    this.receipts = receipts;
  }

  /**
   * One REST call of the page's own. `path` is relative to the account; `query` values are strings.
   * @param {string} actor
   * @param {string} op
   * @param {string} method
   * @param {string} path
   * @param {{ query?: Record<string, string>, body?: string }} [options]
   */
  async call(actor, op, method, path, { query = {}, body } = {}) {
    const search = new URLSearchParams(query).toString();
    const url = `${this.#base}${path}${search ? `?${search}` : ''}`;
    /** @type {Record<string, string>} */
    const headers = {
      'x-ms-version': API_VERSION,
      'x-ms-date': new Date(this.#clock.now()).toUTCString(),
    };
    if (body !== undefined) headers['content-type'] = 'application/xml';
    const { result } = await this.#exchange(actor, new Request(url, { method, headers, body }), {
      op,
      sent: body,
    });
    return result;
  }

  /**
   * The Azure operation a raw request is, as the engine's router reads it (for the log).
   * @param {string} method
   * @param {string} url
   */
  operationOf(method, url) {
    return this.#routeOf(method, url).operation ?? `${method} request`;
  }

  /**
   * Passes a request made elsewhere (the SDK snippet, forwarded by the service worker) through
   * the same handler, and logs it like the page's own calls. Resolves with the wire answer:
   * { status, statusText, headers: [[name, value], …], body: ArrayBuffer }.
   * @param {string} actor
   * @param {Request} request
   * @param {{ tag?: string }} [options]
   */
  async relay(actor, request, { tag = '' } = {}) {
    const method = request.method;
    const sent = method === 'PUT' || method === 'POST' ? await request.clone().text() : undefined;
    const { result, response, bytes } = await this.#exchange(actor, request, {
      via: 'sw',
      tag,
      sent,
    });
    this.onCall?.(result.entry);
    return {
      status: result.status,
      statusText: response.statusText,
      headers: [...response.headers],
      body: bytes,
    };
  }

  /**
   * Sends `request` to the engine and reads what it did to messages: the messages a Put, Get or
   * Peek returned, the message a Delete or Update named, and the pop receipts presented and
   * issued (tagged r0, r1, … by `receipts`). Builds the log entry with a summary of all that.
   * @param {string} actor
   * @param {Request} request
   * @param {{ op?: string, via?: string, tag?: string, sent?: string }} [options]
   */
  async #exchange(actor, request, { op, via, tag = '', sent } = {}) {
    const url = new URL(request.url);
    const method = request.method;
    op ??= this.operationOf(method, request.url);
    const at = this.#clock.now();
    const response = await this.#handler(request);
    const bytes = await response.arrayBuffer();
    const text = new TextDecoder().decode(bytes);
    const code = response.headers.get('x-ms-error-code') || undefined;
    const result = /** @type {Result} filled in below */ ({
      ok: response.ok,
      status: response.status,
      code,
      headers: response.headers,
      text,
    });
    if (!response.ok) result.reason = errorMessage(text) ?? response.statusText;

    const parts = url.pathname.split('/').filter(Boolean);
    const queue = parts[1] ? decodeURIComponent(parts[1]) : undefined;
    const named = parts[2] === 'messages' && parts[3] ? decodeURIComponent(parts[3]) : undefined;
    const presented = url.searchParams.get('popreceipt') ?? undefined;
    /** @type {ReceiptTags} */
    const receipt = {};
    if (named && presented) {
      receipt.presented = this.receipts?.tag(named, presented);
      receipt.current = this.receipts?.current(named)?.tag;
    }
    result.messages = response.ok && /^(Put|Get|Peek) Message/.test(op) ? messages(text) : [];
    if (response.ok && this.receipts) {
      for (const m of result.messages) {
        if (op === 'Put Message')
          m.receipt = this.receipts.issue(m.messageId, m.popReceipt, at, { put: true });
        if (op === 'Get Messages') m.receipt = this.receipts.issue(m.messageId, m.popReceipt, at);
      }
      if (op === 'Update Message') {
        receipt.issued = this.receipts.issue(named, response.headers.get('x-ms-popreceipt'), at);
      }
    }
    if (op === 'Get Messages')
      receipt.issued = result.messages.map((m) => m.receipt).join(' ') || undefined;
    result.receipt = receipt;

    /** @type {[string, string][]} */
    const shown = [];
    for (const name of SHOWN_HEADERS) {
      const v = response.headers.get(name);
      if (v !== null && name !== 'x-ms-error-code') shown.push([name, v]);
    }
    const summary = [this.#summary(op, result, { named, sent }), tag].filter(Boolean).join(' · ');
    result.entry = {
      seq: ++this.#seq,
      at,
      actor,
      op,
      method,
      queue,
      path: displayPath(url.pathname, Object.fromEntries(url.searchParams), receipt.presented),
      url: url.pathname + url.search,
      status: response.status,
      code,
      headers: shown,
      summary,
      via,
      messageId: named,
      messages: result.messages.map(({ messageId, dequeueCount, receipt: r }) => ({
        messageId,
        dequeueCount,
        receipt: r,
      })),
      receipt,
      text: sent === undefined ? undefined : xml(sent).querySelector('MessageText')?.textContent,
    };
    return { result, response, bytes };
  }

  /**
   * One line saying what a call did, in the page's names for messages and receipts.
   * @param {string} op
   * @param {Result} r
   * @param {{ named?: string, sent?: string }} call
   */
  #summary(op, r, { named, sent }) {
    const name = (/** @type {string | undefined} */ id) => this.nameOf(/** @type {string} */ (id));
    const text = sent ? xml(sent).querySelector('MessageText')?.textContent : undefined;
    const { presented, current } = r.receipt;
    switch (op) {
      case 'Put Message':
        return r.ok && r.messages[0]
          ? `${text === undefined ? '' : `"${clip(text)}" `}→ ${name(r.messages[0].messageId)}`
          : '';
      case 'Get Messages':
        if (!r.ok) return '';
        if (r.messages.length === 0) return 'empty: nothing visible';
        return r.messages
          .map((m) => `${name(m.messageId)} DequeueCount=${m.dequeueCount}`)
          .join(', ');
      case 'Peek Messages':
        return r.ok ? `${r.messages.length} visible` : '';
      case 'Delete Message':
        if (r.ok) return `deleted ${name(named)}`;
        return `${name(named)} not deleted: ${staleWhy(presented, current)}`;
      case 'Update Message':
        if (!r.ok) return `${name(named)} not updated: ${staleWhy(presented, current)}`;
        return `${name(named)}${text === undefined ? '' : ` "${clip(text)}"`}`;
      case 'Create Queue':
        return r.status === 201 ? 'created' : r.status === 204 ? 'already exists' : '';
      default:
        return '';
    }
  }

  /**
   * Hands the entry to the log once the caller has read the result.
   * @param {Result} result
   */
  #record(result) {
    this.onCall?.(result.entry);
    return result;
  }

  /**
   * @param {string} actor
   * @param {string} queue
   */
  async createQueue(actor, queue) {
    return this.#record(await this.call(actor, 'Create Queue', 'PUT', `/${queue}`));
  }

  /**
   * @param {string} actor
   * @param {string} queue
   */
  async deleteQueue(actor, queue) {
    return this.#record(await this.call(actor, 'Delete Queue', 'DELETE', `/${queue}`));
  }

  /** @param {string} actor */
  async listQueues(actor) {
    const r = await this.call(actor, 'List Queues', 'GET', '/', { query: { comp: 'list' } });
    r.queues = r.ok
      ? [...xml(r.text).querySelectorAll('Queue > Name')].map(
          (n) => /** @type {string} */ (n.textContent),
        )
      : [];
    r.entry.summary = `${r.queues.length} queue(s)`;
    return /** @type {Result & { queues: string[] }} */ (this.#record(r));
  }

  /**
   * Put Message. `visibilityTimeout` delays it (scheduled work); `messageTimeToLive` expires it.
   * @param {string} actor
   * @param {string} queue
   * @param {string} text
   * @param {{ visibilityTimeout?: number, messageTimeToLive?: number }} [options]
   */
  async sendMessage(actor, queue, text, { visibilityTimeout, messageTimeToLive } = {}) {
    /** @type {Record<string, string>} */
    const query = {};
    if (visibilityTimeout) query.visibilitytimeout = String(visibilityTimeout);
    if (messageTimeToLive) query.messagettl = String(messageTimeToLive);
    const r = await this.call(actor, 'Put Message', 'POST', `/${queue}/messages`, {
      query,
      body: messageBody(text),
    });
    r.message = r.messages[0];
    return this.#record(r);
  }

  /**
   * Get Messages: each returned message becomes invisible for `visibilityTimeout` seconds.
   * @param {string} actor
   * @param {string} queue
   * @param {{ numberOfMessages?: number, visibilityTimeout?: number }} [options]
   */
  async receiveMessages(actor, queue, { numberOfMessages = 1, visibilityTimeout = 30 } = {}) {
    const r = await this.call(actor, 'Get Messages', 'GET', `/${queue}/messages`, {
      query: {
        numofmessages: String(numberOfMessages),
        visibilitytimeout: String(visibilityTimeout),
      },
    });
    r.empty = r.ok && r.messages.length === 0;
    return this.#record(r);
  }

  /**
   * @param {string} actor
   * @param {string} queue
   * @param {{ numberOfMessages?: number }} [options]
   */
  async peekMessages(actor, queue, { numberOfMessages = 32 } = {}) {
    const r = await this.call(actor, 'Peek Messages', 'GET', `/${queue}/messages`, {
      query: { peekonly: 'true', numofmessages: String(numberOfMessages) },
    });
    return this.#record(r);
  }

  /**
   * @param {string} actor
   * @param {string} queue
   * @param {string} messageId
   * @param {string} popReceipt
   */
  async deleteMessage(actor, queue, messageId, popReceipt) {
    return this.#record(
      await this.call(actor, 'Delete Message', 'DELETE', `/${queue}/messages/${messageId}`, {
        query: { popreceipt: popReceipt },
      }),
    );
  }

  /**
   * Update Message: new text and/or a new visibility timeout; always a new pop receipt.
   * @param {string} actor
   * @param {string} queue
   * @param {string} messageId
   * @param {string} popReceipt
   * @param {{ text?: string, visibilityTimeout?: number }} [options]
   */
  async updateMessage(actor, queue, messageId, popReceipt, { text, visibilityTimeout = 0 } = {}) {
    const r = await this.call(actor, 'Update Message', 'PUT', `/${queue}/messages/${messageId}`, {
      query: { popreceipt: popReceipt, visibilitytimeout: String(visibilityTimeout) },
      body: text === undefined ? undefined : messageBody(text),
    });
    if (r.ok) {
      r.popReceipt = r.headers.get('x-ms-popreceipt');
      r.nextVisibleOn = Date.parse(/** @type {string} */ (r.headers.get('x-ms-time-next-visible')));
    }
    return this.#record(r);
  }

  /**
   * @param {string} actor
   * @param {string} queue
   */
  async clearMessages(actor, queue) {
    return this.#record(await this.call(actor, 'Clear Messages', 'DELETE', `/${queue}/messages`));
  }

  /**
   * Get Queue Metadata: the approximate message count an autoscaler reads.
   * @param {string} actor
   * @param {string} queue
   */
  async getProperties(actor, queue) {
    const r = await this.call(actor, 'Get Queue Metadata', 'GET', `/${queue}`, {
      query: { comp: 'metadata' },
    });
    r.approximateMessagesCount = Number(r.headers.get('x-ms-approximate-messages-count') ?? NaN);
    r.entry.summary = r.ok ? `${r.approximateMessagesCount} message(s)` : '';
    return this.#record(r);
  }

  /**
   * The engine's inspection view of one queue (every message, invisible ones too), served by
   * the same fetch handler under /_azqueue/. Not an Azure operation, so it is not logged.
   * @param {string} queue
   * @returns {Promise<{ messages: InspectedOverHttp[] } | undefined>}
   */
  async inspect(queue) {
    const url = new URL(this.#base).origin + `/_azqueue/inspect/${ACCOUNT}/${queue}`;
    const response = await this.#handler(new Request(url));
    if (!response.ok) return undefined;
    return response.json();
  }
}

/**
 * Why a Delete or Update Message was refused, in receipt tags.
 * @param {string | undefined} presented
 * @param {string | undefined} current
 */
function staleWhy(presented, current) {
  if (presented && current && presented !== current)
    return `${presented} is not the current receipt ${current}`;
  if (presented && presented === current)
    return `${presented} was current, but the message is gone`;
  return 'no such message or receipt';
}

/**
 * The <Message> of an Azure error body.
 * @param {string} text
 */
function errorMessage(text) {
  if (!text || !text.includes('<Error>')) return undefined;
  return xml(text).querySelector('Error > Message')?.textContent?.split('\n')[0];
}

/** @param {string} text */
function messageBody(text) {
  return `<QueueMessage><MessageText>${escapeXml(text)}</MessageText></QueueMessage>`;
}

/** @param {string} s */
function escapeXml(s) {
  /** @type {Record<string, string>} */
  const entities = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };
  return s.replace(/[<>&'"]/g, (c) => entities[c]);
}

/** @param {string} text */
function xml(text) {
  return new DOMParser().parseFromString(text.replace(/^\uFEFF/, ''), 'application/xml');
}

/**
 * QueueMessagesList → plain objects with SDK-style names.
 * @param {string} text
 * @returns {WireMessage[]}
 */
function messages(text) {
  if (!text) return [];
  return [...xml(text).querySelectorAll('QueueMessage')].map((el) => {
    // Typed as Get Messages answers (see WireMessage): the fields an answer lacks are undefined.
    /** @param {string} name */
    const get = (name) => el.querySelector(name)?.textContent ?? undefined;
    /** @param {string} name */
    const date = (name) => (get(name) ? Date.parse(/** @type {string} */ (get(name))) : undefined);
    return /** @type {WireMessage} */ ({
      messageId: get('MessageId'),
      popReceipt: get('PopReceipt'),
      insertedOn: date('InsertionTime'),
      expiresOn: date('ExpirationTime'),
      nextVisibleOn: date('TimeNextVisible'),
      dequeueCount: get('DequeueCount') === undefined ? undefined : Number(get('DequeueCount')),
      messageText: get('MessageText'),
    });
  });
}

/**
 * Pop receipts are long: the log names them by tag (r1, r2, …), or shows their first characters.
 * @param {string} path
 * @param {Record<string, string>} query
 * @param {string | undefined} receiptTag
 */
function displayPath(path, query, receiptTag) {
  path = path.replace(/\/messages\/([0-9a-f]{8})[0-9a-f-]{28}$/, '/messages/$1…');
  const receipt = (/** @type {string} */ v) =>
    receiptTag && receiptTag !== 'r?' ? receiptTag : `${v.slice(0, 6)}…`;
  const parts = Object.entries(query).map(
    ([k, v]) => `${k}=${k === 'popreceipt' ? receipt(v) : v}`,
  );
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

/** @param {string | undefined} messageId */
export function short(messageId) {
  return messageId ? messageId.slice(0, 4) : '?';
}

/** @param {string} text */
function clip(text, n = 44) {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

/**
 * Whether a logged call may have changed a queue: reads and refused calls (4xx) change nothing,
 * but a server error may come after the change was committed (a timed-out write).
 * @param {LogEntry} entry
 */
export function changesQueues(entry) {
  if (entry.status >= 400 && entry.status < 500) return false;
  if (entry.op === 'Get Messages') return entry.messages.length > 0;
  return ![
    'Peek Messages',
    'Get Queue Metadata',
    'List Queues',
    'Get Queue ACL',
    'Get Service Properties',
    'Get Service Stats',
  ].includes(entry.op);
}
