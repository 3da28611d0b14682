// What the page says when a card changes by itself, with no call behind it (a delay over, a
// time-to-live out, a visibility timeout out), and when code on this origin (the SDK snippet)
// used a receipt: each said once, with the facts a moment or a question reads.

import { whyBack } from './narrator.js';

/** @import { Demo } from './demo.js' */
/** @import { Card } from './cards.js' */
/** @import { LogEntry } from './rest.js' */

/**
 * A scheduled message came due: its delay is over.
 * @param {Demo} w
 * @param {Card} card
 */
export function cameDue(w, card) {
  w.memory.comeDue(card.messageId);
  w.say(
    `${card.label} “${card.text}” was scheduled; its delay is over and consumers can see it now.`,
    'scheduled-visible',
    {
      label: card.label,
      call: null,
      facts: {
        label: card.label,
        messageId: card.messageId,
        delayS: (card.nextVisibleOn - card.insertedOn) / 1000,
      },
    },
  );
}

/**
 * A message reached its time-to-live.
 * @param {Demo} w
 * @param {Card} card
 */
export function expired(w, card) {
  w.history.add(card.messageId, { at: w.clock.now(), kind: 'expired' });
  w.say(
    `${card.label} “${card.text}” reached its time-to-live and expired, unprocessed.`,
    'expired',
    {
      label: card.label,
      call: null,
      facts: {
        label: card.label,
        ttlS: card.expiresOn ? (card.expiresOn - card.insertedOn) / 1000 : undefined,
      },
    },
  );
}

/**
 * A message is visible again by itself: said with why (its holder's lease ran out, or it let go).
 * @param {Demo} w
 * @param {Card} card
 */
export function reappeared(w, card) {
  const lease = w.memory.leaseOf(card.messageId);
  const holder = lease?.holder.name;
  const stillWorking = lease?.holder.holding?.messageId === card.messageId;
  const receipt = w.receipts.current(card.messageId)?.tag;
  const why = whyBack(
    lease && { holder: lease.holder.name, released: lease.released, stillWorking, receipt },
  );
  w.history.add(card.messageId, { at: w.clock.now(), kind: 'reappeared', why });
  w.say(
    `${card.label} “${card.text}” is visible again: ${why}. DequeueCount is ${card.dequeueCount}; the next receive makes it ${card.dequeueCount + 1}.`,
    'reappeared',
    {
      actor: holder,
      label: card.label,
      call: null,
      facts: {
        label: card.label,
        messageId: card.messageId,
        dequeueCount: card.dequeueCount,
        text: card.text,
        holder,
        released: lease?.released,
        stillWorking,
        receipt,
      },
    },
  );
}

/**
 * The snippet's receipts at work: a stale one refused, or a late one still current.
 * @param {Demo} w
 * @param {LogEntry} e
 */
export function relayed(w, e) {
  if (e.op !== 'Delete Message' && e.op !== 'Update Message') return;
  const label = w.label(/** @type {string} Delete and Update name one */ (e.messageId));
  const verb = e.op === 'Delete Message' ? 'delete' : 'update';
  const { presented, current } = e.receipt;
  if (e.status === 404 && presented && current && presented !== current) {
    w.say(
      `${e.actor}'s ${verb} of ${label} was refused (404 ${e.code}): it presented ${presented}, but the current receipt is ${current}.`,
      'stale-delete',
      {
        actor: e.actor,
        label,
        call: e.seq,
        facts: { actor: e.actor, label, presented, current, status: e.status, code: e.code },
      },
    );
  } else if (e.status < 300 && verb === 'delete') {
    w.say(`${e.actor} deleted ${label} with ${presented}, its current receipt.`, 'deleted', {
      actor: e.actor,
      label,
      call: e.seq,
      facts: { actor: e.actor, label, messageId: e.messageId, receipt: presented },
    });
  }
}
