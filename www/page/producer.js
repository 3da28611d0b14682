// The producer: sends messages by hand (the Send form), on a script, or on a schedule of its own.
// With a retry policy, a scheduled send the service answers 503 or 500 is sent again after an
// exponential backoff on the virtual clock, as the SDKs' retry policies do.

import { Actor, S } from './actor.js';
import { tellRefused, tellRetried } from './retries.js';

/** @import { Demo } from './demo.js' */
/** @import { WireMessage } from './rest.js' */

/** The statuses a retry policy sends again: the service was busy, or did not answer in time. */
const RETRIED = new Set([500, 503]);

/**
 * Sends messages: by hand (the Send button), on a script, or at a steady rate.
 * `next(i)` returns { text, delayS?, ttlS?, inS } for the i-th automatic message, or null.
 * `retry`: at most `tries` more sends of a scheduled message the service answered 500 or 503,
 * the first after `firstS` seconds and each later one after twice the wait before it.
 * @typedef {{ tries: number, firstS: number }} RetryPolicy
 */
export class Producer extends Actor {
  kind = /** @type {const} */ ('producer');
  sent = 0;
  /** Put Message calls, retries included */
  attempts = 0;

  /**
   * @param {Demo} demo
   * @param {{ name: string, auto?: boolean, retry?: RetryPolicy, next?: (i: number) =>
   *   { text: string, delayS?: number, ttlS?: number, inS: number } | null }} options
   */
  constructor(demo, { name, next, auto = false, retry }) {
    super(demo, name);
    this.next = next;
    this.auto = auto;
    this.retry = retry;
    this.state = auto ? 'sending' : 'idle';
    this.status = auto
      ? 'sending on a schedule'
      : name === 'You'
        ? 'the Send form below'
        : "sent the scenario's messages";
    if (auto) this.#schedule();
  }

  #schedule() {
    const plan = this.next?.(this.sent);
    if (!plan) {
      this.state = 'idle';
      this.status = 'schedule finished';
      return;
    }
    this.later(plan.inS * S, () => this.#deliver(plan.text, plan, 0));
  }

  /**
   * One send of a scheduled message; a refusal the retry policy covers is sent again after its
   * backoff, and the schedule goes on once the message is stored or given up on.
   * @param {string} text
   * @param {{ delayS?: number, ttlS?: number }} plan
   * @param {number} retries sends of it so far, after the first
   */
  async #deliver(text, plan, retries) {
    const r = await this.#put(text, plan);
    const policy = this.retry;
    if (!r.ok && policy && RETRIED.has(r.status) && retries < policy.tries) {
      const waitS = policy.firstS * 2 ** retries;
      this.status = `retrying in ${waitS} s`;
      await tellRefused(this.demo, this, r, text, {
        retry: retries + 1,
        tries: policy.tries,
        waitS,
      });
      this.later(waitS * S, () => this.#deliver(text, plan, retries + 1));
      return;
    }
    this.sent++;
    if (r.ok && retries > 0) await tellRetried(this.demo, this, r, text, retries);
    if (!this.auto) return;
    this.status = 'sending on a schedule';
    this.#schedule();
  }

  /**
   * Sends `text` under the retry policy: a refusal it covers is sent again after its backoff.
   * @param {string} text
   * @param {{ delayS?: number, ttlS?: number }} [plan]
   */
  deliver(text, plan = {}) {
    return this.#deliver(text, plan, 0);
  }

  /**
   * @param {string} text
   * @param {{ delayS?: number, ttlS?: number }} [options]
   */
  async send(text, options) {
    const r = await this.#put(text, options);
    this.sent++;
    return r;
  }

  /**
   * @param {string} text
   * @param {{ delayS?: number, ttlS?: number }} [options]
   */
  async #put(text, { delayS = 0, ttlS = 0 } = {}) {
    this.attempts++;
    const r = await this.demo.send(this.name, text, {
      visibilityTimeout: delayS,
      messageTimeToLive: ttlS,
    });
    this.outcome = r.ok
      ? {
          ok: true,
          text: `sent ${this.demo.label(/** @type {WireMessage} */ (r.message).messageId)}`,
          // The card counts down to it as time runs (actors-view.js), never a fixed "in 45 s".
          visibleAt: delayS ? this.clock.now() + delayS * S : undefined,
        }
      : { ok: false, text: `send refused: ${r.status} ${r.code ?? ''}` };
    return r;
  }

  /** @override */
  work() {
    if (this.auto) this.#schedule();
  }

  /** @override a producer in this page sends or stops; it has nothing to crash with */
  crash() {}

  /** @override */
  stop() {
    this.cancelTimers();
    this.auto = false;
    this.state = 'idle';
    this.status = 'stopped sending';
  }
}
