// The Node server's part of fault injection (docs/faults.md): `--throttle` and its numbers as
// the rule set the service starts with, and each injected fault as a line of the --debug log.
// The rules themselves, the limits and every decision are the wasm service's (rest::faults).

/** @import { QueueService, FaultRuleSet, QueueEvent } from '../../pkg/node/azqueue.js' */

/** Azure's scalability targets (src/engine/limits.rs): what `--throttle` alone sets. */
export const AZURE_LIMITS = { queueMessagesPerSecond: 2000, accountRequestsPerSecond: 20000 };

/** The usage text's lines for these options. */
export const THROTTLE_USAGE = `  --throttle                answer 503 ServerBusy past Azure's scalability targets, on the
                            queues' clock: 2,000 messages/s per queue, 20,000 requests/s per
                            account (docs/faults.md)
  --queueMessagesPerSecond N, --accountRequestsPerSecond N
                            --throttle with that limit instead of Azure's`;

/**
 * The rule set `QueueService.open({ faults })` starts with, from `--throttle`,
 * `--queueMessagesPerSecond` and `--accountRequestsPerSecond` (either number implies
 * --throttle); undefined when none is given. Returns a message instead when a number is bad.
 * @param {{ throttle?: boolean, queueMessagesPerSecond?: string | number,
 *   accountRequestsPerSecond?: string | number }} opts
 * @returns {{ faults?: FaultRuleSet, error?: string }}
 */
export function throttleOption(opts) {
  const names = /** @type {const} */ (['queueMessagesPerSecond', 'accountRequestsPerSecond']);
  if (!opts.throttle && names.every((name) => opts[name] === undefined)) return {};
  const limits = { ...AZURE_LIMITS };
  for (const name of names) {
    if (opts[name] === undefined) continue;
    const n = Number(opts[name]);
    if (!Number.isInteger(n) || n < 1 || n > 1e9) {
      return {
        error: `--${name} must be a whole number from 1 to 1000000000, not ${JSON.stringify(opts[name])}`,
      };
    }
    limits[name] = n;
  }
  return { faults: { limits } };
}

/**
 * One line per injected fault, for the --debug log: when (the queues' clock), what was asked,
 * which rule or limit, and what it did.
 * @param {Extract<QueueEvent, { type: 'fault' }>} event
 */
export function faultLine(event) {
  const where = [event.account, event.queue].filter(Boolean).join('/');
  const by = event.rule !== undefined ? `rule ${event.rule}` : `limit ${event.limit}`;
  const answer = event.status !== undefined ? `${event.status} ${event.code}` : 'its own answer';
  const extras = [
    event.delayMs > 0 ? `${event.delayMs} ms late` : '',
    event.drop ? `drop ${event.drop}` : '',
  ].filter(Boolean);
  return `${event.at.toISOString()} fault ${event.operation} ${where}: ${by}, ${event.when} the operation, ${answer}${extras.length ? ` (${extras.join(', ')})` : ''}\n`;
}

/**
 * Writes a line to `sink` for each fault the service injects, until the returned function is
 * called.
 * @param {Pick<QueueService, 'subscribe'>} service
 * @param {{ write(chunk: string): unknown }} sink
 * @returns {() => void}
 */
export function logFaults(service, sink) {
  return service.subscribe((event) => {
    if (event.type === 'fault') sink.write(faultLine(event));
  });
}
