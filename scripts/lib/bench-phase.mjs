// One benchmark phase: clients driven in a loop against a server until a deadline, with the
// server's CPU time (from /proc) and the load generator's own.

import { STALL_MS } from './http1-connection.mjs';
import { cpuSeconds } from './bench-server.mjs';

/**
 * @typedef {import('./bench-server.mjs').Server} Server
 * @typedef {{ count: number, seconds: number, rate: number, serverCpu: number,
 *   clientCpu: number, errors: number, lastError: string }} Measured one phase's figures
 */

/**
 * Runs `step(client)` on every client in a loop until `deadline` (or `step` resolves to null:
 * nothing left to do); returns { count, seconds, serverCpu, clientCpu, errors, lastError }.
 * @template {{ errors: number, lastError: string, close(): void }} C a Client, or anything
 *   that counts its errors the same way
 * @param {Pick<Server, 'name' | 'pid'>} server the process doing the work (its CPU is read)
 * @param {C[]} clients
 * @param {number} ms
 * @param {(client: C) => Promise<number | null>} step
 * @returns {Promise<Measured>}
 */
export async function phase(server, clients, ms, step, maxCount = Infinity) {
  const cpu0 = cpuSeconds(server.pid);
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + ms;
  let count = 0;
  const work = Promise.all(
    clients.map(async (c) => {
      while (performance.now() < deadline && count < maxCount) {
        const n = await step(c);
        if (n === null) break;
        count += n;
      }
    }),
  );
  // A server that stops answering must not stall the whole run: after the deadline plus a
  // grace period, drop the connections and fail the phase.
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const stalled = new Promise((resolve) => {
    timer = setTimeout(resolve, ms + STALL_MS, 'stalled');
  });
  const outcome = await Promise.race([work.then(() => 'done'), stalled]);
  clearTimeout(timer);
  if (outcome === 'stalled') {
    work.catch(() => {});
    for (const c of clients) c.close();
    throw new Error(
      `${server.name} answered nothing for ${STALL_MS / 1000} s after the phase's end; its connections were dropped`,
    );
  }
  const seconds = (performance.now() - t0) / 1000;
  const serverCpu = cpuSeconds(server.pid) - cpu0;
  const cu = process.cpuUsage(client0);
  const errors = clients.reduce((s, c) => s + c.errors, 0);
  const lastError = clients.find((c) => c.lastError)?.lastError ?? '';
  for (const c of clients) {
    c.errors = 0;
    c.lastError = '';
  }
  return {
    count,
    seconds,
    rate: count / seconds,
    serverCpu,
    clientCpu: (cu.user + cu.system) / 1e6,
    errors,
    lastError,
  };
}
