// Pop receipts made visible: every receipt a message is issued is tagged r1, r2, … and the tag
// shows on the card, on the consumer holding it, and in the HTTP log rows that issued and
// presented it; a refused delete says which receipt was presented and which is current; a late
// delete that still works is narrated too. The receipts themselves come from the wasm engine.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseScenario, onePageSuite, screenshot, setStep, stepTo, textOf } from './harness.mjs';

/** @typedef {import('./harness.mjs').LogRow} LogRow */

/** @type {import('playwright-core').Page} */
let page;
onePageSuite((p) => (page = p));

/** @param {string} label */
const card = async (label) => {
  const el = await page.$(`[data-testid=queue-lane] [data-testid=message][data-label="${label}"]`);
  assert.ok(el, `no card ${label}`);
  return el;
};
/** @param {(row: LogRow) => boolean} filter */
const rows = (filter) =>
  page
    .$$eval('[data-testid=http-log] li', (/** @type {HTMLElement[]} */ els) =>
      els.map((r) => /** @type {LogRow} */ ({ ...r.dataset, text: r.textContent })),
    )
    .then((all) => all.filter(filter));
const narration = () =>
  page.$$eval('[data-testid=narration] li', (els) => els.map((r) => r.textContent ?? ''));

describe('receipts you can see', () => {
  test('scenario 1: r1 and r2 on the card, on the consumers and in the log; the refused delete explains itself', async () => {
    await chooseScenario(page, 'slow-consumer');
    await setStep(page, 1);
    await stepTo(page, 3);
    assert.equal(await (await card('#2')).getAttribute('data-receipt'), 'r1');
    assert.equal(await (await card('#2')).$eval('.rcpt', (e) => e.textContent), 'r1');
    assert.match(
      await textOf(page, '[data-testid=consumer][data-name=Bob] .holds'),
      /^holds r1 of #2$/,
    );
    const [bobGet] = await rows((r) => r.actor === 'Bob' && r.op === 'Get Messages');
    assert.equal(bobGet.receiptIssued, 'r1');
    assert.match(bobGet.text, /#2 DequeueCount=1.*issued r1/);

    await stepTo(page, 38);
    assert.equal(await (await card('#2')).getAttribute('data-receipt'), 'r2');
    assert.match(
      await (await card('#2')).$eval('.state', (e) => e.textContent ?? ''),
      /Ann holds r2/,
    );
    assert.match(
      await textOf(page, '[data-testid=consumer][data-name=Ann] .holds'),
      /^holds r2 of #2$/,
    );
    assert.match(
      await textOf(page, '[data-testid=consumer][data-name=Bob] .holds'),
      /^holds r1 of #2$/,
      'Bob still thinks he holds it',
    );
    const annGet = (await rows((r) => r.actor === 'Ann' && r.op === 'Get Messages')).find((r) =>
      /#2 DequeueCount=2/.test(r.text),
    );
    assert.equal(annGet?.receiptIssued, 'r2');

    await stepTo(page, 43);
    const [refused] = await rows((r) => r.actor === 'Bob' && r.op === 'Delete Message');
    assert.equal(refused.status, '404');
    assert.equal(refused.receiptPresented, 'r1');
    assert.match(refused.text, /popreceipt=r1/);
    assert.match(refused.text, /#2 not deleted: r1 is not the current receipt r2/);
    assert.match(
      await textOf(page, '[data-testid=consumer][data-name=Bob] .outcome'),
      /404 MessageNotFound · r1 is not the current r2/,
    );
    const told = (await narration()).find((l) => /Bob finished #2 too late/.test(l));
    assert.ok(told, (await narration()).join('\n'));
    assert.match(told, /presented receipt r1, but the current receipt is r2, issued to Ann/);
    await page.waitForTimeout(1700);
    await screenshot(page, 'receipts-refused-delete-1280');

    const annDelete = (await rows((r) => r.actor === 'Ann' && r.op === 'Delete Message')).find(
      (r) => /deleted #2/.test(r.text),
    );
    if (annDelete)
      assert.equal(annDelete.receiptPresented, 'r2', 'Ann deletes with the current receipt');
  });

  test('scenario 2: Update Message presents one receipt and is issued the next', async () => {
    await chooseScenario(page, 'lease');
    await setStep(page, 1);
    await stepTo(page, 22);
    const [update] = await rows((r) => r.op === 'Update Message');
    assert.equal(update.status, '204');
    assert.equal(update.receiptPresented, 'r1');
    assert.equal(update.receiptIssued, 'r2');
    assert.match(update.text, /x-ms-popreceipt: r2/);
    assert.equal(await (await card('#1')).getAttribute('data-receipt'), 'r2');
    assert.match(
      await textOf(page, '[data-testid=lease-worker][data-name="Encoder A"] .holds'),
      /holds r2 of #1/,
    );
  });

  test('a late delete that works is narrated: nobody received the message since, so the receipt was still current', async () => {
    await chooseScenario(page, 'scheduled');
    const work = '[data-testid=consumer][data-name=Cy] .num:nth-child(1) input';
    await page.fill(work, '40');
    await page.$eval(work, (el) => el.dispatchEvent(new Event('change')));
    await setStep(page, 5);
    await stepTo(page, 70);
    const [del] = await rows((r) => r.actor === 'Cy' && r.op === 'Delete Message');
    assert.equal(del.status, '204');
    assert.equal(del.receiptPresented, 'r1');
    const told = (await narration()).find((l) =>
      /after its visibility timeout had run out, and it worked/.test(l),
    );
    assert.ok(told, (await narration()).join('\n'));
    assert.match(told, /r1 was still its current receipt/);
  });
});
