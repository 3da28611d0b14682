// Run by Bun (which reads SQLite) on a stopped queue object's file: rewrites it as layout 1 kept
// it, every message an `azqueue_records` row (`message/<account>/<queue>/<id>`) and no message
// table, so a test can watch this build upgrade it. Usage: <file> <schema> [count]
// - schema 2: values as JSON arrays and the layout row '1' (the layout before message tables);
//   schema 1: values as `{ account, queue, message }` objects, no layout row and no schema
//   record (as the earliest builds stored them through storage adapters);
// - count: the first message is cloned into `count` messages with fresh ids and sequence
//   numbers (as if put one by one), instead of each message converted as it is.
// Prints JSON { messages: n }.

import { Database } from 'bun:sqlite';

const [file, schema, count] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const db = new Database(file);
const { name } = db.query('SELECT name FROM azqueue_tables').get();
const [, account, queue] = name.split('/');
const rows = db
  .query(
    `SELECT seq, id, text, inserted, expires, visible, dequeues, receipt FROM "${name}" ORDER BY seq`,
  )
  .all();
const messages =
  count === undefined
    ? rows
    : Array.from({ length: Number(count) }, (_, i) => ({
        ...rows[0],
        id: crypto.randomUUID(),
        seq: i,
      }));
const insert = db.prepare('INSERT INTO azqueue_records (key, value) VALUES (?, ?)');
db.transaction(() => {
  for (const m of messages) {
    const fields = [m.id, m.seq, m.text, m.inserted, m.expires, m.visible, m.dequeues, m.receipt];
    const value =
      schema === 1
        ? {
            account,
            queue,
            message: {
              id: m.id,
              seq: m.seq,
              text: m.text,
              insertion_time: m.inserted,
              expiration_time: m.expires,
              time_next_visible: m.visible,
              dequeue_count: m.dequeues,
              pop_receipt: m.receipt,
            },
          }
        : [account, queue, ...fields];
    insert.run(`message/${account}/${queue}/${m.id}`, JSON.stringify(value));
  }
  db.run(`DROP TABLE "${name}"`);
  db.run('DROP TABLE azqueue_tables');
  if (schema === 1) {
    db.run("DELETE FROM azqueue_records WHERE key = 'meta/schema'");
    db.run("DELETE FROM azqueue_edge WHERE name = 'layout'");
  } else {
    db.run("UPDATE azqueue_edge SET value = '1' WHERE name = 'layout'");
  }
})();
db.close();
console.log(JSON.stringify({ messages: messages.length }));
