// Predict, then see: the questions guided mode asks, scenario by scenario. A question is asked
// when a moment stops the page (`ask`, the moment's event kind) and is built from the live world
// and that moment's facts, so it names the message, the receipt and the count on screen. Most
// are predictions: they are settled by an event still to come (`settle`), and the right answer is
// read from what that event reports, never written ahead, so a student who changed a setting is
// judged on the run they watched. A question without `settle` is judged at once, from facts the
// page holds but has not shown yet. The feedback names the evidence: a receipt, a count, a call.
// A question about a card or a consumer takes them on screen as its choices: click to answer.

import { formatElapsed } from './clock.js';
import { STAGES, parseJob } from './jobs.js';
import { BUSY_QUESTIONS } from './busy-questions.js';
import { listed } from './retries.js';

/** @import { Demo } from './demo.js' */
/** @import { Facts } from './narrator.js' */

/**
 * @typedef {{ id: string, text: string }} Choice
 * @typedef {object} Question
 * @property {string} id unique within its scenario
 * @property {string} ask the moment (event kind) at which it is asked
 * @property {string} topic what it teaches, for the summary (visibility timeout, receipts and 404, …)
 * @property {(w: Demo, f: Facts) => string} prompt
 * @property {(w: Demo, f: Facts) => Choice[]} choices
 * @property {'card' | 'consumer'} [pick] the choices are the cards (by label) or the consumers (by
 *   name) on screen, and clicking one answers (screen-pick.js)
 * @property {(w: Demo, f: Facts) => Facts} [subject] facts the question adds to its moment's
 *   (the message it is about, when the moment names none)
 * @property {string[]} [settle] the event kinds that may settle it; none: judged at once
 * @property {(asked: Facts, seen: Facts) => boolean} [about] whether an event of a `settle` kind
 *   is the one the question is about (the same message, the same worker)
 * @property {(asked: Facts, seen: Facts) => string} answer the right choice's id
 * @property {(asked: Facts, seen: Facts) => string} why the evidence, as a sentence
 */

const TOPIC = {
  visibility: 'visibility timeout',
  receipts: 'receipts and 404',
  dequeue: 'DequeueCount and poison',
  lease: 'lease extension',
  timing: 'delay and TTL',
  scaling: 'scaling by queue length',
};

/** @param {unknown} n */
const num = (n) => Number(n);

/**
 * Three counts around `n`, in order, as choices.
 * @param {number} n
 */
const around = (n) => [n, n + 1, n + 2].map((c) => ({ id: String(c), text: String(c) }));

/**
 * The cards in the queue's lane, as choices to click.
 * @param {Demo} w
 */
const cardsOnScreen = (w) =>
  w.view.main
    .filter((c) => c.state !== 'expired')
    .map((c) => ({ id: c.label, text: `${c.label} “${c.text}”` }));

/**
 * The consumers still running, as choices to click.
 * @param {Demo} w
 */
const consumersOnScreen = (w) =>
  w
    .consumers()
    .filter((c) => c.alive)
    .map((c) => ({ id: c.name, text: c.name }));

