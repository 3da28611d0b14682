// Which server the inspector looks at, and what it says when that server is an edge runner: the
// page's own origin or `?server=<url>`'s, and for an edge Worker (hosts/edge, one Durable Object
// per queue: no list of queues, event stream, clock or actions, and no other origin may read
// it) a sentence saying so and the one read it does serve.

import { h } from '../page/dom.js';

/**
 * The server this page inspects: `?server=<url>`'s origin, else the page's own. `null` when
 * `server` is not an http(s) URL.
 * @param {string} href the page's URL
 * @returns {string | null}
 */
export function targetOf(href) {
  const given = new URL(href).searchParams.get('server');
  if (!given) return new URL(href).origin;
  try {
    const url = new URL(given);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * What the page says of an edge runner at `base`, which described itself as `why`.
 * @param {string} base
 * @param {string} account
 * @param {string} why
 */
export function edgeNote(base, account, why) {
  const example = `${base}/_azqueue/inspect/${account}/<queue>`;
  return [
    h('p', {
      text:
        `${base} is an edge runner (hosts/edge/dev.mjs): each queue lives in its own ` +
        'Durable Object, so it has no list of queues, no event stream, no clock to move and ' +
        'none of the inspector’s actions, and it lets no page of another origin read it. ' +
        `It says: “${why}”`,
    }),
    h('p', {}, 'What it serves, one whole queue at a time: ', h('code', { text: example })),
    h('pre', { 'data-testid': 'edge-command', text: `curl ${example}` }),
  ];
}
