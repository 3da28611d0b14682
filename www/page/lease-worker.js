// The long-running worker of the video example. It takes a lease shorter than the whole job and
// after each stage calls Update Message: the new visibility timeout extends its lease and the
// new text saves which stage comes next, so a replacement can resume instead of starting over.
// It understands video jobs only: it peeks first and receives only when the message a receive
// would return is a job, so other work (orders, say) is never taken, rewritten or delayed.

import { S, Worker } from './actor.js';
import { STAGES, jobText, parseJob } from './jobs.js';

/** @import { Demo } from './demo.js' */
/** @import { Held } from './actor.js' */
/** @import { Job } from './jobs.js' */
/** @import { Result } from './rest.js' */

/**
 * The job a lease worker works on: the message's receipt (and the page's tag for it), the stage
 * under way and since when, the lease's end, and whether it resumed a stage saved by another.
 * @typedef {{ messageId: string, popReceipt: string, receipt?: string, label: string, job: Job,
 *   stageStartedAt: number, leasedAt: number, until: number, resumed: boolean }} LeaseHolding
 */

/** How long before its lease runs out a worker renews it. */
const RENEW_BEFORE_S = 5;

/** @extends {Worker<LeaseHolding>} */
export class LeaseWorker extends Worker {
  kind = /** @type {const} */ ('lease-worker');
  renewals = 0;

  /**
   * @param {Demo} demo
   * @param {{ name: string, leaseS?: number, stageS?: number, pollS?: number, startS?: number }} options
   */
  constructor(demo, { name, leaseS = 30, stageS = 20, pollS = 2, startS = 0 }) {
    super(demo, name, { visibilityS: leaseS, processingS: stageS, pollS, startS });
  }

  // Its settings under the names of the video example (the card's fields set these).
  get leaseS() {
    return this.visibilityS;
  }
  set leaseS(s) {
    this.visibilityS = s;
  }
  get stageS() {
    return this.processingS;
  }
  set stageS(s) {
    this.processingS = s;
  }

  /** @override */
  async poll() {
    if (this.stopping) return this.stopNow();
    this.state = 'polling';
    this.started = true;
    const waitS = (/** @type {string} */ status) => {
      this.state = 'idle';
      this.status = status;
      this.later(this.pollS * S, () => this.poll());
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
        {
          actor: this.name,
          label,
          call: r.entry.seq,
          facts: { actor: this.name, label, dequeueCount: m.dequeueCount, stage: job.stage },
        },
      );
    }
    this.#plan();
  }

  /** The next step: finish the current stage, or renew the lease first if it would run out. */
  #plan() {
    const h = /** @type {LeaseHolding} */ (this.holding);
    const stageEnd = h.stageStartedAt + this.stageS * S;
    const renewAt = h.until - RENEW_BEFORE_S * S;
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
    this.#renewed(
      `${this.name} renewed its lease on ${h.label} (Update Message with ${presented}, no new text): its receipt is now ${h.receipt}.`,
      r,
      presented,
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
    this.#renewed(
      `${this.name} finished “${finished}” and called Update Message with ${presented}: the text now says “${next}”, the lease runs ${this.leaseS} s from now, and the new receipt is ${h.receipt} (${presented} is stale now).`,
      r,
      presented,
      { stage: next },
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
      return this.poll();
    }
    this.#plan();
  }

  /**
   * Tells an Update Message that renewed the lease (and saved the stage, with `more`).
   * @param {string} text
   * @param {Result} r the Update Message's answer
   * @param {string | undefined} presented the receipt it presented
   * @param {import('./narrator.js').Facts} [more]
   */
  #renewed(text, r, presented, more = {}) {
    const h = /** @type {LeaseHolding} */ (this.holding);
    this.demo.say(text, 'lease-renewed', {
      actor: this.name,
      label: h.label,
      call: r.entry.seq,
      facts: {
        actor: this.name,
        label: h.label,
        leaseS: this.leaseS,
        presented,
        receipt: h.receipt,
        ...more,
      },
    });
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
      this.later(0, () => this.poll());
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

  /**
   * @override
   * @param {Held} held
   * @param {string} why
   */
  droppedWords(held, why) {
    const stage = /** @type {LeaseHolding} a lease worker holds jobs */ (held).job.stage;
    return `${this.name} ${why === 'removed' ? 'was removed' : 'crashed'} during “${stage}”. The message keeps the last saved stage and reappears when the lease ends.`;
  }
}
