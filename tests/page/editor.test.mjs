// The scenario editor (issue 36): a scenario built in the editor runs on the seeded engine, its
// link opens it in a fresh page in play-only mode with the same run (the same cards, receipts and
// HTTP log at three times), an edit link opens the editor on it, and a scenario exported as JSON
// imports again identically.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cards, pageSuite, setStep, stepTo } from './harness.mjs';
import { copiedLink, openLink, picture, runEdited, sameRunAtThreeTimes } from './scenario-run.mjs';

/** @typedef {import('playwright-core').Page} Page */

const suite = pageSuite();
const DESK = { width: 1280, height: 800 };

/**
 * The example the editor starts from, changed: Bob slower, a third consumer that crashes.
 * @param {Page} page
 */
async function build(page) {
  await page.click('[data-testid=edit-toggle]');
  const spec = JSON.parse(await page.inputValue('[data-testid=editor-json]'));
  spec.title = 'Built in a test';
  spec.consumers[1].workS = 35;
  spec.consumers.push({ name: 'Cy', workS: 50, visibilityS: 20, startS: 3, crashAtS: 12 });
  spec.producers[0].messages.push({ at: 2, text: 'task 4' });
  await page.fill('[data-testid=editor-json]', JSON.stringify(spec, null, 2));
  await runEdited(page);
  return spec;
}

