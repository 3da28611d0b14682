// Every scenario of the teaching page, run to its key moment on the virtual clock (Step only —
// no reliance on wall time) and checked in the DOM. The queue behaviour asserted here comes
// from the real wasm engine behind the page's fetch handler.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  attributeOf,
  cards,
  chooseScenario,
  elapsed,
  onePageSuite,
  restart,
  screenshot,
  setStep,
  stepTo,
  stepUntil,
  textOf,
} from './harness.mjs';

/** @type {import('playwright-core').Page} */
let page;
onePageSuite((p) => (page = p));

/**
 * The card labelled `label`, which must be drawn.
 * @param {string} label
 * @param {string} [lane]
 */
const byLabel = async (label, lane) => {
  const card = (await cards(page, lane)).find((c) => c.label === label);
  assert.ok(card, `no card ${label}`);
  return card;
};
/** @typedef {import('./harness.mjs').LogRow} LogRow */
/** @param {(row: LogRow) => boolean} [filter] */
const logRows = (filter = () => true) =>
  page
    .$$eval('[data-testid=http-log] li', (/** @type {HTMLElement[]} */ rows) =>
      rows.map((r) => /** @type {LogRow} */ ({ ...r.dataset, text: r.innerText })),
    )
    .then((r) => r.filter(filter));
/** @param {string} name */
const counter = async (name) => Number(await page.textContent(`[data-testid=counter-${name}] .n`));
/** @param {string} on */
const momentDone = (on) => page.getAttribute(`[data-testid=moment][data-on="${on}"]`, 'data-done');

/** Lets exit animations finish so the screenshot shows a settled picture. */
const settle = () => page.waitForTimeout(1800);

