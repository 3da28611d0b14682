'use strict';
// The package's Node entry (CommonJS; lib/node.mjs re-exports it for `import`): the wasm-bindgen
// Node glue, which loads and instantiates the module synchronously as it is required, plus
// `service.httpClient()`. `init()` exists so code shared with browsers can call it; here it has
// nothing left to do.

const glue = require('../pkg/node/azqueue.js');
const { installHttpClient } = require('./http-client.cjs');

installHttpClient(glue.QueueService);

module.exports = {
  ...glue,
  init: () => Promise.resolve(),
};
