// The teaching page as a page: it loads clean, its time controls freeze and advance the virtual
// clock, the actors you control work, it is keyboard operable and honours reduced motion, it
// survives a reload, and it reads at 1280×720 and at a phone's width (screenshots saved to
// test-artifacts/ for a human to look at).

import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cards,
  chooseScenario,
  elapsed,
  launchBrowser,
  openPage,
  restart,
  screenshot,
  setStep,
  startServer,
  stepTo,
  textOf,
} from './harness.mjs';

/** @type {import('./harness.mjs').Server} */
let server;
/** @type {import('./harness.mjs').Browser} */
let browser;
/** @type {import('./harness.mjs').OpenedPage[]} */
const pages = [];

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.close();
});

/**
 * Opens a page and remembers its error list, checked after each test.
 * @param {Parameters<typeof openPage>[2]} [options]
 */
async function open(options) {
  const p = await openPage(browser.context, server.url, options);
  pages.push(p);
  return p;
}

afterEach(async () => {
  for (const p of pages.splice(0)) {
    assert.deepEqual(p.errors, [], 'no console errors or page errors');
    await p.page.close();
  }
});

const HOOKS = [
  'play-pause',
  'step',
  'speed',
  'scenario-select',
  'send',
  'add-consumer',
  'queue-lane',
  'message',
  'http-log',
  'queue-length-chart',
  'reset',
];

