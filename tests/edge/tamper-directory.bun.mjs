// Run by Bun on a stopped directory object's file: leaves it as a crash between the two objects'
// steps would (tests/edge/directory.test.mjs). `read Q` prints the listed copy of queue Q;
// `unlist Q` drops it, `relist Q VALUE` puts it back; both leave the pending intent that the
// Worker records before it forwards a Create or Delete Queue.

import { Database } from 'bun:sqlite';

const [file, mode, queue, value] = process.argv.slice(2);
const key = `queue/devstoreaccount1/${queue}`;
const db = new Database(file);
if (mode === 'read') {
  console.log(
    JSON.stringify(
      db.query('SELECT value FROM azqueue_records WHERE key = ?').get(key)?.value ?? null,
    ),
  );
} else {
  db.transaction(() => {
    if (mode === 'unlist') db.run('DELETE FROM azqueue_records WHERE key = ?', [key]);
    else if (mode === 'relist')
      db.run('INSERT OR REPLACE INTO azqueue_records (key, value) VALUES (?, ?)', [key, value]);
    db.run('INSERT INTO azqueue_pending (queue, since) VALUES (?, ?)', [queue, Date.now()]);
  })();
  console.log(JSON.stringify(mode));
}
db.close();
