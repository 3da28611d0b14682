// The page's status lines: which store the engine runs on (and what a reload restored), why the
// link the page was opened from could not be followed, and where the service worker stands.

import { $, setAttr, setText } from './dom.js';

/** @import { Demo } from './demo.js' */

/**
 * Which store the engine runs on, and what a reload or a link restored.
 * @param {Demo} demo
 * @param {string} [restored]
 */
export function showStore(demo, restored) {
  const engine = `Engine running in this tab (Rust → WebAssembly) · ${demo.store} store${demo.store === 'indexeddb' ? ' (relaxed)' : ''}`;
  const tail = restored ?? (demo.store === 'memory' ? 'a reload replays your session' : undefined);
  setText($('store'), tail ? `${engine} · ${tail}` : engine);
  setAttr($('store'), 'data-store', demo.store);
  setAttr($('store'), 'title', demo.storeNote || '');
}

/**
 * Says on top of the page why the link it was opened from could not be followed.
 * @param {string} why
 */
export function showLinkProblem(why) {
  const out = $('link-problem');
  setText(out, why);
  out.hidden = false;
}

/**
 * Where the service worker that forwards the SDK snippet's requests stands.
 * @param {string} state
 * @param {string} [detail]
 */
export function showBridge(state, detail) {
  document.body.dataset.sw = state;
  const out = $('sw-status');
  if (!out) return;
  /** @type {Record<string, string>} */
  const says = {
    registering: 'Starting the service worker…',
    forwarding: `Service worker ready: requests to ${location.origin}/devstoreaccount1/… from this tab reach the queue drawn above.`,
  };
  const text = says[state] ?? detail ?? '';
  setText(out, text);
  setAttr(out, 'data-bridge', state);
}
