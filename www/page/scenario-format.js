// A scenario as data, for the editor, links and files: producers and when they send, consumers
// and lease workers with their timings and crash points, the poison threshold, delays and TTLs,
// the moments to narrate and the questions to ask. `toScenario` turns it into a scenario that
// runs on the same seeded engine as the built-in five; the same JSON opens the same run anywhere.
// `faults` and `limits` are fault rules and throttling in the engine's own shape
// (docs/faults.md): the page opens the build with fault rules for such a scenario, and the
// engine answers by them. Producers may retry what it refuses, and consumers may be idempotent
// (they share a payments ledger). docs/page.md documents the format.

import { Consumer } from './consumer.js';
import { LeaseWorker } from './lease-worker.js';
import { Producer } from './producer.js';
import { jobText } from './jobs.js';
import { Ledger } from './ledger.js';
import { FAULT_OPERATIONS } from './fault-operations.js';

/** @import { Demo } from './demo.js' */
/** @import { Scenario } from './scenarios.js' */
/** @import { Question } from './questions.js' */
/** @import { FaultRuleSet } from '/pkg/web/azqueue.js' */

export const FORMAT = 'azqueue-scenario/1';
/** The events a moment or a question can be tied to (what the actors and the queue tell). */
export const EVENTS = {
  reappeared: 'a message becomes visible again',
  redelivered: 'a message is redelivered',
  'stale-delete': 'a stale receipt is refused',
  deleted: 'a message is processed and deleted',
  'late-delete': 'a late delete still works',
  failed: 'a consumer fails on a message',
  poisoned: 'a message is poisoned',
  crashed: 'a worker crashes holding a message',
  'lease-renewed': 'a lease is extended with Update Message',
  resumed: 'a worker resumes from a saved stage',
  expired: 'a message expires unprocessed',
  'scheduled-visible': 'a scheduled message comes due',
  throttled: 'a Put is refused 503 ServerBusy',
  'timed-out': 'a Put times out after it was stored',
  retried: 'a retried Put is stored once',
  duplicated: 'a retried Put stores a duplicate',
  'processed-twice': 'a consumer does the same work twice',
  deduplicated: 'an idempotent consumer skips a duplicate',
};
const FAULT_WHEN = ['before', 'after'];

/**
 * @typedef {{ at: number, text?: string, job?: string, delayS?: number, ttlS?: number }} SpecMessage
 *   one message a producer sends `at` seconds from time zero (`job`: a video job for lease
 *   workers, its text made as scenario 2's)
 * @typedef {{ name: string, messages: SpecMessage[], retry?: import('./producer.js').RetryPolicy }}
 *   SpecProducer `retry`: sends a message again when the service answers 500 or 503
 * @typedef {{ name: string, kind?: 'consumer' | 'lease-worker', workS?: number,
 *   visibilityS?: number, startS?: number, pollS?: number, crashAtS?: number,
 *   failsOn?: string, idempotent?: boolean }} SpecConsumer a consumer (`workS` per message;
 *   `idempotent`: it skips a message whose text the ledger records as done) or a lease worker
 *   (`workS` per stage, `visibilityS` its lease, extended with Update Message)
 * @typedef {{ on: string, text: string, guide?: string }} SpecMoment
 * @typedef {{ ask: string, prompt: string, choices: string[], answer: number, why: string,
 *   settle?: string, pick?: 'card' | 'consumer' }} SpecQuestion asked at the moment `ask`; judged
 *   at once, or when `settle` happens; with `pick`, its choices are cards' labels or consumers'
 *   names, and clicking one on screen answers
 * @typedef {{ operation: string, status: number, code?: string, message?: string,
 *   when?: 'before' | 'after', skip?: number, times?: number, probability?: number }} SpecFault
 *   a fault rule (docs/faults.md)
 * @typedef {object} Spec
 * @property {string} format always FORMAT
 * @property {string} title
 * @property {string} queue
 * @property {string} [intro]
 * @property {number} [poisonThreshold]
 * @property {SpecProducer[]} producers
 * @property {SpecConsumer[]} consumers
 * @property {SpecMoment[]} [moments]
 * @property {SpecQuestion[]} [questions]
 * @property {SpecFault[]} [faults]
 * @property {{ queueMessagesPerSecond?: number }} [limits]
 */

