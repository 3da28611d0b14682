// The actors: producers that send, consumers that receive → work → delete, a lease-renewing
// worker that saves its progress with Update Message, and an autoscaler that sizes the pool by
// queue length. They run on the virtual clock's timers and talk to the engine only through the
// REST client, so every move they make is in the HTTP log.

const S = 1000;

/** Shared life cycle: a generation counter makes every pending timer of a crashed actor inert. */
class Actor {
  alive = true;
  stopping = false;
  state = "waiting";
  status = "";
  outcome = null; // { ok, text } — the last thing worth showing on the actor's card
  #generation = 0;
  #timers = new Set();

  constructor(demo, name) {
    this.demo = demo;
    this.name = name;
  }

  get clock() {
    return this.demo.clock;
  }

  get rest() {
    return this.demo.rest;
  }

  /** Runs `fn` after `ms` of virtual time, unless this actor has crashed or stopped since. */
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
}

/**
 * Receive one message, work on it for `processingS`, delete it with the receipt it was given.
 * `visibilityS` is the visibility timeout it asks for: if work takes longer, the message
 * reappears and someone else may take it — then this consumer's delete is refused.
 */
export class Consumer extends Actor {
  kind = "consumer";
  holding = null; // { messageId, popReceipt, text, dequeueCount, since, doneAt, failing }
  #idlePolls = 0;

  constructor(demo, { name, processingS = 5, visibilityS = 30, pollS = 2, startS = 0, failsOn } = {}) {
    super(demo, name);
    this.processingS = processingS;
    this.visibilityS = visibilityS;
    this.pollS = pollS;
    this.failsOn = failsOn; // (text) => reason | undefined: simulates a bug on some input
    this.state = "waiting";
    this.status = startS > 0 ? `starts at ${startS} s` : "starting";
    this.later(Math.max(0, startS * S - demo.clock.elapsed()), () => this.#poll());
  }

  async #poll() {
    if (this.stopping) return this.#stopNow();
    this.state = "polling";
    const r = await this.rest.receiveMessages(this.name, this.demo.queue, {
      numberOfMessages: 1,
      visibilityTimeout: this.visibilityS,
    });
    if (!r.ok) {
      this.outcome = { ok: false, text: `receive failed: ${r.status} ${r.code ?? ""}` };
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
        `${this.name} received ${label} “${m.messageText}” with DequeueCount ${m.dequeueCount}: it is being delivered again. Processing must be idempotent.`,
        "redelivered",
      );
    }
    const reason = this.failsOn?.(m.messageText);
    const workS = reason ? Math.max(1, this.processingS / 2) : this.processingS;
    this.holding = {
      messageId: m.messageId,
      popReceipt: m.popReceipt,
      text: m.messageText,
      label,
      dequeueCount: m.dequeueCount,
      since: this.clock.now(),
      leasedAt: this.clock.now(),
      until: m.nextVisibleOn,
      doneAt: this.clock.now() + workS * S,
      failing: reason,
    };
    this.state = "working";
    this.status = `working on ${label}`;
    this.later(workS * S, () => (reason ? this.#fail(reason) : this.#finish()));
  }

  /** Nothing to do: ask again soon, backing off to 4× the poll interval. */
  #idle() {
    this.state = "idle";
    this.status = "queue looks empty: polling";
    this.#idlePolls++;
    const wait = this.pollS * Math.min(4, 2 ** Math.max(0, this.#idlePolls - 1));
    this.later(wait * S, () => this.#poll());
  }

  async #finish() {
    const h = this.holding;
    const r = await this.rest.deleteMessage(this.name, this.demo.queue, h.messageId, h.popReceipt);
    if (r.ok) {
      this.demo.gone(h.messageId, "deleted", this.name);
      this.outcome = { ok: true, text: `deleted ${h.label}` };
      this.demo.say(`${this.name} finished ${h.label} and deleted it with its pop receipt.`, "deleted", { quiet: true });
    } else {
      this.outcome = { ok: false, text: `delete of ${h.label} refused: ${r.status} ${r.code ?? ""}`.trim(), code: r.code };
      this.demo.say(
        `${this.name} finished ${h.label} too late: its delete was refused with ${r.status} ${r.code}. Its pop receipt is stale — the message was handed out again.`,
        "stale-delete",
      );
    }
    this.holding = null;
    await this.#poll();
  }

  async #fail(reason) {
    const h = this.holding;
    this.outcome = { ok: false, text: `failed on ${h.label}: ${reason}` };
    this.demo.say(
      `${this.name} failed on ${h.label} (${reason}) and did not delete it; it reappears when its visibility timeout ends.`,
      "failed",
    );
    this.holding = null;
    await this.#poll();
  }

  /** DequeueCount above the threshold: copy the message to <queue>-poison, then delete it here. */
  async #moveToPoison(m, label) {
    this.state = "working";
    this.status = `moving ${label} to ${this.demo.poisonQueue}`;
    const put = await this.demo.send(this.name, m.messageText, { label }, this.demo.poisonQueue);
    if (!put.ok) {
      this.outcome = { ok: false, text: `poison move failed: ${put.status} ${put.code ?? ""}` };
      return this.#idle();
    }
    const del = await this.rest.deleteMessage(this.name, this.demo.queue, m.messageId, m.popReceipt);
    if (del.ok) this.demo.gone(m.messageId, "poisoned", this.name);
    this.outcome = { ok: true, text: `moved ${label} to ${this.demo.poisonQueue}` };
    this.demo.say(
      `${label} “${m.messageText}” was dequeued ${m.dequeueCount} times, more than the poison threshold (${this.demo.poisonThreshold}): ${this.name} moved it — Put Message into ${this.demo.poisonQueue}, then Delete Message here — for a human to look at.`,
      "poisoned",
    );
    await this.#poll();
  }

