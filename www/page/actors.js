// The actors: producers that send, consumers that receive → work → delete, a lease-renewing
// worker that saves its progress with Update Message, and an autoscaler that sizes the pool by
// queue length. They run on the virtual clock's timers and talk to the engine only through the
// REST client, so every move they make is in the HTTP log.

import { STAGES, jobText, parseJob } from './jobs.js';

/** @import { Demo } from './demo.js' */
/** @import { Job } from './jobs.js' */
/** @import { Result, WireMessage } from './rest.js' */
/** @import { Timer } from './clock.js' */

/**
 * @typedef {Consumer | LeaseWorker | Producer | Autoscaler} AnyActor
 * @typedef {{ ok: boolean, text: string, code?: string, visibleAt?: number }} Outcome the last
 *   thing worth showing on an actor's card (`visibleAt`: a delayed send comes due then)
 */

const S = 1000;

/** Shared life cycle: a generation counter makes every pending timer of a crashed actor inert. */
class Actor {
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
   * @type {{ messageId: string, label: string, receipt?: string } | null}
   */
  get held() {
    return null;
  }

  /** Forgets what it holds, without deleting it (a crash, a restart, a removal). */
  drop() {}

  /**
   * The sentence for letting go of `held` because of `why` ("crashed", "removed").
   * @param {{ messageId: string, label: string, receipt?: string }} held
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
   * @param {{ messageId: string, label: string, receipt?: string }} held
   * @param {string} why
   */
  #letGo(held, why) {
    const worker = /** @type {Consumer | LeaseWorker} only workers hold one */ (
      /** @type {unknown} */ (this)
    );
    this.demo.released(held.messageId, worker, why);
    this.demo.say(this.droppedWords(held, why), why === 'removed' ? 'removed' : 'crashed', {
      actor: this.name,
      label: held.label,
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
 * Receive one message, work on it for `processingS`, delete it with the receipt it was given.
 * `visibilityS` is the visibility timeout it asks for: if work takes longer, the message
 * reappears and someone else may take it — then this consumer's delete is refused.
 */
export class Consumer extends Actor {
  kind = /** @type {const} */ ('consumer');
  /**
   * The message it works on: its receipt (and the page's tag for it), since when and until when
   * it holds it, when the work is done, and why it will fail, if it will.
   * @type {{ messageId: string, popReceipt: string, receipt?: string, text: string,
   *   label: string, dequeueCount: number, since: number, leasedAt: number, until: number,
   *   doneAt: number, failing: string | undefined } | null}
   */
  holding = null;
  #idlePolls = 0;

  /**
   * @param {Demo} demo
   * @param {{ name: string, processingS?: number, visibilityS?: number, pollS?: number,
   *   startS?: number, failsOn?: (text: string) => string | undefined }} options
   */
  constructor(demo, { name, processingS = 5, visibilityS = 30, pollS = 2, startS = 0, failsOn }) {
    super(demo, name);
    this.processingS = processingS;
    this.visibilityS = visibilityS;
    this.pollS = pollS;
    this.failsOn = failsOn; // (text) => reason | undefined: simulates a bug on some input
    this.state = 'waiting';
    this.status = startS > 0 ? `starts at ${startS} s` : 'starting';
    this.later(Math.max(0, startS * S - demo.clock.elapsed()), () => this.#poll());
  }

  async #poll() {
    if (this.stopping) return this.stopNow();
    this.state = 'polling';
    this.started = true;
    const r = await this.rest.receiveMessages(this.name, this.demo.queue, {
      numberOfMessages: 1,
      visibilityTimeout: this.visibilityS,
    });
    if (!r.ok) {
      this.outcome = { ok: false, text: `receive failed: ${r.status} ${r.code ?? ''}` };
      return this.#idle();
    }
    if (r.empty) return this.#idle();
    this.#idlePolls = 0;
    const m = r.messages[0];
    this.demo.leased(m.messageId, this, m.popReceipt, m.nextVisibleOn);
    const label = this.demo.label(m.messageId);
    const threshold = this.demo.poisonThreshold;
    if (threshold && m.dequeueCount > threshold) return this.#moveToPoison(m, label);
    if (m.dequeueCount > 1) {
      this.demo.say(
        `${this.name} received ${label} “${m.messageText}” with DequeueCount ${m.dequeueCount} and a new receipt, ${m.receipt}: it is being delivered again. Processing must be idempotent.`,
        'redelivered',
        { actor: this.name, label, facts: { dequeueCount: m.dequeueCount, receipt: m.receipt } },
      );
    }
    const reason = this.failsOn?.(m.messageText);
    const workS = reason ? Math.max(1, this.processingS / 2) : this.processingS;
    this.holding = {
      messageId: m.messageId,
      popReceipt: m.popReceipt,
      receipt: m.receipt,
      text: m.messageText,
      label,
      dequeueCount: m.dequeueCount,
      since: this.clock.now(),
      leasedAt: this.clock.now(),
      until: m.nextVisibleOn,
      doneAt: this.clock.now() + workS * S,
      failing: reason,
    };
    this.state = 'working';
    this.status = `working on ${label}`;
    this.later(workS * S, () => (reason ? this.#fail(reason) : this.#finish()));
  }

  /** Nothing to do: ask again soon, backing off to 4× the poll interval. */
  #idle() {
    this.state = 'idle';
    this.status = 'queue looks empty: polling';
    this.#idlePolls++;
    const wait = this.pollS * Math.min(4, 2 ** Math.max(0, this.#idlePolls - 1));
    this.later(wait * S, () => this.#poll());
  }

  async #finish() {
    const h = /** @type {NonNullable<Consumer['holding']>} it finishes what it holds */ (
      this.holding
    );
    const late = this.clock.now() > h.until;
    const r = await this.rest.deleteMessage(this.name, this.demo.queue, h.messageId, h.popReceipt);
    const by = { actor: this.name, label: h.label };
    if (r.ok && late) {
      this.outcome = { ok: true, text: `deleted ${h.label} late, with ${h.receipt}` };
      this.demo.say(
        `${this.name} deleted ${h.label} after its visibility timeout had run out, and it worked: nobody had received it since, so ${h.receipt} was still its current receipt. Had anyone received it, ${h.receipt} would have been stale.`,
        'late-delete',
        by,
      );
    } else if (r.ok) {
      this.outcome = { ok: true, text: `deleted ${h.label} with ${h.receipt}` };
      this.demo.say(
        `${this.name} finished ${h.label} and deleted it with its receipt ${h.receipt}.`,
        'deleted',
        { ...by, quiet: true, facts: { receipt: h.receipt } },
      );
    } else {
      const { presented, current } = r.receipt;
      const holder = this.demo.receiptHolder(h.messageId);
      const stale = presented && current && presented !== current;
      this.outcome = {
        ok: false,
        text: `delete of ${h.label} refused: ${r.status} ${r.code ?? ''}${stale ? ` · ${presented} is not the current ${current}` : ''}`,
        code: r.code,
      };
      this.demo.say(
        stale
          ? `${this.name} finished ${h.label} too late and presented receipt ${presented}, but the current receipt is ${current}, issued to ${holder?.name ?? 'another consumer'} when ${h.label} was received again. The queue refused the delete: ${r.status} ${r.code}.`
          : `${this.name}'s delete of ${h.label} was refused: ${r.status} ${r.code} (${r.reason ?? 'the message is gone'}).`,
        'stale-delete',
        { ...by, facts: { presented, current, status: r.status, code: r.code } },
      );
    }
    this.holding = null;
    await this.#poll();
  }

  /** @param {string} reason */
  async #fail(reason) {
    const h = /** @type {NonNullable<Consumer['holding']>} it fails on what it holds */ (
      this.holding
    );
    this.outcome = { ok: false, text: `failed on ${h.label}: ${reason}` };
    this.demo.released(h.messageId, this, 'failed');
    this.demo.say(
      `${this.name} failed on ${h.label} (${reason}) and did not delete it; it reappears when its visibility timeout ends.`,
      'failed',
      { actor: this.name, label: h.label },
    );
    this.holding = null;
    await this.#poll();
  }

  /**
   * DequeueCount above the threshold: copy the message to <queue>-poison, then delete it here.
   * @param {WireMessage} m
   * @param {string} label
   */
  async #moveToPoison(m, label) {
    this.state = 'working';
    this.status = `moving ${label} to ${this.demo.poisonQueue}`;
    const origin = { from: this.demo.queue, messageId: m.messageId, dequeueCount: m.dequeueCount };
    const put = await this.demo.send(this.name, m.messageText, { origin }, this.demo.poisonQueue);
    if (!put.ok) {
      this.outcome = { ok: false, text: `poison move failed: ${put.status} ${put.code ?? ''}` };
      return this.#idle();
    }
    const del = await this.rest.deleteMessage(
      this.name,
      this.demo.queue,
      m.messageId,
      m.popReceipt,
    );
    if (del.ok)
      this.demo.gone(m.messageId, 'poisoned', this.name, {
        dequeueCount: m.dequeueCount,
        to: this.demo.poisonQueue,
      });
    this.outcome = { ok: true, text: `moved ${label} to ${this.demo.poisonQueue}` };
    this.demo.say(
      `${label} “${m.messageText}” was dequeued ${m.dequeueCount} times, more than the poison threshold (${this.demo.poisonThreshold}): ${this.name} moved it — Put Message into ${this.demo.poisonQueue}, then Delete Message here — for a human to look at.`,
      'poisoned',
      {
        actor: this.name,
        label,
        facts: {
          dequeueCount: m.dequeueCount,
          threshold: this.demo.poisonThreshold,
          queue: this.demo.poisonQueue,
        },
      },
    );
    await this.#poll();
  }

  /** @override */
  work() {
    return this.#poll();
  }

  /** @override */
  get held() {
    return this.holding;
  }

  /** @override */
  drop() {
    this.holding = null;
    this.#idlePolls = 0;
  }
}

/** @typedef {NonNullable<LeaseWorker['holding']>} LeaseHolding */

/**
 * The long-running worker of the video example. It takes a lease shorter than the whole job and
 * after each stage calls Update Message: the new visibility timeout extends its lease and the
 * new text saves which stage comes next, so a replacement can resume instead of starting over.
 * It understands video jobs only: it peeks first and receives only when the message a receive
 * would return is a job, so other work (orders, say) is never taken, rewritten or delayed.
 */
export class LeaseWorker extends Actor {
  kind = /** @type {const} */ ('lease-worker');
  /**
   * The job it works on: the message's receipt (and the page's tag for it), the stage under
   * way and since when, the lease's end, and whether it resumed a stage saved by another.
   * @type {{ messageId: string, popReceipt: string, receipt?: string, label: string, job: Job,
   *   stageStartedAt: number, leasedAt: number, until: number, resumed: boolean } | null}
   */
  holding = null;
  renewals = 0;

  /**
   * @param {Demo} demo
   * @param {{ name: string, leaseS?: number, stageS?: number, pollS?: number, startS?: number }} options
   */
  constructor(demo, { name, leaseS = 30, stageS = 20, pollS = 2, startS = 0 }) {
    super(demo, name);
    this.leaseS = leaseS;
    this.stageS = stageS;
    this.pollS = pollS;
    this.visibilityS = leaseS;
    this.processingS = stageS;
    this.status = startS > 0 ? `starts at ${startS} s` : 'starting';
    this.later(Math.max(0, startS * S - demo.clock.elapsed()), () => this.#poll());
  }

  async #poll() {
    if (this.stopping) return this.stopNow();
    this.state = 'polling';
    this.started = true;
    const waitS = (/** @type {string} */ status) => {
      this.state = 'idle';
      this.status = status;
      this.later(this.pollS * S, () => this.#poll());
    };
    // Peek Messages returns the visible messages in the order Get Messages would hand them out.
    const peek = await this.rest.peekMessages(this.name, this.demo.queue, { numberOfMessages: 1 });
    if (!peek.ok || peek.messages.length === 0) return waitS('waiting for a job');
    if (!parseJob(peek.messages[0].messageText)) {
      const label = this.demo.label(peek.messages[0].messageId);
      return waitS(`next is ${label}, not a video job: left alone`);
    }
    const r = await this.rest.receiveMessages(this.name, this.demo.queue, {
      numberOfMessages: 1,
      visibilityTimeout: this.leaseS,
    });
    if (!r.ok || r.empty) return waitS('waiting for a job');
    const m = r.messages[0];
    const label = this.demo.label(m.messageId);
    const job = parseJob(m.messageText);
    this.demo.leased(m.messageId, this, m.popReceipt, m.nextVisibleOn);
    if (!job) {
      // Something else came first after all (it cannot, between one peek and one receive on this
      // page, but a consumer never assumes): hand it straight back, unchanged.
      await this.rest.updateMessage(this.name, this.demo.queue, m.messageId, m.popReceipt, {
        visibilityTimeout: 0,
      });
      return waitS(`put ${label} back: not a video job`);
    }
    this.holding = {
      messageId: m.messageId,
      popReceipt: m.popReceipt,
      receipt: m.receipt,
      label,
      job,
      stageStartedAt: this.clock.now(),
      leasedAt: this.clock.now(),
      until: m.nextVisibleOn,
      resumed: job.stage !== 'scan',
    };
    this.renewals = 0;
    this.state = 'working';
    this.status = `${job.stage} ${label}`;
    if (job.stage !== 'scan') {
      this.demo.say(
        `${this.name} took ${label} (DequeueCount ${m.dequeueCount}, receipt ${m.receipt}) and read the saved stage “${job.stage}” from the message: it resumes there instead of starting over.`,
        'resumed',
        { actor: this.name, label, facts: { dequeueCount: m.dequeueCount, stage: job.stage } },
      );
    }
    this.#plan();
  }

  /** The next step: finish the current stage, or renew the lease first if it would run out. */
  #plan() {
    const h = /** @type {LeaseHolding} */ (this.holding);
    const stageEnd = h.stageStartedAt + this.stageS * S;
    const renewAt = h.until - 5 * S;
    if (renewAt < stageEnd)
      this.later(Math.max(0, renewAt - this.clock.now()), () => this.#renew());
    else this.later(stageEnd - this.clock.now(), () => this.#stageDone());
  }

  async #renew() {
    const h = /** @type {LeaseHolding} */ (this.holding);
    const r = await this.rest.updateMessage(this.name, this.demo.queue, h.messageId, h.popReceipt, {
      visibilityTimeout: this.leaseS,
    });
    const presented = h.receipt;
    if (!this.#keep(r)) return;
    this.demo.say(
      `${this.name} renewed its lease on ${h.label} (Update Message with ${presented}, no new text): its receipt is now ${h.receipt}.`,
      'lease-renewed',
      {
        actor: this.name,
        label: h.label,
        facts: { leaseS: this.leaseS },
      },
    );
    this.#plan();
  }

  async #stageDone() {
    const h = /** @type {LeaseHolding} */ (this.holding);
    const next = STAGES[STAGES.indexOf(h.job.stage) + 1] ?? 'done';
    const text = jobText(h.job.video, next);
    const r = await this.rest.updateMessage(this.name, this.demo.queue, h.messageId, h.popReceipt, {
      text,
      visibilityTimeout: this.leaseS,
    });
    const presented = h.receipt;
    if (!this.#keep(r)) return;
    this.demo.updated(h.messageId);
    const finished = h.job.stage;
    h.job = { ...h.job, stage: next };
    h.stageStartedAt = this.clock.now();
    this.status = `${next} ${h.label}`;
    this.demo.say(
      `${this.name} finished “${finished}” and called Update Message with ${presented}: the text now says “${next}”, the lease runs ${this.leaseS} s from now, and the new receipt is ${h.receipt} (${presented} is stale now).`,
      'lease-renewed',
      { actor: this.name, label: h.label, facts: { leaseS: this.leaseS, stage: next } },
    );
    if (next === 'done') {
      const del = await this.rest.deleteMessage(
        this.name,
        this.demo.queue,
        h.messageId,
        h.popReceipt,
      );
      if (del.ok) this.demo.gone(h.messageId, 'deleted', this.name);
      this.outcome = {
        ok: del.ok,
        text: del.ok ? `${h.label} done and deleted` : `delete refused: ${del.code}`,
      };
      this.holding = null;
      return this.#poll();
    }
    this.#plan();
  }

  /**
   * Takes the new receipt from an Update Message; on refusal, drops the job.
   * @param {Result} r
   */
  #keep(r) {
    const h = /** @type {LeaseHolding} */ (this.holding);
    if (!r.ok) {
      this.outcome = {
        ok: false,
        text: `lost the lease on ${h.label}: ${r.status} ${r.code ?? ''}`,
      };
      this.holding = null;
      this.later(0, () => this.#poll());
      return false;
    }
    // An Update Message that succeeded answers both.
    h.popReceipt = /** @type {string} */ (r.popReceipt);
    h.receipt = r.receipt.issued;
    h.until = /** @type {number} */ (r.nextVisibleOn);
    h.leasedAt = this.clock.now();
    this.renewals++;
    this.demo.leased(h.messageId, this, h.popReceipt, h.until);
    this.outcome = { ok: true, text: `lease renewed ×${this.renewals}, until +${this.leaseS} s` };
    return true;
  }

  /** @override */
  work() {
    return this.#poll();
  }

  /** @override */
  get held() {
    return this.holding;
  }

  /** @override */
  drop() {
    this.holding = null;
  }

  /**
   * @override
   * @param {{ messageId: string, label: string, receipt?: string }} held
   * @param {string} why
   */
  droppedWords(held, why) {
    const stage = /** @type {LeaseHolding} a lease worker holds jobs */ (held).job.stage;
    return `${this.name} ${why === 'removed' ? 'was removed' : 'crashed'} during “${stage}”. The message keeps the last saved stage and reappears when the lease ends.`;
  }
}

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
          { actor: this.name, facts: { count, wanted: this.wanted, perWorker: this.perWorker } },
        );
      } else if (this.wanted < pool.length) {
        const idle = pool.filter((a) => !a.holding).reverse();
        const extra = pool.length - this.wanted;
        for (const a of idle.slice(0, extra)) {
          a.stop();
          this.demo.removeActor(a);
        }
        if (idle.length)
          this.demo.say(
            `The queue is down to ${count}: the autoscaler stops idle workers (${this.wanted} wanted).`,
            'scaled-down',
            { actor: this.name, facts: { count, wanted: this.wanted } },
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
