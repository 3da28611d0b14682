// The teaching page: boots the wasm engine, wires the controls, and runs the animation loop.
// Queue behaviour comes from the engine (pkg/web, built by `make build`); the modules under
// page/ only drive it through its fetch handler and draw what it reports.

import init, { QueueService, selfCheck } from '/pkg/web/azqueue.js';
import { EPOCH, formatElapsed } from './page/clock.js';
import { Demo } from './page/demo.js';
import { checkFaults } from './page/engine.js';
import { isScenario, scenarios, scenarioById } from './page/scenarios.js';
import { specQuestions } from './page/scenario-format.js';
import { Edited, bindEditor } from './page/edited.js';
import { bindResults, showResults } from './page/results-view.js';
import { Session } from './page/session.js';
import { Timeline } from './page/timeline.js';
import { actionApplier } from './page/actions.js';
import { bindTimeControls } from './page/controls.js';
import { Guide } from './page/guide.js';
import { Results } from './page/results.js';
import { bindCopyLink, linkTo, momentFromUrl } from './page/link.js';
import { bindPresenterKeys } from './page/keys.js';
import { startLoop } from './page/loop.js';
import { clearViews, createViews, drawViews } from './page/views.js';
import { bindSnippet } from './page/snippet.js';
import { installBridge } from './page/sw-bridge.js';
import { showBridge, showLinkProblem, showStore } from './page/status-lines.js';
import { $, $input, $select, setAttr, setText } from './page/dom.js';

/** @import { Action } from './page/actions.js' */
/** @import { Result } from './page/rest.js' */
/** @import { Scenario } from './page/scenarios.js' */
/** @import { Meter } from './page/loop.js' */
/** @import { Views } from './page/views.js' */

/**
 * The page's parts, made by boot() and handed to the binders below.
 * @typedef {object} Page
 * @property {Demo} demo
 * @property {Session} session
 * @property {ReturnType<typeof actionApplier>} apply
 * @property {Settings} settings
 * @property {ReturnType<typeof installBridge>} bridge
 * @property {(action: Action) => ReturnType<ReturnType<typeof actionApplier>>} perform
 * @property {Views} views
 * @property {() => void} refreshSnippet
 * @property {(scenario: Scenario, options?: { resume?: boolean }) => Promise<void>} load
 * @property {Timeline} timeline
 * @property {ReturnType<typeof bindTimeControls>} time
 * @property {Guide} guide
 * @property {Results} results
 * @property {Edited} edited the scenario made in the editor or opened from its link
 * @property {(id: string) => Scenario} scenarioOf a scenario by id, the edited one too
 * @property {import('./page/editor.js').Editor} editor
 * @typedef {{ speed?: number, stepMs?: number, guided?: boolean, questions?: boolean }} Settings
 *   display settings
 */

const SETTINGS_KEY = 'azqueue-page'; // display settings (speed, step size, guided mode)
const EXTRA_NAMES = ['Dee', 'Eve', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jo', 'Kit', 'Lu', 'Max'];

/** @returns {Settings} */
function loadSettings() {
  try {
    return (
      JSON.parse(/** @type {string} null parses as null */ (localStorage.getItem(SETTINGS_KEY))) ??
      {}
    );
  } catch {
    return {};
  }
}

/** @param {Settings} patch */
function saveSettings(patch) {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify({ ...loadSettings(), ...patch }));
  } catch {
    // Storage can be unavailable (private mode): settings just do not persist.
  }
}

/**
 * Runs the engine's known-answer check once at start (docs/webkit.md): an engine that runs this
 * wasm wrong (JavaScriptCore's optimizing tier did, in counted runs) must not teach silently.
 * About 0.1 s; the page goes on either way, with the warning on top.
 */
function warnIfEngineFailsItsCheck() {
  try {
    selfCheck();
  } catch (e) {
    const warning = document.createElement('p');
    warning.className = 'engine-warning';
    warning.setAttribute('role', 'alert');
    warning.dataset.testid = 'engine-warning';
    warning.textContent = `This browser ran azqueue's engine check wrong (${e instanceof Error ? e.message : String(e)}). What the page shows may not be what Azure does; see docs/webkit.md.`;
    document.body.prepend(warning);
  }
}

/** @type {Promise<typeof QueueService> | undefined} */
let faultsBuild;
/**
 * The engine with fault rules, for a scenario that sets them: pkg/edge, which is pkg/web's
 * build with the `faults` (and `sql-host`) features. pkg/web leaves faults out to stay under
 * its size ceiling, so only a page that opens such a scenario downloads it (docs/page.md).
 */