/** @type {Record<string, Question[]>} */
export const QUESTIONS = {
  'slow-consumer': [
    {
      id: 'comes-back',
      ask: 'intro',
      topic: TOPIC.visibility,
      prompt: (w) => {
        const slow = w.consumers().find((c) => c.processingS > c.visibilityS);
        return slow
          ? `${slow.name} asks for a ${slow.visibilityS} s visibility timeout and needs ${slow.processingS} s per order. What happens to the order ${slow.name} takes while ${slow.name} still works on it?`
          : 'Every consumer now finishes within its visibility timeout. What happens to an order while its consumer works on it?';
      },
      choices: () => [
        { id: 'back', text: 'It becomes visible again when the timeout runs out' },
        { id: 'held', text: 'It stays hidden until its consumer deletes it' },
        { id: 'gone', text: 'The queue deletes it when the timeout runs out' },
      ],
      settle: ['reappeared'],
      answer: () => 'back',
      why: (a, s) =>
        `${s.label} became visible again with DequeueCount ${s.dequeueCount} while ${s.holder} still held ${s.receipt}: no call made it so, the visibility timeout ran out inside the queue.`,
    },
    {
      id: 'twice',
      ask: 'intro',
      topic: TOPIC.visibility,
      pick: 'card',
      prompt: (w) => {
        const inTurn = [...w.consumers()].sort((a, b) => a.startS - b.startS);
        const slow = inTurn.find((c) => c.processingS > c.visibilityS);
        const starts = listed(inTurn.map((c) => `${c.name} at ${formatElapsed(c.startS * 1000)}`));
        return `The consumers start in turn (${starts}), each receiving the oldest visible order. ${slow ? `${slow.name} needs ${slow.processingS} s per order on a ${slow.visibilityS} s visibility timeout.` : 'Each finishes within its visibility timeout.'} Which order will be received a second time first?`;
      },
      choices: (w) => cardsOnScreen(w),
      settle: ['redelivered'],
      answer: (a, s) => String(s.label),
      why: (a, s) =>
        `${s.label} came back while its first consumer still worked on it, and ${s.actor}'s Get Messages returned it again: DequeueCount ${s.dequeueCount}, receipt ${s.receipt}, as its card and the HTTP log show.`,
    },
    {
      id: 'next-count',
      ask: 'reappeared',
      topic: TOPIC.dequeue,
      prompt: (w, f) =>
        `${f.label} is visible again with DequeueCount ${f.dequeueCount}. What DequeueCount will the next receive of ${f.label} show?`,
      choices: (w, f) => around(num(f.dequeueCount)),
      settle: ['redelivered'],
      about: (a, s) => s.label === a.label,
      answer: (a, s) => String(s.dequeueCount),
      why: (a, s) =>
        `${s.actor}'s Get Messages returned ${s.label} with DequeueCount ${s.dequeueCount} and issued ${s.receipt}: every receive that returns a message adds one.`,
    },
    {
      id: 'stale-delete',
      ask: 'redelivered',
      topic: TOPIC.receipts,
      prompt: (w, f) => {
        const first = w.history.of(String(f.messageId ?? '')).find((e) => e.kind === 'received');
        return `${f.actor} now holds ${f.receipt} of ${f.label}. ${first?.actor ?? 'The first consumer'} still holds ${first?.receipt ?? 'an older receipt'} and will try to delete with it. What will the queue answer?`;
      },
      choices: () => [
        { id: '404', text: '404 MessageNotFound: that receipt is stale' },
        { id: '204', text: '204: the delete works, the work was done' },
        { id: '409', text: '409: someone else holds the message' },
      ],
      settle: ['stale-delete', 'late-delete', 'deleted'],
      about: (a, s) => s.label === a.label && s.actor !== a.actor,
      answer: (a, s) => (s.status === undefined ? '204' : String(s.status)),
      why: (a, s) =>
        s.status === undefined
          ? `${s.actor}'s Delete Message with ${s.receipt} worked: nobody had received ${s.label} since.`
          : `${s.actor}'s Delete Message presented ${s.presented}, but the current receipt was ${s.current}: ${s.status} ${s.code}, as its row in the HTTP log says.`,
    },
    {
      id: 'who-deletes',
      ask: 'redelivered',
      topic: TOPIC.receipts,
      pick: 'consumer',
      prompt: (w, f) =>
        `Two consumers have now received ${f.label}, and each will try to delete it when done. Whose delete will remove it?`,
      choices: (w) => consumersOnScreen(w),
      settle: ['deleted', 'late-delete'],
      about: (a, s) => s.label === a.label,
      answer: (a, s) => String(s.actor),
      why: (a, s) =>
        `${s.actor} deleted ${s.label} with ${s.receipt}, the receipt the latest receive issued, as the Delete Message row shows: whoever holds an older receipt is refused, however long they worked.`,
    },
  ],
  lease: [
    {
      id: 'which-receipt',
      ask: 'lease-renewed',
      topic: TOPIC.receipts,
      prompt: (w, f) =>
        `${f.actor} called Update Message with ${f.presented}. Which receipt can delete or update the job now?`,
      choices: (w, f) => [
        { id: 'new', text: `Only the new one, ${f.receipt}` },
        { id: 'old', text: `Still ${f.presented}, the one it presented` },
        { id: 'both', text: `Either, until the lease runs out` },
      ],
      answer: () => 'new',
      why: (a) =>
        `The Update Message row shows it: presented ${a.presented}, issued ${a.receipt}. Each update issues a new receipt, and only the latest deletes or updates the message.`,
    },
    {
      id: 'saved-stage',
      ask: 'crashed',
      topic: TOPIC.lease,
      prompt: (w, f) =>
        `${f.actor} crashed holding ${f.receipt}. When the job reappears, which stage will its text say comes next?`,
      choices: () => STAGES.slice(0, -1).map((s) => ({ id: s, text: `“${s}”` })),
      settle: ['reappeared'],
      about: (a, s) => s.label === a.label,
      answer: (a, s) => parseJob(String(s.text))?.stage ?? '',
      why: (a, s) =>
        `The reappeared card's text says “${parseJob(String(s.text))?.stage}”: the last Update Message saved it in the message, and a crash does not undo a saved update.`,
    },
    {
      id: 'resume-count',
      ask: 'reappeared',
      topic: TOPIC.dequeue,
      prompt: (w, f) =>
        `The job is visible again with DequeueCount ${f.dequeueCount}. What DequeueCount will the worker that takes it over see?`,
      choices: (w, f) => around(num(f.dequeueCount)),
      settle: ['resumed'],
      about: (a, s) => s.label === a.label,
      answer: (a, s) => String(s.dequeueCount),
      why: (a, s) =>
        `${s.actor}'s Get Messages returned ${s.label} with DequeueCount ${s.dequeueCount}: Update Messages renew the lease but do not count, only receives do.`,
    },
  ],
  scheduled: [
    {
      id: 'short-ttl',
      ask: 'intro',
      topic: TOPIC.timing,
      prompt: (w) => {
        const c = w.view.main.find((x) => x.expiresOn && x.expiresOn - x.insertedOn < 3_600_000);
        const cy = w.consumers()[0];
        return `${c?.label ?? 'One message'} has a ${c?.expiresOn ? (c.expiresOn - c.insertedOn) / 1000 : '?'} s time-to-live, and ${cy?.name ?? 'the consumer'} starts at ${formatElapsed((cy?.startS ?? 0) * 1000)}. What happens to it?`;
      },
      subject: (w) => ({
        label: w.view.main.find((x) => x.expiresOn && x.expiresOn - x.insertedOn < 3_600_000)
          ?.label,
      }),
      about: (a, s) => s.label === a.label,
      choices: () => [
        { id: 'expires', text: 'It expires unprocessed' },
        { id: 'waits', text: 'It waits in the queue for the consumer' },
        { id: 'processed', text: 'The consumer processes it late' },
      ],
      settle: ['expired', 'deleted'],
      answer: (a, s) => (s.ttlS !== undefined ? 'expires' : 'processed'),
      why: (a, s) =>
        s.ttlS !== undefined
          ? `${s.label} reached its ${s.ttlS} s time-to-live and the queue dropped it, with no call: nobody had received it.`
          : `${s.actor} deleted ${s.label} with ${s.receipt} before its time-to-live ran out.`,
    },
    {
      id: 'when-due',
      ask: 'expired',
      topic: TOPIC.timing,
      prompt: (w) => {
        const c = w.view.main.find((x) => x.state === 'scheduled');
        const delay = c ? (c.nextVisibleOn - c.insertedOn) / 1000 : 0;
        return `${c?.label ?? 'A message'} was sent at ${formatElapsed((c?.insertedOn ?? 0) - (w.clock.now() - w.clock.elapsed()))} with a ${delay} s delay. When can a receive first return it?`;
      },
      choices: (w) => {
        const c = w.view.main.find((x) => x.state === 'scheduled');
        const epoch = w.clock.now() - w.clock.elapsed();
        const sent = (c?.insertedOn ?? epoch) - epoch;
        const due = (c?.nextVisibleOn ?? epoch) - epoch;
        return [sent, due, due + 5000].map((t) => ({
          id: formatElapsed(t),
          text: `at ${formatElapsed(t)}`,
        }));
      },
      settle: ['scheduled-visible'],
      answer: (a, s) => String(s.at),
      why: (a, s) =>
        `${s.label} came due at ${s.at}, its ${s.delayS} s delay after it was sent; until then the queue held it but no Get Messages could return it.`,
    },
    {
      id: 'delete-receipt',
      ask: 'scheduled-visible',
      topic: TOPIC.receipts,
      prompt: (w, f) =>
        `Put Message handed the sender ${f.label}'s first receipt, r0. When a consumer deletes ${f.label}, which receipt will it present?`,
      choices: () => ['r0', 'r1', 'r2'].map((r) => ({ id: r, text: r })),
      settle: ['deleted'],
      about: (a, s) => s.label === a.label,
      answer: (a, s) => String(s.receipt),
      why: (a, s) =>
        `${s.actor}'s Delete Message presented ${s.receipt}, the receipt its own Get Messages issued: a receive replaces the receipt Put Message returned.`,
    },
  ],
  poison: [
    {
      id: 'after-fail',
      ask: 'failed',
      topic: TOPIC.visibility,
      prompt: (w, f) =>
        `${f.actor} failed on ${f.label} and did not delete it. What happens to ${f.label}?`,
      choices: () => [
        { id: 'back', text: 'It comes back when its visibility timeout runs out' },
        { id: 'poison', text: 'It goes to the poison queue now' },
        { id: 'gone', text: 'The queue drops it' },
      ],
      settle: ['reappeared'],
      about: (a, s) => s.label === a.label,
      answer: () => 'back',
      why: (a, s) =>
        `${s.label} is visible again with DequeueCount ${s.dequeueCount}: nobody deleted it, and no call was needed for it to come back.`,
    },
    {
      id: 'poison-count',
      ask: 'reappeared',
      topic: TOPIC.dequeue,
      prompt: (w, f) =>
        `${f.label} is back with DequeueCount ${f.dequeueCount}, and the consumers move a message received with a DequeueCount above ${w.poisonThreshold}. At which DequeueCount will it be moved to ${w.poisonQueue}?`,
      choices: (w) => around(w.poisonThreshold),
      settle: ['poisoned'],
      about: (a, s) => s.label === a.label,
      answer: (a, s) => String(s.dequeueCount),
      why: (a, s) =>
        `${s.actor}'s receive returned ${s.label} with DequeueCount ${s.dequeueCount} and ${s.receipt}, above the threshold of ${s.threshold}: Put Message into ${s.queue}, then Delete Message with ${s.receipt}.`,
    },
    {
      id: 'copy-count',
      ask: 'poisoned',
      topic: TOPIC.dequeue,
      prompt: (w, f) =>
        `${f.actor} copied ${f.label} into ${f.queue} with Put Message. What is the copy's own DequeueCount there?`,
      choices: (w, f) =>
        [0, 1, num(f.dequeueCount)].map((n) => ({ id: String(n), text: String(n) })),
      answer: () => '0',
      why: (a) =>
        `0: a Put Message makes a new message nobody has received. Its card shows the count its original reached (${a.dequeueCount} in the first queue), and its history carries the receives that led there.`,
    },
  ],
  autoscale: [
    {
      id: 'reads-length',
      ask: 'intro',
      topic: TOPIC.scaling,
      prompt: () => 'Which call tells the autoscaler how long the queue is?',
      choices: () => [
        { id: 'Get Queue Metadata', text: 'Get Queue Metadata' },
        { id: 'Peek Messages', text: 'Peek Messages' },
        { id: 'Get Messages', text: 'Get Messages' },
      ],
      settle: ['scaled-up'],
      answer: (a, s) => String(s.op),
      why: (a, s) =>
        `Its ${s.op} answered x-ms-approximate-messages-count: ${s.count}, as its row in the HTTP log shows; a count that is approximate, and enough to size a pool.`,
    },
    {
      id: 'how-many',
      ask: 'scaled-up',
      topic: TOPIC.scaling,
      prompt: (w, f) =>
        `The queue held ${f.count} messages and the autoscaler runs one worker per ${f.perWorker}. How many workers did it ask for?`,
      choices: (w, f) => {
        const right = num(f.wanted);
        return [right - 1, right, num(f.count)]
          .filter((n, i, all) => n > 0 && all.indexOf(n) === i)
          .map((n) => ({ id: String(n), text: String(n) }));
      },
      answer: (a) => String(a.wanted),
      why: (a) =>
        `${a.count} ÷ ${a.perWorker} rounded up is ${a.wanted}, within its bounds: the Get Queue Metadata row says ${a.count}.`,
    },
    {
      id: 'which-stop',
      ask: 'scaled-up',
      topic: TOPIC.scaling,
      prompt: () => 'When the backlog drains, which workers does the autoscaler stop?',
      choices: () => [
        { id: 'idle', text: 'Only idle ones, so no message is left mid-work' },
        { id: 'newest', text: 'The newest, even mid-message' },
        { id: 'all', text: 'All but one at once' },
      ],
      settle: ['scaled-down'],
      answer: (a, s) => (num(s.busyStopped) === 0 ? 'idle' : 'newest'),
      why: (a, s) =>
        `It read ${s.count} messages and stopped ${s.stopped} idle worker(s): a worker holding a message is never stopped, so nothing it holds has to reappear.`,
    },
  ],
  busy: BUSY_QUESTIONS,
};

