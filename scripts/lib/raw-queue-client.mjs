// Queue operations over one raw keep-alive connection, each request signed with SharedKey as the
// SDKs sign it (path-style, `/account/queue…`). Used by the benchmarks, which count its errors.

import { Connection } from './http1-connection.mjs';
import { API_VERSION, DEV_ACCOUNT, sharedKey } from './shared-key.mjs';

/** @typedef {import('./http1-connection.mjs').Answer} Answer */

let cachedDate = '';
let cachedSecond = -1;
function msDate() {
  const s = Math.floor(Date.now() / 1000);
  if (s !== cachedSecond) {
    cachedSecond = s;
    cachedDate = new Date(s * 1000).toUTCString();
  }
  return cachedDate;
}

/**
 * One signed request as wire text, as `Client` sends it (also sent to the edge benchmark's floor
 * objects, so both sides get the same headers). `query` is [[name, decodedValue], …] (sent encoded).
 * SharedKey: the SDKs' string-to-sign, path-style resource `/account/account/queue…`.
 * @param {number} port
 * @param {string} method
 * @param {string} pathname
 * @param {[string, string][]} [query]
 */
export function signedRequest(port, method, pathname, query = [], body = '') {
  const date = msDate();
  const len = body.length;
  const type = len ? 'application/xml' : '';
  const auth = sharedKey(method, pathname, query, {
    'content-length': String(len),
    'content-type': type,
    'x-ms-date': date,
    'x-ms-version': API_VERSION,
  });
  const qs = query.length
    ? `?${query.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`
    : '';
  return (
    `${method} ${pathname}${qs} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-ms-date: ${date}\r\n` +
    `x-ms-version: ${API_VERSION}\r\nAuthorization: ${auth}\r\n` +
    `Content-Length: ${len}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n${body}`
  );
}

/**
 * The text between `open` and `close` at or after `from` in `buf`, and where it ends.
 * @param {Buffer} buf
 * @param {string} open
 * @param {string} close
 * @param {number} from
 */
function field(buf, open, close, from) {
  const start = buf.indexOf(open, from, 'latin1');
  if (start < 0) return null;
  const end = buf.indexOf(close, start, 'latin1');
  if (end < 0) return null;
  return {
    value: /** @type {any} latin1Slice: Node's, untyped */ (buf).latin1Slice(
      start + open.length,
      end,
    ),
    end: end + close.length,
  };
}

/** Queue operations on one connection. Each returns the number of messages it handled. */
export class Client {
  /**
   * @param {number} port
   * @param {string} queue
   */
  constructor(port, queue) {
    this.conn = new Connection(port);
    this.port = port;
    this.base = `/${DEV_ACCOUNT}/${queue}`;
    this.errors = 0;
    this.lastError = '';
  }

  /**
   * @param {Answer} res
   * @param {number} want
   */
  check(res, want) {
    if (res.status === want) return true;
    this.errors++;
    this.lastError = `${res.status} ${res.body.toString('utf8').slice(0, 200)}`;
    return false;
  }

  async createQueue() {
    const res = await this.conn.send(signedRequest(this.port, 'PUT', this.base));
    if (res.status !== 201 && res.status !== 204)
      throw new Error(`create queue: ${res.status} ${res.body}`);
  }

  async deleteQueue() {
    await this.conn.send(signedRequest(this.port, 'DELETE', this.base));
  }

  /** @param {string} body */
  async put(body) {
    const res = await this.conn.send(
      signedRequest(this.port, 'POST', `${this.base}/messages`, [], body),
    );
    return this.check(res, 201) ? 1 : 0;
  }

  /** Peek Messages(n); one when `n` is not given. */
  async peek(n = 0) {
    /** @type {[string, string][]} */
    const query = [['peekonly', 'true']];
    if (n) query.unshift(['numofmessages', String(n)]);
    const res = await this.conn.send(
      signedRequest(this.port, 'GET', `${this.base}/messages`, query),
    );
    return this.check(res, 200) ? 1 : 0;
  }

  /**
   * Get Messages(n); resolves [[id, popReceipt], …].
   * @param {number} n
   * @param {number} visibility
   */
  async receive(n, visibility) {
    const res = await this.conn.send(
      signedRequest(this.port, 'GET', `${this.base}/messages`, [
        ['numofmessages', String(n)],
        ['visibilitytimeout', String(visibility)],
      ]),
    );
    if (!this.check(res, 200)) return [];
    // Buffer.indexOf rather than a regex over the decoded text: a 32 × 48 KiB answer is 1.5 MB.
    /** @type {[string, string][]} */
    const out = [];
    const b = res.body;
    let at = 0;
    for (;;) {
      const id = field(b, '<MessageId>', '</MessageId>', at);
      if (!id) break;
      const receipt = field(b, '<PopReceipt>', '</PopReceipt>', id.end);
      if (!receipt) break;
      out.push([id.value, receipt.value]);
      at = receipt.end;
    }
    return out;
  }

  /**
   * @param {string} id
   * @param {string} receipt
   */
  async delete(id, receipt) {
    const res = await this.conn.send(
      signedRequest(this.port, 'DELETE', `${this.base}/messages/${id}`, [['popreceipt', receipt]]),
    );
    return this.check(res, 204) ? 1 : 0;
  }

  close() {
    this.conn.close();
  }
}
