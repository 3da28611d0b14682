// Run by Bun on a stopped queue object's SQLite file (scripts/edge-memory.mjs): copies its one
// message record into `count` messages with fresh ids and sequence numbers, as if they had been
// put one by one, so a cold load of many messages can be timed without putting each over HTTP.

import { Database } from 'bun:sqlite';

const [file, count] = [process.argv[2], Number(process.argv[3])];
const db = new Database(file);
const { key, value } = db
  .query("SELECT key, value FROM azqueue_records WHERE key LIKE 'message/%' LIMIT 1")
  .get();
const prefix = key.slice(0, key.lastIndexOf('/') + 1);
const template = JSON.parse(value);
const insert = db.prepare('INSERT OR REPLACE INTO azqueue_records (key, value) VALUES (?, ?)');
db.transaction(() => {
  for (let i = 1; i < count; i++) {
    const id = crypto.randomUUID();
    const m = [...template];
    m[2] = id;
    m[3] = template[3] + i;
    insert.run(`${prefix}${id}`, JSON.stringify(m));
  }
})();
db.close();
console.log(JSON.stringify({ messages: count }));
