// The floor objects of the edge benchmarks (edge-floor-worker.mjs) as Node drives them: the
// Miniflare options that run them beside the azqueue Worker, and a client that puts to one.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workerOptions } from '../../hosts/edge/miniflare-options.mjs';
import { Connection } from './http1-connection.mjs';
import { signedRequest } from './raw-queue-client.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The bare floor's path prefix, and the one that stores as azqueue's table does. */
export const FLOOR = '/_floor/';
export const TABLE_FLOOR = '/_floor-table/';

/**
 * Miniflare options for the azqueue Worker with both floor objects, on `persist`'s SQLite files.
 * @param {string} persist
 */
export function floorOptions(persist) {
  const options = workerOptions({ persist, scriptPath: path.join(HERE, 'edge-floor-worker.mjs') });
  return {
    ...options,
    durableObjects: {
      ...options.durableObjects,
      FLOOR: { className: 'FloorObject', useSQLite: true },
      TABLE_FLOOR: { className: 'TableFloorObject', useSQLite: true },
    },
  };
}

/**
 * Puts to a floor object over one keep-alive connection: the request azqueue's clients send
 * (the same headers, signed for the floor's path, and body), so the platform's cost of
 * receiving it is the same on every side.
 */
export class FloorClient {
  /**
   * @param {number} port
   * @param {string} name the floor object's name
   * @param {string} [prefix] FLOOR or TABLE_FLOOR
   */
  constructor(port, name, prefix = FLOOR) {
    this.conn = new Connection(port);
    this.port = port;
    this.path = `${prefix}${name}`;
    this.errors = 0;
    this.lastError = '';
  }

  /** @param {string} body */
  async put(body) {
    const res = await this.conn.send(signedRequest(this.port, 'POST', this.path, [], body));
    if (res.status === 201) return 1;
    this.errors++;
    this.lastError = `${res.status} ${res.body.toString('utf8').slice(0, 200)}`;
    return 0;
  }

  close() {
    this.conn.close();
  }
}
