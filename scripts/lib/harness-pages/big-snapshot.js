// A snapshot document (`exportSnapshot()`'s format) holding `count` messages in one queue `big`:
// what the reopen benchmarks import, in the page (work.js) and in Node (bench-persistence.mjs).

/**
 * The document, as an object (`importSnapshot` takes it as it is or as JSON).
 * @param {number} count
 */
export function bigSnapshot(count) {
  const now = Date.now();
  const messages = [];
  for (let i = 0; i < count; i++) {
    messages.push({
      id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      seq: i,
      text: `message ${i}`,
      insertion_time: now,
      expiration_time: 253402300799000,
      time_next_visible: now,
      dequeue_count: 0,
      pop_receipt: 'AAAAAAAAAAAAAAAAAAAAAA==',
    });
  }
  return {
    format: 'azqueue-snapshot',
    version: 1,
    accounts: [
      {
        name: 'devstoreaccount1',
        properties: null,
        queues: [{ queue: { name: 'big', metadata: {}, acl: [] }, messages }],
      },
    ],
  };
}