describe('the scenario editor', () => {
  test('built in the editor, its link opens it play-only in a fresh page: the same run at three times', async () => {
    const page = await suite.open({ viewport: DESK });
    const spec = await build(page);
    assert.match((await page.textContent('#caption')) ?? '', /Built in a test: Ann .*Cy/);
    const link = await copiedLink(page, 'play');
    assert.match(link, /[?&]sc=[\w-]+/);
    assert.match(link, /[?&]mode=play/);
    assert.ok(link.length < 2000, `a compact link (${link.length} characters)`);

    const fresh = await suite.open({ viewport: DESK });
    await openLink(fresh, link);
    assert.equal(await fresh.evaluate(() => document.body.dataset.mode), 'play');
    assert.equal(await fresh.isHidden('[data-testid=edit-toggle]'), true, 'no editor in play mode');
    assert.equal(await fresh.isHidden('[data-testid=editor]'), true);
    assert.equal(await fresh.evaluate(() => document.body.dataset.scenario), 'custom');
    await sameRunAtThreeTimes(page, fresh);
    // The run is the one the scenario describes: Cy crashed at 12 s holding what it had taken.
    assert.ok(
      (await fresh.$$eval('[data-testid=narration] li', (l) => l.map((x) => x.textContent))).some(
        (l) => /Cy crashed while holding/.test(l ?? ''),
      ) || (await fresh.$('[data-testid=consumer][data-name=Cy][data-state=crashed]')),
      'Cy crashed',
    );
    void spec;
  });

  test('an edit link opens the editor on the scenario; a mistake says what to fix', async () => {
    const page = await suite.open({ viewport: DESK });
    const spec = await build(page);
    const link = await copiedLink(page, 'edit');
    const fresh = await suite.open({ viewport: DESK });
    await openLink(fresh, link);
    assert.equal(await fresh.isVisible('[data-testid=editor]'), true, 'the editor is open');
    assert.deepEqual(JSON.parse(await fresh.inputValue('[data-testid=editor-json]')), spec);
    const broken = { ...spec, queue: 'Not A Queue', consumers: [{ name: 'Ann', workS: 0 }] };
    await fresh.fill('[data-testid=editor-json]', JSON.stringify(broken));
    const status = await fresh.textContent('[data-testid=editor-status]');
    assert.equal(await fresh.getAttribute('[data-testid=editor-status]', 'data-bad'), 'true');
    assert.match(status ?? '', /queue: a queue name/);
    assert.match(status ?? '', /consumers\[0\]\.workS: a number ≥ 1/);
  });

  test('Propose moments fills the moments with the events the run on screen has shown', async () => {
    const page = await suite.open({ viewport: DESK });
    await build(page);
    await setStep(page, 10);
    await stepTo(page, 50);
    await page.click('[data-testid=editor-propose]');
    const spec = JSON.parse(await page.inputValue('[data-testid=editor-json]'));
    const kinds = spec.moments.map((/** @type {{ on: string }} */ m) => m.on);
    const told = await page.$$eval('[data-testid=narration] li', (rows) =>
      rows.map((r) => /** @type {HTMLElement} */ (r).dataset.kind),
    );
    for (const kind of ['reappeared', 'redelivered', 'crashed'])
      assert.ok(kinds.includes(kind), `${kind} proposed (told: ${told.join(', ')})`);
    assert.match(
      (await page.textContent('[data-testid=editor-status]')) ?? '',
      /Proposed \d+ moment/,
    );
  });

  test("faults in the editor are the engine's: a retrying producer, a duplicate, an idempotent consumer", async () => {
    const page = await suite.open({ viewport: DESK });
    await page.click('[data-testid=edit-toggle]');
    const spec = JSON.parse(await page.inputValue('[data-testid=editor-json]'));
    spec.title = 'Faults built in a test';
    spec.producers = [
      { name: 'Web', retry: { tries: 3, firstS: 2 }, messages: [{ at: 1, text: 'pay 7' }] },
    ];
    spec.consumers = [{ name: 'Ann', workS: 2, visibilityS: 30, startS: 6, idempotent: true }];
    spec.moments = [];
    spec.questions = [];
    spec.faults = [
      { operation: 'PutMessage', status: 503, times: 1 },
      { operation: 'PutMessage', status: 500, code: 'OperationTimedOut', when: 'after', times: 1 },
    ];
    await page.fill('[data-testid=editor-json]', JSON.stringify(spec, null, 2));
    assert.match(
      (await page.textContent('[data-testid=editor-status]')) ?? '',
      /with faults: Run it/,
    );
    await runEdited(page);
    await setStep(page, 1);
    await stepTo(page, 12);
    const puts = await page.$$eval('[data-testid=http-log] li[data-op="Put Message"]', (rows) =>
      rows
        .map(
          (r) =>
            `${/** @type {HTMLElement} */ (r).querySelector('.t')?.textContent} ${/** @type {HTMLElement} */ (r).dataset.status}`,
        )
        .reverse(),
    );
    // 503 at 1 s; retry after 2 s: committed, then 500; retry after 4 s: stored again.
    assert.deepEqual(puts, ['00:01.0 503', '00:03.0 500', '00:07.0 201']);
    const told = await page.$$eval('[data-testid=narration] li', (els) =>
      els.map((e) => /** @type {HTMLElement} */ (e).dataset.kind),
    );
    for (const kind of ['throttled', 'timed-out', 'duplicated', 'deduplicated'])
      assert.ok(told.includes(kind), `${kind} was told (${told.join(', ')})`);
    assert.ok(!told.includes('processed-twice'), 'the idempotent consumer charged once');
  });

  test('a rule the engine refuses says what to fix and leaves the scenario on screen running', async () => {
    const page = await suite.open({ viewport: DESK });
    await page.click('[data-testid=edit-toggle]');
    const spec = JSON.parse(await page.inputValue('[data-testid=editor-json]'));
    spec.faults = [{ operation: 'PutMessage', status: 400, code: 'NoSuchCode' }];
    await page.fill('[data-testid=editor-json]', JSON.stringify(spec, null, 2));
    await page.click('[data-testid=editor-run]');
    await page.waitForFunction(() =>
      /To fix/.test(document.querySelector('[data-testid=editor-status]')?.textContent ?? ''),
    );
    assert.match(
      (await page.textContent('[data-testid=editor-status]')) ?? '',
      /`code` `NoSuchCode` is not one the service knows: give its `message` too/,
    );
    assert.equal(await page.evaluate(() => document.body.dataset.scenario), 'slow-consumer');
    await setStep(page, 5);
    await stepTo(page, 5);
    assert.ok((await cards(page)).length > 0, 'the scenario on screen still runs');
  });

  test('a link whose fault rule the engine refuses opens the page and says why, in plain words', async () => {
    const page = await suite.open({ viewport: DESK });
    await page.click('[data-testid=edit-toggle]');
    const spec = JSON.parse(await page.inputValue('[data-testid=editor-json]'));
    spec.title = 'Refused by the engine';
    spec.faults = [{ operation: 'PutMessage', status: 400, code: 'NoSuchCode' }];
    await page.fill('[data-testid=editor-json]', JSON.stringify(spec, null, 2));
    // The page's own check passes it: only the engine knows its codes.
    const links = [await copiedLink(page, 'play'), await copiedLink(page, 'edit')];
    const refusal = /`code` `NoSuchCode` is not one the service knows: give its `message` too/;

    const played = await suite.open({ viewport: DESK });
    await openLink(played, links[0]);
    const problem = '[data-testid=link-problem]';
    assert.equal(await played.isVisible(problem), true, 'the refusal is on screen');
    const said = (await played.textContent(problem)) ?? '';
    assert.match(said, /This link's scenario “Refused by the engine” could not be opened/);
    assert.match(said, refusal);
    assert.match(said, /Showing “1 · /, 'and says what opened instead');
    assert.equal(await played.evaluate(() => document.body.dataset.scenario), 'slow-consumer');
    assert.equal(await played.isHidden('[data-testid=editor]'), true);
    await setStep(played, 5);
    await stepTo(played, 5);
    assert.ok((await cards(played)).length > 0, 'the scenario shown instead runs');

    const edited = await suite.open({ viewport: { width: 390, height: 844 } });
    await openLink(edited, links[1]);
    assert.equal(await edited.isVisible(problem), true, 'said on a phone too');
    assert.equal(await edited.isVisible('[data-testid=editor]'), true, 'the editor, to fix it');
    assert.deepEqual(JSON.parse(await edited.inputValue('[data-testid=editor-json]')), spec);
    assert.match((await edited.textContent('[data-testid=editor-status]')) ?? '', refusal);
    assert.equal(await edited.getAttribute('[data-testid=editor-status]', 'data-bad'), 'true');
  });

  test('exported as JSON, imported again: the same scenario and the same run', async () => {
    const page = await suite.open({ viewport: DESK });
    const spec = await build(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=editor-export]'),
    ]);
    const file = /** @type {string} */ (await download.path());
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(exported, spec, 'the file is the scenario');
    await setStep(page, 5);
    await stepTo(page, 20);
    const before = await picture(page);

    const other = await suite.open({ viewport: DESK });
    await other.click('[data-testid=edit-toggle]');
    await other.setInputFiles('[data-testid=editor-import]', file);
    await other.waitForFunction(() =>
      /Imported/.test(document.querySelector('[data-testid=editor-status]')?.textContent ?? ''),
    );
    assert.deepEqual(JSON.parse(await other.inputValue('[data-testid=editor-json]')), spec);
    await runEdited(other);
    await setStep(other, 5);
    await stepTo(other, 20);
    assert.deepEqual(await picture(other), before, 'the same run');
  });
});
