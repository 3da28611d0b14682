// A tiny Azure Queue REST client over the engine's fetch handler — the same wire protocol the
// official SDKs speak — that records every call for the page's HTTP log.
//
// Every operation the demo performs goes through here, so the log is the whole truth of what
// the actors did. Results are plain objects ({ ok, status, code, ... }); an Azure error is a
// result, not an exception, because a refused delete is something the page wants to show.

export const ACCOUNT = "devstoreaccount1";
const VERSION = "2026-04-06";

/** Response headers worth showing in the log, in this order. */
const SHOWN_HEADERS = [
  "x-ms-error-code",
  "x-ms-popreceipt",
  "x-ms-time-next-visible",
  "x-ms-approximate-messages-count",
];

export class RestClient {
  #handler;
  #clock;
  #base;
  #seq = 0;

  /**
   * @param {object} o
   * @param {(r: Request) => Promise<Response>} o.handler the engine's fetch handler
   * @param {{ now(): number }} o.clock the virtual clock (log entries are stamped with it)
   * @param {(entry: object) => void} o.onCall called once per completed call
   */
  constructor({ handler, clock, origin, onCall, nameOf = short }) {
    this.#handler = handler;
    this.nameOf = nameOf;
    this.#clock = clock;
    this.#base = `${origin}/${ACCOUNT}`;
    this.onCall = onCall;
  }

