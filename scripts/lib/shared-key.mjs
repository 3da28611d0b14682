// The development account and the SharedKey signer that tests and benchmarks share when they
// write HTTP by hand (the SDKs sign their own requests).

import crypto from 'node:crypto';

export const DEV_ACCOUNT = 'devstoreaccount1';
export const DEV_KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
/** The x-ms-version that hand-written requests send: the page's, the newest the server speaks. */
export { API_VERSION } from '../../www/page/rest.js';

const KEY = Buffer.from(DEV_KEY, 'base64');

/**
 * The connection string of the development account at `origin` (path-style, as Azurite's).
 * @param {string} origin e.g. `http://127.0.0.1:8787`, with or without a trailing slash
 */
export function devConnectionString(origin) {
  const endpoint = new URL(DEV_ACCOUNT, origin.replace(/\/?$/, '/')).href;
  return `DefaultEndpointsProtocol=http;AccountName=${DEV_ACCOUNT};AccountKey=${DEV_KEY};QueueEndpoint=${endpoint};`;
}

/**
 * The SharedKey `Authorization` value for a request written by hand: `headers` are lower-case
 * names → values, `query` names are compared lower-cased; path-style resource, as the SDKs sign.
 * @param {string} method
 * @param {string} path
 * @param {string | Record<string, string> | [string, string][]} query as URLSearchParams takes it
 * @param {Record<string, string>} headers
 */
export function sharedKey(method, path, query, headers) {
  const h = (/** @type {string} */ name) => headers[name] ?? '';
  const length = h('content-length') === '0' ? '' : h('content-length');
  const xms = Object.keys(headers)
    .filter((k) => k.startsWith('x-ms-'))
    .sort()
    .map((k) => `${k}:${headers[k]}\n`)
    .join('');
  const params = [...new URLSearchParams(query)]
    .map(([k, v]) => [k.toLowerCase(), v])
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `\n${k}:${v}`)
    .join('');
  const toSign =
    [
      method,
      h('content-encoding'),
      h('content-language'),
      length,
      h('content-md5'),
      h('content-type'),
      '',
      h('if-modified-since'),
      h('if-match'),
      h('if-none-match'),
      h('if-unmodified-since'),
      h('range'),
    ].join('\n') + `\n${xms}/${DEV_ACCOUNT}${path}${params}`;
  return `SharedKey ${DEV_ACCOUNT}:${crypto.createHmac('sha256', KEY).update(toSign, 'utf8').digest('base64')}`;
}
