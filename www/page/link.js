// Shareable moments: `?scenario=<id>&t=<seconds>` opens a scenario paused at that time; `to=`
// says how far its timeline had run (so the rewind slider reaches the same future), and `a=`
// carries the actions taken on the page (base64url JSON), so a forked moment opens as forked.
// The engine is seeded and the clock virtual, so the same link shows the same picture anywhere.
// The address bar keeps the current moment, so a reload or a bookmark opens it too.

import { isScenario } from './scenarios.js';

/** @import { RecordedAction } from './actions.js' */

/**
 * A moment as a link says it.
 * @typedef {{ scenario: string, t: number, to: number, actions: RecordedAction[] }} Moment
 *   t and to in ms since scenario time zero
 */

const DAY_S = 24 * 3600;

/**
 * The moment a URL asks for, or null when it asks for none (or a bad one).
 * @param {string} href
 * @param {(id: string) => boolean} [known] the scenarios there are (a link's own one too)
 * @returns {Moment | null}
 */
export function momentFromUrl(href, known = isScenario) {
  const params = new URL(href).searchParams;
  const scenario = params.get('scenario');
  if (!scenario || !known(scenario)) return null;
  const t = seconds(params.get('t'));
  return {
    scenario,
    t,
    to: Math.max(t, seconds(params.get('to'))),
    actions: decodeActions(params.get('a')),
  };
}

/** @param {string | null} value */
function seconds(value) {
  const s = Number(value ?? 0);
  return Number.isFinite(s) && s > 0 ? Math.round(Math.min(s, DAY_S) * 1000) : 0;
}

/**
 * The link to a moment, on this page's address.
 * @param {string} href
 * @param {{ scenario: string, elapsed: number, reached?: number,
 *   actions?: RecordedAction[], extra?: Record<string, string> }} moment ms since scenario time
 *   zero; `extra`, parameters of its own (an edited scenario's `sc` and `mode`)
 */
export function linkTo(href, { scenario, elapsed, reached = 0, actions = [], extra = {} }) {
  const url = new URL(href);
  url.search = '';
  url.hash = '';
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  url.searchParams.set('scenario', scenario);
  const t = tenths(elapsed);
  url.searchParams.set('t', t);
  if (tenths(reached) !== t && reached > elapsed) url.searchParams.set('to', tenths(reached));
  if (actions.length) url.searchParams.set('a', encodeActions(actions));
  return url.href;
}

/** @param {number} ms */
const tenths = (ms) => String(Math.round(ms / 100) / 10);

/** @param {RecordedAction[]} actions */
export function encodeActions(actions) {
  const bytes = new TextEncoder().encode(JSON.stringify(actions));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The actions a link carries; anything that does not read as a list of actions is ignored.
 * @param {string | null} text
 * @returns {RecordedAction[]}
 */
export function decodeActions(text) {
  if (!text) return [];
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const list = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))),
    );
    if (!Array.isArray(list)) return [];
    return list.filter(
      (a) => a && typeof a === 'object' && typeof a.type === 'string' && Number.isFinite(a.at),
    );
  } catch {
    return [];
  }
}

/**
 * Wires "copy link to this moment"; says what it copied.
 * @param {{ button: HTMLElement, status: HTMLElement }} elements
 * @param {() => { scenario: string, elapsed: number, reached: number,
 *   actions: RecordedAction[], extra?: Record<string, string> }} current
 */
export function bindCopyLink({ button, status }, current) {
  button.addEventListener('click', async () => {
    const moment = current();
    const link = linkTo(location.href, moment);
    status.dataset.link = link;
    const n = moment.actions.length;
    const note = n ? ` (with your ${n} action${n === 1 ? '' : 's'})` : '';
    try {
      await navigator.clipboard.writeText(link);
      status.textContent = `Copied${note}.`;
    } catch {
      // Clipboard refused (insecure origin, no permission): show the link to copy by hand.
      status.textContent = `${link}${note}`;
    }
  });
}
