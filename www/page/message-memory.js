// What only this page knows about the messages, which the engine has no reason to: each one's
// short label (#1, #2, … in the order the page met them), who was handed its receipt and until
// when, its Update Messages, how it left when the page moved it, whether it came due after a
// delay, and, for a copy in the poison queue, its original. None of it decides queue behaviour.

/**
 * @typedef {{ holder: Consumer | LeaseWorker, popReceipt: string, from: number, until: number,
 *   released: string | undefined }} Lease who was handed a message's receipt, until when, and
 *   why they let go of it without deleting (crashed, failed, removed)
 */

/** @import { Consumer, LeaseWorker } from './actors.js' */
/** @import { Fate, Origin } from './cards.js' */

export class MessageMemory {
  /** @type {Map<string, Lease>} messageId → who was handed its receipt, and until when */
  #leases = new Map();
  /** @type {Map<string, { at: number, count: number }>} messageId → its Update Messages */
  #updates = new Map();
  /** @type {Map<string, string>} messageId → "#n" */
  #labels = new Map();
  /** @type {Map<string, Fate>} messageId → how it left, for messages this page moved */
  #fates = new Map();
  /** @type {Set<string>} messages that were scheduled and came due */
  #cameDue = new Set();
  /** @type {Map<string, Origin>} messageId → its original, for copies in the poison queue */
  #origins = new Map();
  #nextLabel = 1;
  /** @type {string | undefined} the label the next new message takes (a copy keeps its original's) */
  pendingLabel;

  /** A new run: nothing known. */
  clear() {
    this.#leases.clear();
    this.#updates.clear();
    this.#labels.clear();
    this.#fates.clear();
    this.#origins.clear();
    this.#cameDue.clear();
    this.#nextLabel = 1;
    this.pendingLabel = undefined;
  }

  /**
   * The page's short name for a message: #1, #2, … in the order the page first met them.
   * @param {string} messageId
   */
  label(messageId) {
    let label = this.#labels.get(messageId);
    if (!label) {
      label = this.pendingLabel ?? `#${this.#nextLabel++}`;
      this.#labels.set(messageId, label);
    }
    return label;
  }

  /**
   * @param {string} messageId
   * @param {Lease} lease
   */
  lease(messageId, lease) {
    this.#leases.set(messageId, lease);
  }

  /** @param {string} messageId */
  leaseOf(messageId) {
    return this.#leases.get(messageId);
  }

  /**
   * @param {string} messageId
   * @param {number} at
   */
  updated(messageId, at) {
    const u = this.#updates.get(messageId) ?? { count: 0 };
    this.#updates.set(messageId, { at, count: u.count + 1 });
  }

  /** @param {string} messageId */
  updatesOf(messageId) {
    return this.#updates.get(messageId);
  }

  /**
   * @param {string} messageId
   * @param {Fate} fate
   */
  leaves(messageId, fate) {
    this.#fates.set(messageId, fate);
  }

  /**
   * How the page said `messageId` left, once: the card that shows it takes it.
   * @param {string} messageId
   */
  takeFate(messageId) {
    const told = this.#fates.get(messageId);
    this.#fates.delete(messageId);
    return told;
  }

  /** @param {string} messageId */
  comeDue(messageId) {
    this.#cameDue.add(messageId);
  }

  /** @param {string} messageId */
  cameDue(messageId) {
    return this.#cameDue.has(messageId);
  }

  /**
   * @param {string} messageId
   * @param {Origin} origin
   */
  copied(messageId, origin) {
    this.#origins.set(messageId, origin);
  }

  /** @param {string} messageId */
  originOf(messageId) {
    return this.#origins.get(messageId);
  }
}
