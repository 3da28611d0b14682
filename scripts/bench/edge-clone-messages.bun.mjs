// Run by Bun on a stopped queue object's SQLite file (scripts/bench/edge-memory.mjs): copies the one
// message of its queue's table (`azqueue_messages/<account>/<queue>`, src/store/sql/schema.rs)
// into `count` messages with fresh ids and sequence numbers, as if they had been put one by one,
// and sets the table's kept counts to match, so a queue of any depth can be measured without
// putting each message over HTTP. Prints JSON { messages }: 0, changing nothing, for an object
// whose queue holds no message to copy.

import { Database } from 'bun:sqlite';

const [file, count] = [process.argv[2], Number(process.argv[3])];
const db = new Database(file);
const found = db
  .query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'azqueue_tables'")
  .get();
const { name } =
  (found && db.query('SELECT name FROM azqueue_tables WHERE messages > 0').get()) ?? {};
if (!name) {
  console.log(JSON.stringify({ messages: 0 }));
  process.exit(0);
}
const t = `"${name}"`;
const template = db.query(`SELECT * FROM ${t} LIMIT 1`).get();
const insert = db.prepare(
  `INSERT INTO ${t} (seq, id, text, bytes, inserted, expires, visible, dequeues, receipt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const CHUNK = 50_000;
for (let from = 1; from < count; from += CHUNK) {
  db.transaction(() => {
    for (let seq = from; seq < Math.min(count, from + CHUNK); seq++) {
      insert.run(
        seq + template.seq,
        crypto.randomUUID(),
        template.text,
        template.bytes,
        template.inserted,
        template.expires,
        template.visible,
        template.dequeues,
        template.receipt,
      );
    }
  })();
}
const { n, bytes, last } = db
  .query(`SELECT count(*) AS n, sum(bytes) AS bytes, max(seq) AS last FROM ${t}`)
  .get();
// The charge per message is its text's bytes plus 512 (src/engine/capacity.rs).
db.run('UPDATE azqueue_tables SET messages = ?, bytes = ?, next_seq = ? WHERE name = ?', [
  n,
  bytes + n * 512,
  last + 1,
  name,
]);
db.close();
console.log(JSON.stringify({ messages: n }));
