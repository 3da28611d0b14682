// The five scenarios. Each sets up queues and actors at time zero; from then on only the
// engine and the actors' timers decide what happens, so a scenario replays identically.
// `moments` are the things to watch for: each is ticked when the named event first happens to its
// own actor (and message, when it names a label), and `guide` is what guided mode says there.

import { seededRandom } from './clock.js';
import { Autoscaler, Consumer, LeaseWorker, Producer, jobText } from './actors.js';

/** @import { Demo, Moment } from './demo.js' */

/**
 * @typedef {object} Scenario
 * @property {string} id
 * @property {string} title
 * @property {string} queue
 * @property {string} caption
 * @property {number} [poisonThreshold] DequeueCount beyond which a consumer moves a message
 * @property {Omit<Moment, 'done' | 'at'>[]} moments
 * @property {(demo: Demo) => Promise<void>} setup
 */

/** @type {Scenario[]} */
export const scenarios = [
  {
    id: 'slow-consumer',
    title: '1 · Two consumers, one too slow',
    queue: 'orders',
    caption:
      'Four orders, two consumers. Both ask for a 30 s visibility timeout, but Bob needs 40 s per order. ' +
      "Watch Bob's order: its ring runs out, it becomes visible again, Ann takes it (DequeueCount 2), " +
      'and when Bob finally tries to delete it the queue refuses — his pop receipt is no longer the current one.',
    moments: [
      {
        on: 'reappeared',
        actor: 'Bob',
        text: "Bob's order becomes visible again before he is done",
        guide:
          "Bob's 30 s visibility timeout ran out while he is still working: the queue makes his order visible to everyone again.",
      },
      {
        on: 'redelivered',
        actor: 'Ann',
        text: 'Ann receives it: DequeueCount 2, receipt r2',
        guide:
          "Ann receives the same order: DequeueCount 2 and a new pop receipt, r2, which makes Bob's r1 stale.",
      },
      {
        on: 'stale-delete',
        actor: 'Bob',
        text: "Bob's late delete is refused: r1 is not r2",
        guide:
          'Bob finishes and presents r1, but only the current receipt r2 may delete the message: 404 MessageNotFound.',
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
    caption:
      'A video job has four stages of 20 s each, far longer than the 30 s lease the worker takes. ' +
      'After each stage the worker calls Update Message: the ring starts again and the message text ' +
      'records the next stage. At 50 s Encoder A crashes; the message reappears still saying ' +
      '“compress”, and Encoder B carries on from there rather than from the beginning.',
    moments: [
      {
        on: 'lease-renewed',
        actor: 'Encoder A',
        text: 'Update Message renews the lease and saves the stage',
        guide:
          'Encoder A calls Update Message: the ring restarts, the text saves the next stage, and a new receipt replaces the old one.',
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
        guide:
          'The lease ran out: the job is visible again, and its text still says which stage comes next.',
      },
      {
        on: 'resumed',
        actor: 'Encoder B',
        text: 'Encoder B resumes from the saved stage',
        guide:
          'Encoder B receives the job (DequeueCount 2), reads the saved stage and carries on from there.',
      },
    ],
    async setup(demo) {
      const upload = demo.addActor(new Producer(demo, { name: 'Uploader' }));
      await upload.send(jobText('coho-042.mp4', 'scan'));
      const a = demo.addActor(
        new LeaseWorker(demo, { name: 'Encoder A', leaseS: 30, stageS: 20, startS: 1 }),
      );
      demo.clock.at(demo.clock.now() + 50_000, () => a.crash());
      demo.addActor(
        new LeaseWorker(demo, { name: 'Encoder B', leaseS: 30, stageS: 20, startS: 56 }),
      );
    },
  },
  {
    id: 'scheduled',
    title: '3 · Scheduled work and expiry',
    queue: 'reminders',
    caption:
      'Put Message with a visibility timeout schedules work: the message is in the queue but no receive ' +
      'returns it until its delay is over. The flash-sale message has a 15 s time-to-live and nobody is ' +
      'on duty yet, so it expires unprocessed. Cy starts at 25 s and handles the rest as they come due.',
    moments: [
      {
        on: 'expired',
        label: '#1',
        text: 'the flash sale expires unprocessed',
        guide:
          'Nobody received the flash sale within its 15 s time-to-live, so the queue drops it, unprocessed.',
      },
      {
        on: 'scheduled-visible',
        label: '#2',
        text: 'a scheduled message comes due',
        guide: 'The invoice reminder was sent with a 20 s delay: only now can a receive return it.',
      },
      {
        on: 'deleted',
        actor: 'Cy',
        text: 'Cy processes what came due',
        guide: 'Cy received the reminder, did the work and deleted it with its receipt.',
      },
    ],
    async setup(demo) {
      const cron = demo.addActor(new Producer(demo, { name: 'Scheduler' }));
      await cron.send('flash sale ends soon', { ttlS: 15 });
      await cron.send('send invoice reminder', { delayS: 20 });
      await cron.send('weekly report', { delayS: 45 });
      demo.addActor(
        new Consumer(demo, { name: 'Cy', processingS: 5, visibilityS: 30, pollS: 3, startS: 25 }),
      );
    },
  },
  {
    id: 'poison',
    title: '4 · Poison messages',
    queue: 'orders',
    poisonThreshold: 3,
    caption:
      'Order 3 is malformed, so every attempt fails and the consumer leaves it undeleted. It comes back ' +
      'again and again, its DequeueCount climbing. The consumers check the count on receipt: past the ' +
      'threshold of 3 they move the message to orders-poison instead of trying again.',
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
        guide:
          'Its visibility timeout ran out: order 3 is visible again, and the next receive raises its DequeueCount.',
      },
      {
        on: 'poisoned',
        label: '#3',
        text: 'order 3 is moved to orders-poison',
        guide:
          'Received with DequeueCount 4, past the threshold of 3: the consumer copies it to orders-poison and deletes it here.',
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
    caption:
      'Uploads arrive slowly, then in a burst, then slowly again. Every 5 s the autoscaler reads the ' +
      "queue's approximate message count and runs one worker per 4 messages (1 to 6). Watch the chart: " +
      'the queue grows, workers are added, the backlog drains, and idle workers are stopped.',
    moments: [
      {
        on: 'scaled-up',
        actor: 'Autoscaler',
        text: 'the pool grows with the backlog',
        guide:
          "The queue's approximate message count passed 4 per worker: the autoscaler starts more workers.",
      },
      {
        on: 'scaled-down',
        actor: 'Autoscaler',
        text: 'idle workers are stopped as it drains',
        guide: 'The backlog drained: the autoscaler stops the idle workers it no longer needs.',
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
