// A benchmark step that survives workerd closing a keep-alive connection under a request: on a
// loaded machine workerd can close one as the next request arrives (its idle timer runs on a
// clock that moves only when its event loop polls), which says nothing about what is measured.

import { Connection } from './http1-connection.mjs';

/** @typedef {{ dropped: number, slowest: number }} StepStats */

/**
 * `step` with its client's connection replaced when it was closed under a request: counted in
 * `stats.dropped`, and the request counted as not done (0). `stats.slowest` keeps the slowest
 * request (ms).
 * @template {{ conn: Connection, port: number }} C
 * @param {(c: C) => Promise<number | null>} step
 * @param {StepStats} stats
 * @returns {(c: C) => Promise<number | null>}
 */
export function reconnecting(step, stats) {
  return async (c) => {
    const t0 = performance.now();
    try {
      return await step(c);
    } catch (err) {
      if (!/connection closed|ECONNRESET|EPIPE/.test(String(err))) throw err;
      stats.dropped++;
      c.conn.close();
      c.conn = new Connection(c.port);
      return 0;
    } finally {
      stats.slowest = Math.max(stats.slowest, performance.now() - t0);
    }
  };
}
