// A minimal keep-alive HTTP/1.1 client connection on a raw socket: one request at a time, the
// answer read by Content-Length or chunked framing. The benchmarks drive servers through it so the
// servers, not an HTTP library, are the bottleneck.

import net from 'node:net';

/** How long an answer may take before the server counts as stalled and the connection is dropped. */
export const STALL_MS = 15_000;

/** @typedef {{ status: number, body: Buffer }} Answer */

export class Connection {
  /** @param {number} port */
  constructor(port) {
    this.port = port;
    /** @type {{ resolve: (res: Answer) => void, reject: (err: Error) => void } | null} */
    this.waiting = null;
    /** @type {Buffer | null} what has arrived and is not parsed yet */
    this.buf = null;
    /** @type {Buffer[]} */
    this.chunks = [];
    this.have = 0;
    this.need = 0;
    /** Whether the server closed the connection (a keep-alive connection left idle, e.g.). */
    this.closed = false;
    this.socket = this.open();
  }

  /** A new socket to the port, its events wired to this connection. */
  open() {
    const socket = net.connect(this.port, '127.0.0.1');
    socket.setNoDelay(true);
    socket.on('data', (d) => this.onData(d));
    socket.on('error', (e) => this.fail(e));
    socket.on('close', () => {
      this.closed = true;
      this.fail(new Error('connection closed'));
    });
    return socket;
  }

  /** @param {Error} err */
  fail(err) {
    const w = this.waiting;
    this.waiting = null;
    if (w) w.reject(err);
  }

  /**
   * Sends one request (head string + optional body string); resolves { status, body }.
   * @param {string} text
   * @returns {Promise<Answer>}
   */
  send(text) {
    return new Promise((resolve, reject) => {
      // No answer within STALL_MS: the server is stuck; drop the connection.
      const timer = setTimeout(() => {
        this.fail(new Error(`no answer within ${STALL_MS / 1000} s`));
        this.close();
      }, STALL_MS);
      this.waiting = {
        resolve: (res) => {
          clearTimeout(timer);
          resolve(res);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      // A server may close a keep-alive connection that sat idle (workerd after 5 s): as HTTP
      // clients do, a request after that goes on a new connection.
      if (this.closed) {
        this.buf = null;
        this.chunks = [];
        this.closed = false;
        this.socket = this.open();
      }
      this.socket.write(text, 'latin1');
    });
  }

  // Chunks are kept in a list until a whole response is there (concatenating on every chunk
  // would copy a 1.5 MB Get Messages answer dozens of times).
  /** @param {Buffer} chunk */
  onData(chunk) {
    if (this.buf) {
      this.chunks.push(chunk);
      this.have += chunk.length;
      if (this.have < this.need) return;
      this.buf = Buffer.concat([this.buf, ...this.chunks]);
      this.chunks = [];
    } else {
      this.buf = chunk;
    }
    this.parse();
  }

  parse() {
    const buf = /** @type {Buffer} data arrived */ (this.buf);
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return this.wait(buf.length + 1);
    const head = /** @type {any} latin1Slice: Node's, untyped */ (buf).latin1Slice(0, end);
    const status = Number(head.slice(9, 12));
    let bodyStart = end + 4;
    let body;
    const cl = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (cl) {
      const len = Number(cl[1]);
      if (buf.length < bodyStart + len) return this.wait(bodyStart + len);
      body = buf.subarray(bodyStart, bodyStart + len);
      bodyStart += len;
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      /** @type {Buffer[]} */
      const parts = [];
      let at = bodyStart;
      for (;;) {
        const lineEnd = buf.indexOf('\r\n', at);
        if (lineEnd < 0) return this.wait(buf.length + 1);
        const size = parseInt(
          /** @type {any} latin1Slice: Node's, untyped */ (buf).latin1Slice(at, lineEnd),
          16,
        );
        if (buf.length < lineEnd + 2 + size + 2) return this.wait(lineEnd + 2 + size + 2);
        if (size === 0) {
          at = lineEnd + 4;
          break;
        }
        parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
      bodyStart = at;
    } else {
      body = Buffer.alloc(0); // 204/304: no body
    }
    this.buf = bodyStart < buf.length ? buf.subarray(bodyStart) : null;
    const w = this.waiting;
    this.waiting = null;
    if (w) w.resolve({ status, body });
  }

  /**
   * Waits until `need` bytes are buffered before parsing again.
   * @param {number} need
   */
  wait(need) {
    this.need = need;
    this.have = /** @type {Buffer} */ (this.buf).length;
  }

  close() {
    this.socket.removeAllListeners('close');
    this.socket.destroy();
  }
}
