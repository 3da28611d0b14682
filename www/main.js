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
import { Consumer, LeaseWorker, Producer } from "./page/actors.js";
import { Session, replay } from "./page/session.js";
import { bindSnippet } from "./page/snippet.js";
import { installBridge } from "./page/sw-bridge.js";
import { setAttr, setText } from "./page/dom.js";

const $ = (id) => document.getElementById(id);
const SETTINGS_KEY = "azqueue-page";  // display settings (speed, step size)
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
  // The service worker forwards the Azure requests of code on this origin (the SDK snippet) to
  // this page; its listener must exist before the document finishes loading.
  const bridge = installBridge({ onState: (state, detail) => showBridge(state, detail) });
  await init();
  const demo = new Demo({ QueueService, origin: location.origin });
  const settings = loadSettings();

  const lane = new LaneView($("lane"));
  const poisonLane = new LaneView($("poison-lane"));
  const session = new Session();
  const onAction = (actor, action, arg) => perform({ type: "actor", name: actor.name, action, ...arg });
  const producers = new ActorsView($("producers"), { onAction });
  const consumers = new ActorsView($("consumers"), { onAction });
  const log = new LogView($("log"), { filter: $("log-filter") });
  const chart = new ChartView($("chart"));
  const story = new StoryView({ caption: $("caption"), moments: $("moments"), narration: $("narration") });
  const refreshSnippet = bindSnippet(
    { code: $("snippet"), copy: $("copy-snippet"), status: $("copy-status"), start: $("start-sw"), startStatus: $("sw-status") },
    () => demo.queue,
    bridge.ready,
  );

  for (const s of scenarios) $("scenario").append(new Option(s.title, s.id));

  async function load(scenario, { resume = false } = {}) {
    setPlaying(false);
    await demo.load(scenario);
    if (!resume) session.begin(scenario.id);
    for (const v of [lane, poisonLane, producers, consumers, log, chart, story]) v.clear();
    $("scenario").value = scenario.id;
    setText($("queue-name"), demo.queue);
    setText($("poison-name"), demo.poisonQueue);
    $("poison-threshold").value = demo.poisonThreshold;
    refreshSnippet();
    showStore();
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
  const step = async () => {
    setPlaying(false);
    await demo.clock.advanceBy(stepMs());
    session.progress(demo.clock.now(), true);
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

  // ── actors you control: every action is recorded, so a reload can replay it ───────────────
  /** Applies one user action to the demo (live, or replayed after a reload). */
  async function apply(action) {
    let result;
    switch (action.type) {
      case "send": {
        let you = demo.actors.find((a) => a.kind === "producer" && a.name === "You");
        if (!you) you = demo.addActor(new Producer(demo, { name: "You" }));
        await you.send(action.text, { delayS: action.delayS, ttlS: action.ttlS });
        break;
      }
      case "add-consumer":
        demo.addActor(new Consumer(demo, { name: action.name, processingS: 5, visibilityS: 30 }));
        break;
      case "add-lease-worker":
        demo.addActor(new LeaseWorker(demo, { name: action.name, leaseS: 30, stageS: 20 }));
        break;
      case "poison-threshold":
        // Create Queue is idempotent: 204 when it already exists.
        if (action.value && !demo.poisonThreshold) await demo.rest.createQueue("You", demo.poisonQueue);
        demo.poisonThreshold = action.value;
        break;
      case "actor": {
        const actor = demo.actors.find((a) => a.name === action.name);
        if (!actor) break;
        if (action.action === "crash") actor.crash();
        else if (action.action === "stop") actor.stop();
        else if (action.action === "restart") actor.restart();
        else if (action.action === "remove") demo.removeActor(actor);
        else if (action.action === "set") actor[action.key] = action.value;
        break;
      }
      case "sdk": {
        // A request from code on this origin, forwarded by the service worker (sw-bridge.js).
        const { method, url, headers, body } = action;
        const fromSdk = headers.some(([k, v]) => /user-?agent$/i.test(k) && /azsdk-js/i.test(v));
        result = await demo.rest.relay(
          fromSdk ? "SDK snippet" : "Your code",
          new Request(url, { method, headers, body: body === null ? undefined : body }),
          { tag: fromSdk ? "from SDK snippet" : "through the service worker" },
        );
        break;
      }
    }
    await demo.refresh();
    return result;
  }
  /** A user action now: serialized with the clock's work, recorded at the virtual time it ran. */
  const perform = (action) =>
    demo.clock.run(async () => {
      session.record(demo.clock.now(), action);
      return apply(action);
    });

  $("send-form").addEventListener("submit", (e) => {
    e.preventDefault();
    perform({
      type: "send",
      text: $("send-text").value.trim() || "hello",
      delayS: Math.max(0, Math.round(Number($("send-delay").value) || 0)),
      ttlS: Math.max(0, Math.round(Number($("send-ttl").value) || 0)),
    });
  });
  const nextName = () => EXTRA_NAMES.find((n) => !demo.actors.some((a) => a.name === n)) ?? `C${demo.actors.length + 1}`;
  $("add-consumer").addEventListener("click", () => perform({ type: "add-consumer", name: nextName() }));
  $("add-lease-worker").addEventListener("click", () => perform({ type: "add-lease-worker", name: nextName() }));
  $("poison-threshold").addEventListener("change", () => {
    const value = Math.max(0, Math.min(50, Math.round(Number($("poison-threshold").value) || 0)));
    $("poison-threshold").value = value;
    perform({ type: "poison-threshold", value });
  });

  function showStore(restored) {
    let text =
      demo.store === "memory"
        ? "Engine running in this tab (Rust → WebAssembly) · memory store"
        : `Engine running in this tab (Rust → WebAssembly) · ${demo.store} store`;
    if (restored) text += ` · ${restored}`;
    else if (demo.store === "memory") text += " · a reload replays your session";
    setText($("store"), text);
    setAttr($("store"), "data-store", demo.store);
    setAttr($("store"), "title", demo.storeNote || "");
  }

  if (session.scenario && scenarios.some((x) => x.id === session.scenario)) {
    // A reload: rebuild the same state by replaying the session on a fresh, seeded engine.
    const { actions, at } = session;
    setText($("store"), "Restoring your session…");
    await load(scenarioById(session.scenario), { resume: true });
    const reached = await replay(demo, actions, at, apply);
    for (const v of [lane, poisonLane, log]) v.clear();
    session.progress(reached, true);
    const requests = demo.log.length ? demo.log[demo.log.length - 1].seq : 0;
    showStore(
      reached >= at
        ? `restored after reload: replayed ${actions.length} action(s) and ${requests} request(s) to ${formatElapsed(demo.clock.elapsed())}`
        : `restored up to ${formatElapsed(demo.clock.elapsed())} (replay stopped early)`,
    );
    setAttr($("store"), "data-restored", "true");
  } else {
    await load(scenarioById(session.scenario));
  }
  document.body.dataset.ready = "true";
  // Recorded like any action, so a reload replays what the snippet did too.
  bridge.serve(async (request) => {
    const body = request.method === "GET" || request.method === "HEAD" ? null : await request.text();
    return perform({ type: "sdk", method: request.method, url: request.url, headers: [...request.headers], body });
  });
  addEventListener("pagehide", () => session.progress(demo.clock.now(), true));

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
    if (!advancing) session.progress(now);
    const elapsed = demo.clock.elapsed();
    setText($("clock"), formatElapsed(elapsed, true));
    setAttr($("clock"), "data-elapsed-ms", elapsed);
    setText($("wallclock"), new Date(now).toISOString().slice(11, 19) + " UTC");
    lane.render(demo.view.main, now, demo.departures.filter((d) => d.card.lane === "main"));
    poisonLane.render(demo.view.poison, now, []);
    $("lane-empty").hidden = demo.view.main.length > 0;
    $("poison-box").hidden = !demo.poisonThreshold && demo.view.poison.length === 0;
    const threshold = $("poison-threshold");
    if (document.activeElement !== threshold && threshold.value !== String(demo.poisonThreshold)) threshold.value = demo.poisonThreshold;
    producers.render(demo.actors.filter((a) => a.kind === "producer"), now);
    consumers.render(
      demo.actors.filter((a) => a.kind !== "producer").sort((a, b) => (b.kind === "autoscaler") - (a.kind === "autoscaler")),
      now,
    );
    renderCounters($("counters"), demo.counters);
    story.render(demo);
    $("narration-empty").hidden = demo.narration.length > 0;
    log.render(demo.log);
    chart.render(demo.history);
  }
  requestAnimationFrame(frame);
}

function showBridge(state, detail) {
  document.body.dataset.sw = state;
  const out = $("sw-status");
  if (!out) return;
  const text = {
    registering: "Starting the service worker…",
    forwarding: `Service worker ready: requests to ${location.origin}/devstoreaccount1/… from this tab reach the queue drawn above.`,
  }[state] ?? detail ?? "";
  setText(out, text);
  setAttr(out, "data-bridge", state);
}

boot().catch((e) => {
  console.error("azqueue page failed to start", e);
  const s = document.getElementById("store");
  if (s) s.textContent = `The engine failed to start: ${e?.message ?? e}`;
});
