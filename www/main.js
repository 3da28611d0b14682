// The teaching page: boots the wasm engine, wires the controls, and runs the animation loop.
// Queue behaviour comes from the engine (www/pkg, built by `make build`); the modules under
// page/ only drive it through its fetch handler and draw what it reports.

import init, { QueueService } from "./pkg/azqueue.js";
import { SPEEDS, formatElapsed } from "./page/clock.js";
import { Demo } from "./page/demo.js";
import { scenarios, scenarioById } from "./page/scenarios.js";
import { ActorsView, LaneView, renderCounters } from "./page/render.js";
import { LogView } from "./page/log.js";
import { ChartView } from "./page/chart.js";
import { StoryView } from "./page/story.js";
import { Consumer, LeaseWorker } from "./page/actors.js";
import { bindSnippet, SW_PREFIX } from "./page/snippet.js";
import { setAttr, setText } from "./page/dom.js";

const $ = (id) => document.getElementById(id);
const SETTINGS_KEY = "azqueue-page";
const EXTRA_NAMES = ["Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Max"];

function loadSettings() {
  try {
    return JSON.parse(localStorage.getItem(SETTINGS_KEY)) ?? {};
  } catch {
    return {};
  }
}

function saveSettings(patch) {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify({ ...loadSettings(), ...patch }));
  } catch {
    // Storage can be unavailable (private mode): settings just do not persist.
  }
}

