// The autoscaler: sizes the worker pool by queue length, as one reading Get Queue Metadata would.

import { Actor, S } from './actor.js';

/** @import { Demo } from './demo.js' */
/** @import { Consumer } from './consumer.js' */

/**
 * Sizes the worker pool by queue length: every `everyS` it reads the approximate message count
 * (Get Queue Metadata) and wants one worker per `perWorker` messages, between `min` and `max`.
 */
export class Autoscaler extends Actor {
  kind = /** @type {const} */ ('autoscaler');
  wanted = 0;

  /**
   * @param {Demo} demo
   * @param {{ name?: string, everyS?: number, perWorker?: number, min?: number, max?: number,
   *   makeWorker: () => void }} options
   */
  constructor(
    demo,
    { name = 'Autoscaler', everyS = 5, perWorker = 4, min = 1, max = 6, makeWorker },
  ) {
    super(demo, name);
    this.everyS = everyS;
    this.perWorker = perWorker;
    this.min = min;
    this.max = max;
    this.makeWorker = makeWorker;
    this.state = 'watching';
    this.status = `checks every ${everyS} s`;
    this.later(everyS * S, () => this.#check());
  }

  async #check() {
    const r = await this.rest.getProperties(this.name, this.demo.queue);
    if (r.ok) {
      const count = /** @type {number} */ (r.approximateMessagesCount);
      this.wanted = Math.min(this.max, Math.max(this.min, Math.ceil(count / this.perWorker)));
      const pool = this.demo.actors.filter(
        /** @returns {a is Consumer} */ (a) => a.kind === 'consumer' && a.alive && !a.stopping,
      );
      this.status = `${count} message(s) → wants ${this.wanted} worker(s)`;
      if (this.wanted > pool.length) {
        for (let i = pool.length; i < this.wanted; i++) this.makeWorker();
        this.demo.say(
          `The queue holds ${count} messages: the autoscaler grows the pool to ${this.wanted} workers.`,
          'scaled-up',
          {
            actor: this.name,
            call: r.entry.seq,
            facts: { count, wanted: this.wanted, perWorker: this.perWorker, op: r.entry.op },
          },
        );
      } else if (this.wanted < pool.length) {
        const idle = pool.filter((a) => !a.holding).reverse();
        const extra = pool.length - this.wanted;
        const stopping = idle.slice(0, extra);
        for (const a of stopping) {
          a.stop();
          this.demo.removeActor(a);
        }
        if (stopping.length)
          this.demo.say(
            `The queue is down to ${count}: the autoscaler stops idle workers (${this.wanted} wanted).`,
            'scaled-down',
            {
              actor: this.name,
              call: r.entry.seq,
              facts: {
                count,
                wanted: this.wanted,
                stopped: stopping.length,
                busyStopped: stopping.filter((a) => a.holding).length,
              },
            },
          );
      }
    }
    this.later(this.everyS * S, () => this.#check());
  }

  /** @override */
  work() {
    return this.#check();
  }

  /** @override the autoscaler has no crash button */
  crash() {}
}