  /** Dies at once: whatever it holds is not deleted and will reappear after its timeout. */
  crash() {
    if (!this.alive) return;
    this.cancelTimers();
    this.alive = false;
    this.state = "crashed";
    const h = this.holding;
    this.status = h ? `crashed holding ${h.label}` : "crashed";
    if (h) this.demo.say(`${this.name} crashed while holding ${h.label}. Nobody deletes it, so it will reappear.`, "crashed");
    this.holding = null;
  }

  /** Finishes the current message (if any), then stops asking for more. */
  stop() {
    if (!this.alive) return;
    this.stopping = true;
    if (!this.holding) {
      this.cancelTimers();
      this.#stopNow();
    } else {
      this.status = `stopping after ${this.holding.label}`;
    }
  }

  #stopNow() {
    this.alive = false;
    this.stopping = false;
    this.state = "stopped";
    this.status = "stopped";
  }

  /** Back to work (after a crash or a stop). */
  restart() {
    this.cancelTimers();
    this.alive = true;
    this.stopping = false;
    this.holding = null;
    this.#idlePolls = 0;
    this.status = "restarting";
    this.later(0, () => this.#poll());
  }
}

export const STAGES = ["scan", "encode", "compress", "done"];

/** The video job's message text: the file and the next stage to run, as JSON. */
export function jobText(video, stage) {
  return JSON.stringify({ video, stage });
}

function parseJob(text) {
  try {
    const j = JSON.parse(text);
    if (STAGES.includes(j.stage)) return j;
  } catch {
    // not a job: treat as a fresh one
  }
  return { video: text, stage: "scan" };
}

/**
 * The long-running worker of the video example. It takes a lease shorter than the whole job and
 * after each stage calls Update Message: the new visibility timeout extends its lease and the
 * new text saves which stage comes next, so a replacement can resume instead of starting over.
 */
export class LeaseWorker extends Actor {
  kind = "lease-worker";
  holding = null; // { messageId, popReceipt, label, job, stageStartedAt, until, resumed }
  renewals = 0;