  /** One REST call. `path` is relative to the account; `query` values are already strings. */
  async call(actor, op, method, path, { query = {}, body } = {}) {
    const search = new URLSearchParams(query).toString();
    const url = `${this.#base}${path}${search ? `?${search}` : ""}`;
    const headers = { "x-ms-version": VERSION, "x-ms-date": new Date(this.#clock.now()).toUTCString() };
    if (body !== undefined) headers["content-type"] = "application/xml";
    const at = this.#clock.now();
    const response = await this.#handler(new Request(url, { method, headers, body }));
    const text = await response.text();
    const code = response.headers.get("x-ms-error-code") || undefined;
    const result = { ok: response.ok, status: response.status, code, headers: response.headers, text };
    const shown = [];
    for (const name of SHOWN_HEADERS) {
      const v = response.headers.get(name);
      if (v !== null && name !== "x-ms-error-code") shown.push([name, v]);
    }
    const entry = {
      seq: ++this.#seq,
      at,
      actor,
      op,
      method,
      path: displayPath(`/${ACCOUNT}${path}`, query),
      url: `/${ACCOUNT}${path}${search ? `?${search}` : ""}`,
      status: response.status,
      code,
      headers: shown,
      summary: "",
    };
    result.entry = entry;
    return result;
  }

  /** Hands the entry to the log once the caller has added its summary. */
  #record(result, summary = "") {
    result.entry.summary = summary;
    this.onCall?.(result.entry);
    return result;
  }

  /**
   * Passes a request made elsewhere (the SDK snippet, forwarded by the service worker) through
   * the same handler, and logs it like the page's own calls. Resolves with the wire answer:
   * { status, statusText, headers: [[name, value], …], body: ArrayBuffer }.
   */
  async relay(actor, request, { tag = "" } = {}) {
    const url = new URL(request.url);
    const query = Object.fromEntries(url.searchParams);
    const method = request.method;
    const op = operationOf(method, url.pathname, url.searchParams);
    const sent = method === "PUT" || method === "POST" ? await request.clone().text() : "";
    const at = this.#clock.now();
    const response = await this.#handler(request);
    const body = await response.arrayBuffer();
    const code = response.headers.get("x-ms-error-code") || undefined;
    const shown = [];
    for (const name of SHOWN_HEADERS) {
      const v = response.headers.get(name);
      if (v !== null && name !== "x-ms-error-code") shown.push([name, v]);
    }
    const said = [];
    if (response.ok && op === "Put Message") {
      const [m] = messages(new TextDecoder().decode(body));
      const text = sent ? xml(sent).querySelector("MessageText")?.textContent : undefined;
      if (m) said.push(`${text === undefined ? "" : `"${clip(text)}" `}→ ${this.nameOf(m.messageId)}`);
    }
    if (tag) said.push(tag);
    const summary = said.join(" · ");
    const entry = {
      seq: ++this.#seq,
      at,
      actor,
      op,
      method,
      path: displayPath(url.pathname, query),
      url: url.pathname + url.search,
      status: response.status,
      code,
      headers: shown,
      summary,
      via: "sw",
    };
    this.onCall?.(entry);
    return { status: response.status, statusText: response.statusText, headers: [...response.headers], body };
  }

  async createQueue(actor, queue) {
    const r = await this.call(actor, "Create Queue", "PUT", `/${queue}`);
    return this.#record(r, r.status === 201 ? "created" : r.status === 204 ? "already exists" : "");
  }

  async deleteQueue(actor, queue) {
    return this.#record(await this.call(actor, "Delete Queue", "DELETE", `/${queue}`));
  }

  async listQueues(actor) {
    const r = await this.call(actor, "List Queues", "GET", "/", { query: { comp: "list" } });
    r.queues = r.ok ? [...xml(r.text).querySelectorAll("Queue > Name")].map((n) => n.textContent) : [];
    return this.#record(r, `${r.queues.length} queue(s)`);
  }

  /** Put Message. `visibilityTimeout` delays it (scheduled work); `messageTimeToLive` expires it. */
  async sendMessage(actor, queue, text, { visibilityTimeout, messageTimeToLive } = {}) {
    const query = {};
    if (visibilityTimeout) query.visibilitytimeout = String(visibilityTimeout);
    if (messageTimeToLive) query.messagettl = String(messageTimeToLive);
    const r = await this.call(actor, "Put Message", "POST", `/${queue}/messages`, {
      query,
      body: messageBody(text),
    });
    r.message = r.ok ? messages(r.text)[0] : undefined;
    return this.#record(r, r.message ? `"${clip(text)}" → ${this.nameOf(r.message.messageId)}` : "");
  }

  /** Get Messages: each returned message becomes invisible for `visibilityTimeout` seconds. */
  async receiveMessages(actor, queue, { numberOfMessages = 1, visibilityTimeout = 30 } = {}) {
    const r = await this.call(actor, "Get Messages", "GET", `/${queue}/messages`, {
      query: { numofmessages: String(numberOfMessages), visibilitytimeout: String(visibilityTimeout) },
    });
    r.messages = r.ok ? messages(r.text) : [];
    const summary = r.ok
      ? r.messages.length === 0
        ? "empty: nothing visible"
        : r.messages.map((m) => `${this.nameOf(m.messageId)} DequeueCount=${m.dequeueCount}`).join(", ")
      : "";
    r.empty = r.ok && r.messages.length === 0;
    return this.#record(r, summary);
  }

  async peekMessages(actor, queue, { numberOfMessages = 32 } = {}) {
    const r = await this.call(actor, "Peek Messages", "GET", `/${queue}/messages`, {
      query: { peekonly: "true", numofmessages: String(numberOfMessages) },
    });
    r.messages = r.ok ? messages(r.text) : [];
    return this.#record(r, `${r.messages.length} visible`);
  }

  async deleteMessage(actor, queue, messageId, popReceipt) {
    const r = await this.call(actor, "Delete Message", "DELETE", `/${queue}/messages/${messageId}`, {
      query: { popreceipt: popReceipt },
    });
    return this.#record(r, r.ok ? `deleted ${this.nameOf(messageId)}` : `${this.nameOf(messageId)} not deleted`);
  }

  /** Update Message: new text and/or a new visibility timeout; always a new pop receipt. */
  async updateMessage(actor, queue, messageId, popReceipt, { text, visibilityTimeout = 0 } = {}) {
    const r = await this.call(actor, "Update Message", "PUT", `/${queue}/messages/${messageId}`, {
      query: { popreceipt: popReceipt, visibilitytimeout: String(visibilityTimeout) },
      body: text === undefined ? undefined : messageBody(text),
    });
    if (r.ok) {
      r.popReceipt = r.headers.get("x-ms-popreceipt");
      r.nextVisibleOn = Date.parse(r.headers.get("x-ms-time-next-visible"));
    }
    return this.#record(r, r.ok ? `${this.nameOf(messageId)}${text === undefined ? "" : ` "${clip(text)}"`}` : "");
  }

  async clearMessages(actor, queue) {
    return this.#record(await this.call(actor, "Clear Messages", "DELETE", `/${queue}/messages`));
  }

  /** Get Queue Metadata: the approximate message count an autoscaler reads. */
  async getProperties(actor, queue) {
    const r = await this.call(actor, "Get Queue Metadata", "GET", `/${queue}`, { query: { comp: "metadata" } });
    r.approximateMessagesCount = Number(r.headers.get("x-ms-approximate-messages-count") ?? NaN);
    return this.#record(r, r.ok ? `${r.approximateMessagesCount} message(s)` : "");
  }

  /**
   * The engine's inspection view of one queue (every message, invisible ones too), served by
   * the same fetch handler under /_azqueue/. Not an Azure operation, so it is not logged.
   */
  async inspect(queue) {
    const url = new URL(this.#base).origin + `/_azqueue/inspect/${ACCOUNT}/${queue}`;
    const response = await this.#handler(new Request(url));
    if (!response.ok) return undefined;
    return response.json();
  }
}

/** The Azure operation a raw request is, from its method, path and query (for the log). */
export function operationOf(method, pathname, params) {
  const parts = pathname.split("/").filter(Boolean).slice(1); // after the account
  const comp = params.get("comp");
  if (method === "OPTIONS") return "Preflight";
  if (parts.length === 0) {
    if (comp === "list") return "List Queues";
    if (comp === "properties") return method === "PUT" ? "Set Service Properties" : "Get Service Properties";
    if (comp === "stats") return "Get Service Stats";
  } else if (parts.length === 1) {
    if (comp === "metadata") return method === "PUT" ? "Set Queue Metadata" : "Get Queue Metadata";
    if (comp === "acl") return method === "PUT" ? "Set Queue ACL" : "Get Queue ACL";
    if (method === "PUT") return "Create Queue";
    if (method === "DELETE") return "Delete Queue";
  } else if (parts[1] === "messages" && parts.length === 2) {
    if (method === "POST") return "Put Message";
    if (method === "DELETE") return "Clear Messages";
    if (method === "GET") return params.get("peekonly") === "true" ? "Peek Messages" : "Get Messages";
  } else if (parts[1] === "messages" && parts.length === 3) {
    if (method === "PUT") return "Update Message";
    if (method === "DELETE") return "Delete Message";
  }
  return `${method} request`;
}

function messageBody(text) {
  return `<QueueMessage><MessageText>${escapeXml(text)}</MessageText></QueueMessage>`;
}

function escapeXml(s) {
  return s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]);
}

