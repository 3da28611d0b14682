// What every actor on the page shares: one life cycle (crash, stop, restart, remove) on the
// virtual clock's timers, and for the two kinds that hold messages (consumers and lease workers)
// one way of holding a message, working on it and letting go of it. Each kind says only what it
// does with a message: consumer.js, lease-worker.js, producer.js, autoscaler.js.

/** @import { Demo } from './demo.js' */
/** @import { Timer } from './clock.js' */

/**
 * @typedef {{ ok: boolean, text: string, code?: string, visibleAt?: number }} Outcome the last
 *   thing worth showing on an actor's card (`visibleAt`: a delayed send comes due then)
 * @typedef {{ messageId: string, popReceipt: string, receipt?: string, label: string,
 *   leasedAt: number, until: number }} Held what a worker holds: the message, the receipt it
 *   was handed (and the page's tag for it), since when and until when the lease runs
 */

export const S = 1000;

/** Shared life cycle: a generation counter makes every pending timer of a crashed actor inert. */
export class Actor {
  alive = true;
  stopping = false;
  state = 'waiting';
  status = '';
  started = false; // has it asked the queue for work yet (the chart counts only those)
  /** @type {Outcome | null} */
  outcome = null;
  #generation = 0;
  /** @type {Set<Timer>} */
  #timers = new Set();

  /**
   * @param {Demo} demo
   * @param {string} name
   */
  constructor(demo, name) {
    this.demo = demo;
    this.name = name;
    /** @type {string | undefined} set by `Demo.addActor` */
    this.id;
  }

  get clock() {
    return this.demo.clock;
  }

  get rest() {
    return this.demo.rest;
  }

  /**
   * Runs `fn` after `ms` of virtual time, unless this actor has crashed or stopped since.
   * @param {number} ms
   * @param {() => unknown} fn
   */
  later(ms, fn) {
    const gen = this.#generation;
    const timer = this.clock.after(ms, async () => {
      this.#timers.delete(timer);
      if (gen === this.#generation) await fn();
    });
    this.#timers.add(timer);
    return timer;
  }

  cancelTimers() {
    this.#generation++;
    for (const t of this.#timers) this.clock.cancel(t);
    this.#timers.clear();
  }

  dispose() {
    this.cancelTimers();
    this.alive = false;
  }

  /**
   * The actor's work loop, scheduled on start and on restart (each kind says what it does).
   * @returns {unknown}
   */
  work() {
    return undefined;
  }

  /**
   * What it holds (a worker's message and receipt), or null.
   * @returns {Held | null}
   */
  get held() {
    return null;
  }

  /** Forgets what it holds, without deleting it (a crash, a restart, a removal). */
  drop() {}

  /**
   * The sentence for letting go of `held` because of `why` ("crashed", "removed").
   * @param {Held} held
   * @param {string} why
   */
  droppedWords(held, why) {
    return `${this.name} ${why === 'removed' ? 'was removed' : 'crashed'} while holding ${held.label} (receipt ${held.receipt}). Nobody deletes it, so it will reappear when its visibility timeout runs out.`;
  }

  /** Dies at once: whatever it holds is not deleted and will reappear after its timeout. */
  crash() {
    if (!this.alive) return;
    this.cancelTimers();
    this.alive = false;
    this.state = 'crashed';
    const held = this.held;
    this.status = held ? `crashed holding ${held.label}` : 'crashed';
    if (held) this.#letGo(held, 'crashed');
    this.drop();
  }

  /** Taken off the page: like a crash, told as a removal. */
  remove() {
    const held = this.alive ? this.held : null;
    if (held) this.#letGo(held, 'removed');
    this.drop();
    this.dispose();
    this.state = 'removed';
  }

  /**
   * @param {Held} held
   * @param {string} why
   */
  #letGo(held, why) {
    const worker = /** @type {import('./actors.js').Consumer | import('./actors.js').LeaseWorker}
      only workers hold one */ (/** @type {unknown} */ (this));
    this.demo.released(held.messageId, worker, why);
    // Nothing went over the wire: the queue learns of it only when the timeout runs out.
    this.demo.say(this.droppedWords(held, why), why === 'removed' ? 'removed' : 'crashed', {
      actor: this.name,
      label: held.label,
      call: null,
      facts: { actor: this.name, label: held.label, receipt: held.receipt },
    });
  }

  /** Finishes what it holds (if anything), then stops asking for more. */
  stop() {
    if (!this.alive) return;
    this.stopping = true;
    const held = this.held;
    if (!held) {
      this.cancelTimers();
      this.stopNow();
    } else {
      this.status = `stopping after ${held.label}`;
    }
  }

  stopNow() {
    this.alive = false;
    this.stopping = false;
    this.state = 'stopped';
    this.status = 'stopped';
  }

  /** Back to work (after a crash or a stop). */
  restart() {
    this.cancelTimers();
    this.alive = true;
    this.stopping = false;
    this.drop();
    this.status = 'restarting';
    this.later(0, () => this.work());
  }
}

/**
 * An actor that receives messages and holds one at a time: its work loop is `poll()`, what it
 * holds is `holding`, and letting go forgets it. Consumers and lease workers differ only in what
 * they do with the message they hold.
 * @template {Held} H what this kind holds
 */
export class Worker extends Actor {
  /** @type {H | null} */
  holding = null;

  /**
   * @param {Demo} demo
   * @param {string} name
   * @param {{ visibilityS: number, processingS: number, pollS: number, startS: number }} o the
   *   visibility timeout it asks for, its work per message (or per stage), how often it polls
   *   when idle, and when it starts (s since time zero)
   */
  constructor(demo, name, { visibilityS, processingS, pollS, startS }) {
    super(demo, name);
    this.visibilityS = visibilityS;
    this.processingS = processingS;
    this.pollS = pollS;
    this.startS = startS;
    this.status = startS > 0 ? `starts at ${startS} s` : 'starting';
    this.later(Math.max(0, startS * S - demo.clock.elapsed()), () => this.poll());
  }

  /**
   * One turn of the loop: ask the queue for work and start on it, or wait.
   * @returns {Promise<unknown>}
   */
  async poll() {
    return undefined;
  }

  /** @override */
  work() {
    return this.poll();
  }

  /** @override */
  get held() {
    return this.holding;
  }

  /** @override */
  drop() {
    this.holding = null;
  }
}
