// The WAL sequence of `tests/support/idb_wal_sequence.rs` through the shipped package: pkg/web's
// glue and module as a page uses them, its "indexeddb" store on fake-indexeddb, in JavaScriptCore
// alone (jsc-run). Each pass opens a database of its own and does the test's 250 rounds (20 puts at
// once, so they share one commit; a receive of 5; 3 deletes at once), checking every receive
// against a model of the queue; then, with the service still open (as a crash leaves the database:
// the log not folded), opens a second service on the same database and compares its snapshot with
// the first's. `passes` comes from jsc-run; the result is in `__result` ("ok: N passes" or what
// went wrong at which pass) once `__tick()` has run every task.
import './globals.mjs';
import 'fake-indexeddb/auto';
import { initSync, QueueService } from '../../../../pkg/web/azqueue.js';

const g = /** @type {any} */ (globalThis);
const now = () => 1_700_000_000_000;

/** One pass on database `name`: null if everything came back as the model says, else why not. */
async function pass(/** @type {number} */ seed, /** @type {string} */ name) {
  const open = () => QueueService.open({ store: 'indexeddb', name, now, seed });
  const service = await open();
  const q = await service.createQueue('wal');
  /** The texts still in the queue and visible, oldest first (the clock stands still). */
  const visible = [];
  for (let round = 0; round < 250; round++) {
    const texts = Array.from({ length: 20 }, (_, i) => `m ${round} ${i}`);
    await Promise.all(
      texts.map((t) => q.sendMessage(t, { visibilityTimeout: 0, messageTimeToLive: -1 })),
    );
    visible.push(...texts);
    const got = (await q.receiveMessages({ numberOfMessages: 5, visibilityTimeout: 30 }))
      .receivedMessageItems;
    const want = visible.splice(0, 5);
    const texts5 = got.map((/** @type {any} */ m) => m.messageText);
    if (JSON.stringify(texts5) !== JSON.stringify(want)) {
      return `round ${round}: received ${JSON.stringify(texts5)}, the model says ${JSON.stringify(want)}`;
    }
    for (const m of got) {
      if (m.dequeueCount !== 1 || typeof m.popReceipt !== 'string' || m.popReceipt.length < 8) {
        return `round ${round}: received ${JSON.stringify(m)}`;
      }
    }
    await Promise.all(
      got.slice(0, 3).map((/** @type {any} */ m) => q.deleteMessage(m.messageId, m.popReceipt)),
    );
  }
  const before = await service.exportSnapshot();
  const reopened = await open();
  const after = await reopened.exportSnapshot();
  if (after !== before) {
    let at = 0;
    while (at < before.length && before[at] === after[at]) at++;
    return `the reopened database's state parts from the engine's at ${at} of ${before.length}: ${JSON.stringify(before.slice(at, at + 120))} against ${JSON.stringify(after.slice(at, at + 120))}`;
  }
  const rest = JSON.parse(after).accounts?.[0]?.queues?.[0]?.messages?.length;
  await reopened.close();
  await service.close();
  return rest === 250 * 17 ? null : `the snapshot holds ${rest} messages, the model ${250 * 17}`;
}

async function main() {
  // Synchronously, as run.js: jsc-run runs no event loop, where an asynchronous compile's
  // result would arrive. A page compiles asynchronously; both tier up the same way after.
  initSync({ module: g.wasmBytes });
  for (let p = 0; p < g.passes; p++) {
    const wrong = await pass(p + 1, `seq-${p}`);
    if (wrong) return `pass ${p}: ${wrong}`;
  }
  return `ok: ${g.passes} passes`;
}

g.__result = undefined;
main().then(
  (r) => (g.__result = r),
  (e) => (g.__result = `error: ${e} ${e?.stack ?? ''}\n${g.__logged.join('\n')}`),
);
/** jsc-run calls this until it returns something other than "pending". */
g.__tick = () => {
  if (g.__result !== undefined) return g.__result;
  const task = g.__tasks.shift();
  if (!task) return `stuck: no result and no task queued\n${g.__logged.join('\n')}`;
  task();
  return 'pending';
};