function xml(text) {
  return new DOMParser().parseFromString(text.replace(/^\uFEFF/, ""), "application/xml");
}

/** QueueMessagesList → plain objects with SDK-style names. */
function messages(text) {
  if (!text) return [];
  return [...xml(text).querySelectorAll("QueueMessage")].map((el) => {
    const get = (name) => el.querySelector(name)?.textContent;
    const date = (name) => (get(name) ? Date.parse(get(name)) : undefined);
    return {
      messageId: get("MessageId"),
      popReceipt: get("PopReceipt"),
      insertedOn: date("InsertionTime"),
      expiresOn: date("ExpirationTime"),
      nextVisibleOn: date("TimeNextVisible"),
      dequeueCount: get("DequeueCount") === undefined ? undefined : Number(get("DequeueCount")),
      messageText: get("MessageText"),
    };
  });
}

/** Pop receipts are long; the log shows their first characters. */
function displayPath(path, query) {
  path = path.replace(/\/messages\/([0-9a-f]{8})[0-9a-f-]{28}$/, "/messages/$1…");
  const parts = Object.entries(query).map(([k, v]) => `${k}=${k === "popreceipt" ? `${v.slice(0, 6)}…` : v}`);
  return parts.length ? `${path}?${parts.join("&")}` : path;
}

export function short(messageId) {
  return messageId ? messageId.slice(0, 4) : "?";
}

function clip(text, n = 44) {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}
