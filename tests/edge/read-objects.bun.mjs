// Run by Bun (node_modules/.bin/bun), which reads SQLite: lists what each Durable Object file of
// a persisted class directory holds. Prints JSON { "<object id>": { queues: [...], messages: n,
// layout } } for every `<id>.sqlite` under the directory given as the argument.

import { Database } from 'bun:sqlite';
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
/** @type {Record<string, unknown>} */
const objects = {};
for (const file of fs.readdirSync(dir)) {
  if (!file.endsWith('.sqlite') || file === 'metadata.sqlite') continue;
  const db = new Database(path.join(dir, file), { readonly: true });
  const has = db
    .query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'azqueue_records'")
    .get();
  objects[file.slice(0, -'.sqlite'.length)] = has
    ? {
        queues: db
          .query("SELECT key FROM azqueue_records WHERE key LIKE 'queue/%' ORDER BY key")
          .all()
          .map((r) => r.key),
        messages: db
          .query("SELECT count(*) AS n FROM azqueue_records WHERE key LIKE 'message/%'")
          .get().n,
        layout:
          db.query("SELECT value FROM azqueue_edge WHERE name = 'layout'").get()?.value ?? null,
      }
    : { queues: [], messages: 0, layout: null };
  db.close();
}
console.log(JSON.stringify(objects));