describe('the teaching page', () => {
  test('loads the wasm engine with zero console errors and exposes every data-testid hook', async () => {
    const { page } = await open();
    await chooseScenario(page, 'slow-consumer');
    for (const id of HOOKS) assert.ok(await page.$(`[data-testid=${id}]`), `data-testid=${id}`);
    assert.equal((await cards(page)).length, 4);
    const options = await page.$$eval('[data-testid=scenario-select] option', (o) =>
      o.map((x) => /** @type {HTMLOptionElement} */ (x).value),
    );
    assert.deepEqual(options, [
      'slow-consumer',
      'lease',
      'scheduled',
      'poison',
      'autoscale',
      'busy',
    ]);
    assert.match(await textOf(page, '[data-testid=store]'), /Engine running in this tab/);
    const log = await page.$$eval('[data-testid=http-log] li', (rows) =>
      rows.map((r) => r.dataset.op),
    );
    assert.ok(
      log.includes('Create Queue') && log.includes('Put Message'),
      'setup went through the fetch handler',
    );
    assert.ok((await textOf(page, '[data-testid=snippet]')).includes('@azure/storage-queue'));
  });

  test('pause freezes virtual time; step advances it by exactly the step size; play runs it', async () => {
    const { page } = await open();
    await chooseScenario(page, 'slow-consumer');
    assert.equal(
      await page.getAttribute('[data-testid=play-pause]', 'aria-pressed'),
      'false',
      'scenarios start paused',
    );
    const t0 = await elapsed(page);
    await page.waitForTimeout(700);
    assert.equal(await elapsed(page), t0, 'paused: no time passes');

    await setStep(page, 1);
    await stepTo(page, 1);
    assert.equal(await elapsed(page), 1000);
    await setStep(page, 5);
    await stepTo(page, 6);
    assert.equal(await elapsed(page), 6000);
    await page.waitForTimeout(500);
    assert.equal(await elapsed(page), 6000, 'still frozen after stepping');

    await page.click('[data-testid=play-pause]');
    assert.equal(await page.getAttribute('[data-testid=play-pause]', 'aria-pressed'), 'true');
    await page.waitForFunction(
      () =>
        Number(
          /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]')).dataset
            .elapsedMs,
        ) > 6300,
    );
    await page.click('[data-testid=play-pause]');
    await page.waitForTimeout(150); // an advance already under way when Pause was pressed completes
    const paused = await elapsed(page);
    await page.waitForTimeout(600);
    assert.equal(await elapsed(page), paused, 'pause freezes it again');
  });

  test('speed ranges from 0.1× to 100×, and 100× runs visibly faster', async () => {
    const { page } = await open();
    await chooseScenario(page, 'autoscale');
    await page.fill('[data-testid=speed]', '0');
    assert.equal(await page.textContent('#speed-out'), '0.1×');
    await page.fill('[data-testid=speed]', '9');
    assert.equal(await page.textContent('#speed-out'), '100×');
    await page.click('[data-testid=play-pause]');
    await page.waitForFunction(
      () =>
        Number(
          /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]')).dataset
            .elapsedMs,
        ) > 20_000,
      null,
      { timeout: 15_000 },
    );
    await page.click('[data-testid=play-pause]');
    await page.fill('[data-testid=speed]', '3');
    assert.equal(await page.textContent('#speed-out'), '1×');
  });

  test('the speed label tells the rate really achieved when the page cannot keep up', async () => {
    const { page } = await open();
    await chooseScenario(page, 'autoscale');
    await page.fill('[data-testid=speed]', '9');
    await page.click('[data-testid=play-pause]');
    // Hog the main thread 200 ms out of every 250: no page could run 100× like that.
    await page.evaluate(() => {
      window.__hog = setInterval(() => {
        const end = performance.now() + 200;
        while (performance.now() < end);
      }, 250);
    });
    await page.waitForFunction(
      () =>
        /^100× \(running at [\d.]+×\)$/.test(
          /** @type {Element} */ (document.querySelector('#speed-out')).textContent ?? '',
        ),
      null,
      { timeout: 20_000 },
    );
    const rate = Number(await page.getAttribute('#speed-out', 'data-rate'));
    assert.ok(rate > 0 && rate < 90, `measured ${rate}×`);
    await page.evaluate(() => clearInterval(window.__hog));
    await page.click('[data-testid=play-pause]');
    await page.waitForFunction(
      () => /** @type {Element} */ (document.querySelector('#speed-out')).textContent === '100×',
      null,
      { timeout: 5000 },
    );
    await page.fill('[data-testid=speed]', '3');
  });

  test('actors you control: send (with a delay), add a consumer, crash it', async () => {
    const { page } = await open();
    await chooseScenario(page, 'slow-consumer');
    await page.fill('#send-text', 'from the test');
    await page.fill('#send-delay', '10');
    await page.click('[data-testid=send]');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid=queue-lane] [data-testid=message]').length === 5,
    );
    const sent = (await cards(page)).find((c) => c.text === 'from the test');
    assert.equal(
      sent?.state,
      'scheduled',
      'a delayed message is invisible until its delay is over',
    );

    await page.click('[data-testid=add-consumer]');
    await page.waitForSelector('[data-testid=consumer][data-name=Dee]');
    await setStep(page, 1);
    await stepTo(page, 1);
    const held = (await cards(page)).find((c) => c.holder === 'Dee');
    assert.ok(held, 'Dee received a message');
    await page.click('[data-testid=consumer][data-name=Dee] button.danger');
    await page.waitForSelector('[data-testid=consumer][data-name=Dee][data-state=crashed]');
    await stepTo(page, 2);
    const after = (await cards(page)).find((c) => c.label === held.label);
    assert.equal(
      after?.state,
      'leased',
      "a crashed consumer's message stays invisible until its timeout",
    );
    assert.match(
      await textOf(page, `[data-testid=message][data-label="${held.label}"] .state`),
      /Dee crashed holding r\d/,
    );
    await stepTo(page, 31);
    assert.equal(
      (await cards(page)).find((c) => c.label === held.label)?.state,
      'visible',
      '…then reappears',
    );
  });

  test("keyboard: Tab reaches the controls; Space plays and pauses; '.' steps", async () => {
    const { page } = await open();
    await chooseScenario(page, 'slow-consumer');
    const focused = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      focused.push(
        await page.evaluate(
          () =>
            /** @type {HTMLElement} */ (document.activeElement).dataset.testid ??
            /** @type {HTMLElement} */ (document.activeElement).id,
        ),
      );
    }
    for (const id of ['scenario-select', 'play-pause', 'step'])
      assert.ok(focused.includes(id), `Tab reaches ${id} (${focused})`);

    await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement).blur());
    await setStep(page, 5);
    await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement).blur());
    const t = await elapsed(page);
    await page.keyboard.press('.');
    await page.waitForFunction(
      (want) =>
        Number(
          /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]')).dataset
            .elapsedMs,
        ) >= want,
      t + 5000,
    );
    await page.keyboard.press(' ');
    assert.equal(await page.getAttribute('[data-testid=play-pause]', 'aria-pressed'), 'true');
    await page.keyboard.press(' ');
    assert.equal(await page.getAttribute('[data-testid=play-pause]', 'aria-pressed'), 'false');
  });

  test('prefers-reduced-motion: cards change state without animation', async () => {
    const still = await open({ reducedMotion: 'reduce' });
    await chooseScenario(still.page, 'slow-consumer');
    await setStep(still.page, 1);
    await stepTo(still.page, 33);
    const animation = await still.page.$eval(
      '[data-testid=message].reappeared',
      (el) => getComputedStyle(el).animationName,
    );
    assert.equal(animation, 'none');

    const moving = await open();
    await chooseScenario(moving.page, 'slow-consumer');
    await setStep(moving.page, 1);
    await stepTo(moving.page, 33);
    const animated = await moving.page.$eval(
      '[data-testid=message].reappeared',
      (el) => getComputedStyle(el).animationName,
    );
    assert.equal(animated, 'back', 'without the preference the reappearance is animated');
  });

  test('survives a reload: same virtual time, messages, holders and HTTP log', async () => {
    const { page, errors } = await open();
    await chooseScenario(page, 'slow-consumer');
    await setStep(page, 1);
    await stepTo(page, 20);
    await page.click('[data-testid=add-consumer]');
    await page.waitForSelector('[data-testid=consumer][data-name=Dee]');
    await page.fill('#send-text', 'added by hand');
    await page.click('[data-testid=send]');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid=message]')].some(
        (c) => /** @type {HTMLElement} */ (c).dataset.text === 'added by hand',
      ),
    );
    await stepTo(page, 38);
    const snapshot = async () => ({
      t: await elapsed(page),
      cards: (await cards(page))
        .filter((c) => !c.state.startsWith('gone'))
        .map(({ id, label, state, holder, dequeueCount, text }) => ({
          id,
          label,
          state,
          holder,
          dequeueCount,
          text,
        })),
      log: await page.$$eval('[data-testid=http-log] li', (rows) =>
        rows.map((r) => /** @type {HTMLElement} */ (r).innerText),
      ),
      actors: await page.$$eval('[data-testid=consumer]', (els) =>
        els.map((e) => `${e.dataset.name}:${e.dataset.state}`),
      ),
    });
    const before = await snapshot();

    await page.reload();
    await page.waitForSelector("body[data-ready='true']");
    await page.waitForFunction(
      (t) =>
        Number(
          /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock]')).dataset
            .elapsedMs,
        ) === t,
      before.t,
    );
    await page.waitForTimeout(300);
    const restored = await snapshot();
    assert.deepEqual(restored, before);
    assert.equal(
      await page.$eval(
        '[data-testid=scenario-select]',
        (s) => /** @type {HTMLSelectElement} */ (s).value,
      ),
      'slow-consumer',
    );
    assert.match(await textOf(page, '[data-testid=store]'), /restored after reload/);
    assert.deepEqual(errors, []);
    await screenshot(page, 'reload-restored-1280');

    await restart(page); // waits for the load to finish, not just for the clock to read zero
    assert.equal((await cards(page)).length, 4, 'Restart begins the scenario afresh');
  });

  test("reads at a phone's width (390×844) and at 1280×720: screenshots of every scenario", async () => {
    const moments = { 'slow-consumer': 43, lease: 22, scheduled: 15, poison: 41, autoscale: 45 };
    for (const [viewport, suffix] of /** @type {[{ width: number, height: number }, string][]} */ ([
      [{ width: 390, height: 844 }, '390'],
      [{ width: 1280, height: 720 }, '1280'],
    ])) {
      const { page } = await open({ viewport });
      for (const [id, t] of Object.entries(moments)) {
        await chooseScenario(page, id);
        await setStep(page, 1);
        await stepTo(page, t);
        await page.waitForTimeout(1700);
        await screenshot(page, `layout-${id}-${suffix}`);
        if (suffix === '390') {
          await page.evaluate(() =>
            /** @type {HTMLElement} */ (document.getElementById('counters')).scrollIntoView(),
          );
          await screenshot(page, `layout-${id}-${suffix}-stage`);
          await page.evaluate(() => window.scrollTo(0, 0));
        }
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.ok(overflow <= 0, `${id} at ${suffix}px: no horizontal scrolling (${overflow}px)`);
      }
      if (suffix === '390') {
        await chooseScenario(page, 'slow-consumer');
        await setStep(page, 1);
        await stepTo(page, 43);
        await page.waitForTimeout(1700);
        await page.evaluate(() =>
          /** @type {HTMLElement} */ (document.getElementById('consumers')).scrollIntoView(),
        );
        await screenshot(page, 'layout-slow-consumer-390-consumers');
        await page.evaluate(() =>
          /** @type {Element} */ (
            document.querySelector('[data-testid=http-log]')
          ).scrollIntoView(),
        );
        await screenshot(page, 'layout-slow-consumer-390-log');
      }
    }
  });

  test("the snippet's address is real: the service worker hands the Azure REST API on this origin to the page", async () => {
    const { page } = await open();
    await chooseScenario(page, 'slow-consumer');
    await page.click('#snippet-panel summary');
    const snippet = await textOf(page, '[data-testid=snippet]');
    assert.ok(
      snippet.includes(
        'new QueueClient(`${location.origin}/devstoreaccount1/orders-sdk`, new AnonymousCredential())',
      ),
      snippet,
    );
    await page.waitForSelector("body[data-sw='forwarding']", { timeout: 20_000 });
    await page.click('[data-testid=start-sw]');
    await page.waitForSelector('[data-testid=sw-status][data-status]', { timeout: 30_000 });
    assert.equal(
      await page.getAttribute('[data-testid=sw-status]', 'data-status'),
      '201',
      await textOf(page, '[data-testid=sw-status]'),
    );
    await screenshot(page, 'snippet-1280');
  });
});
