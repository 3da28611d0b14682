// Run by Bun (node_modules/.bin/bun), which reads SQLite: lists what each Durable Object file of
// a persisted class directory holds. Prints JSON { "<object id>": { queues: [...], messages: n,
// records: n, layout } } for every `<id>.sqlite` under the directory given as the argument:
// `messages` counts the rows of the queue's message table and its layout-1 message records
// alike, `records` those records alone (what an upgrade has not moved yet).

import { Database } from 'bun:sqlite';
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];

/** @param {Database} db */
function counts(db) {
  const records = db
    .query("SELECT count(*) AS n FROM azqueue_records WHERE key LIKE 'message/%'")
    .get().n;
  let rows = 0;
  const tables = db
    .query("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'azqueue_messages/%'")
    .all();
  for (const { name } of tables) {
    rows += db.query(`SELECT count(*) AS n FROM "${name}"`).get().n;
  }
  return { messages: records + rows, records };
}
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
        ...counts(db),
        layout:
          db.query("SELECT value FROM azqueue_edge WHERE name = 'layout'").get()?.value ?? null,
      }
    : { queues: [], messages: 0, records: 0, layout: null };
  db.close();
}
console.log(JSON.stringify(objects));
