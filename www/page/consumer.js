// The consumer: receive one message, work on it, delete it with the receipt it was given. The
// visibility timeout it asks for is its lease: if the work takes longer, the message reappears,
// someone else may take it, and then this consumer's delete is refused. With a poison threshold
// set it moves a message received too often to the poison queue instead of working on it. With
// a ledger it records each piece of work there, and if it is idempotent it reads the ledger
// first and deletes a message whose work was already done without doing it again.

import { S, Worker } from './actor.js';
import { formatElapsed } from './clock.js';

/** @import { Demo } from './demo.js' */
/** @import { WireMessage } from './rest.js' */
/** @import { Ledger } from './ledger.js' */

/**
 * The message a consumer works on: its receipt (and the page's tag for it), since when and
 * until when it holds it, when the work is done, and why it will fail, if it will.
 * @typedef {{ messageId: string, popReceipt: string, receipt?: string, text: string,
 *   label: string, dequeueCount: number, since: number, leasedAt: number, until: number,
 *   doneAt: number, failing: string | undefined }} ConsumerHolding
 */

/** @extends {Worker<ConsumerHolding>} */
export class Consumer extends Worker {
  kind = /** @type {const} */ ('consumer');
  #idlePolls = 0;

  /**
   * @param {Demo} demo
   * @param {{ name: string, processingS?: number, visibilityS?: number, pollS?: number,
   *   startS?: number, failsOn?: (text: string) => string | undefined, ledger?: Ledger,
   *   idempotent?: boolean }} options
   */
  constructor(
    demo,
    { name, processingS = 5, visibilityS = 30, pollS = 2, startS = 0, failsOn, ledger, idempotent },
  ) {
    super(demo, name, { visibilityS, processingS, pollS, startS });
    this.failsOn = failsOn; // (text) => reason | undefined: simulates a bug on some input
    this.ledger = ledger;
    this.idempotent = idempotent === true && ledger !== undefined;
  }

