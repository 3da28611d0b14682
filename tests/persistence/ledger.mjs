// What a crash test's clients were told, and the check that a restarted service honours it:
// every acknowledged put is still there (unless a consumer had started to delete it), and no
// acknowledged delete has come back. Not a test file itself.

export class Ledger {
  /** messageId → text, for every put the service acknowledged. */
  puts = new Map();
  /** Ids a consumer was about to delete (recorded *before* the delete was sent). */
  deleting = new Set();
  /** Ids whose delete the service acknowledged. */
  deleted = new Set();
  acks = 0;

  put(id, text) {
    this.puts.set(id, text);
    this.acks++;
  }

  intend(id) {
    this.deleting.add(id);
  }

  delete(id) {
    this.deleted.add(id);
    this.acks++;
  }

  /**
   * Checks `present` (messageId → text, everything the restarted service holds, invisible
   * messages included). Returns the list of violations (empty when all is well).
   */
  check(present) {
    const problems = [];
    for (const [id, text] of this.puts) {
      if (this.deleting.has(id)) continue;
      if (!present.has(id)) problems.push(`lost: acknowledged put ${id} (${text}) is gone`);
      else if (present.get(id) !== text) problems.push(`changed: ${id} reads ${present.get(id)}, was put as ${text}`);
    }
    for (const id of this.deleted) {
      if (present.has(id)) problems.push(`resurrected: acknowledged delete of ${id} came back`);
    }
    return problems;
  }
}

/** Kills after a random number of acknowledgements in [min, max): the crash lands mid-work. */
export function randomBetween(min, max) {
  return min + Math.floor(Math.random() * (max - min));
}
