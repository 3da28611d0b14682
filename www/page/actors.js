// The actors, in one place for the page's other modules: producers that send, consumers that
// receive → work → delete, a lease-renewing worker that saves its progress with Update Message,
// and an autoscaler that sizes the pool by queue length. They run on the virtual clock's timers
// and talk to the engine only through the REST client, so every move they make is in the HTTP
// log. Their shared life cycle is actor.js's; each kind has its own file.

export { Consumer } from './consumer.js';
export { LeaseWorker } from './lease-worker.js';
export { Producer } from './producer.js';
export { Autoscaler } from './autoscaler.js';

/**
 * @typedef {import('./consumer.js').Consumer | import('./lease-worker.js').LeaseWorker
 *   | import('./producer.js').Producer | import('./autoscaler.js').Autoscaler} AnyActor
 * @typedef {import('./actor.js').Outcome} Outcome
 * @typedef {import('./actor.js').Held} Held
 * @typedef {import('./lease-worker.js').LeaseHolding} LeaseHolding
 * @typedef {import('./consumer.js').ConsumerHolding} ConsumerHolding
 */
