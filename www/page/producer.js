// The producer: sends messages by hand (the Send form), on a script, or on a schedule of its own.

import { Actor, S } from './actor.js';

/** @import { Demo } from './demo.js' */
/** @import { WireMessage } from './rest.js' */

/**
 * Sends messages: by hand (the Send button), on a script, or at a steady rate.
 * `next(i)` returns { text, delayS?, ttlS?, inS } for the i-th automatic message, or null.
 */
export class Producer extends Actor {
  kind = /** @type {const} */ ('producer');
  sent = 0;

  /**
   * @param {Demo} demo
   * @param {{ name: string, auto?: boolean, next?: (i: number) =>
   *   { text: string, delayS?: number, ttlS?: number, inS: number } | null }} options
   */
  constructor(demo, { name, next, auto = false }) {
    super(demo, name);
    this.next = next;
    this.auto = auto;
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
    this.later(plan.inS * S, async () => {
      await this.send(plan.text, plan);
      this.#schedule();
    });
  }

  /**
   * @param {string} text
   * @param {{ delayS?: number, ttlS?: number }} [options]
   */
  async send(text, { delayS = 0, ttlS = 0 } = {}) {
    const r = await this.demo.send(this.name, text, {
      visibilityTimeout: delayS,
      messageTimeToLive: ttlS,
    });
    this.sent++;
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
