// The scenario editor's form (issue 36): a scenario built field by field, without touching the
// JSON, makes the same JSON and link as one written by hand. Its play-only link opens in a fresh
// page with the same run at three times; exported and imported again, the form shows it as it
// was; faults and throttling are fields too; the JSON and the form follow each other; the
// keyboard adds and removes.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pageSuite, setStep, stepTo } from './harness.mjs';
import { copiedLink, openLink, runEdited, sameRunAtThreeTimes } from './scenario-run.mjs';

/** @typedef {import('playwright-core').Page} Page */

const suite = pageSuite();
const DESK = { width: 1280, height: 800 };

/** @param {string} path */
const field = (path) => `[data-testid=editor-form] [data-field="${path}"]`;
/** @param {Page} page */
const json = async (page) => JSON.parse(await page.inputValue('[data-testid=editor-json]'));

/**
 * The example changed in the form only: a title, Bob slower, a third consumer that crashes, a
 * fourth message with a time-to-live, a poison threshold, and a question.
 * @param {Page} page
 */
async function buildInForm(page) {
  await page.click('[data-testid=edit-toggle]');
  await page.fill(field('title'), 'Built in the form');
  await page.fill(field('poisonThreshold'), '3');
  await page.fill(field('consumers.1.workS'), '35');
  await page.click(field('consumers.add'));
  await page.fill(field('consumers.2.name'), 'Cy');
  await page.fill(field('consumers.2.workS'), '50');
  await page.fill(field('consumers.2.visibilityS'), '20');
  await page.fill(field('consumers.2.startS'), '3');
  await page.fill(field('consumers.2.crashAtS'), '12');
  await page.click(field('producers.0.messages.add'));
  await page.fill(field('producers.0.messages.4.at'), '2');
  await page.fill(field('producers.0.messages.4.text'), 'task 4');
  await page.fill(field('producers.0.messages.4.ttlS'), '40');
  await page.click(field('questions.add'));
  await page.fill(field('questions.1.prompt'), 'Will Cy finish its task?');
  await page.fill(field('questions.1.choices'), 'Yes\nNo: it crashes first');
  await page.fill(field('questions.1.answer'), '2');
  await page.fill(field('questions.1.why'), 'Cy crashes at 12 s, 9 s into 50 s of work.');
  return json(page);
}

