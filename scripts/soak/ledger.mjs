// The soak's ledger: what the clients were told (acknowledged puts, deliveries, updates, deletes,
// clears), checked at the end against what the store holds. Every soak host uses this one ledger;
// the workload (workload.mjs) feeds it, in Node directly, from a browser page through a binding.
//
// The invariant, per store:
//   - every acknowledged put was delivered at least once or is still there at the end (unless a
//     clear or a delete of its queue was acknowledged after the put was);
//   - nothing is delivered after its delete was acknowledged;
//   - a message's DequeueCount grows with every delivery, and the text delivered is one that was
//     acknowledged for it (its put or an update).
// With faults (soak.mjs --faults), the transport (fault-watch.mjs) reports every try the SDK
// made, so the ledger also holds the service to what each faulted answer meant:
//   - a text is found (delivered, or there at the end) in exactly as many messages as tries put
//     it: each try answered 201 or by a fault after the operation put one (the SDK's retry makes
//     the copy a producer never hears of), a try refused by a fault before put none; where a try
//     got no answer at all, at least as many;
//   - a message whose delete was answered by a fault after it is never delivered again, as if
//     the delete had been acknowledged.
//
// Times are the workload's clock, passed in with each event (a page's clock is not Node's, and a
// reloaded page's performance.now() starts again), so every comparison is on one clock.

export class Ledger {
  /**
   * id → { queue, texts: Set, sentAt } for every acknowledged put.
   * @type {Map<string, { queue: string, texts: Set<string>, sentAt: number }>}
   */
  puts = new Map();
  /**
   * id → the DequeueCounts delivered (each delivery must bring a new, higher one).
   * @type {Map<string, Set<number>>}
   */
  dequeues = new Map();
  /** @type {Set<string>} */
  delivered = new Set();
  /**
   * id → when its delete was acknowledged.
   * @type {Map<string, number>}
   */
  deleted = new Map();
  /**
   * queue → when its last clear or delete was acknowledged.
   * @type {Map<string, number>}
   */
  wipedAt = new Map();
  /**
   * queue → acknowledged puts not yet deleted (the producers hold it near a fixed depth).
   * @type {Map<string, number>}
   */
  depth = new Map();
  /**
   * Texts noted by updates of messages whose put was not yet acknowledged to the producer.
   * @type {Map<string, Set<string>>}
   */
  updatedTexts = new Map();
  /**
   * With faults: text → what the tries to put it did (how many put a message, whether one got
   * no answer) and when the first was sent.
   * @type {Map<string, { queue: string, applied: number, unknown: boolean, firstAt: number }>}
   */
  tries = new Map();
  /**
   * With faults: text as put (an update's `+u` taken off) → the ids found with it.
   * @type {Map<string, Set<string>>}
   */
  copies = new Map();
  /**
   * Faulted answers the clients got, by `operation when`.
   * @type {Map<string, number>}
   */
  faults = new Map();
  /** @type {string[]} */
  violations = [];
  stats = {
    puts: 0,
    receives: 0,
    deliveries: 0,
    deletes: 0,
    updates: 0,
    expired: 0,
    clears: 0,
    queueDeletes: 0,
    /** Operations the SDK gave up on, every try answered by a fault. */
    gaveUp: 0,
    /** With faults: the SDK's tries of the faulted operations, retries included. */
    tries: 0,
  };

  /** @param {{ faults?: boolean }} [options] `faults`: count copies of each text */
  constructor({ faults = false } = {}) {
    this.countCopies = faults;
  }

  /** @param {string} queue */
  unsettled(queue) {
    return this.depth.get(queue) ?? 0;
  }

  /**
   * Counts an event that needs no checking (a receive, an update's answer, a clear).
   * @param {string} stat one of `stats`' names
   */
  note(stat) {
    /** @type {Record<string, number>} */ (this.stats)[stat]++;
  }

  /**
   * @param {string} queue
   * @param {string} id
   * @param {string} text
   * @param {number} sentAt
   */
  put(queue, id, text, sentAt) {
    // A put's answer may be read after a consumer already received and updated the message
    // (the two run on different connections), so keep any text an update noted meanwhile.
    const texts = this.updatedTexts.get(id) ?? new Set();
    texts.add(text);
    this.puts.set(id, { queue, texts, sentAt });
    this.depth.set(queue, this.unsettled(queue) + 1);
    this.stats.puts++;
  }

  /**
   * `m` came from a receive sent at `askedAt` (answers may be read out of order under load).
   * @param {{ messageId: string, messageText: string, dequeueCount: number }} m
   * @param {number} askedAt
   */
  deliver(m, askedAt) {
    this.stats.deliveries++;
    const id = m.messageId;
    if (askedAt > (this.deleted.get(id) ?? Infinity)) {
      this.violations.push(`delivered after its delete was acknowledged: ${id}`);
    }
    const put = this.puts.get(id);
    if (put && !put.texts.has(m.messageText)) {
      this.violations.push(
        `${id} delivered with text ${JSON.stringify(m.messageText)}, never acknowledged for it`,
      );
    }
    const counts = this.dequeues.get(id) ?? new Set();
    if (counts.has(m.dequeueCount))
      this.violations.push(`${id}: DequeueCount ${m.dequeueCount} delivered twice`);
    counts.add(m.dequeueCount);
    this.dequeues.set(id, counts);
    this.delivered.add(id);
    this.found(id, m.messageText);
  }

