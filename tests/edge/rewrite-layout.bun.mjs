// Run by Bun (which reads SQLite) on a stopped object's file: `older` rewrites it as an earlier
// build stored it (no layout row, message values in azqueue's record schema 1, no schema
// record); `newer` marks it as written by a later layout this build must refuse.

import { Database } from 'bun:sqlite';

const [file, mode] = process.argv.slice(2);
const db = new Database(file);
if (mode === 'older') {
  const fields = [
    'id',
    'seq',
    'text',
    'insertion_time',
    'expiration_time',
    'time_next_visible',
    'dequeue_count',
    'pop_receipt',
  ];
  const rows = db.query("SELECT key, value FROM azqueue_records WHERE key LIKE 'message/%'").all();
  const update = db.prepare('UPDATE azqueue_records SET value = ? WHERE key = ?');
  for (const { key, value } of rows) {
    const [account, queue, ...rest] = JSON.parse(value);
    const message = Object.fromEntries(fields.map((f, i) => [f, rest[i]]));
    update.run(JSON.stringify({ account, queue, message }), key);
  }
  db.run("DELETE FROM azqueue_records WHERE key = 'meta/schema'");
  db.run("DELETE FROM azqueue_edge WHERE name = 'layout'");
  console.log(JSON.stringify({ rewritten: rows.length }));
} else if (mode === 'newer') {
  db.run("UPDATE azqueue_edge SET value = '2' WHERE name = 'layout'");
  console.log(JSON.stringify({ layout: 2 }));
}
db.close();