describe("the teaching page's scenarios", () => {
  test('1 · slow consumer: invisible, visible again, DequeueCount 2, the late delete refused', async () => {
    await chooseScenario(page, 'slow-consumer');
    await setStep(page, 1);
    assert.equal((await cards(page)).length, 4, 'four orders in the queue at time zero');

    await stepTo(page, 3);
    let m2 = await byLabel('#2');
    assert.equal(m2.state, 'leased', "Bob's order is invisible while he holds it");
    assert.equal(m2.holder, 'Bob');
    assert.equal(m2.dequeueCount, '1');

    await stepTo(page, 33);
    m2 = await byLabel('#2');
    assert.equal(m2.state, 'visible', 'its visibility timeout ran out: visible again');
    assert.match(m2.classes, /reappeared/);
    assert.equal(m2.dequeueCount, '1');
    assert.equal(await momentDone('reappeared'), 'true');

    await stepTo(page, 38);
    m2 = await byLabel('#2');
    assert.equal(m2.state, 'leased');
    assert.equal(m2.holder, 'Ann', 'the other consumer took it');
    assert.equal(m2.dequeueCount, '2', 'delivered a second time');

    await stepTo(page, 43);
    const refused = await logRows((r) => r.actor === 'Bob' && r.op === 'Delete Message');
    assert.equal(refused.length, 1);
    assert.equal(refused[0].status, '404');
    assert.equal(
      refused[0].code,
      'MessageNotFound',
      "the engine's error code, as the real service sends it",
    );
    const bob = await textOf(page, '[data-testid=consumer][data-name=Bob] .outcome');
    assert.match(bob, /refused: 404 MessageNotFound/);
    assert.equal(await momentDone('stale-delete'), 'true');
    await settle();
    await screenshot(page, '1-slow-consumer-1280');

    await stepTo(page, 50);
    assert.equal(await counter('deleted'), 4, 'every order processed in the end (#2 twice)');
    assert.equal((await cards(page)).filter((c) => !c.state.startsWith('gone')).length, 0);
  });

  test('2 · lease extension: Update Message renews the lease with new content; a replacement resumes', async () => {
    await chooseScenario(page, 'lease');
    await setStep(page, 1);
    await stepTo(page, 2);
    let job = await byLabel('#1');
    assert.equal(job.state, 'leased');
    assert.equal(job.holder, 'Encoder A');
    assert.equal(job.stage, 'scan');
    const firstDeadline = Number(job.nextVisible);

    await stepTo(page, 22);
    job = await byLabel('#1');
    assert.equal(job.stage, 'encode', 'the new content records the next stage');
    assert.match(job.text, /"stage":"encode"/);
    assert.ok(Number(job.nextVisible) > firstDeadline, 'the lease was extended');
    assert.equal(job.holder, 'Encoder A', 'still held by the same worker, with its new receipt');
    const update = await logRows((r) => r.op === 'Update Message');
    assert.equal(update.length, 1);
    assert.equal(update[0].status, '204');
    assert.match(update[0].text, /x-ms-popreceipt/);
    assert.match(update[0].text, /x-ms-time-next-visible/);
    assert.equal(await momentDone('lease-renewed'), 'true');
    await screenshot(page, '2-lease-1280');

    await setStep(page, 5);
    await stepTo(page, 75);
    job = await byLabel('#1');
    assert.equal(await momentDone('crashed'), 'true');
    assert.equal(await momentDone('reappeared'), 'true');
    assert.equal(job.holder, 'Encoder B', 'the replacement took the job');
    assert.equal(job.dequeueCount, '2');
    assert.equal(job.stage, 'compress', '…and resumes from the saved stage');
    assert.equal(await momentDone('resumed'), 'true');

    await stepTo(page, 95);
    assert.equal(await counter('deleted'), 1, 'the job finished and was deleted');
  });

  test('3 · scheduled work and expiry: a delayed message comes due; a short TTL expires', async () => {
    await chooseScenario(page, 'scheduled');
    await setStep(page, 1);
    const reminder = await byLabel('#2');
    assert.equal(reminder.state, 'scheduled');
    assert.match(
      await textOf(page, `[data-testid=message][data-label="#2"] .state`),
      /visible in 20 s/,
    );

    await stepTo(page, 15);
    const sale = await byLabel('#1');
    assert.equal(sale.state, 'expired', 'its time-to-live is over');
    assert.equal(await counter('expired'), 1);
    assert.equal(await momentDone('expired'), 'true');
    await screenshot(page, '3-expiry-1280');

    await stepTo(page, 20);
    assert.equal((await byLabel('#2')).state, 'visible', 'the delay is over');
    assert.equal(await momentDone('scheduled-visible'), 'true');
    assert.equal((await byLabel('#3')).state, 'scheduled');

    await setStep(page, 5);
    await stepTo(page, 60);
    assert.equal(await counter('deleted'), 2, 'Cy processed both scheduled messages');
    const gets = await logRows((r) => r.op === 'Get Messages' && r.actor === 'Cy');
    assert.ok(
      gets.some((r) => /empty/.test(r.text)),
      'a receive before the delay found nothing visible',
    );
  });

  test('4 · poison: repeated failures raise DequeueCount until the message moves to <queue>-poison', async () => {
    await chooseScenario(page, 'poison');
    await setStep(page, 1);
    const t = await stepUntil(
      page,
      () => document.querySelectorAll('[data-testid=poison-lane] [data-testid=message]').length > 0,
      {
        maxSeconds: 120,
      },
    );
    assert.ok(t > 20_000, 'it took several rounds of visibility timeouts');
    const [poisoned] = await cards(page, 'poison-lane');
    assert.equal(poisoned.label, '#3');
    assert.match(poisoned.text, /lots/);
    assert.equal(await counter('poison'), 1);
    assert.equal(await momentDone('poisoned'), 'true');
    const moved = await logRows((r) => r.op === 'Put Message' && /orders-poison/.test(r.text));
    assert.equal(moved.length, 1);
    assert.equal(moved[0].status, '201');
    const gets = await logRows((r) => r.op === 'Get Messages' && /#3 DequeueCount=4/.test(r.text));
    assert.equal(gets.length, 1, 'moved on the dequeue that passed the threshold of 3');
    await settle();
    await screenshot(page, '4-poison-1280');
  });

  test('5 · scaling: the autoscaler adds workers as the queue grows; the chart shows it', async () => {
    await chooseScenario(page, 'autoscale');
    await setStep(page, 5);
    await stepTo(page, 45);
    const workers = await page.$$eval(
      '[data-testid=consumer]',
      (els) => els.filter((e) => e.dataset.state !== 'stopped').length,
    );
    assert.ok(workers >= 3, `the pool grew with the backlog (${workers} workers)`);
    assert.equal(await momentDone('scaled-up'), 'true');
    const chart = await page.$('[data-testid=queue-length-chart]');
    assert.ok(chart, 'the queue-length chart is drawn');
    assert.ok(
      Number(await chart.getAttribute('data-samples')) >= 45,
      'one sample per virtual second',
    );
    assert.ok(Number(await chart.getAttribute('data-peak')) >= 6, 'the burst built a backlog');
    const points = await attributeOf(page, '[data-testid=queue-length-chart] .total', 'points');
    assert.ok(points.split(' ').length >= 45);
    const metadata = await logRows((r) => r.op === 'Get Queue Metadata');
    assert.ok(metadata.length >= 8);
    assert.match(metadata[0].text, /x-ms-approximate-messages-count/);
    await screenshot(page, '5-scaling-1280');

    await setStep(page, 30);
    await stepTo(page, 150);
    assert.equal(await momentDone('scaled-down'), 'true');
    assert.ok(Number(await chart.getAttribute('data-peak-workers')) >= 3);
  });

  test('a scenario replays identically (seeded engine, virtual clock)', async () => {
    const run = async () => {
      await setStep(page, 10);
      await stepTo(page, 60);
      return logRows().then((rows) => rows.map((r) => r.text));
    };
    await chooseScenario(page, 'poison');
    const first = await run();
    await restart(page);
    const second = await run();
    assert.ok(first.length > 20);
    assert.deepEqual(second, first, 'same requests, same ids and receipts, same times');
    assert.equal(await elapsed(page), 60_000);
  });
});
