// The payments ledger of the "service is busy" scenario: the work each order's message did (a
// charge), by whom and from which copy. A naive consumer only writes to it, so a duplicate
// delivery shows as a second charge; an idempotent one reads it first and skips what was done.

/**
 * @typedef {{ actor: string, label: string, at: number }} Charge one piece of work done for an
 *   order: who did it, from which message, at what virtual time
 */

export class Ledger {
  /** @type {Map<string, Charge[]>} the order (its message text) → its charges, in order */
  #charges = new Map();

  /**
   * The charges made for `order`.
   * @param {string} order
   * @returns {Charge[]}
   */
  charges(order) {
    return this.#charges.get(order) ?? [];
  }

  /**
   * Records the work done for `order`; answers every charge for it, this one last.
   * @param {string} order
   * @param {Charge} charge
   */
  charge(order, charge) {
    const list = [...this.charges(order), charge];
    this.#charges.set(order, list);
    return list;
  }

  /** Every order with its charges, in the order first charged. */
  entries() {
    return [...this.#charges.entries()];
  }
}