function faultsEngine() {
  faultsBuild ??= import('/pkg/edge/azqueue.js').then(async (m) => {
    await m.default();
    return /** @type {typeof QueueService} the same class, with `faults` */ (
      /** @type {unknown} */ (m.QueueService)
    );
  });
  return faultsBuild;
}

async function boot() {
  // The service worker forwards the Azure requests of code on this origin (the SDK snippet) to
  // this page; its listener must exist before the document finishes loading.
  const bridge = installBridge({ onState: showBridge });
  await init();
  warnIfEngineFailsItsCheck();
  const demo = new Demo({ QueueService, origin: location.origin, faultsEngine });
  const settings = loadSettings();
  const session = new Session();
  const apply = actionApplier(demo);
  const page = /** @type {Page} the rest is filled in below */ ({
    demo,
    session,
    apply,
    settings,
    bridge,
    edited: new Edited(/** @type {HTMLSelectElement} */ ($('scenario'))),
  });
  page.scenarioOf = (id) =>
    id === 'custom' && page.edited.scenario ? page.edited.scenario : scenarioById(id);

  /**
   * A user action now: after any rewind under way, serialized with the clock's work, recorded at
   * the virtual time it ran.
   */
  page.perform = async (action) => {
    await page.timeline.settled();
    return demo.clock.run(async () => {
      if (page.timeline.fork())
        demo.say(
          `You acted at ${formatElapsed(demo.clock.elapsed())} after rewinding: the timeline forks here.`,
          'fork',
        );
      session.record(demo.clock.now(), action);
      return apply(action);
    });
  };
  page.views = createViews({
    onAction: (actor, action, arg) =>
      page.perform({ type: 'actor', name: actor.name, action, ...arg }),
    onSelect: (messageId) => page.views.history.open(messageId, demo),
  });
  page.refreshSnippet = bindSnippet(
    {
      code: $('snippet'),
      copy: $('copy-snippet'),
      status: $('copy-status'),
      start: $('start-sw'),
      startStatus: $('sw-status'),
    },
    () => demo.queue,
    bridge.ready,
  );
  page.load = (scenario, options) => loadScenario(page, scenario, options);
  page.timeline = new Timeline({
    demo,
    session,
    apply,
    reload: () =>
      page.load(page.scenarioOf(/** @type {string} */ (session.scenario)), { resume: true }),
  });
  page.time = bindTimeControls({ demo, timeline: page.timeline, session, settings, saveSettings });
  page.guide = new Guide({
    el: {
      box: $('guide'),
      text: $('guide-text'),
      when: $('guide-when'),
      cont: $('guide-continue'),
      log: $('guide-log'),
      noCall: $('guide-nocall'),
      quiz: $('quiz'),
      toggle: $input('guided'),
      questions: $input('questions'),
      next: /** @type {HTMLButtonElement} */ ($('next-moment')),
      stage: /** @type {HTMLElement} */ ($('lane').closest('.col')),
      top: /** @type {HTMLElement} */ ($('reset').closest('.travel')),
    },
    demo,
    timeline: page.timeline,
    setPlaying: page.time.setPlaying,
    // A first visit is a tour: it stops at every moment until the viewer turns that off.
    enabled: settings.guided !== false,
    questions: settings.questions !== false,
    onResult: (asked) => {
      page.results.record(/** @type {Scenario} */ (demo.scenario).id, asked);
      showResults(page.results, page.scenarioOf);
    },
  });
  page.results = new Results();
  bindResults(page.results, page.scenarioOf);
  bindKeys(page);
  $input('guided').addEventListener('change', () =>
    saveSettings({ guided: $input('guided').checked }),
  );
  $input('questions').addEventListener('change', () =>
    saveSettings({ questions: $input('questions').checked }),
  );

  bindScenarioControls(page);
  bindActionForms(page);
  bindTimeTravel(page);
  page.editor = bindEditor({
    demo,
    edited: page.edited,
    load: (scenario) => page.load(scenario),
    toggle: /** @type {HTMLButtonElement} */ ($('edit-toggle')),
  });
  await start(page);
  document.body.dataset.ready = 'true';
  // Recorded like any action, so a reload replays what the snippet did too.
  bridge.serve(async (request) => {
    const body =
      request.method === 'GET' || request.method === 'HEAD' ? null : await request.text();
    return page.perform({
      type: 'sdk',
      method: request.method,
      url: request.url,
      headers: [...request.headers],
      body,
    });
  });
  addEventListener('pagehide', () => session.progress(demo.clock.now(), true));
  const address = keepAddress(page);
  startLoop({
    demo,
    timeline: page.timeline,
    session,
    draw: (meter) => {
      draw(page, meter);
      address();
    },
  });
}

