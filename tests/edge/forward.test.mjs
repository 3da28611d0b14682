// How the edge Worker hands a request to its object (hosts/edge/forward.mjs), without workerd:
// which requests go as the client sent them, and that every other copy carries the Worker's
// internal headers and none of a client's.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CORS, forwardsAsSent, internalRequest, ROUTE } from '../../hosts/edge/forward.mjs';

const URL_ = 'http://127.0.0.1:8787/acct/orders/messages';
/** @type {{ kind: 'queue', account: string, queue: string, changesRecord: boolean }} */
const PUT = { kind: 'queue', account: 'acct', queue: 'orders', changesRecord: false };

/**
 * @param {Record<string, string>} headers
 * @param {string} [method]
 */
const request = (headers, method = 'POST') =>
  new Request(URL_, { method, headers, body: method === 'POST' ? '<QueueMessage/>' : null });

test('a request that changes no record and has no Origin goes as it came', () => {
  assert.equal(forwardsAsSent(request({ 'x-ms-version': '2021-12-02' }), PUT), true);
  // Other headers with the internal prefix are the object's to ignore (serve.mjs), not trusted.
  assert.equal(forwardsAsSent(request({ 'x-azqueue-edge-other': '1' }), PUT), true);
});

test('any other request is copied', () => {
  assert.equal(forwardsAsSent(request({}), { ...PUT, changesRecord: true }), false);
  assert.equal(forwardsAsSent(request({ origin: 'http://a.example' }), PUT), false);
  assert.equal(forwardsAsSent(request({ 'X-Azqueue-Edge-Route': '{}' }), PUT), false);
  assert.equal(forwardsAsSent(request({ [CORS]: '[]' }), PUT), false);
  assert.equal(forwardsAsSent(request({}), { kind: 'directory', account: 'acct' }), false);
  assert.equal(forwardsAsSent(request({}), { kind: 'none' }), false);
});

test("the copy has the Worker's internal headers and none of the client's", async () => {
  const sent = request(
    {
      'x-ms-version': '2021-12-02',
      'X-Azqueue-Edge-Route': '{"forged":true}',
      [CORS]: '[{"allowedOrigins":"*"}]',
      'x-azqueue-edge-other': '1',
      origin: 'http://a.example',
      // No body: Node's Request (unlike workerd's) will not take another's stream without
      // `duplex`; the bodies the Worker forwards are the edge suites' to show.
    },
    'DELETE',
  );
  const copy = internalRequest(sent, PUT, []);
  assert.equal(copy.method, 'DELETE');
  assert.equal(copy.url, URL_);
  assert.deepEqual(JSON.parse(/** @type {string} */ (copy.headers.get(ROUTE))), PUT);
  assert.equal(copy.headers.get(CORS), '[]');
  assert.equal(copy.headers.get('x-azqueue-edge-other'), null);
  assert.equal(copy.headers.get('x-ms-version'), '2021-12-02');
  assert.equal(copy.headers.get('origin'), 'http://a.example');

  const noOrigin = internalRequest(request({ [CORS]: '[]' }, 'DELETE'), PUT);
  assert.equal(noOrigin.headers.get(CORS), null);
});

test('a GET or HEAD is copied without a body', () => {
  const get = new Request(URL_, { method: 'GET', headers: { 'content-length': '0' } });
  assert.equal(internalRequest(get, PUT).body, null);
});