/** A scenario to start from: two consumers, one slower than its visibility timeout. */
export const EXAMPLE = /** @type {Spec} */ ({
  format: FORMAT,
  title: 'My scenario',
  queue: 'tasks',
  intro: 'Two consumers share the tasks; one is slower than its visibility timeout.',
  poisonThreshold: 0,
  producers: [
    {
      name: 'Web',
      messages: [
        { at: 0, text: 'task 1' },
        { at: 0, text: 'task 2' },
        { at: 5, text: 'task 3', ttlS: 60 },
        { at: 10, text: 'report', delayS: 30 },
      ],
    },
  ],
  consumers: [
    { name: 'Ann', workS: 8, visibilityS: 20, startS: 1 },
    { name: 'Bob', workS: 30, visibilityS: 20, startS: 2 },
  ],
  moments: [
    { on: 'reappeared', text: EVENTS.reappeared },
    { on: 'redelivered', text: EVENTS.redelivered },
    { on: 'stale-delete', text: EVENTS['stale-delete'] },
  ],
  questions: [
    {
      ask: 'reappeared',
      prompt: 'Bob still works on his task. Will his delete work when he finishes?',
      choices: ['Yes', 'No: someone else will have received it, and his receipt is stale'],
      answer: 1,
      why: 'The next receive issues a new receipt; only the latest deletes the message.',
      settle: 'stale-delete',
    },
  ],
  faults: [],
  limits: {},
});

/**
 * Checks `value` as a scenario: the spec, or the list of what is wrong with it.
 * @param {unknown} value
 * @returns {{ spec: Spec, errors: [] } | { spec: null, errors: string[] }}
 */
