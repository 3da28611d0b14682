// The selected message, whole: its text uncut, its state and DequeueCount, when it was inserted,
// when it is next visible and when it expires (each as a time and as a distance from the
// server's now), its whole current pop receipt, and for a message moved to a poison queue where
// it came from. What a card cannot hold.

import { formatDuration } from '../page/clock.js';
import { setAttr, setText } from '../page/dom.js';

/** @import { InspectedMessage } from './api.js' */

/**
 * A distance in time as a reader takes it in: days and hours, hours and minutes, or the page's
 * minutes and seconds under an hour.
 * @param {number} ms
 */
function distance(ms) {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return formatDuration(ms);
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/**
 * `at` as a UTC time and how far it is from `now`.
 * @param {number} at ms since the epoch
 * @param {number} now
 */
export function when(at, now) {
  const far = at > now ? `in ${distance(at - now)}` : `${distance(now - at)} ago`;
  const time = new Date(at)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  return at === now ? `${time} (now)` : `${time} (${far})`;
}

/**
 * Fills the detail's elements with `m` (hidden without one).
 * @param {ReturnType<typeof import('./layout.js').layout>} ui
 * @param {InspectedMessage | undefined} m
 * @param {number} now the server's now
 */
export function showDetail(ui, m, now) {
  ui.detail.hidden = !m;
  if (!m) return;
  setText(ui.detailId, m.messageId);
  setText(ui.detailText, m.messageText);
  const scheduled = m.state === 'invisible' && m.dequeueCount === 0;
  setText(ui.detailMeta, `${scheduled ? 'scheduled' : m.state} · DequeueCount ${m.dequeueCount}`);
  setText(ui.detailInserted, when(m.insertedOn, now));
  setText(ui.detailNextVisible, when(m.nextVisibleOn, now));
  setText(ui.detailExpires, m.expiresOn === null ? 'never' : when(m.expiresOn, now));
  setText(ui.detailReceipt, m.popReceipt);
  const origin = m.origin;
  ui.detailOrigin.hidden = !origin;
  setAttr(ui.detailOrigin, 'data-origin-queue', origin?.queue);
  setAttr(ui.detailOrigin, 'data-origin-id', origin?.messageId);
  setAttr(ui.detailOrigin, 'data-origin-dequeue-count', origin?.dequeueCount);
  if (origin)
    setText(
      ui.detailOrigin,
      `Moved here from ${origin.queue} (message ${origin.messageId}), ` +
        `where its DequeueCount had reached ${origin.dequeueCount}.`,
    );
}
