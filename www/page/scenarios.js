// The five scenarios. Each sets up queues and actors at time zero; from then on only the
// engine and the actors' timers decide what happens, so a scenario replays identically.
// `moments` are the things to watch for: each is ticked when the named event first happens to its
// own actor (and message, when it names a label), and `guide` is what guided mode says there.
// Every caption, intro and guide line is a function of the live world (and of the facts of the
// event that ticked it): change a timeout, the threshold or the consumers and the words follow.

import { seededRandom } from './clock.js';
import { Autoscaler, Consumer, LeaseWorker, Producer } from './actors.js';
import { STAGES, jobText, parseJob } from './jobs.js';

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
 * @property {Omit<Moment, 'done' | 'at' | 'facts'>[]} moments
 * @property {(demo: Demo) => Promise<void>} setup
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
    caption: (w) => {
      const ann = worker(w, 'Ann');
      const bob = worker(w, 'Bob');
      const orders = w.actors.find((a) => a.name === 'Shop');
      const n = /** @type {Producer | undefined} */ (orders)?.sent ?? 0;
      const pool = w.consumers().length;
      const head = `${n} orders, ${pool} consumer${pool === 1 ? '' : 's'}.`;
      if (!bob) return `${head} Bob was taken off the page: nobody here is too slow now.`;
      const both = ann
        ? `Ann asks for a ${secs(ann.visibilityS)} and Bob for a ${secs(bob.visibilityS)} visibility timeout`
        : `Bob asks for a ${secs(bob.visibilityS)} visibility timeout`;
      if (bob.processingS <= bob.visibilityS)
        return `${head} ${both}, and Bob needs ${secs(bob.processingS)} per order: with these settings he finishes in time, so his order never comes back.`;
      return (
        `${head} ${both}, but Bob needs ${secs(bob.processingS)} per order. ` +
        `Watch Bob's order: its ring runs out, it becomes visible again, ${ann ? 'Ann' : 'another consumer'} takes it (DequeueCount 2), ` +
        'and when Bob finally tries to delete it the queue refuses — his pop receipt is no longer the current one.'
      );
    },
    intro: intro(
      'Here two consumers share four orders, and one of them is slower than the visibility timeout it asks for.',
    ),
    moments: [
      {
        on: 'reappeared',
        actor: 'Bob',
        text: "Bob's order becomes visible again before he is done",
        guide: (w) => {
          const bob = worker(w, 'Bob');
          return `Bob's ${bob ? `${secs(bob.visibilityS)} ` : ''}visibility timeout ran out before he deleted his order: the queue makes it visible to everyone again.`;
        },
      },
      {
        on: 'redelivered',
        actor: 'Ann',
        text: 'Ann receives it again, with a new receipt',
        guide: (w, f) =>
          `Ann receives the same order: DequeueCount ${f.dequeueCount} and a new pop receipt, ${f.receipt}, which makes the receipt Bob holds stale.`,
      },
      {
        on: 'stale-delete',
        actor: 'Bob',
        text: "Bob's late delete is refused: his receipt is stale",
        guide: (w, f) =>
          `Bob finishes and presents ${f.presented}, but only the current receipt ${f.current} may delete the message: ${f.status} ${f.code}.`,
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
        actor: 'Encoder A',
        text: 'Update Message renews the lease and saves the stage',
        guide: (w, f) =>
          `Encoder A calls Update Message: the ring restarts at ${secs(Number(f.leaseS))}, the text saves the next stage, and a new receipt replaces the old one.`,
      },
      {
        on: 'crashed',
        actor: 'Encoder A',
        text: 'Encoder A crashes mid-job',
        guide:
          'Encoder A crashes: nobody will delete or renew the job, so it stays invisible only until its lease runs out.',
      },
      {
        on: 'reappeared',
        actor: 'Encoder A',
        text: 'the job reappears with its saved stage',
        guide: (w, f) => {
          const stage = parseJob(String(f.text))?.stage;
          return `The lease ran out: the job is visible again${stage ? `, and its text still says the next stage is “${stage}”` : ''}.`;
        },
      },
      {
        on: 'resumed',
        actor: 'Encoder B',
        text: 'Encoder B resumes from the saved stage',
        guide: (w, f) =>
          `Encoder B receives the job (DequeueCount ${f.dequeueCount}), reads the saved stage “${f.stage}” and carries on from there.`,
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
        label: '#1',
        text: 'the flash sale expires unprocessed',
        guide: (w, f) =>
          `Nobody received the flash sale within its ${secs(Number(f.ttlS))} time-to-live, so the queue drops it, unprocessed.`,
      },
      {
        on: 'scheduled-visible',
        label: '#2',
        text: 'a scheduled message comes due',
        guide: (w, f) =>
          `The invoice reminder was sent with a ${secs(Number(f.delayS))} delay: only now can a receive return it.`,
      },
      {
        on: 'deleted',
        actor: 'Cy',
        text: 'Cy processes what came due',
        guide: (w, f) =>
          `Cy received the reminder, did the work and deleted it with its receipt ${f.receipt}.`,
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
        : 'The poison check is off (threshold 0): nothing stops it coming back.'),
    intro: intro(
      'Here one message always fails: each failed attempt leaves it undeleted, so it comes back with a higher DequeueCount.',
    ),
    moments: [
      {
        on: 'failed',
        label: '#3',
        text: 'a consumer fails on order 3',
        guide:
          'Order 3 is malformed: the consumer fails and leaves it undeleted, so it will come back.',
      },
      {
        on: 'reappeared',
        label: '#3',
        text: 'order 3 comes back',
        guide: (w, f) =>
          `Its visibility timeout ran out: order 3 is visible again with DequeueCount ${f.dequeueCount}, and the next receive makes it ${Number(f.dequeueCount) + 1}.`,
      },
      {
        on: 'poisoned',
        label: '#3',
        text: 'order 3 is moved to the poison queue',
        guide: (w, f) =>
          `Received with DequeueCount ${f.dequeueCount}, past the threshold of ${f.threshold}: the consumer copies it to ${f.queue} and deletes it here.`,
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
        actor: 'Autoscaler',
        text: 'the pool grows with the backlog',
        guide: (w, f) =>
          `The queue's approximate message count is ${f.count}, more than ${f.perWorker} per worker: the autoscaler grows the pool to ${f.wanted}.`,
      },
      {
        on: 'scaled-down',
        actor: 'Autoscaler',
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