async function boot() {
  await init();
  const demo = new Demo({ QueueService, origin: location.origin });
  const settings = loadSettings();

  const lane = new LaneView($("lane"));
  const poisonLane = new LaneView($("poison-lane"));
  const onAction = (actor, action, arg) => act(demo, actor, action, arg);
  const producers = new ActorsView($("producers"), { onAction });
  const consumers = new ActorsView($("consumers"), { onAction });
  const log = new LogView($("log"), { filter: $("log-filter") });
  const chart = new ChartView($("chart"));
  const story = new StoryView({ caption: $("caption"), moments: $("moments"), narration: $("narration") });
  const refreshSnippet = bindSnippet({ code: $("snippet"), copy: $("copy-snippet"), status: $("copy-status") }, () => demo.queue);

  for (const s of scenarios) $("scenario").append(new Option(s.title, s.id));

  async function load(scenario) {
    setPlaying(false);
    await demo.load(scenario);
    for (const v of [lane, poisonLane, producers, consumers, log, chart, story]) v.clear();
    $("scenario").value = scenario.id;
    setText($("queue-name"), demo.queue);
    setText($("poison-name"), demo.poisonQueue);
    $("poison-threshold").value = demo.poisonThreshold;
    refreshSnippet();
    saveSettings({ scenario: scenario.id });
    setText(
      $("store"),
      demo.store === "memory"
        ? `Engine running in this tab · memory store: a reload restarts the scenario${demo.storeNote ? ` (${demo.storeNote})` : ""}`
        : `Engine running in this tab · ${demo.store} store: survives a reload`,
    );
    setAttr($("store"), "data-store", demo.store);
    document.body.dataset.loads = String(Number(document.body.dataset.loads ?? 0) + 1);
    document.body.dataset.scenario = scenario.id;
  }

  // ── time ───────────────────────────────────────────────────────────────────────────
  let speedIndex = Number.isInteger(settings.speed) ? settings.speed : SPEEDS.indexOf(1);
  const setSpeed = (i) => {
    speedIndex = Math.max(0, Math.min(SPEEDS.length - 1, i));
    demo.clock.speed = SPEEDS[speedIndex];
    $("speed").value = speedIndex;
    const label = `${SPEEDS[speedIndex]}×`;
    setText($("speed-out"), label);
    setAttr($("speed"), "aria-valuetext", label);
    saveSettings({ speed: speedIndex });
  };
  function setPlaying(on) {
    demo.clock.paused = !on;
    $("play").textContent = on ? "❚❚ Pause" : "▶ Play";
    setAttr($("play"), "aria-pressed", on ? "true" : "false");
    setAttr($("play"), "data-playing", on ? "true" : "false");
  }
  const stepMs = () => Number($("step-size").value);
  const step = () => {
    setPlaying(false);
    return demo.clock.advanceBy(stepMs());
  };
  $("step-size").value = String(settings.stepMs ?? 1000);
  const stepLabel = () => setText($("step"), `Step +${stepMs() / 1000} s`);
  stepLabel();
  $("step-size").addEventListener("change", () => {
    stepLabel();
    saveSettings({ stepMs: stepMs() });
  });
  $("play").addEventListener("click", () => setPlaying(demo.clock.paused));
  $("step").addEventListener("click", step);
  $("speed").addEventListener("input", () => setSpeed(Number($("speed").value)));
  $("reset").addEventListener("click", () => load(demo.scenario));
  $("scenario").addEventListener("change", () => load(scenarioById($("scenario").value)));
  setSpeed(speedIndex);

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t.closest?.("input, select, textarea, button, summary, [contenteditable]")) return;
    if (e.key === " ") {
      e.preventDefault();
      setPlaying(demo.clock.paused);
    } else if (e.key === ".") step();
    else if (e.key === "]") setSpeed(speedIndex + 1);
    else if (e.key === "[") setSpeed(speedIndex - 1);
  });

  // ── actors you control ───────────────────────────────────────────────────────────────
  let you = null;
  $("send-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("send-text").value.trim() || "hello";
    const delayS = Math.max(0, Math.round(Number($("send-delay").value) || 0));
    const ttlS = Math.max(0, Math.round(Number($("send-ttl").value) || 0));
    demo.clock.run(async () => {
      if (!you || !demo.actors.includes(you)) {
        you = demo.actors.find((a) => a.kind === "producer" && a.name === "You");
        if (!you) {
          const { Producer } = await import("./page/actors.js");
          you = demo.addActor(new Producer(demo, { name: "You" }));
        }
      }
      await you.send(text, { delayS, ttlS });
      await demo.refresh();
    });
  });
  const nextName = () => EXTRA_NAMES.find((n) => !demo.actors.some((a) => a.name === n)) ?? `C${demo.actors.length + 1}`;
  $("add-consumer").addEventListener("click", () =>
    demo.clock.run(() => demo.addActor(new Consumer(demo, { name: nextName(), processingS: 5, visibilityS: 30 }))),
  );
  $("add-lease-worker").addEventListener("click", () =>
    demo.clock.run(() => demo.addActor(new LeaseWorker(demo, { name: nextName(), leaseS: 30, stageS: 20 }))),
  );
  $("poison-threshold").addEventListener("change", () =>
    demo.clock.run(async () => {
      const v = Math.max(0, Math.min(50, Math.round(Number($("poison-threshold").value) || 0)));
      $("poison-threshold").value = v;
      if (v && !demo.poisonThreshold) await demo.rest.createQueue("You", demo.poisonQueue);
      demo.poisonThreshold = v;
    }),
  );

  const swNote = await serviceWorkerNote();
  setText($("snippet-note"), swNote);

  await load(scenarioById(settings.scenario));
  document.body.dataset.ready = "true";

  // ── the loop: advance the virtual clock while playing, then draw ─────────────────────
  let last = performance.now();
  let advancing = false;
  let owed = 0;
  function frame(ts) {
    const dt = Math.min(250, Math.max(0, ts - last));
    last = ts;
    if (!demo.clock.paused) {
      owed += dt * demo.clock.speed;
      if (!advancing) {
        const ms = owed;
        owed = 0;
        advancing = true;
        demo.clock.advanceBy(ms).finally(() => (advancing = false));
      }
    }
    draw();
    requestAnimationFrame(frame);
  }
  function draw() {
    const now = demo.clock.now();
    const elapsed = demo.clock.elapsed();
    setText($("clock"), formatElapsed(elapsed, true));
    setAttr($("clock"), "data-elapsed-ms", elapsed);
    setText($("wallclock"), new Date(now).toISOString().slice(11, 19) + " UTC");
    lane.render(demo.view.main, now, demo.departures.filter((d) => d.card.lane === "main"));
    poisonLane.render(demo.view.poison, now, []);
    $("lane-empty").hidden = demo.view.main.length > 0;
    $("poison-box").hidden = !demo.poisonThreshold && demo.view.poison.length === 0;
    producers.render(demo.actors.filter((a) => a.kind === "producer"), now);
    consumers.render(demo.actors.filter((a) => a.kind !== "producer"), now);
    renderCounters($("counters"), demo.counters);
    story.render(demo);
    log.render(demo.log);
    chart.render(demo.history);
  }
  requestAnimationFrame(frame);
}

/** What actor buttons do; all of it is serialized with the clock's own work. */
function act(demo, actor, action, arg) {
  return demo.clock.run(async () => {
    if (action === "crash") actor.crash();
    else if (action === "stop") actor.stop();
    else if (action === "restart") actor.restart();
    else if (action === "remove") demo.removeActor(actor);
    else if (action === "set") actor[arg.key] = arg.value;
    await demo.refresh();
  });
}

/** The snippet needs the service worker to answer under SW_PREFIX. */
async function serviceWorkerNote() {
  return `Requests to ${SW_PREFIX}/devstoreaccount1/… are meant to be answered by the engine inside the page's service worker (www/sw.js); until that worker is registered on this origin, the snippet shows the address it will use.`;
}

boot().catch((e) => {
  console.error("azqueue page failed to start", e);
  const s = document.getElementById("store");
  if (s) s.textContent = `The engine failed to start: ${e?.message ?? e}`;
});