describe('the scenario editor, as a form', () => {
  test('built in the form: the JSON it makes, and its link plays the same run in a fresh page', async () => {
    const page = await suite.open({ viewport: DESK });
    const spec = await buildInForm(page);
    assert.equal(spec.title, 'Built in the form');
    assert.equal(spec.poisonThreshold, 3);
    assert.equal(spec.consumers[1].workS, 35);
    assert.deepEqual(spec.consumers[2], {
      name: 'Cy',
      workS: 50,
      visibilityS: 20,
      startS: 3,
      crashAtS: 12,
    });
    assert.deepEqual(spec.producers[0].messages[4], { at: 2, text: 'task 4', ttlS: 40 });
    assert.deepEqual(spec.questions[1], {
      ask: 'intro',
      prompt: 'Will Cy finish its task?',
      choices: ['Yes', 'No: it crashes first'],
      answer: 1,
      why: 'Cy crashes at 12 s, 9 s into 50 s of work.',
    });
    assert.match(
      (await page.textContent('[data-testid=editor-status]')) ?? '',
      /A scenario: Run it/,
    );
    await runEdited(page);
    const link = await copiedLink(page, 'play');

    const fresh = await suite.open({ viewport: DESK });
    await openLink(fresh, link);
    assert.equal(await fresh.evaluate(() => document.body.dataset.mode), 'play');
    assert.equal(await fresh.isHidden('[data-testid=editor]'), true, 'play-only');
    await sameRunAtThreeTimes(page, fresh);
    assert.ok(
      await fresh.$('[data-testid=consumer][data-name=Cy][data-state=crashed]'),
      'Cy crashed, as the form said',
    );
  });

  test('exported and imported again: the form shows the scenario as it was built', async () => {
    const page = await suite.open({ viewport: DESK });
    const spec = await buildInForm(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=editor-export]'),
    ]);
    const file = /** @type {string} */ (await download.path());
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), spec);

    const other = await suite.open({ viewport: DESK });
    await other.click('[data-testid=edit-toggle]');
    await other.setInputFiles('[data-testid=editor-import]', file);
    await other.waitForFunction(() =>
      /Imported/.test(document.querySelector('[data-testid=editor-status]')?.textContent ?? ''),
    );
    assert.deepEqual(await json(other), spec);
    assert.equal(await other.inputValue(field('title')), 'Built in the form');
    assert.equal(await other.inputValue(field('consumers.2.crashAtS')), '12');
    assert.equal(await other.inputValue(field('producers.0.messages.4.ttlS')), '40');
    assert.equal(await other.inputValue(field('questions.1.answer')), '2', 'counted from 1');
  });

  test('faults and throttling are fields: the engine answers by the rule the form made', async () => {
    const page = await suite.open({ viewport: DESK });
    await page.click('[data-testid=edit-toggle]');
    await page.fill(field('producers.0.retry.tries'), '3');
    await page.fill(field('producers.0.retry.firstS'), '2');
    await page.click(field('faults.add'));
    await page.selectOption(field('faults.0.operation'), 'PutMessage');
    await page.fill(field('faults.0.status'), '503');
    await page.fill(field('faults.0.times'), '1');
    await page.fill(field('limits.queueMessagesPerSecond'), '100');
    const spec = await json(page);
    assert.deepEqual(spec.producers[0].retry, { tries: 3, firstS: 2 });
    assert.deepEqual(spec.faults, [{ operation: 'PutMessage', status: 503, times: 1 }]);
    assert.deepEqual(spec.limits, { queueMessagesPerSecond: 100 });
    assert.match(
      (await page.textContent('[data-testid=editor-status]')) ?? '',
      /with faults: Run it/,
    );
    await runEdited(page);
    await setStep(page, 1);
    await stepTo(page, 3);
    const puts = await page.$$eval('[data-testid=http-log] li[data-op="Put Message"]', (rows) =>
      rows.map((r) => /** @type {HTMLElement} */ (r).dataset.status).reverse(),
    );
    assert.equal(puts[0], '503', 'the first Put refused by the rule');
    assert.ok(
      puts.slice(1).every((s) => s === '201'),
      `the rest stored (${puts.join(', ')})`,
    );
    // Emptying a field leaves it out of the JSON, as if it had never been written.
    await page.fill(field('limits.queueMessagesPerSecond'), '');
    assert.equal((await json(page)).limits, undefined);
  });

  test('a question made in the form is answered by clicking the consumer it names', async () => {
    const page = await suite.open({ viewport: DESK, firstVisit: true });
    await page.click('[data-testid=edit-toggle]');
    await page.click(field('questions.add'));
    await page.fill(
      field('questions.1.prompt'),
      'Who needs more time than the visibility timeout?',
    );
    await page.fill(field('questions.1.choices'), 'Ann\nBob');
    await page.fill(field('questions.1.answer'), '2');
    await page.fill(field('questions.1.why'), "Bob's 30 s of work outlast his 20 s timeout.");
    await page.selectOption(field('questions.1.pick'), 'consumer');
    assert.equal((await json(page)).questions[1].pick, 'consumer');
    await page.fill(field('questions.1.choices'), 'Ann\nZed');
    assert.match(
      (await page.textContent('[data-testid=editor-status]')) ?? '',
      /questions\[1\]\.choices: consumers' names/,
      'a name no consumer has is said',
    );
    await page.fill(field('questions.1.choices'), 'Ann\nBob');
    await runEdited(page);
    await page.waitForSelector('[data-question=q2][data-pick=consumer]');
    await page.click('[data-testid=consumer][data-name=Bob] header');
    const feedback = '[data-testid=feedback][data-question=q2]';
    await page.waitForSelector(feedback);
    assert.equal(await page.getAttribute(feedback, 'data-verdict'), 'right');
    assert.match((await page.textContent(feedback)) ?? '', /^Right: Bob\. Bob's 30 s of work/);
  });

  test('the JSON and the form follow each other; the keyboard adds and removes', async () => {
    const page = await suite.open({ viewport: DESK });
    await page.click('[data-testid=edit-toggle]');
    const spec = await json(page);
    spec.consumers[0].name = 'Ada';
    await page.fill('[data-testid=editor-json]', JSON.stringify(spec, null, 2));
    assert.equal(await page.inputValue(field('consumers.0.name')), 'Ada', 'the form follows');

    const consumers = () => json(page).then((s) => s.consumers.length);
    assert.equal(await consumers(), 2);
    await page.focus(field('consumers.1.failsOn'));
    await page.keyboard.press('Tab'); // the idempotent box
    await page.keyboard.press('Tab'); // Remove consumer 2
    await page.keyboard.press('Tab'); // Add consumer
    assert.equal(
      await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement).dataset.field),
      'consumers.add',
    );
    await page.keyboard.press('Enter');
    assert.equal(await consumers(), 3, 'Enter added one');
    assert.equal(
      await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement).dataset.field),
      'consumers.add',
      'the focus stays on the button',
    );
    await page.focus(field('consumers.2.remove'));
    await page.keyboard.press('Enter');
    assert.equal(await consumers(), 2, 'and removed it');
  });
});
