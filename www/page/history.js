// Each message's life story, for the card history panel: when it was sent, every receive (who,
// which receipt, which DequeueCount), every update, every refused delete, when it reappeared and
// where it went in the end. Built from the HTTP log entries (so the SDK snippet's calls count
// too) plus what the page notices in the engine's view (reappearing, expiring).

/** @import { LogEntry } from './rest.js' */

/**
 * One event of a message's story: `kind` says which (sent, copied, received, updated,
 * update-refused, delete-refused, deleted, reappeared, poisoned, expired), the other fields
 * what that kind tells.
 * @typedef {{ at: number, kind: string, actor?: string, receipt?: string, dequeueCount?: number,
 *   text?: string, queue?: string, presented?: string, current?: string, code?: string,
 *   from?: string, to?: string, why?: string, original?: boolean }} HistoryEvent (`original`:
 *   it happened to the message this one is a copy of)
 */

const LIMIT = 40; // events kept per message

export class MessageHistory {
  /** @type {Map<string, HistoryEvent[]>} messageId → its events, oldest first */
  #events = new Map();

  clear() {
    this.#events.clear();
  }

  /**
   * @param {string | undefined} messageId
   * @param {HistoryEvent} event
   */
  add(messageId, event) {
    if (!messageId) return;
    let list = this.#events.get(messageId);
    if (!list) this.#events.set(messageId, (list = []));
    list.push(event);
    if (list.length > LIMIT) list.splice(1, 1); // keep the first event: where it came from
  }

  /**
   * A copy's story begins with its original's (each receive that led to the copy), each event
   * marked with the queue it happened in.
   * @param {string} copyId
   * @param {string} originalId
   * @param {string} queue the original's queue
   */
  adopt(copyId, originalId, queue) {
    const before = this.of(originalId).map((e) => ({
      ...e,
      queue: e.queue ?? queue,
      original: true,
    }));
    this.#events.set(copyId, [...before, ...this.of(copyId)].slice(-LIMIT));
  }

  /** @param {string} messageId */
  of(messageId) {
    return this.#events.get(messageId) ?? [];
  }

  /**
   * Reads one HTTP log entry into the events of the messages it touched.
   * @param {LogEntry} entry
   */
  addCall(entry) {
    const { at, actor, op, status, code, receipt } = entry;
    const ok = status < 300;
    if (op === 'Put Message' && ok) {
      for (const m of entry.messages)
        this.add(m.messageId, {
          at,
          kind: 'sent',
          actor,
          receipt: m.receipt,
          queue: entry.queue,
          text: entry.text,
        });
    } else if (op === 'Get Messages' && ok) {
      for (const m of entry.messages)
        this.add(m.messageId, {
          at,
          kind: 'received',
          actor,
          receipt: m.receipt,
          dequeueCount: m.dequeueCount,
        });
    } else if (op === 'Update Message') {
      this.add(
        entry.messageId,
        ok
          ? {
              at,
              kind: 'updated',
              actor,
              presented: receipt.presented,
              receipt: receipt.issued,
              text: entry.text,
            }
          : {
              at,
              kind: 'update-refused',
              actor,
              presented: receipt.presented,
              current: receipt.current,
              code,
            },
      );
    } else if (op === 'Delete Message') {
      this.add(
        entry.messageId,
        ok
          ? { at, kind: 'deleted', actor, presented: receipt.presented }
          : {
              at,
              kind: 'delete-refused',
              actor,
              presented: receipt.presented,
              current: receipt.current,
              code,
            },
      );
    }
  }
}

/**
 * One event as a sentence for the history panel.
 * @param {HistoryEvent} e
 */
export function describeEvent(e) {
  const said = sentence(e);
  return e.original && e.kind !== 'sent' ? `in ${e.queue}: ${said}` : said;
}

/** @param {HistoryEvent} e */
function sentence(e) {
  switch (e.kind) {
    case 'sent':
      return `sent by ${e.actor} to ${e.queue}`;
    case 'copied':
      return `copied here from ${e.from} by ${e.actor}, where it had DequeueCount ${e.dequeueCount}`;
    case 'received':
      return `received by ${e.actor} with receipt ${e.receipt}: DequeueCount ${e.dequeueCount}`;
    case 'updated':
      return `${e.actor} called Update Message with ${e.presented}${e.text === undefined ? '' : ` and saved “${e.text}”`}: new receipt ${e.receipt}`;
    case 'update-refused':
      return `${e.actor}'s Update Message was refused (${e.code}): ${e.presented} is not the current ${e.current}`;
    case 'delete-refused':
      return e.presented !== e.current
        ? `${e.actor}'s delete was refused (${e.code}): ${e.presented} is not the current receipt ${e.current}`
        : `${e.actor}'s delete was refused (${e.code})`;
    case 'deleted':
      return `deleted by ${e.actor} with ${e.presented}`;
    case 'reappeared':
      return `visible again: ${e.why}`;
    case 'poisoned':
      return `moved to ${e.to} by ${e.actor} (DequeueCount ${e.dequeueCount} passed the threshold)`;
    case 'expired':
      return 'expired: its time-to-live ran out';
    default:
      return e.kind;
  }
}