  /**
   * A message `id` with `text` was delivered or is there at the end.
   * @param {string} id
   * @param {string} text
   */
  found(id, text) {
    if (!this.countCopies) return;
    const put = text.replace(/(\+u)+$/, '');
    const ids = this.copies.get(put) ?? new Set();
    ids.add(id);
    this.copies.set(put, ids);
  }

  /**
   * One try (of the SDK's) to put `text` was answered: it put a message (`applied`), put none
   * (`refused`) or got no answer (`unknown`).
   * @param {string} queue
   * @param {string} text
   * @param {'applied' | 'refused' | 'unknown'} outcome
   * @param {number} sentAt
   */
  putTry(queue, text, outcome, sentAt) {
    const t = this.tries.get(text) ?? { queue, applied: 0, unknown: false, firstAt: sentAt };
    if (outcome === 'applied') t.applied++;
    if (outcome === 'unknown') t.unknown = true;
    this.tries.set(text, t);
  }

  /**
   * A client got an answer made by a fault rule.
   * @param {string} operation
   * @param {'before' | 'after'} when
   */
  fault(operation, when) {
    const key = `${operation} ${when}`;
    this.faults.set(key, (this.faults.get(key) ?? 0) + 1);
  }

  /** Faulted answers the clients got, in all. */
  get faultsSeen() {
    return [...this.faults.values()].reduce((a, b) => a + b, 0);
  }

  /** Texts found in more than one message (at-least-once: a retried put that had applied). */
  get duplicated() {
    return [...this.copies.values()].filter((ids) => ids.size > 1).length;
  }

  /**
   * Noted before the update is sent: its text may be delivered from the moment it lands.
   * @param {string} id
   * @param {string} text
   */
  updating(id, text) {
    const texts = this.puts.get(id)?.texts ?? this.updatedTexts.get(id) ?? new Set();
    texts.add(text);
    if (!this.puts.has(id)) this.updatedTexts.set(id, texts);
  }

  /**
   * The delete of `id` was acknowledged at `at`.
   * @param {string} queue
   * @param {string} id
   * @param {number} at
   */
  delete(queue, id, at) {
    this.deleted.set(id, at);
    if (this.puts.has(id)) this.depth.set(queue, this.unsettled(queue) - 1);
    this.stats.deletes++;
  }

  /**
   * A clear or delete of `queue` was acknowledged at `at`: it may have taken any put sent before.
   * @param {string} queue
   * @param {number} at
   */
  wiped(queue, at) {
    this.wipedAt.set(queue, at);
    this.depth.set(queue, 0);
  }

  /**
   * The final check against what the store holds: id → { text, dequeueCount }.
   * @param {Map<string, { text: string, dequeueCount: number }>} present
   */
  check(present) {
    let missing = 0;
    for (const [id, put] of this.puts) {
      if (this.deleted.has(id) || this.delivered.has(id) || present.has(id)) continue;
      if (put.sentAt < (this.wipedAt.get(put.queue) ?? -Infinity)) continue;
      missing++;
      if (missing <= 5)
        this.violations.push(
          `acknowledged put ${id} (${put.queue}) was never delivered and is gone`,
        );
    }
    if (missing > 5) this.violations.push(`… ${missing} acknowledged puts lost in all`);
    for (const [id, m] of present) {
      if (this.deleted.has(id)) this.violations.push(`acknowledged delete of ${id} came back`);
      if (m.dequeueCount < Math.max(0, ...(this.dequeues.get(id) ?? []))) {
        this.violations.push(`${id}: DequeueCount went back to ${m.dequeueCount}`);
      }
      this.found(id, m.text);
    }
    this.checkCopies();
  }

  /** Each text tried is found in as many messages as tries put it (see the top of the file). */
  checkCopies() {
    let wrong = 0;
    for (const [text, t] of this.tries) {
      const found = this.copies.get(text)?.size ?? 0;
      const wiped = t.firstAt < (this.wipedAt.get(t.queue) ?? -Infinity);
      let why = '';
      if (found > t.applied && !t.unknown)
        why = `${text} (${t.queue}) is in ${found} messages, put by ${t.applied} tries: a try refused before it applied put a message`;
      else if (found < t.applied && !wiped)
        why = `${text} (${t.queue}) was put by ${t.applied} tries, is in ${found} messages: a committed put is gone`;
      if (!why) continue;
      if (++wrong <= 5) this.violations.push(why);
    }
    if (wrong > 5) this.violations.push(`… ${wrong} texts found in the wrong number of messages`);
  }
}