/**
 * Loads `scenario` at time zero, paused, on its introduction; `resume` keeps the session's
 * recorded actions (a rewind rebuilds from here).
 * @param {Page} page
 * @param {Scenario} scenario
 */
async function loadScenario(page, scenario, { resume = false } = {}) {
  const { demo, session, views } = page;
  page.time?.setPlaying(false);
  page.guide?.hide();
  await demo.load(scenario);
  if (!resume) {
    page.guide.begin(scenario.id, scenario.spec ? specQuestions(scenario.spec) : undefined);
    session.begin(scenario.id);
    page.timeline.restart();
    page.guide.intro();
  }
  clearViews(views);
  $select('scenario').value = scenario.id;
  setText($('queue-name'), demo.queue);
  setText($('poison-name'), demo.poisonQueue);
  $input('poison-threshold').value = String(demo.poisonThreshold);
  page.refreshSnippet();
  showStore(demo);
  document.body.dataset.loads = String(Number(document.body.dataset.loads ?? 0) + 1);
  document.body.dataset.scenario = scenario.id;
}

/**
 * The first picture. A scenario the link carries (`?sc=`) is read first; one that cannot be
 * opened (damaged, or with a fault rule the engine refuses) is said in words above the page,
 * which opens as if the link had not carried it.
 * @param {Page} page
 */
