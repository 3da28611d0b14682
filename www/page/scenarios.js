// The six scenarios (the sixth, the service is busy, in busy.js). Each sets up queues and actors at time zero; from then on only the
// engine and the actors' timers decide what happens, so a scenario replays identically.
// `moments` are the things to watch for: each is an event (a message is redelivered, a stale
// receipt is refused, a message is poisoned), ticked the first time it happens to anyone (and, with
// `when`, in the way the scenario is about), and `guide` is what guided mode says there.
// Every caption, intro and guide line is a function of the live world (and of the facts of the
// event that ticked it): change a timeout, the threshold or the consumers and the words follow.

import { formatDuration, seededRandom } from './clock.js';
import { Autoscaler, Consumer, LeaseWorker, Producer } from './actors.js';
import { STAGES, jobText, parseJob } from './jobs.js';
import { busy } from './busy.js';

/** @import { Demo } from './demo.js' */
/** @import { Facts, Moment } from './narrator.js' */

/**
 * Words made when they are shown: from the world as it is then, and the facts of the event.
 * @typedef {string | ((world: Demo, facts: Facts) => string)} Words
 * @typedef {object} Scenario
 * @property {string} id
 * @property {string} title
 * @property {string} queue
 * @property {Words} caption
 * @property {Words} intro what the picture shows, said before the first step
 * @property {number} [poisonThreshold] DequeueCount beyond which a consumer moves a message
 * @property {import('/pkg/web/azqueue.js').FaultRuleSet} [faults] fault rules the engine opens
 *   with (docs/faults.md); the page then loads the build that has them
 * @property {Omit<Moment, 'done' | 'at' | 'facts' | 'call'>[]} moments
 * @property {(demo: Demo) => Promise<void>} setup
 * @property {import('./scenario-format.js').Spec} [spec] what an edited scenario was made from
 */

/**
 * The lanes and the receipt, in two sentences, then what this scenario adds.
 * @param {string} then
 * @returns {Words}
 */
const intro = (then) => (w) =>
  `Producers put messages into the queue ${w.queue}, drawn as a lane of cards; consumers receive them, work on them and delete them. ` +
  'A receive hides the message for a visibility timeout (the ring on its card) and hands out a pop receipt, r1, r2, …: only the latest receipt can delete it. ' +
  then;

/**
 * The consumer or lease worker called `name`, if it is still on the page.
 * @param {Demo} w
 * @param {string} name
 */
const worker = (w, name) => w.worker(name);

/** @param {number | undefined} s */
const secs = (s) => `${s} s`;

/**
 * Scenario 1's caption, from what the consumers hold now and what has happened: a consumer whose
 * work left outlasts the lease left is named with both; once a stale receipt was refused, that.
 * @param {Demo} w
 */
function slowCaption(w) {
  const shop = /** @type {Producer | undefined} */ (w.actors.find((a) => a.name === 'Shop'));
  const pool = w.consumers();
  const head = `${shop?.sent ?? 0} orders, ${pool.length} consumer${pool.length === 1 ? '' : 's'}.`;
  const refused = w.moments.get('stale-delete');
  if (refused?.done) {
    const f = refused.facts;
    return `${head} ${f.actor}'s delete with ${f.presented} was refused (${f.status} ${f.code}): by then ${f.current} was the current receipt${f.holder ? `, issued to ${f.holder}` : ''}. Only the latest receipt deletes a message, so a slow consumer's work must be safe to do twice.`;
  }
  const now = w.clock.now();
  for (const c of pool) {
    const h = c.kind === 'consumer' && c.alive ? c.holding : null;
    if (!h || h.doneAt - now <= h.until - now) continue;
    const leaseLeft = h.until - now;
    return `${head} ${c.name} holds ${h.label} with ${formatDuration(h.doneAt - now)} of work left and ${leaseLeft > 0 ? `${formatDuration(leaseLeft)} left on` : 'no time left on'} the lease: it becomes visible before ${c.name} is done, another consumer may take it, and then ${c.name}'s receipt ${h.receipt} will be stale.`;
  }
  const consumers = pool.filter((c) => c.kind === 'consumer');
  const settings = consumers
    .map((c, i) =>
      i === 0
        ? `${c.name} asks for a ${secs(c.visibilityS)} visibility timeout (${secs(c.processingS)} of work per order)`
        : `${c.name} for a ${secs(c.visibilityS)} visibility timeout (${secs(c.processingS)})`,
    )
    .join(', ');
  const slow = consumers.find((c) => c.alive && c.processingS > c.visibilityS);
  if (!slow)
    return `${head} ${settings}: each finishes within its visibility timeout now, so no order comes back unless one crashes.`;
  return (
    `${head} ${settings}. Watch ${slow.name}'s order: its ring runs out, it becomes visible again, another consumer takes it (DequeueCount 2), ` +
    `and when ${slow.name} finally tries to delete it the queue refuses: the pop receipt is no longer the current one.`
  );
}