/**
 * A question as it stands in this run: asked with these facts, answered, settled.
 * @typedef {{ q: Question, asked: Facts, choices: Choice[], prompt: string,
 *   chose: string | undefined, right: string | undefined, why: string | undefined }} Asked
 */

/** The questions of the scenario running: which are asked, answered and settled. */
export class Quiz {
  /** @type {Question[]} */
  questions = [];
  /** @type {Asked[]} in the order asked */
  asked = [];

  /**
   * @param {string} scenario
   * @param {Question[]} [questions] its own, for a scenario made in the editor
   */
  begin(scenario, questions) {
    this.questions = questions ?? QUESTIONS[scenario] ?? [];
    this.asked = [];
  }

  /**
   * The questions to ask at the moment `on`: those not asked yet in this run, and those asked
   * here before and still open (the banner shown again: a link opened at time zero, ← back).
   * @param {Demo} w
   * @param {string} on
   * @param {Facts} facts
   */
  ask(w, on, facts) {
    const open = this.asked.filter(
      (a) => a.q.ask === on && a.chose === undefined && a.right === undefined,
    );
    const fresh = this.questions.filter((q) => q.ask === on && !this.asked.some((a) => a.q === q));
    return open.concat(fresh.map((q) => this.#pose(w, q, facts)));
  }

  /**
   * @param {Demo} w
   * @param {Question} q
   * @param {Facts} facts
   */
  #pose(w, q, facts) {
    const asked = { ...facts, ...q.subject?.(w, facts) };
    /** @type {Asked} */
    const a = {
      q,
      asked,
      choices: q.choices(w, asked),
      prompt: q.prompt(w, asked),
      chose: undefined,
      right: undefined,
      why: undefined,
    };
    this.asked.push(a);
    if (!q.settle) this.#settle(a, asked);
    return a;
  }

  /**
   * An event happened: the predictions it settles (answered or not).
   * @param {string} kind
   * @param {Facts} facts
   */
  seen(kind, facts) {
    const settled = this.asked.filter(
      (a) =>
        a.right === undefined &&
        a.q.settle?.includes(kind) &&
        (!a.q.about || a.q.about(a.asked, facts)),
    );
    for (const a of settled) this.#settle(a, facts);
    return settled;
  }

  /**
   * @param {Asked} a
   * @param {Facts} seen
   */
  #settle(a, seen) {
    a.right = a.q.answer(a.asked, seen);
    a.why = a.q.why(a.asked, seen);
  }
}