  constructor(demo, { name, leaseS = 30, stageS = 20, pollS = 2, startS = 0 } = {}) {
    super(demo, name);
    this.leaseS = leaseS;
    this.stageS = stageS;
    this.pollS = pollS;
    this.visibilityS = leaseS;
    this.processingS = stageS;
    this.status = startS > 0 ? `starts at ${startS} s` : "starting";
    this.later(Math.max(0, startS * S - demo.clock.elapsed()), () => this.#poll());
  }

  async #poll() {
    if (this.stopping) return this.#stopNow();
    this.state = "polling";
    const r = await this.rest.receiveMessages(this.name, this.demo.queue, {
      numberOfMessages: 1,
      visibilityTimeout: this.leaseS,
    });
    if (!r.ok || r.empty) {
      this.state = "idle";
      this.status = "waiting for a job";
      this.later(this.pollS * S, () => this.#poll());
      return;
    }
    const m = r.messages[0];
    const label = this.demo.label(m.messageId);
    const job = parseJob(m.messageText);
    this.demo.leased(m.messageId, this, m.popReceipt, m.nextVisibleOn);
    this.holding = {
      messageId: m.messageId,
      popReceipt: m.popReceipt,
      label,
      job,
      stageStartedAt: this.clock.now(),
      leasedAt: this.clock.now(),
      until: m.nextVisibleOn,
      resumed: job.stage !== "scan",
    };
    this.renewals = 0;
    this.state = "working";
    this.status = `${job.stage} ${label}`;
    if (job.stage !== "scan") {
      this.demo.say(
        `${this.name} took ${label} (DequeueCount ${m.dequeueCount}) and read the saved stage “${job.stage}” from the message: it resumes there instead of starting over.`,
        "resumed",
      );
    }
    this.#plan();
  }

  /** The next step: finish the current stage, or renew the lease first if it would run out. */
  #plan() {
    const h = this.holding;
    const stageEnd = h.stageStartedAt + this.stageS * S;
    const renewAt = h.until - 5 * S;
    if (renewAt < stageEnd) this.later(Math.max(0, renewAt - this.clock.now()), () => this.#renew());
    else this.later(stageEnd - this.clock.now(), () => this.#stageDone());
  }

  async #renew() {
    const h = this.holding;
    const r = await this.rest.updateMessage(this.name, this.demo.queue, h.messageId, h.popReceipt, {
      visibilityTimeout: this.leaseS,
    });
    if (!this.#keep(r)) return;
    this.demo.say(`${this.name} renewed its lease on ${h.label} (Update Message, no new text).`, "lease-renewed");
    this.#plan();
  }

  async #stageDone() {
    const h = this.holding;
    const next = STAGES[STAGES.indexOf(h.job.stage) + 1] ?? "done";
    const text = jobText(h.job.video, next);
    const r = await this.rest.updateMessage(this.name, this.demo.queue, h.messageId, h.popReceipt, {
      text,
      visibilityTimeout: this.leaseS,
    });
    if (!this.#keep(r)) return;
    this.demo.updated(h.messageId);
    const finished = h.job.stage;
    h.job = { ...h.job, stage: next };
    h.stageStartedAt = this.clock.now();
    this.status = `${next} ${h.label}`;
    this.demo.say(
      `${this.name} finished “${finished}” and called Update Message: the text now says “${next}” and the lease runs ${this.leaseS} s from now, with a new pop receipt.`,
      "lease-renewed",
    );
    if (next === "done") {
      const del = await this.rest.deleteMessage(this.name, this.demo.queue, h.messageId, h.popReceipt);
      if (del.ok) this.demo.gone(h.messageId, "deleted", this.name);
      this.outcome = { ok: del.ok, text: del.ok ? `${h.label} done and deleted` : `delete refused: ${del.code}` };
      this.holding = null;
      return this.#poll();
    }
    this.#plan();
  }

  /** Takes the new receipt from an Update Message; on refusal, drops the job. */
  #keep(r) {
    const h = this.holding;
    if (!r.ok) {
      this.outcome = { ok: false, text: `lost the lease on ${h.label}: ${r.status} ${r.code ?? ""}` };
      this.holding = null;
      this.later(0, () => this.#poll());
      return false;
    }
    h.popReceipt = r.popReceipt;
    h.until = r.nextVisibleOn;
    h.leasedAt = this.clock.now();
    this.renewals++;
    this.demo.leased(h.messageId, this, r.popReceipt, r.nextVisibleOn);
    this.outcome = { ok: true, text: `lease renewed ×${this.renewals}, until +${this.leaseS} s` };
    return true;
  }

  crash() {
    if (!this.alive) return;
    this.cancelTimers();
    this.alive = false;
    this.state = "crashed";
    const h = this.holding;
    this.status = h ? `crashed during “${h.job.stage}” of ${h.label}` : "crashed";
    if (h) {
      this.demo.say(
        `${this.name} crashed during “${h.job.stage}”. The message keeps the last saved stage and reappears when the lease ends.`,
        "crashed",
      );
    }
    this.holding = null;
  }

  stop() {
    if (!this.alive) return;
    this.stopping = true;
    if (!this.holding) {
      this.cancelTimers();
      this.#stopNow();
    }
  }

  #stopNow() {
    this.alive = false;
    this.stopping = false;
    this.state = "stopped";
    this.status = "stopped";
  }

  restart() {
    this.cancelTimers();
    this.alive = true;
    this.stopping = false;
    this.holding = null;
    this.status = "restarting";
    this.later(0, () => this.#poll());
  }
}

/**
 * Sends messages: by hand (the Send button), on a script, or at a steady rate.
 * `next(i)` returns { text, delayS?, ttlS?, inS } for the i-th automatic message, or null.
 */
export class Producer extends Actor {
  kind = "producer";
  sent = 0;

  constructor(demo, { name, next, auto = false } = {}) {
    super(demo, name);
    this.next = next;
    this.auto = auto;
    this.state = auto ? "sending" : "idle";
    this.status = auto ? "sending on a schedule" : name === "You" ? "the Send form below" : "sent the scenario's messages";
    if (auto) this.#schedule();
  }

  #schedule() {
    const plan = this.next?.(this.sent);
    if (!plan) {
      this.state = "idle";
      this.status = "schedule finished";
      return;
    }
    this.later(plan.inS * S, async () => {
      await this.send(plan.text, plan);
      this.#schedule();
    });
  }

  async send(text, { delayS = 0, ttlS = 0 } = {}) {
    const r = await this.demo.send(this.name, text, { visibilityTimeout: delayS, messageTimeToLive: ttlS });
    this.sent++;
    this.outcome = r.ok
      ? { ok: true, text: `sent ${this.demo.label(r.message.messageId)}${delayS ? `, visible in ${delayS} s` : ""}` }
      : { ok: false, text: `send refused: ${r.status} ${r.code ?? ""}` };
    return r;
  }

  crash() {}
  stop() {
    this.cancelTimers();
    this.auto = false;
    this.state = "idle";
    this.status = "stopped sending";
  }
  restart() {}
}

/**
 * Sizes the worker pool by queue length: every `everyS` it reads the approximate message count
 * (Get Queue Metadata) and wants one worker per `perWorker` messages, between `min` and `max`.
 */
export class Autoscaler extends Actor {
  kind = "autoscaler";
  wanted = 0;