// Scenario 3's schedule, said in its caption and used by its setup: one source for both.
const FLASH_TTL_S = 15;
const INVOICE_DELAY_S = 20;
const REPORT_DELAY_S = 45;
const CY_STARTS_S = 25;
// Scenario 2: when Encoder A crashes and when Encoder B starts.
const CRASH_AT_S = 50;
const B_STARTS_S = 56;

/** @type {Scenario[]} */
export const scenarios = [
  {
    id: 'slow-consumer',
    title: '1 · Two consumers, one too slow',
    queue: 'orders',
    caption: (w) => slowCaption(w),
    intro: intro(
      'Here two consumers share four orders, and one of them is slower than the visibility timeout it asks for.',
    ),
    moments: [
      {
        on: 'reappeared',
        when: (f) => f.stillWorking === true,
        text: 'an order becomes visible again while its consumer still works on it',
        guide: (w, f) => {
          const holder = f.holder ? worker(w, String(f.holder)) : undefined;
          return `${f.holder}'s ${holder ? `${secs(holder.visibilityS)} ` : ''}visibility timeout ran out before ${f.holder} deleted ${f.label}: the queue makes it visible to everyone again. ${f.holder} still holds ${f.receipt}.`;
        },
      },
      {
        on: 'redelivered',
        text: 'a message is redelivered, with a new receipt',
        guide: (w, f) =>
          `${f.actor} receives ${f.label} again: DequeueCount ${f.dequeueCount} and a new pop receipt, ${f.receipt}, which makes every older receipt for it stale.`,
      },
      {
        on: 'stale-delete',
        text: 'a stale receipt is refused',
        guide: (w, f) =>
          `${f.actor} finishes and presents ${f.presented}, but only the current receipt ${f.current} may delete the message: ${f.status} ${f.code}.`,
      },
    ],
    async setup(demo) {
      const shop = demo.addActor(new Producer(demo, { name: 'Shop' }));
      for (let i = 1; i <= 4; i++) await shop.send(`order ${i}`);
      demo.addActor(
        new Consumer(demo, { name: 'Ann', processingS: 12, visibilityS: 30, startS: 1 }),
      );
      demo.addActor(
        new Consumer(demo, { name: 'Bob', processingS: 40, visibilityS: 30, startS: 2 }),
      );
    },
  },
  {
    id: 'lease',
    title: '2 · Lease extension with progress',
    queue: 'videos',
    caption: (w) => {
      const a = worker(w, 'Encoder A') ?? worker(w, 'Encoder B');
      const stages = STAGES.slice(0, -1);
      const stageS = /** @type {LeaseWorker | undefined} */ (a)?.stageS ?? 20;
      const leaseS = /** @type {LeaseWorker | undefined} */ (a)?.leaseS ?? 30;
      const job = stages.length * stageS;
      return (
        `A video job has ${stages.length} stages (${stages.join(', ')}) of ${secs(stageS)} each: ${secs(job)} in all, ${job > leaseS ? 'far longer than' : 'within'} the ${secs(leaseS)} lease the worker takes. ` +
        'After each stage the worker calls Update Message: the ring starts again and the message text ' +
        `records the next stage. At ${secs(CRASH_AT_S)} Encoder A crashes; the message reappears still saying ` +
        `the stage it saved, and Encoder B (from ${secs(B_STARTS_S)}) carries on from there rather than from the beginning.`
      );
    },
    intro: intro(
      'Here one long job outlasts its lease: the worker keeps extending it with Update Message, and each update issues a new receipt.',
    ),
    moments: [
      {
        on: 'lease-renewed',
        text: 'Update Message renews the lease and saves the stage',
        guide: (w, f) =>
          `${f.actor} calls Update Message with ${f.presented}: the ring restarts at ${secs(Number(f.leaseS))}, the text saves the next stage, and the new receipt ${f.receipt} replaces the old one.`,
      },
      {
        on: 'crashed',
        text: 'a worker crashes mid-job',
        guide: (w, f) =>
          `${f.actor} crashes holding ${f.receipt}: nobody will delete or renew the job, so it stays invisible only until its lease runs out.`,
      },
      {
        on: 'reappeared',
        when: (f) => f.released === 'crashed',
        text: 'the job reappears with its saved stage',
        guide: (w, f) => {
          const stage = parseJob(String(f.text))?.stage;
          return `The lease ran out: the job is visible again${stage ? `, and its text still says the next stage is “${stage}”` : ''}.`;
        },
      },
      {
        on: 'resumed',
        text: 'another worker resumes from the saved stage',
        guide: (w, f) =>
          `${f.actor} receives the job (DequeueCount ${f.dequeueCount}), reads the saved stage “${f.stage}” and carries on from there.`,
      },
    ],
    async setup(demo) {
      const upload = demo.addActor(new Producer(demo, { name: 'Uploader' }));
      await upload.send(jobText('coho-042.mp4', 'scan'));
      const a = demo.addActor(
        new LeaseWorker(demo, { name: 'Encoder A', leaseS: 30, stageS: 20, startS: 1 }),
      );
      demo.clock.at(demo.clock.now() + CRASH_AT_S * 1000, () => a.crash());
      demo.addActor(
        new LeaseWorker(demo, { name: 'Encoder B', leaseS: 30, stageS: 20, startS: B_STARTS_S }),
      );
    },
  },
  {
    id: 'scheduled',
    title: '3 · Scheduled work and expiry',
    queue: 'reminders',
    caption:
      'Put Message with a visibility timeout schedules work: the message is in the queue but no receive ' +
      `returns it until its delay is over. The flash-sale message has a ${secs(FLASH_TTL_S)} time-to-live and nobody is ` +
      `on duty yet, so it expires unprocessed. Cy starts at ${secs(CY_STARTS_S)} and handles the rest as they come due.`,
    intro: intro(
      'Here messages are sent with a delay (scheduled, invisible until then) or a short time-to-live, before any consumer is on duty.',
    ),
    moments: [
      {
        on: 'expired',
        text: 'a message expires unprocessed',
        guide: (w, f) =>
          `Nobody received ${f.label} within its ${secs(Number(f.ttlS))} time-to-live, so the queue drops it, unprocessed.`,
      },
      {
        on: 'scheduled-visible',
        text: 'a scheduled message comes due',
        guide: (w, f) =>
          `${f.label} was sent with a ${secs(Number(f.delayS))} delay: only now can a receive return it.`,
      },
      {
        on: 'deleted',
        when: (f, w) => w.cameDue(String(f.messageId)),
        text: 'a consumer processes what came due',
        guide: (w, f) =>
          `${f.actor} received ${f.label} once it came due, did the work and deleted it with its receipt ${f.receipt}.`,
      },
    ],
    async setup(demo) {
      const cron = demo.addActor(new Producer(demo, { name: 'Scheduler' }));
      await cron.send('flash sale ends soon', { ttlS: FLASH_TTL_S });
      await cron.send('send invoice reminder', { delayS: INVOICE_DELAY_S });
      await cron.send('weekly report', { delayS: REPORT_DELAY_S });
      demo.addActor(
        new Consumer(demo, {
          name: 'Cy',
          processingS: 5,
          visibilityS: 30,
          pollS: 3,
          startS: CY_STARTS_S,
        }),
      );
    },
  },
  {
    id: 'poison',
    title: '4 · Poison messages',
    queue: 'orders',
    poisonThreshold: 3,
    caption: (w) =>
      'Order 3 is malformed, so every attempt fails and the consumer leaves it undeleted. It comes back ' +
      'again and again, its DequeueCount climbing. ' +
      (w.poisonThreshold
        ? `The consumers check the count on receipt: past the threshold of ${w.poisonThreshold} they move the message to ${w.poisonQueue} instead of trying again.`
        : 'The poison check is off (threshold 0): nothing stops it coming back.') +
      " Azure Functions' maxDequeueCount counts failed attempts instead: with maxDequeueCount N the host moves a message right after its Nth failure, with no extra receive, where the threshold here moves it on the receive after the Nth (DequeueCount N + 1).",
    intro: intro(
      'Here one message always fails: each failed attempt leaves it undeleted, so it comes back with a higher DequeueCount.',
    ),
    moments: [
      {
        on: 'failed',
        text: 'a consumer fails on a message',
        guide: (w, f) =>
          `${f.label} is malformed (${f.reason}): ${f.actor} fails and leaves it undeleted, so it will come back.`,
      },
      {
        on: 'reappeared',
        when: (f) => f.released === 'failed',
        text: 'the failed message comes back',
        guide: (w, f) =>
          `Its visibility timeout ran out: ${f.label} is visible again with DequeueCount ${f.dequeueCount}, and the next receive makes it ${Number(f.dequeueCount) + 1}.`,
      },
      {
        on: 'poisoned',
        text: 'a message is poisoned',
        guide: (w, f) =>
          `${f.actor} received ${f.label} with receipt ${f.receipt} and DequeueCount ${f.dequeueCount}, past the threshold of ${f.threshold}: it copies the message to ${f.queue} and deletes it here with ${f.receipt}.`,
      },
    ],
    async setup(demo) {
      const shop = demo.addActor(new Producer(demo, { name: 'Shop' }));
      for (const text of ['order 1', 'order 2', 'order 3 {"qty": "lots"}', 'order 4'])
        await shop.send(text);
      const failsOn = (/** @type {string} */ text) =>
        text.includes('"lots"') ? 'qty is not a number' : undefined;
      demo.addActor(
        new Consumer(demo, { name: 'Ann', processingS: 4, visibilityS: 10, startS: 1, failsOn }),
      );
      demo.addActor(
        new Consumer(demo, { name: 'Bob', processingS: 4, visibilityS: 10, startS: 2, failsOn }),
      );
    },
  },
  {
    id: 'autoscale',
    title: '5 · Scaling workers by queue length',
    queue: 'thumbnails',
    caption: (w) => {
      const a = /** @type {Autoscaler | undefined} */ (
        w.actors.find((x) => x.kind === 'autoscaler')
      );
      if (!a) return 'Uploads arrive slowly, then in a burst, then slowly again.';
      return (
        `Uploads arrive slowly, then in a burst, then slowly again. Every ${secs(a.everyS)} the autoscaler reads the ` +
        `queue's approximate message count and runs one worker per ${a.perWorker} messages (${a.min} to ${a.max}). Watch the chart: ` +
        'the queue grows, workers are added, the backlog drains, and idle workers are stopped.'
      );
    },
    intro: intro(
      'Here the number of consumers follows the length of the queue, as an autoscaler reading Get Queue Metadata would run it.',
    ),
    moments: [
      {
        on: 'scaled-up',
        text: 'the pool grows with the backlog',
        guide: (w, f) =>
          `The queue's approximate message count is ${f.count}, more than ${f.perWorker} per worker: the autoscaler grows the pool to ${f.wanted}.`,
      },
      {
        on: 'scaled-down',
        text: 'idle workers are stopped as it drains',
        guide: (w, f) =>
          `The backlog drained to ${f.count}: the autoscaler stops the idle workers it no longer needs (${f.wanted} wanted).`,
      },
    ],
    async setup(demo) {
      const random = seededRandom(5);
      let workers = 0;
      const makeWorker = () =>
        demo.addActor(
          new Consumer(demo, { name: `W${++workers}`, processingS: 4, visibilityS: 30, pollS: 1 }),
        );
      const camera = demo.addActor(
        new Producer(demo, {
          name: 'Uploads',
          auto: true,
          next(i) {
            const t = demo.clock.elapsed() / 1000;
            if (t > 120) return null;
            const gap = t >= 15 && t < 45 ? 0.5 : 4;
            return {
              text: `img-${String(i + 1).padStart(3, '0')}.jpg`,
              inS: gap * (0.5 + random()),
            };
          },
        }),
      );
      void camera;
      makeWorker();
      demo.addActor(new Autoscaler(demo, { everyS: 5, perWorker: 4, min: 1, max: 6, makeWorker }));
    },
  },
  busy,
];

/** @type {Record<string, string>} */
const ALIASES = { scaling: 'autoscale' }; // the id before links named it

/** @param {string} id */
export function scenarioById(id) {
  id = ALIASES[id] ?? id;
  return scenarios.find((s) => s.id === id) ?? scenarios[0];
}

/** @param {string} id */
export function isScenario(id) {
  id = ALIASES[id] ?? id;
  return scenarios.some((s) => s.id === id);
}
