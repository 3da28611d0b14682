// Run by Bun on a stopped Worker's persisted class directory (e.g. `<persist>/-DirectoryObject`):
// prints JSON { "<object id>": { "<table>": [rows…] } } with every row of every table of every
// object's SQLite file (SQLite's own tables aside), so a test can show that a request changed
// nothing at all.

import { Database } from 'bun:sqlite';
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
/** @type {Record<string, Record<string, unknown[]>>} */
const objects = {};
for (const file of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) {
  if (!file.endsWith('.sqlite') || file === 'metadata.sqlite') continue;
  const db = new Database(path.join(dir, file), { readonly: true });
  /** @type {Record<string, unknown[]>} */
  const tables = {};
  const names = db
    .query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all()
    .map((r) => /** @type {{ name: string }} */ (r).name)
    .sort();
  for (const name of names) tables[name] = db.query(`SELECT * FROM "${name}"`).all();
  objects[file.slice(0, -'.sqlite'.length)] = tables;
  db.close();
}
console.log(JSON.stringify(objects));
