// The soak's edge host: the edge Worker and its Durable Objects under workerd (hosts/edge/dev.mjs,
// miniflare 4), their SQLite storage persisted to a temporary directory, driven over loopback
// HTTP by the workload in this process. Halfway through, workerd is SIGKILLed with its launcher
// and started again on the same storage, while the workload keeps going: what was acknowledged
// before the kill must all be there after it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEdge } from '../lib/edge-server.mjs';
import { processTree, rssMiB } from './process-memory.mjs';
import { now, presentOverHttp, sdkClient } from './server-host.mjs';
import { watchedClient } from './fault-watch.mjs';
import { createQueues, runWorkload } from './workload.mjs';

/** @import { LedgerLike, SoakHost } from './workload.mjs' */

/**
 * A soak host (see soak.mjs) for the edge Worker; with `faults`, the rule set (faults.mjs) is
 * its AZQUEUE_FAULTS, which every object reads as it opens (again after the restart, with its
 * counts from 0). The edge answers no request for its rules' counts, so the soak counts the
 * faulted answers its clients got.
 * @param {{ faults?: object }} [options]
 * @returns {Promise<SoakHost>}
 */
export async function edgeHost({ faults } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azqueue-soak-edge-'));
  /** @type {Record<string, string>} */
  const env = faults ? { AZQUEUE_FAULTS: JSON.stringify(faults) } : {};
  const start = () => startEdge({ args: ['--persist', dir], env });
  let edge = await start();
  /** @type {LedgerLike | undefined} the run's, once it starts (the clients report to it) */
  let watching;
  const connect = () =>
    watching
      ? watchedClient(edge.connectionString, watching, now)
      : sdkClient(edge.connectionString);
  let client = connect();
  /** @type {{ from: number, to: number }[]} */
  const outages = [];
  /** @type {string[]} */
  const events = [];

  /**
   * SIGKILLs dev.mjs and workerd mid-soak, then starts them again on the same storage.
   * @param {number} started
   */
  const restart = async (started) => {
    const outage = { from: now(), to: Infinity };
    outages.push(outage);
    await edge.kill();
    const killedAt = now();
    edge = await start();
    client = connect();
    outage.to = now();
    events.push(
      `workerd SIGKILLed at ${((outage.from - started) / 1000).toFixed(1)} s with the workload running, serving again ` +
        `${((outage.to - killedAt) / 1000).toFixed(1)} s later`,
    );
  };

  return {
    title: 'edge Worker, workerd',
    /** Whether an operation sent at `startedAt` that got no answer was cut off by the restart. */
    interrupted: (startedAt) => outages.some((o) => startedAt <= o.to && now() >= o.from),
    events,
    async run({ ledger, seconds, churnEveryMs, failed }) {
      if (faults) {
        watching = ledger;
        client = connect();
      }
      // The first request loads workerd's objects (seconds on a loaded machine): not soak time.
      await createQueues(client);
      const started = now();
      const until = started + seconds * 1000;
      const midway = new Promise((resolve) => setTimeout(resolve, (seconds * 1000) / 2)).then(() =>
        restart(started),
      );
      await runWorkload({ client: () => client, ledger, now, until, churnEveryMs, failed });
      await midway;
    },
    async memory() {
      // workerd, not its Node launcher (dev.mjs); the isolate's wasm memory from its object.
      const workerd = processTree(/** @type {number} spawned */ (edge.child.pid)).slice(1);
      /** @type {Record<string, number>} */
      const figures = {};
      // None while it is being restarted: no figure for this sample.
      if (workerd.length) figures['workerd RSS'] = workerd.reduce((sum, p) => sum + rssMiB(p), 0);
      try {
        const r = await fetch(`${edge.origin}/_azqueue/memory/devstoreaccount1/soak-a`);
        if (r.ok) figures['wasm memory'] = (await r.json()).wasmMemoryBytes / 2 ** 20;
      } catch {
        // restarting: no figure for this sample
      }
      return figures;
    },
    present: (queues) => presentOverHttp(edge.origin, queues),
    injected: async () => null,
    async stop() {
      await edge.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