async function start(page) {
  /** @type {string | undefined} why the link's scenario could not be opened */
  let problem;
  await page.edited.openFromLink(location.href, page.editor, {
    fail: (why) => (problem = why),
    refusal: async (faults) => {
      try {
        await checkFaults(await faultsEngine(), faults);
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    },
  });
  await openFirst(page);
  // Said once the page shows something: what opened in its place is part of the sentence.
  if (problem) showLinkProblem(`${problem} Showing “${page.demo.scenario?.title}” instead.`);
}

/**
 * The moment the address asks for (`?scenario=…&t=…`, with the actions and horizon it carries),
 * else the session a reload left (rebuilt by replaying it on a fresh seeded engine), else the
 * first scenario. The address bar then follows the moment (see `keepAddress`).
 * @param {Page} page
 */
async function openFirst(page) {
  const { demo, session, timeline } = page;
  const known = (/** @type {string} */ id) =>
    isScenario(id) || (id === 'custom' && page.edited.scenario !== null);
  const moment = momentFromUrl(location.href, known);
  // A reload restores the session this tab left (to where the clock was, which the address,
  // written at most twice a second while playing, may trail); any other visit opens the moment
  // the address asks for.
  const navigation = /** @type {PerformanceNavigationTiming | undefined} */ (
    performance.getEntriesByType('navigation')[0]
  );
  const reload = navigation?.type === 'reload' && moment?.scenario === session.scenario;
  if (moment && !reload) {
    await page.load(page.scenarioOf(moment.scenario));
    page.guide.hide();
    session.begin(moment.scenario, moment.actions, EPOCH + moment.to);
    timeline.restart(EPOCH + moment.to);
    await timeline.seek(EPOCH + moment.t); // as a replay: guided mode does not stop on the way
    session.progress(demo.clock.now(), true);
    showStore(demo, `opened at ${formatElapsed(demo.clock.elapsed())} from a link`);
    if (demo.clock.elapsed() === 0) page.guide.intro();
    return;
  }
  if (!session.scenario || !known(session.scenario)) {
    await page.load(scenarioById(/** @type {string} */ (session.scenario)));
    return;
  }
  const { actions, at } = session;
  setText($('store'), 'Restoring your session…');
  const reached = await timeline.seek(at);
  const requests = demo.log.length ? demo.log[demo.log.length - 1].seq : 0;
  showStore(
    demo,
    reached >= at
      ? `restored after reload: replayed ${actions.length} action(s) and ${requests} request(s) to ${formatElapsed(demo.clock.elapsed())}`
      : `restored up to ${formatElapsed(demo.clock.elapsed())} (replay stopped early)`,
  );
  setAttr($('store'), 'data-restored', 'true');
  if (demo.clock.elapsed() === 0) page.guide.intro();
}

/**
 * The presenter's keys (keys.js), and the key sheet.
 * @param {Page} page
 */
function bindKeys(page) {
  const { time, guide } = page;
  const sheet = /** @type {HTMLDialogElement} */ ($('key-sheet'));
  const playPause = () => {
    const on = page.demo.clock.paused;
    if (on) guide.hide(); // a banner for a moment already passed goes when play resumes
    time.setPlaying(on);
  };
  $('play').addEventListener('click', () => {
    if (!page.demo.clock.paused) guide.hide();
  });
  $('keys-button').addEventListener('click', () => sheet.showModal());
  $('key-sheet-close').addEventListener('click', () => sheet.close());
  bindPresenterKeys({
    sheet,
    list: $('key-list'),
    bindings: [
      {
        keys: ['→', 'PageDown'],
        label: 'next moment (Continue at a stop)',
        run: () => guide.forward(),
      },
      {
        keys: ['←', 'PageUp'],
        label: 'previous moment (rewinds)',
        run: () => guide.previousMoment(),
      },
      { keys: ['Space'], label: 'play / pause', run: playPause },
      { keys: ['.'], label: 'step', run: () => time.step() },
      { keys: ['['], label: 'slower', run: () => time.setSpeed(time.speedIndex() - 1) },
      { keys: [']'], label: 'faster', run: () => time.setSpeed(time.speedIndex() + 1) },
      { keys: ['r'], label: 'restart the scenario', run: () => $('reset').click() },
      { keys: ['g'], label: 'guided mode on / off', run: () => $input('guided').click() },
      { keys: ['q'], label: 'questions on / off', run: () => $input('questions').click() },
      {
        keys: scenarios.map((_, i) => String(i + 1)),
        label: 'choose scenario 1, 2, … (with a question open: its answer 1, 2, …)',
        run: (key) =>
          guide.quizView.waiting
            ? guide.quizView.choose(Number(key) - 1)
            : chooseScenario(Number(key) - 1),
      },
      { keys: ['p'], label: 'presentation mode on / off', run: () => $('present').click() },
      {
        keys: ['?'],
        label: 'this list',
        run: () => (sheet.open ? sheet.close() : sheet.showModal()),
      },
    ],
  });
}

/**
 * The address bar says the moment on screen (scenario, time, horizon, your actions), so a reload,
 * a bookmark or a copied address opens it. Written when it changes: at once when paused or after
 * an action, at most twice a second while playing.
 * @param {Page} page
 */
function keepAddress(page) {
  let said = '';
  let actions = -1;
  let last = 0;
  return () => {
    const { demo, session, timeline } = page;
    if (!demo.scenario || timeline.replaying) return;
    const elapsed = demo.clock.elapsed();
    const reached = Math.max(timeline.reached, session.reached) - EPOCH;
    const key = `${demo.scenario.id} ${Math.round(elapsed / 100)} ${Math.round(reached / 100)}`;
    if (key === said && session.actions.length === actions) return;
    const now = performance.now();
    if (!demo.clock.paused && session.actions.length === actions && now - last < 500) return;
    said = key;
    actions = session.actions.length;
    last = now;
    const href = linkTo(location.href, {
      scenario: demo.scenario.id,
      elapsed,
      reached,
      actions: session.actions,
      extra: demo.scenario.id === 'custom' ? page.edited.params : {},
    });
    if (href !== location.href) history.replaceState(null, '', href);
  };
}

/**
 * Loads the scenario at `index` in the list, as the scenario choice does.
 * @param {number} index
 */
function chooseScenario(index) {
  const scenario = scenarios[index];
  if (!scenario) return;
  $select('scenario').value = scenario.id;
  $select('scenario').dispatchEvent(new Event('change'));
}

/** @param {Page} page */
function bindScenarioControls(page) {
  for (const s of scenarios) $('scenario').append(new Option(s.title, s.id));
  $('reset').addEventListener('click', () =>
    page.load(/** @type {Scenario} loaded at start */ (page.demo.scenario)),
  );
  // Presentation mode: the lanes, the cards and the banner only, drawn large for a room.
  $('present').addEventListener('click', () => {
    const on = document.body.classList.toggle('presenting');
    setAttr($('present'), 'aria-pressed', on ? 'true' : 'false');
  });
  $('scenario').addEventListener('change', () =>
    page.load(page.scenarioOf($select('scenario').value)),
  );
}

/**
 * The send form, the consumer buttons and the poison threshold: each a recorded action.
 * @param {Page} page
 */
function bindActionForms(page) {
  const { demo, perform } = page;
  $('send-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const ttl = Math.round(Number($input('send-ttl').value) || 0);
    const r = /** @type {Result | undefined} a send's answer */ (
      await perform({
        type: 'send',
        text: $input('send-text').value.trim() || 'hello',
        delayS: Math.max(0, Math.round(Number($input('send-delay').value) || 0)),
        ttlS: ttl === -1 ? -1 : Math.max(0, ttl),
      })
    );
    const out = $('send-status');
    out.textContent = r?.ok ? '' : `Refused: ${r?.status} ${r?.code ?? ''} — ${r?.reason ?? ''}`;
    setAttr(out, 'data-code', r?.ok ? undefined : r?.code);
  });
  const nextName = () =>
    EXTRA_NAMES.find((n) => !demo.actors.some((a) => a.name === n)) ?? `C${demo.actors.length + 1}`;
  $('add-consumer').addEventListener('click', () =>
    perform({ type: 'add-consumer', name: nextName() }),
  );
  $('add-lease-worker').addEventListener('click', () =>
    perform({ type: 'add-lease-worker', name: nextName() }),
  );
  $input('poison-threshold').addEventListener('change', () => {
    const value = Math.max(
      0,
      Math.min(50, Math.round(Number($input('poison-threshold').value) || 0)),
    );
    $input('poison-threshold').value = String(value);
    perform({ type: 'poison-threshold', value });
  });
}