  /** @override */
  async poll() {
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
        {
          actor: this.name,
          label,
          call: r.entry.seq,
          facts: {
            actor: this.name,
            label,
            messageId: m.messageId,
            dequeueCount: m.dequeueCount,
            receipt: m.receipt,
          },
        },
      );
    }
    if (this.idempotent && this.ledger?.charges(m.messageText).length)
      return this.#skipDone(m, label);
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
    this.later(wait * S, () => this.poll());
  }

  async #finish() {
    const h = /** @type {ConsumerHolding} it finishes what it holds */ (this.holding);
    const late = this.clock.now() > h.until;
    this.#charge(h);
    const r = await this.rest.deleteMessage(this.name, this.demo.queue, h.messageId, h.popReceipt);
    const by = { actor: this.name, label: h.label, call: r.entry.seq };
    const facts = { actor: this.name, label: h.label, messageId: h.messageId };
    if (r.ok && late) {
      this.outcome = { ok: true, text: `deleted ${h.label} late, with ${h.receipt}` };
      this.demo.say(
        `${this.name} deleted ${h.label} after its visibility timeout had run out, and it worked: nobody had received it since, so ${h.receipt} was still its current receipt. Had anyone received it, ${h.receipt} would have been stale.`,
        'late-delete',
        { ...by, facts: { ...facts, receipt: h.receipt } },
      );
    } else if (r.ok) {
      this.outcome = { ok: true, text: `deleted ${h.label} with ${h.receipt}` };
      this.demo.say(
        `${this.name} finished ${h.label} and deleted it with its receipt ${h.receipt}.`,
        'deleted',
        { ...by, quiet: true, facts: { ...facts, receipt: h.receipt } },
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
        {
          ...by,
          facts: {
            ...facts,
            presented,
            current,
            holder: holder?.name,
            status: r.status,
            code: r.code,
          },
        },
      );
    }
    this.holding = null;
    await this.poll();
  }

  /**
   * The work is done: written to the ledger, if there is one; a second charge for the same order
   * is said, since that is what a duplicate costs a consumer that does not check.
   * @param {ConsumerHolding} h
   */
  #charge(h) {
    const charges = this.ledger?.charge(h.text, {
      actor: this.name,
      label: h.label,
      at: this.clock.elapsed(),
    });
    if (!charges || charges.length < 2) return;
    const first = charges[0];
    this.demo.say(
      `${this.name} charged “${h.text}” again, from ${h.label}: the ledger already had ${first.actor}'s charge from ${first.label} at ${formatElapsed(first.at)}. ${this.name} does not read the ledger before working, so the duplicate cost the customer a second charge (${charges.length} in all).`,
      'processed-twice',
      {
        actor: this.name,
        label: h.label,
        call: null,
        facts: {
          actor: this.name,
          label: h.label,
          text: h.text,
          charges: charges.length,
          first: first.label,
          firstBy: first.actor,
        },
      },
    );
  }

  /**
   * An idempotent consumer received a message whose work the ledger already records: it deletes
   * it with its receipt and does nothing else.
   * @param {WireMessage} m
   * @param {string} label
   */
  async #skipDone(m, label) {
    const first = /** @type {Ledger} only with a ledger */ (this.ledger).charges(m.messageText)[0];
    this.state = 'working';
    this.status = `deleting ${label}, already done`;
    const del = await this.rest.deleteMessage(
      this.name,
      this.demo.queue,
      m.messageId,
      m.popReceipt,
    );
    this.outcome = del.ok
      ? { ok: true, text: `skipped ${label}: already done` }
      : { ok: false, text: `delete of ${label} refused: ${del.status} ${del.code ?? ''}` };
    if (del.ok)
      this.demo.say(
        `${this.name} received ${label} “${m.messageText}” and found it in the ledger, charged by ${first.actor} from ${first.label} at ${formatElapsed(first.at)}: ${this.name} deleted ${label} with ${m.receipt} without charging again.`,
        'deduplicated',
        {
          actor: this.name,
          label,
          call: del.entry.seq,
          facts: {
            actor: this.name,
            label,
            text: m.messageText,
            receipt: m.receipt,
            first: first.label,
            firstBy: first.actor,
            charges: /** @type {Ledger} */ (this.ledger).charges(m.messageText).length,
          },
        },
      );
    await this.poll();
  }

  /** @param {string} reason */
  async #fail(reason) {
    const h = /** @type {ConsumerHolding} it fails on what it holds */ (this.holding);
    this.outcome = { ok: false, text: `failed on ${h.label}: ${reason}` };
    this.demo.released(h.messageId, this, 'failed');
    // A failure inside the consumer sends nothing: the queue only sees the timeout run out.
    this.demo.say(
      `${this.name} failed on ${h.label} (${reason}) and did not delete it; it reappears when its visibility timeout ends.`,
      'failed',
      {
        actor: this.name,
        label: h.label,
        call: null,
        facts: { actor: this.name, label: h.label, dequeueCount: h.dequeueCount, reason },
      },
    );
    this.holding = null;
    await this.poll();
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
        receipt: m.receipt,
        to: this.demo.poisonQueue,
      });
    this.outcome = { ok: true, text: `moved ${label} to ${this.demo.poisonQueue}` };
    this.demo.say(
      `${label} “${m.messageText}” was dequeued ${m.dequeueCount} times, more than the poison threshold (${this.demo.poisonThreshold}): ${this.name} moved it — Put Message into ${this.demo.poisonQueue}, then Delete Message here with ${m.receipt} — for a human to look at.`,
      'poisoned',
      {
        actor: this.name,
        label,
        call: del.entry.seq,
        facts: {
          actor: this.name,
          label,
          dequeueCount: m.dequeueCount,
          receipt: m.receipt,
          threshold: this.demo.poisonThreshold,
          queue: this.demo.poisonQueue,
        },
      },
    );
    await this.poll();
  }

  /** @override */
  drop() {
    super.drop();
    this.#idlePolls = 0;
  }
}
