// Run by Bun (which reads SQLite) on a stopped object's file: marks it as written by the layout
// version given (a later one, which this build must refuse). Prints JSON { layout }.

import { Database } from 'bun:sqlite';

const [file, layout] = process.argv.slice(2);
const db = new Database(file);
db.run("UPDATE azqueue_edge SET value = ? WHERE name = 'layout'", [layout]);
db.close();
console.log(JSON.stringify({ layout }));