export function check(value) {
  /** @type {string[]} */
  const errors = [];
  const o = /** @type {Record<string, any>} */ (value);
  const need = (/** @type {boolean} */ ok, /** @type {string} */ what) => {
    if (!ok) errors.push(what);
  };
  const seconds = (/** @type {unknown} */ v, /** @type {string} */ what, min = 0) =>
    need(v === undefined || (Number.isFinite(v) && Number(v) >= min), `${what}: a number ≥ ${min}`);
  if (!o || typeof o !== 'object') return { spec: null, errors: ['not a JSON object'] };
  need(o.format === FORMAT, `format: "${FORMAT}"`);
  need(typeof o.title === 'string' && o.title.length > 0, 'title: some text');
  need(
    typeof o.queue === 'string' && /^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/.test(o.queue),
    'queue: a queue name (3–63 lowercase letters, digits and single hyphens)',
  );
  seconds(o.poisonThreshold, 'poisonThreshold');
  need(Array.isArray(o.producers), 'producers: a list');
  need(Array.isArray(o.consumers), 'consumers: a list');
  const names = new Set();
  for (const [i, p] of (Array.isArray(o.producers) ? o.producers : []).entries()) {
    need(typeof p?.name === 'string' && p.name.length > 0, `producers[${i}].name`);
    names.add(p?.name);
    need(Array.isArray(p?.messages), `producers[${i}].messages: a list`);
    for (const [j, m] of (Array.isArray(p?.messages) ? p.messages : []).entries()) {
      const at = `producers[${i}].messages[${j}]`;
      seconds(m?.at, `${at}.at`);
      need(Number.isFinite(m?.at), `${at}.at: seconds from time zero`);
      need(typeof m?.text === 'string' || typeof m?.job === 'string', `${at}: a text or a job`);
      seconds(m?.delayS, `${at}.delayS`);
      need(m?.ttlS === undefined || m.ttlS === -1 || m.ttlS >= 0, `${at}.ttlS: -1, 0 or more`);
    }
    const retry = p?.retry;
    need(
      retry === undefined ||
        (Number.isInteger(retry?.tries) && retry.tries >= 0 && retry?.firstS > 0),
      `producers[${i}].retry: { tries: 0 or more, firstS: seconds > 0 }`,
    );
  }
  for (const [i, c] of (Array.isArray(o.consumers) ? o.consumers : []).entries()) {
    const at = `consumers[${i}]`;
    need(typeof c?.name === 'string' && c.name.length > 0, `${at}.name`);
    need(!names.has(c?.name), `${at}.name: a name no other actor has`);
    names.add(c?.name);
    need(
      c?.kind === undefined || c.kind === 'consumer' || c.kind === 'lease-worker',
      `${at}.kind: "consumer" or "lease-worker"`,
    );
    seconds(c?.workS, `${at}.workS`, 1);
    seconds(c?.visibilityS, `${at}.visibilityS`, 1);
    seconds(c?.startS, `${at}.startS`);
    seconds(c?.pollS, `${at}.pollS`, 1);
    seconds(c?.crashAtS, `${at}.crashAtS`);
    need(c?.failsOn === undefined || typeof c.failsOn === 'string', `${at}.failsOn: text`);
    need(c?.idempotent === undefined || typeof c.idempotent === 'boolean', `${at}.idempotent`);
  }
  for (const [i, m] of (o.moments ?? []).entries()) {
    need(m?.on in EVENTS, `moments[${i}].on: one of ${Object.keys(EVENTS).join(', ')}`);
    need(typeof m?.text === 'string', `moments[${i}].text`);
  }
  for (const [i, q] of (o.questions ?? []).entries()) {
    const at = `questions[${i}]`;
    need(q?.ask === 'intro' || q?.ask in EVENTS, `${at}.ask: "intro" or an event`);
    need(q?.settle === undefined || q.settle in EVENTS, `${at}.settle: an event`);
    need(typeof q?.prompt === 'string', `${at}.prompt`);
    need(
      Array.isArray(q?.choices) &&
        q.choices.length >= 2 &&
        q.choices.every((/** @type {unknown} */ c) => typeof c === 'string'),
      `${at}.choices: two or more texts`,
    );
    need(
      Number.isInteger(q?.answer) && q.answer >= 0 && q.answer < (q?.choices?.length ?? 0),
      `${at}.answer: a choice's index`,
    );
    need(typeof q?.why === 'string', `${at}.why`);
    need(
      q?.pick === undefined || q.pick === 'card' || q.pick === 'consumer',
      `${at}.pick: "card" or "consumer"`,
    );
    const consumers = new Set((Array.isArray(o.consumers) ? o.consumers : []).map((c) => c?.name));
    if (q?.pick === 'card')
      need(
        q.choices?.every?.((/** @type {unknown} */ c) => /^#\d+$/.test(String(c))),
        `${at}.choices: cards' labels (#1, #2, …), for a question answered by clicking a card`,
      );
    if (q?.pick === 'consumer')
      need(
        q.choices?.every?.((/** @type {unknown} */ c) => consumers.has(c)),
        `${at}.choices: consumers' names, for a question answered by clicking a consumer`,
      );
  }
  for (const [i, f] of (o.faults ?? []).entries()) {
    const at = `faults[${i}]`;
    need(
      FAULT_OPERATIONS.includes(f?.operation),
      `${at}.operation: one of ${FAULT_OPERATIONS.join(', ')}`,
    );
    need(
      Number.isInteger(f?.status) && f.status >= 400 && f.status < 600,
      `${at}.status: 4xx or 5xx`,
    );
    need(
      f?.code !== undefined || f?.status === 500 || f?.status === 503,
      `${at}.code: an Azure error code (a status alone is 500 or 503)`,
    );
    need(f?.when === undefined || FAULT_WHEN.includes(f.when), `${at}.when: "before" or "after"`);
    need(f?.skip === undefined || (Number.isInteger(f.skip) && f.skip >= 0), `${at}.skip`);
    need(f?.times === undefined || (Number.isInteger(f.times) && f.times > 0), `${at}.times`);
    need(
      f?.probability === undefined || (f.probability >= 0 && f.probability <= 1),
      `${at}.probability: 0 to 1`,
    );
  }
  const rate = o.limits?.queueMessagesPerSecond;
  need(rate === undefined || (Number.isFinite(rate) && rate >= 0), 'limits.queueMessagesPerSecond');
  return errors.length ? { spec: null, errors } : { spec: /** @type {Spec} */ (o), errors: [] };
}

/**
 * The scenario `spec` describes, runnable like the built-in ones (its id is "custom").
 * @param {Spec} spec
 * @returns {Scenario}
 */
export function toScenario(spec) {
  const consumers = spec.consumers.map(
    (c) =>
      `${c.name} (${c.workS ?? 5} s of work, ${c.visibilityS ?? 30} s ${c.kind === 'lease-worker' ? 'lease, extended' : 'visibility timeout'})`,
  );
  return {
    id: 'custom',
    title: `✎ ${spec.title}`,
    queue: spec.queue,
    poisonThreshold: spec.poisonThreshold ?? 0,
    faults: ruleSet(spec),
    spec,
    caption: `${spec.title}: ${consumers.join(', ') || 'no consumers'}.${spec.poisonThreshold ? ` Poison after ${spec.poisonThreshold} dequeues.` : ''}`,
    intro:
      'Producers put messages into the queue, drawn as a lane of cards; consumers receive them, work on them and delete them. ' +
      'A receive hides the message for a visibility timeout (the ring on its card) and hands out a pop receipt, r1, r2, …: only the latest receipt can delete it. ' +
      (spec.intro ?? ''),
    moments: (spec.moments ?? []).map((m) => ({ on: m.on, text: m.text, guide: m.guide })),
    async setup(demo) {
      // One ledger for all, when a duplicate can arise or a consumer reads it.
      const ledger =
        ruleSet(spec) || spec.consumers.some((c) => c.idempotent) ? new Ledger() : undefined;
      for (const p of spec.producers) await produce(demo, p);
      for (const c of spec.consumers) consume(demo, c, ledger);
    },
  };
}

/**
 * The spec's faults and limits as the engine's rule set, or undefined when it has none.
 * @param {Spec} spec
 * @returns {FaultRuleSet | undefined}
 */
function ruleSet(spec) {
  const rate = spec.limits?.queueMessagesPerSecond;
  if (!spec.faults?.length && !rate) return undefined;
  return {
    rules: /** @type {FaultRuleSet['rules']} checked: operations are the engine's to refuse */ (
      spec.faults ?? []
    ),
    limits: rate ? { queueMessagesPerSecond: rate } : undefined,
  };
}

/**
 * A producer: what it sends at time zero now, the rest on its own timers.
 * @param {Demo} demo
 * @param {SpecProducer} p
 */
async function produce(demo, p) {
  const producer = demo.addActor(new Producer(demo, { name: p.name, retry: p.retry }));
  const text = (/** @type {SpecMessage} */ m) => m.text ?? jobText(String(m.job), 'scan');
  const messages = [...p.messages].sort((a, b) => a.at - b.at);
  const send = (/** @type {SpecMessage} */ m) =>
    p.retry
      ? producer.deliver(text(m), { delayS: m.delayS, ttlS: m.ttlS })
      : producer.send(text(m), { delayS: m.delayS, ttlS: m.ttlS });
  for (const m of messages.filter((x) => x.at <= 0)) await send(m);
  for (const m of messages.filter((x) => x.at > 0)) producer.later(m.at * 1000, () => send(m));
}

/**
 * A consumer or a lease worker, and its crash point.
 * @param {Demo} demo
 * @param {SpecConsumer} c
 * @param {Ledger} [ledger] the scenario's payments ledger, if it keeps one
 */
function consume(demo, c, ledger) {
  const common = { name: c.name, startS: c.startS ?? 0, pollS: c.pollS ?? 2 };
  const failsOn = c.failsOn;
  const worker =
    c.kind === 'lease-worker'
      ? demo.addActor(
          new LeaseWorker(demo, { ...common, stageS: c.workS ?? 20, leaseS: c.visibilityS ?? 30 }),
        )
      : demo.addActor(
          new Consumer(demo, {
            ...common,
            processingS: c.workS ?? 5,
            visibilityS: c.visibilityS ?? 30,
            ledger,
            idempotent: c.idempotent,
            failsOn: failsOn
              ? (text) => (text.includes(failsOn) ? `it cannot handle “${failsOn}”` : undefined)
              : undefined,
          }),
        );
  if (c.crashAtS !== undefined)
    demo.clock.at(demo.clock.now() + c.crashAtS * 1000, () => worker.crash());
}

/**
 * The author's questions as the quiz asks them.
 * @param {Spec} spec
 * @returns {Question[]}
 */
export function specQuestions(spec) {
  return (spec.questions ?? []).map((q, i) => ({
    id: `q${i + 1}`,
    ask: q.ask,
    topic: 'your scenario',
    prompt: () => q.prompt,
    // Clicked on screen, a choice is the card's label or the consumer's name itself.
    choices: () => q.choices.map((text, j) => ({ id: q.pick ? text : String(j), text })),
    pick: q.pick,
    settle: q.settle ? [q.settle] : undefined,
    answer: () => (q.pick ? q.choices[q.answer] : String(q.answer)),
    why: () => q.why,
  }));
}

/**
 * The scenario as link text: JSON, deflated, base64url (compact enough for an address bar).
 * @param {Spec} spec
 */
export async function encodeSpec(spec) {
  const bytes = new TextEncoder().encode(JSON.stringify(spec));
  const packed = await new Response(
    new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw')),
  ).arrayBuffer();
  let binary = '';
  for (const b of new Uint8Array(packed)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The scenario a link's text carries, checked.
 * @param {string} text
 */
export async function decodeSpec(text) {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const json = await new Response(
      new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')),
    ).text();
    return check(JSON.parse(json));
  } catch (e) {
    return {
      spec: null,
      errors: [`the link's scenario does not read: ${/** @type {Error} */ (e).message}`],
    };
  }
}