  constructor(demo, { name = "Autoscaler", everyS = 5, perWorker = 4, min = 1, max = 6, makeWorker } = {}) {
    super(demo, name);
    Object.assign(this, { everyS, perWorker, min, max, makeWorker });
    this.state = "watching";
    this.status = `checks every ${everyS} s`;
    this.later(everyS * S, () => this.#check());
  }

  async #check() {
    const r = await this.rest.getProperties(this.name, this.demo.queue);
    if (r.ok) {
      const count = r.approximateMessagesCount;
      this.wanted = Math.min(this.max, Math.max(this.min, Math.ceil(count / this.perWorker)));
      const pool = this.demo.actors.filter((a) => a.kind === "consumer" && a.alive && !a.stopping);
      this.status = `${count} message(s) → wants ${this.wanted} worker(s)`;
      if (this.wanted > pool.length) {
        for (let i = pool.length; i < this.wanted; i++) this.makeWorker();
        this.demo.say(`The queue holds ${count} messages: the autoscaler grows the pool to ${this.wanted} workers.`, "scaled-up");
      } else if (this.wanted < pool.length) {
        const idle = pool.filter((a) => !a.holding).reverse();
        const extra = pool.length - this.wanted;
        for (const a of idle.slice(0, extra)) {
          a.stop();
          this.demo.removeActor(a);
        }
        if (idle.length) this.demo.say(`The queue is down to ${count}: the autoscaler stops idle workers (${this.wanted} wanted).`, "scaled-down");
      }
    }
    this.later(this.everyS * S, () => this.#check());
  }

  crash() {}
  stop() {
    this.cancelTimers();
    this.alive = false;
    this.state = "stopped";
    this.status = "stopped";
  }
  restart() {
    this.cancelTimers();
    this.alive = true;
    this.state = "watching";
    this.later(0, () => this.#check());
  }
}
