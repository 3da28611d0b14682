// Records what clients send to `www/server.mjs`, for the fuzz corpus: preload it into the
// server processes of a test run and every queue connection's inbound bytes land in
// $AZQUEUE_CAPTURE/<pid>-<n>.http, exactly as received (pipelining and splits included).
//
//   AZQUEUE_CAPTURE=/tmp/capture NODE_OPTIONS="--import $PWD/fuzz/capture.mjs" \
//     node --test tests/e2e/
//
// Then `cargo run --release --example fuzz -- distill /tmp/capture` keeps one request of each
// shape in tests/fixtures/fuzz/sdk-requests.http. Dev tooling only: nothing imports it.

import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const dir = process.env.AZQUEUE_CAPTURE;
const isServer = /www[\\/]server\.mjs$/.test(process.argv[1] ?? '');

if (dir && isServer) {
  fs.mkdirSync(dir, { recursive: true });
  const createServer = net.createServer;
  let next = 0;
  /**
   * net.createServer, recording each connection's bytes on the way in.
   * @param {net.ServerOpts | ((socket: net.Socket) => void)} [options]
   * @param {(socket: net.Socket) => void} [listener]
   */
  net.createServer = function capturing(options, listener) {
    const [opts, onConnection] =
      typeof options === 'function' ? [{}, options] : [options, listener];
    return createServer.call(net, opts, (socket) => {
      const file = path.join(dir, `${process.pid}-${next++}.http`);
      socket.on('data', (chunk) => fs.appendFileSync(file, chunk));
      /** @type {(socket: net.Socket) => void} www/server.mjs always passes one */ (onConnection)(
        socket,
      );
    });
  };
}
