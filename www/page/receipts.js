// Short names for pop receipts. A receipt is a long opaque string; to compare two of them at a
// glance the page names each one a message is issued r1, r2, … in the order it was issued (the
// receipt Put Message returns is r0). Every receipt the page sees passes through its REST client
// (its own calls and the SDK snippet's), so the last one issued is the message's current one:
// the only receipt Delete Message and Update Message accept.

export class Receipts {
  /** @type {Map<string, Map<string, string>>} messageId → Map(popReceipt → "rN") */
  #tags = new Map();
  /** @type {Map<string, { popReceipt: string, tag: string, at: number }>} messageId → current */
  #current = new Map();

  clear() {
    this.#tags.clear();
    this.#current.clear();
  }

  /**
   * A receipt the engine just handed out for `messageId` (Put, Get or Update Message).
   * @param {string | undefined} messageId
   * @param {string | null | undefined} popReceipt
   * @param {number} at
   * @param {{ put?: boolean }} [options]
   */
  issue(messageId, popReceipt, at, { put = false } = {}) {
    if (!messageId || !popReceipt) return undefined;
    let tags = this.#tags.get(messageId);
    if (!tags) this.#tags.set(messageId, (tags = new Map()));
    let tag = tags.get(popReceipt);
    if (!tag) {
      tag = put ? 'r0' : `r${[...tags.values()].filter((t) => t !== 'r0').length + 1}`;
      tags.set(popReceipt, tag);
    }
    this.#current.set(messageId, { popReceipt, tag, at });
    return tag;
  }

  /**
   * The tag of a receipt someone presents; "r?" for one this page never saw issued.
   * @param {string} messageId
   * @param {string} popReceipt
   */
  tag(messageId, popReceipt) {
    return this.#tags.get(messageId)?.get(popReceipt) ?? 'r?';
  }

  /**
   * The last receipt issued for `messageId`: { popReceipt, tag, at }, or undefined.
   * @param {string} messageId
   */
  current(messageId) {
    return this.#current.get(messageId);
  }

  /**
   * Whether `popReceipt` is still the message's current receipt.
   * @param {string} messageId
   * @param {string} popReceipt
   */
  isCurrent(messageId, popReceipt) {
    return this.#current.get(messageId)?.popReceipt === popReceipt;
  }
}