/**
 * The rewind slider and "copy link to this moment".
 * @param {Page} page
 */
function bindTimeTravel(page) {
  const { demo, session, timeline } = page;
  const scrub = $input('scrub');
  let pending = 0;
  const seek = async () => {
    page.time.setPlaying(false);
    page.guide.hide();
    pending++;
    await timeline.seek(EPOCH + Math.round(Number(scrub.value) * 1000));
    drawViews(page.views, demo, timeline); // now, not when the loop next looks (it waits out replays)
    if (--pending === 0)
      document.body.dataset.seeks = String(Number(document.body.dataset.seeks ?? 0) + 1);
  };
  scrub.addEventListener('input', seek);
  bindCopyLink({ button: $('copy-link'), status: $('link-status') }, () => ({
    scenario: /** @type {Scenario} */ (demo.scenario).id,
    elapsed: demo.clock.elapsed(),
    reached: Math.max(timeline.reached, session.reached) - EPOCH,
    actions: session.actions,
    extra: demo.scenario?.id === 'custom' ? page.edited.params : {},
  }));
}

/**
 * @param {Page} page
 * @param {Meter} meter
 */
function draw(page, meter) {
  // The introduction is read before the first step; once time moves it goes (on a phone it is
  // drawn whole, and would stand over the picture it introduced).
  if (page.guide.shown && page.guide.on === 'intro' && page.demo.clock.elapsed() > 0)
    page.guide.hide();
  drawViews(page.views, page.demo, page.timeline, {
    stopped: page.guide.shown && page.demo.clock.paused,
  });
  // Cards and consumers drawn after a question asked for one are its choices too.
  page.guide.quizView.screen.mark();
  // Say the speed really achieved when it falls short of the one asked for.
  const wanted = page.demo.clock.speed;
  const short = meter.rate !== null && meter.rate < wanted * 0.9;
  const label = short
    ? `${wanted}× (running at ${formatRate(/** @type {number} */ (meter.rate))}×)`
    : `${wanted}×`;
  setText($('speed-out'), label);
  setAttr($('speed-out'), 'data-rate', meter.rate === null ? undefined : meter.rate.toFixed(2));
  setAttr($('speed-out'), 'data-draw-ms', meter.drawMs.toFixed(1));
  setAttr($('speed-out'), 'data-advance-ms', meter.advanceMs.toFixed(1));
}

/** @param {number} rate */
function formatRate(rate) {
  return rate >= 10 ? String(Math.round(rate)) : rate.toFixed(1);
}

// `/?view=inspect`: the inspector of the server's own queues (www/inspect/) instead.
if (new URLSearchParams(location.search).get('view') === 'inspect') {
  import('./inspect/inspect.js').then(({ startInspector }) => startInspector());
} else {
  boot().catch((e) => {
    console.error('azqueue page failed to start', e);
    const s = document.getElementById('store');
    if (s) s.textContent = `The engine failed to start: ${e?.message ?? e}`;
  });
}
