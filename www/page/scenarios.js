// The five scenarios. Each sets up queues and actors at time zero; from then on only the
// engine and the actors' timers decide what happens, so a scenario replays identically.
// `moments` are the things to watch for: each is ticked when the named event first happens.

import { seededRandom } from "./clock.js";
import { Autoscaler, Consumer, LeaseWorker, Producer, jobText } from "./actors.js";

export const scenarios = [
  {
    id: "slow-consumer",
    title: "1 · Two consumers, one too slow",
    queue: "orders",
    caption:
      "Four orders, two consumers. Both ask for a 30 s visibility timeout, but Bob needs 40 s per order. " +
      "Watch Bob's order: its ring runs out, it becomes visible again, Ann takes it (DequeueCount 2), " +
      "and when Bob finally tries to delete it the queue refuses — his pop receipt is no longer the current one.",
    moments: [
      { on: "reappeared", text: "Bob's order becomes visible again before he is done" },
      { on: "redelivered", text: "Ann receives it: DequeueCount 2" },
      { on: "stale-delete", text: "Bob's late delete is refused" },
    ],
    async setup(demo) {
      const shop = demo.addActor(new Producer(demo, { name: "Shop" }));
      for (let i = 1; i <= 4; i++) await shop.send(`order ${i}`);
      demo.addActor(new Consumer(demo, { name: "Ann", processingS: 12, visibilityS: 30, startS: 1 }));
      demo.addActor(new Consumer(demo, { name: "Bob", processingS: 40, visibilityS: 30, startS: 2 }));
    },
  },
  {
    id: "lease",
    title: "2 · Lease extension with progress",
    queue: "videos",
    caption:
      "A video job has four stages of 20 s each, far longer than the 30 s lease the worker takes. " +
      "After each stage the worker calls Update Message: the ring starts again and the message text " +
      "records the next stage. At 50 s Encoder A crashes; the message reappears still saying " +
      "“compress”, and Encoder B carries on from there rather than from the beginning.",
    moments: [
      { on: "lease-renewed", text: "Update Message renews the lease and saves the stage" },
      { on: "crashed", text: "Encoder A crashes mid-job" },
      { on: "reappeared", text: "the job reappears with its saved stage" },
      { on: "resumed", text: "Encoder B resumes from the saved stage" },
    ],
    async setup(demo) {
      const upload = demo.addActor(new Producer(demo, { name: "Uploader" }));
      await upload.send(jobText("coho-042.mp4", "scan"));
      const a = demo.addActor(new LeaseWorker(demo, { name: "Encoder A", leaseS: 30, stageS: 20, startS: 1 }));
      demo.clock.at(demo.clock.now() + 50_000, () => a.crash());
      demo.addActor(new LeaseWorker(demo, { name: "Encoder B", leaseS: 30, stageS: 20, startS: 56 }));
    },
  },
  {
    id: "scheduled",
    title: "3 · Scheduled work and expiry",
    queue: "reminders",
    caption:
      "Put Message with a visibility timeout schedules work: the message is in the queue but no receive " +
      "returns it until its delay is over. The flash-sale message has a 15 s time-to-live and nobody is " +
      "on duty yet, so it expires unprocessed. Cy starts at 25 s and handles the rest as they come due.",
    moments: [
      { on: "expired", text: "the flash sale expires unprocessed" },
      { on: "scheduled-visible", text: "a scheduled message comes due" },
      { on: "deleted", text: "Cy processes what came due" },
    ],
    async setup(demo) {
      const cron = demo.addActor(new Producer(demo, { name: "Scheduler" }));
      await cron.send("flash sale ends soon", { ttlS: 15 });
      await cron.send("send invoice reminder", { delayS: 20 });
      await cron.send("weekly report", { delayS: 45 });
      demo.addActor(new Consumer(demo, { name: "Cy", processingS: 5, visibilityS: 30, pollS: 3, startS: 25 }));
    },
  },
  {
    id: "poison",
    title: "4 · Poison messages",
    queue: "orders",
    poisonThreshold: 3,
    caption:
      "Order 3 is malformed, so every attempt fails and the consumer leaves it undeleted. It comes back " +
      "again and again, its DequeueCount climbing. The consumers check the count on receipt: past the " +
      "threshold of 3 they move the message to orders-poison instead of trying again.",
    moments: [
      { on: "failed", text: "a consumer fails on order 3" },
      { on: "reappeared", text: "order 3 comes back" },
      { on: "poisoned", text: "order 3 is moved to orders-poison" },
    ],
    async setup(demo) {
      const shop = demo.addActor(new Producer(demo, { name: "Shop" }));
      for (const text of ["order 1", "order 2", 'order 3 {"qty": "lots"}', "order 4"]) await shop.send(text);
      const failsOn = (text) => (text.includes('"lots"') ? "qty is not a number" : undefined);
      demo.addActor(new Consumer(demo, { name: "Ann", processingS: 4, visibilityS: 10, startS: 1, failsOn }));
      demo.addActor(new Consumer(demo, { name: "Bob", processingS: 4, visibilityS: 10, startS: 2, failsOn }));
    },
  },
  {
    id: "scaling",
    title: "5 · Scaling workers by queue length",
    queue: "thumbnails",
    caption:
      "Uploads arrive slowly, then in a burst, then slowly again. Every 5 s the autoscaler reads the " +
      "queue's approximate message count and runs one worker per 4 messages (1 to 6). Watch the chart: " +
      "the queue grows, workers are added, the backlog drains, and idle workers are stopped.",
    moments: [
      { on: "scaled-up", text: "the pool grows with the backlog" },
      { on: "scaled-down", text: "idle workers are stopped as it drains" },
    ],
    async setup(demo) {
      const random = seededRandom(5);
      let workers = 0;
      const makeWorker = () =>
        demo.addActor(new Consumer(demo, { name: `W${++workers}`, processingS: 4, visibilityS: 30, pollS: 1 }));
      const camera = demo.addActor(
        new Producer(demo, {
          name: "Uploads",
          auto: true,
          next(i) {
            const t = demo.clock.elapsed() / 1000;
            if (t > 120) return null;
            const gap = t >= 15 && t < 45 ? 0.5 : 4;
            return { text: `img-${String(i + 1).padStart(3, "0")}.jpg`, inS: gap * (0.5 + random()) };
          },
        }),
      );
      void camera;
      makeWorker();
      demo.addActor(new Autoscaler(demo, { everyS: 5, perWorker: 4, min: 1, max: 6, makeWorker }));
    },
  },
];

export function scenarioById(id) {
  return scenarios.find((s) => s.id === id) ?? scenarios[0];
}
